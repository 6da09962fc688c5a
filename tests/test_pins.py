"""Pins: a contract pinned to a sha256 fails check once its bytes move on, naming the sections that changed."""

from __future__ import annotations

import hashlib
import json

from conftest import write_tree
from region_project import BRIEFS, RETURNS, project_files

SHA = hashlib.sha256(RETURNS.encode()).hexdigest()


def pinned(sha: str) -> str:
    return f"contracts:\n  - path: contracts/returns.md\n    shared: [shared-forms]\n    sha256: {sha}\n  - path: contracts/briefs.md\n"


def test_matching_pin_is_clean_and_its_sections_are_recorded(tmp_path, run_cli):
    root = write_tree(tmp_path, project_files(**{"contractc.yaml": pinned(SHA)}))
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root)).code == 0
    record = json.loads((root / "prompts/manifest.json").read_text())["pins"]["contracts/returns.md"]
    assert record["sha256"] == SHA
    assert list(record["sections"]) == ["returns", "overview", "shared-forms", "echoreturn", "pingreturn"]


def test_moved_contract_fails_check_and_names_the_changed_sections(tmp_path, run_cli):
    root = write_tree(tmp_path, project_files(**{"contractc.yaml": pinned(SHA)}))
    run_cli("build", "--root", str(root))
    changed = RETURNS.replace("Every return starts", "Each return starts") + "## Extra\n\nNew.\n"
    (root / "contracts/returns.md").write_text(changed)
    build = run_cli("build", "--root", str(root))
    assert build.code == 1  # snippets are rebuilt, the broken pin still fails
    new = hashlib.sha256(changed.encode()).hexdigest()
    result = run_cli("check", "--root", str(root))
    assert result.code == 1
    assert result.out.splitlines()[:2] == [
        f"contractc.yaml:4:5: error[drift-pin]: contracts/returns.md no longer matches its pin sha256 {SHA[:12]}: sections changed since: shared-forms; added: extra",
        f"  hint: review the change, then pin the new bytes: sha256: {new}; more: `contractc explain drift-pin`",
    ]
    (root / "contractc.yaml").write_text(pinned(new))
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root)).code == 0


def test_without_a_record_the_changed_sections_are_unknown(tmp_path, run_cli):
    root = write_tree(tmp_path, project_files(**{"contractc.yaml": pinned("f" * 64)}))
    result = run_cli("check", "--root", str(root), "--no-diff")
    assert result.code == 1
    assert (
        "contractc.yaml:4:5: error[drift-pin]: contracts/returns.md no longer matches its pin sha256 ffffffffffff: "
        "which sections changed is unknown: prompts/manifest.json holds no record of the pinned bytes"
    ) in result.out


def test_unpinned_projects_keep_the_manifest_without_pins(tmp_path, run_cli):
    root = write_tree(tmp_path, project_files())
    run_cli("build", "--root", str(root))
    assert "pins" not in json.loads((root / "prompts/manifest.json").read_text())
    assert BRIEFS  # the second contract is never pinned here
