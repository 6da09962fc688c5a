"""Receiver checks probed end to end through `contractc validate`, as an attacker and a hurried user would:
each test is a return that the check's prose rejects, or input that must never crash the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write_tree


def _project(root: Path, check: str) -> Path:
    contract = (
        "# C\n\nIntro.\n\n## Ret\n\nProduced by `worker`; consumed by `boss`.\n\n"
        f"```\nSTATUS: ok\n<body>\n```\n\nReceiver checks:\n\n1. {check}\n"
    )
    return write_tree(root, {"contractc.yaml": "contracts:\n  - path: contracts/c.md\n", "contracts/c.md": contract})


def _validate(run_cli, root: Path, text: str, *args: str):
    (root / "r.txt").write_text(text, encoding="utf-8", newline="")
    return run_cli("validate", "ret", str(root / "r.txt"), "--root", str(root), *args)


def test_a_json_return_nested_100000_deep_fails_its_check_and_does_not_crash(tmp_path, run_cli):
    root = _project(tmp_path, "The return is valid JSON.")
    result = _validate(run_cli, root, "[" * 100_000)
    assert result.code == 1, result.err
    assert "not a JSON document: nested too deep" in result.out + result.err
    assert "internal error" not in result.out + result.err


@pytest.mark.parametrize("text", ["NaN", "[NaN]", '{"a": Infinity}', "-Infinity"])
def test_nan_and_infinity_are_not_valid_json(tmp_path, run_cli, text):
    root = _project(tmp_path, "The return is valid JSON.")
    result = _validate(run_cli, root, text)
    assert result.code == 1, result.err
    assert "is not a JSON value" in result.out + result.err
    assert _validate(run_cli, root, '{"a": 1.5}').code == 0


@pytest.mark.parametrize("text", ["", " \n\n", "\n"])
def test_an_empty_return_is_not_a_yaml_document(tmp_path, run_cli, text):
    root = _project(tmp_path, "The return is a YAML document.")
    result = _validate(run_cli, root, text, "--format", "json")
    assert result.code == 1, result.out
    assert json.loads(result.out)["passed"] is False
    assert _validate(run_cli, root, "a: 1\n").code == 0


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_transcript_that_is_not_a_regular_file_is_not_read_and_the_stop_goes_through(tmp_path, run_cli, monkeypatch, kind):
    import io
    import os
    import shutil

    from conftest import REPO

    root = tmp_path / "plugin"
    shutil.copytree(REPO / "examples" / "review-plugin", root)
    path = {"fifo": tmp_path / "t.fifo", "device": Path("/dev/zero"), "folder": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(path)  # opening it for reading would wait for a writer for ever; /dev/zero never ends
    payload = json.dumps({"hook_event_name": "SubagentStop", "agent_type": "code-reviewer", "agent_transcript_path": str(path)})
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(payload.encode("utf-8"))))
    result = run_cli("hook", "--root", str(root))
    assert result.code == 0
    answer = json.loads(result.out)
    assert "decision" not in answer
    assert "last message is neither in the hook input nor in its transcript" in answer["systemMessage"]


@pytest.mark.parametrize(
    ("check", "text"),
    [
        ("Each item has `severity:` and `fix:` fields, at any indent.", "- severity: high\n- severity: low\n  fix: y\n"),
        ("Every finding has a `where:` line and a `prescription:` line.", "- point: a\n  where: x\n"),
    ],
)
def test_an_item_on_line_1_is_held_to_the_fields_every_item_must_have(tmp_path, run_cli, check, text):
    # A bare YAML list opens on its first item: skipping line 1 let that item pass without its fields.
    root = _project(tmp_path, check)
    result = _validate(run_cli, root, text)
    assert result.code == 1, result.out
    assert "on line 1 has no" in result.out


@pytest.mark.parametrize(
    ("check", "text"),
    [
        ("Every bullet begins `- **`.", "- plain\n- **bold**\n"),
        ("Every bullet begins `- **`.", "- plain\n"),
        ("Every numbered line carries the location form.", "1. nothing cited\n2. `a.py:3`\n"),
    ],
)
def test_a_bullet_or_numbered_item_on_line_1_is_checked(tmp_path, run_cli, check, text):
    contract = (
        "# C\n\nIntro.\n\n**Location form.** Cite as `<path>:<line>`.\n\n## Ret\n\n"
        "Produced by `worker`; consumed by `boss`.\n\n```\n- **<claim>** `<path>:<line>`\n```\n\n"
        f"Receiver checks:\n\n1. {check}\n"
    )
    root = write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/c.md\n", "contracts/c.md": contract})
    result = _validate(run_cli, root, text)
    assert result.code == 1, result.out
    assert ":1:1: error[check-failed]" in result.out


@pytest.mark.parametrize("pattern", [".*", "^", "\\\\S", "(?s).?"])
def test_an_explicit_regex_with_no_word_of_its_check_is_refused(tmp_path, run_cli, pattern):
    # A rule `regex: .*` on "Never leave TBD in the return" passed every return, marked mechanised.
    root = _project(tmp_path, "Never leave TBD in the return.")
    (root / "contracts" / "c.checks.yaml").write_text(f'ret:\n  1:\n    - type: regex\n      value: "{pattern}"\n')
    result = run_cli("build", "--root", str(root))
    assert result.code == 2, result.out + result.err
    assert "contracts/c.checks.yaml:3:7: error[checks-file-invalid]" in result.err
    assert "holds no word of its check" in result.err
    assert _validate(run_cli, root, "anything at all").code == 2


def test_a_clause_after_a_semicolon_inside_a_condition_is_refused_not_guessed(tmp_path, run_cli):
    """"If `fail`, A; B": B may or may not be conditional, so the check is not mechanised (never a
    limit that silently applies only under `fail`); after a full stop the condition has ended."""
    contract = (
        "# C\n\nIntro.\n\n## Ret\n\nProduced by `worker`; consumed by `boss`.\n\n```\nSTATUS: ok | fail\n<body>\n```\n\n"
        "Receiver checks:\n\n1. The first line is `STATUS: ok` or `STATUS: fail`.\n"
        "2. If `fail`, the return names a file; the whole return is at most 5 lines.\n"
        "3. If `fail`, the return names a file. The whole return is at most 5 lines.\n"
    )
    root = write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/c.md\n", "contracts/c.md": contract})
    built = run_cli("build", "--root", str(root))
    assert "Ret check 2 is not mechanised: not read: “the whole return is at most 5 lines.”" in built.out
    assert "check 3 is not mechanised" not in built.out
    result = _validate(run_cli, root, "STATUS: ok\n1\n2\n3\n4\n5\n6\n7\n", "--format", "json")
    assert result.code == 1
    assert json.loads(result.out)["unmechanised"] == [2]
