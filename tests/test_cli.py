"""build / check / hash as a user runs them: exit codes, messages, no writes on failure."""

from __future__ import annotations

import os

import pytest

from conftest import ECHO_CONFIG as CONFIG
from conftest import ECHO_CONTRACT as CONTRACT
from conftest import REPO, fail_nth_replace, snapshot, write_tree



@pytest.fixture
def project(tmp_path):
    return write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/c.md": CONTRACT})


def test_build_then_check_is_clean_and_second_build_writes_nothing(project, run_cli):
    first = run_cli("build", "--root", str(project))
    assert first.code == 0
    assert "wrote prompts/echoer/echoreturn.md" in first.out
    def stamps() -> dict:  # every file and folder, .contractc/ (journal, record of what build wrote) included
        # but the .contractc folder's own mtime: the run lock is a file made and removed there by every build
        return {p: os.stat(p).st_mtime_ns for p in sorted(project.rglob("*")) if p.name != ".contractc"}

    before = stamps()
    second = run_cli("build", "--root", str(project))
    assert second.code == 0 and second.out == "contractc: 0 written, 2 already current\n"
    assert before == stamps()
    check = run_cli("check", "--root", str(project))
    assert (check.code, check.out) == (0, "contractc: 2 files checked, all current\n")


def test_check_reports_edited_snippet_with_line_diff_and_fix_and_never_writes(project, run_cli):
    run_cli("build", "--root", str(project))
    snippet = project / "prompts/echoer/echoreturn.md"
    snippet.write_bytes(snippet.read_bytes().replace(b"Read me.", b"Read me, edited."))
    before = snapshot(project)
    result = run_cli("check", "--root", str(project))
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0] == "prompts/echoer/echoreturn.md:3:1: error[drift-output]: differs from what the contracts compile to"
    assert "-Read me, edited." in lines and "+Read me." in lines
    assert lines[-1] == "contractc: 1 drifted, 2 checked; run `contractc build` to fix"
    assert snapshot(project) == before


def test_orphan_in_output_folder_is_drift_and_build_removes_it(project, run_cli):
    run_cli("build", "--root", str(project))
    (project / "contracts/c.md").write_text(CONTRACT.replace("`echoer`", "`teller`"))
    result = run_cli("check", "--root", str(project), "--no-diff")
    assert result.code == 1
    assert "prompts/echoer/echoreturn.md: error[drift-orphan]: no contract produces this file any more" in result.out
    assert "removed prompts/echoer/echoreturn.md" in run_cli("build", "--root", str(project)).out
    assert not (project / "prompts/echoer/echoreturn.md").exists()


def test_build_never_removes_a_file_it_did_not_write(project, run_cli):
    run_cli("build", "--root", str(project))
    write_tree(project, {"prompts/gone/old.md": "a person's notes\n"})
    result = run_cli("check", "--root", str(project), "--no-diff")
    assert result.code == 1
    assert "prompts/gone/old.md: error[drift-orphan]: no contract produces this file, and contractc has no record of writing it" in result.out
    build = run_cli("build", "--root", str(project))
    assert build.code == 1 and "removed" not in build.out
    assert "build removes only files it wrote: remove it by hand" in build.err
    assert (project / "prompts/gone/old.md").read_text() == "a person's notes\n"


def test_build_never_removes_a_file_it_wrote_once_a_person_edited_it(project, run_cli):
    run_cli("build", "--root", str(project))
    (project / "prompts/echoer/echoreturn.md").write_text("edited by hand\n")
    (project / "contracts/c.md").write_text(CONTRACT.replace("`echoer`", "`teller`"))
    build = run_cli("build", "--root", str(project))
    assert build.code == 1 and "removed" not in build.out
    assert (project / "prompts/echoer/echoreturn.md").read_text() == "edited by hand\n"


def test_bad_input_exits_2_with_located_message_and_no_traceback(project, run_cli):
    (project / "contracts/c.md").write_text(CONTRACT + "\n## Shared\n")
    for command in ("build", "check"):
        result = run_cli(command, "--root", str(project))
        assert result.code == 2
        assert "contracts/c.md:19:1: error[duplicate-anchor]: anchor 'shared' is already used by the heading on line 3" in result.err
        assert "Traceback" not in result.err
    assert not (project / "prompts").exists()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("contracts: []\n", "contractc.yaml:1:1: error[config-invalid]: $.contracts: [] should be non-empty"),
        ("contracts:\n  - path: contracts/c.md\n    sharde: [x]\n", "contractc.yaml:3:5: error[config-invalid]: $.contracts[0].sharde: unknown key 'sharde'"),
        ("contracts:\n  - path: nope.md\n", "contractc.yaml:2:5: error[file-missing]: nope.md does not exist"),
        ("contracts:\n  - path: ../outside.md\n", "contractc.yaml:2:5: error[unsafe-path]: path '../outside.md' contains '..'"),
        ("contracts:\n  - path: contracts/c.md\n    shared: [nope]\n", "contractc.yaml:3:5: error[unknown-section]: shared section 'nope' is not an anchor of contracts/c.md"),
        ("contracts: [\n", "contractc.yaml:2:1: error[config-syntax]"),
    ],
)
def test_config_errors_are_located_and_exit_2(project, run_cli, config, message):
    (project / "contractc.yaml").write_text(config)
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert result.err.startswith(message), result.err


def test_missing_config_and_usage_errors_exit_2(tmp_path, run_cli):
    result = run_cli("check", "--root", str(tmp_path))
    assert result.code == 2 and "error[config-missing]" in result.err
    assert run_cli("frobnicate").code == 2
    assert run_cli("hash").code == 2


def test_hash_of_missing_file_exits_2(tmp_path, run_cli):
    result = run_cli("hash", str(tmp_path / "none.md"))
    assert result.code == 2 and "error[file-missing]" in result.err


def test_failed_build_leaves_every_file_as_it_was(project, run_cli, monkeypatch):
    run_cli("build", "--root", str(project))
    (project / "contracts/c.md").write_text(CONTRACT.replace("Read me.", "Read me twice.").replace("`echoer`", "`echoer2`"))
    before = snapshot(project)
    fail_nth_replace(monkeypatch, 2, 28, "No space left on device")
    result = run_cli("build", "--root", str(project))
    monkeypatch.undo()
    assert result.code == 2 and "error[write-failed]" in result.err
    assert snapshot(project) == before


def test_help_teaches_every_command(run_cli):
    result = run_cli("--help")
    assert result.code == 0
    for command in ("build", "check", "hash"):
        assert command in result.out
    assert "Exit codes: 0 clean, 1 drift" in result.out


def test_this_repository_is_clean(run_cli):
    result = run_cli("check", "--root", str(REPO), "--no-cache")  # --no-cache: tests never write into the tree
    assert result.code == 0, result.out + result.err
