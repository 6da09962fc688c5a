"""The context budget: snippet sizes in the manifest and on the shape page, and `check` failing when one grows past it."""

from __future__ import annotations

import json
import math

import pytest

from conftest import write_tree

SEED_CONFIG = "contracts:\n  - path: contracts/return-shapes.md\n    shared: [shared-forms, traversal-rules]\n"


@pytest.fixture
def seed_project(seeds, tmp_path, run_cli):
    root = write_tree(
        tmp_path / "p",
        {"contractc.yaml": SEED_CONFIG, "contracts/return-shapes.md": (seeds / "return-shapes.md").read_bytes()},
    )
    assert run_cli("build", "--root", str(root)).code == 0
    return root


def manifest(root) -> dict[str, dict]:
    entries = json.loads((root / "prompts/manifest.json").read_text("utf-8"))["snippets"]
    return {e["shape"]: e for e in entries}


def test_the_manifest_records_each_snippets_bytes_estimated_tokens_and_section_sizes(seed_project):
    entries = manifest(seed_project)
    assert set(entries) == {"consultationreturn", "auditreturn", "editplanreturn"}
    contract = (seed_project / "contracts/return-shapes.md").read_bytes()
    for shape, entry in entries.items():
        data = (seed_project / entry["path"]).read_bytes()
        assert entry["bytes"] == len(data)
        assert entry["tokens_estimate"] == math.ceil(len(data) / 4)  # the documented estimate
        assert list(entry["section_bytes"]) == entry["sections"]
        assert sum(entry["section_bytes"].values()) == len(data)  # the snippet is exactly its sections
    # the shared sections weigh the same in every snippet
    assert len({e["section_bytes"]["shared-forms"] for e in entries.values()}) == 1
    assert entries["auditreturn"]["section_bytes"]["shared-forms"] < len(contract)


def test_a_snippet_over_its_agents_budget_fails_check_at_the_section_that_grew(seed_project, run_cli):
    sizes = manifest(seed_project)
    audit = max(sizes["auditreturn"]["tokens_estimate"], sizes["editplanreturn"]["tokens_estimate"])
    write_tree(
        seed_project,
        {"contractc.yaml": SEED_CONFIG + f"budgets:\n  agents:\n    design-auditor: {audit + 40}\n"},
    )
    assert run_cli("check", "--root", str(seed_project)).code == 0  # within budget
    # Traversal rules (a shared section) grows by ~600 bytes: every snippet of design-auditor is over.
    path = seed_project / "contracts/return-shapes.md"
    text = path.read_text("utf-8")
    grown = text.replace("## ConsultationReturn", "Always re-read the brief before answering.\n" * 14 + "\n## ConsultationReturn", 1)
    path.write_text(grown, "utf-8")
    result = run_cli("check", "--root", str(seed_project), "--no-diff")
    assert result.code == 1
    over = [line for line in result.out.splitlines() if "error[over-budget]" in line]
    assert len(over) == 2  # AuditReturn and EditPlanReturn go to design-auditor; ConsultationReturn has no budget
    line = text[: text.index("## Traversal rules")].count("\n") + 1
    assert over[0].startswith(f"contracts/return-shapes.md:{line}:1: error[over-budget]: the dispatch snippet of auditreturn for design-auditor is ~")
    assert f"over its budget of {audit + 40} ($.budgets.agents.design-auditor, contractc.yaml:6); section 'traversal-rules' grew the most" in over[0]
    assert "more: `contractc explain over-budget`" in result.out


def test_a_per_snippet_budget_is_located_at_the_shapes_section_when_nothing_was_recorded(seed_project, run_cli):
    tokens = manifest(seed_project)["consultationreturn"]["tokens_estimate"]
    write_tree(
        seed_project,
        {"contractc.yaml": SEED_CONFIG + f"budgets:\n  shapes:\n    consultationreturn: {tokens - 1}\n"},
    )
    (seed_project / "prompts/manifest.json").unlink()  # no record of the last build
    result = run_cli("check", "--root", str(seed_project), "--no-diff", "--format", "json")
    assert result.code == 1
    found = [d for d in json.loads(result.out)["diagnostics"] if d["code"] == "over-budget"]
    text = (seed_project / "contracts/return-shapes.md").read_text("utf-8")
    assert [(d["path"], d["line"]) for d in found] == [
        ("contracts/return-shapes.md", text[: text.index("## ConsultationReturn")].count("\n") + 1)
    ]
    assert f"~{tokens} tokens" in found[0]["message"] and f"budget of {tokens - 1}" in found[0]["message"]


def test_the_smaller_of_two_budgets_applies(seed_project, run_cli):
    tokens = manifest(seed_project)["auditreturn"]["tokens_estimate"]
    write_tree(
        seed_project,
        {
            "contractc.yaml": SEED_CONFIG
            + f"budgets:\n  agents:\n    design-auditor: {tokens * 2}\n  shapes:\n    auditreturn: {tokens - 10}\n"
        },
    )
    result = run_cli("check", "--root", str(seed_project), "--no-diff")
    assert result.code == 1
    assert "auditreturn for design-auditor" in result.out and "$.budgets.shapes.auditreturn" in result.out
    assert "editplanreturn" not in result.out


def test_a_budget_that_is_not_a_positive_count_is_a_located_config_error(seed_project, run_cli):
    write_tree(seed_project, {"contractc.yaml": SEED_CONFIG + "budgets:\n  agents:\n    design-auditor: lots\n"})
    result = run_cli("check", "--root", str(seed_project))
    assert result.code == 2
    assert result.err.startswith("contractc.yaml:6:5: error[config-invalid]: $.budgets.agents.design-auditor: 'lots' is not of type 'integer'")


def test_a_manifest_that_is_a_symbolic_link_out_of_the_project_is_never_read(seed_project, run_cli, tmp_path):
    """The last build's section sizes are read back like every generated file: never through a link."""
    from contractc.drift.budgets import find_over_budget
    from contractc.load import load_project

    tokens = manifest(seed_project)["consultationreturn"]["tokens_estimate"]
    write_tree(
        seed_project,
        {"contractc.yaml": SEED_CONFIG + f"budgets:\n  shapes:\n    consultationreturn: {tokens - 1}\n"},
    )
    # A file outside the project claiming that the shared traversal rules were empty at the last build:
    # read, it would move the message to that section.
    recorded = json.loads((seed_project / "prompts/manifest.json").read_text("utf-8"))
    for entry in recorded["snippets"]:
        entry["section_bytes"] = {name: 0 if name == "traversal-rules" else size for name, size in entry["section_bytes"].items()}
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(recorded), "utf-8")
    (seed_project / "prompts/manifest.json").unlink()
    (seed_project / "prompts/manifest.json").symlink_to(outside)

    [over] = find_over_budget(load_project(seed_project))
    text = (seed_project / "contracts/return-shapes.md").read_text("utf-8")
    assert over.line == text[: text.index("## ConsultationReturn")].count("\n") + 1  # the shape's own section
    assert "section 'consultationreturn' grew the most" in over.message
    result = run_cli("check", "--root", str(seed_project), "--no-diff")
    assert result.code == 2 and "error[unsafe-path]" in result.out + result.err
