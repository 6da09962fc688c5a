"""Instance regions (`instance=ID`): check holds the user's own block to the shape's structure, never its values."""

from __future__ import annotations

import json

import pytest
from conftest import snapshot, write_tree

CONTRACT = """\
# Hand-offs

## Outcomes

```yaml
outcome:
  result: pass | skipped | blocked | issue
  note: string
  detail: string     # optional
  checks:
    - name: string
      ok: boolean
```

## AdapterReply

Produced by `adapter`; consumed by `runner`.

```json
{
  "status": "success" | "failed",
  "data": { "id": "<string>", "items": [ { "name": "<string>" } ] }
}
```

Receiver checks:

1. The reply is one JSON object.

## RootCause

Produced by `debugger`; consumed by `lead`.

```markdown
## ROOT CAUSE FOUND
**Cause:** <one line>
**Fix:** <one line>
```

Receiver checks:

1. The first line is the heading.
"""

OUTCOME = """\
<!-- contractc:begin instance=outcome -->
```yaml
outcome:
  result: skipped
  note: nothing to test here
  checks:
    - name: lint
      ok: true
```
<!-- contractc:end -->
"""

REPLY = """\
<!-- contractc:begin instance=adapterreply -->
```json
{
  "status": "failed",
  "data": { "id": "x1", "items": [] }
}
```
<!-- contractc:end -->
"""

CAUSE = """\
<!-- contractc:begin instance=rootcause -->
```markdown
## ROOT CAUSE FOUND
**Cause:** a stale cache
**Fix:** clear it on deploy
```
<!-- contractc:end -->
"""


@pytest.fixture
def project(tmp_path, run_cli):
    root = write_tree(
        tmp_path,
        {
            "contractc.yaml": "contracts:\n  - path: contracts/c.md\ntargets:\n  - agents/*.md\n",
            "contracts/c.md": CONTRACT,
            "agents/runner.md": f"# Runner\n\nWhen nothing runs:\n\n{OUTCOME}\nA failed reply:\n\n{REPLY}\nA report:\n\n{CAUSE}",
        },
    )
    assert run_cli("build", "--root", str(root)).code == 0
    return root


def _errors(run_cli, root):
    run = run_cli("check", "--root", str(root), "--no-cache", "--format", "json")
    doc = json.loads(run.out)
    return run.code, [(d["line"], d["code"], d["message"]) for d in doc["diagnostics"] if d["severity"] == "error"], run


def _edit(root, old, new):
    path = root / "agents/runner.md"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_instances_with_their_own_values_are_clean_and_build_never_writes_them(project, run_cli):
    agent = (project / "agents/runner.md").read_bytes()
    assert OUTCOME.encode() in agent and REPLY.encode() in agent and CAUSE.encode() in agent  # not stamped, not filled
    assert _errors(run_cli, project)[:2] == (0, [])
    before = snapshot(project)
    assert run_cli("build", "--root", str(project)).code == 0 and snapshot(project) == before


def test_a_lost_required_field_fails_at_the_marker_and_a_lost_optional_one_does_not(project, run_cli):
    _edit(project, "  note: nothing to test here\n", "")
    code, errors, run = _errors(run_cli, project)
    assert code == 1 and errors == [(5, "drift-instance-missing", "region instance=outcome lacks $.outcome.note, which the shape has")]
    text = run_cli("check", "--root", str(project), "--no-cache").out
    assert "+$.outcome.note\n" in text and " $.outcome.result\n" in text  # the structure diff
    assert "$.outcome.detail" not in text  # optional, absent: not asked for


def test_a_foreign_key_fails_at_its_line_and_a_renamed_one_is_reshaped(project, run_cli):
    _edit(project, "      ok: true\n", "      ok: true\n      took_ms: 12\n")
    code, errors, _ = _errors(run_cli, project)
    assert code == 1 and errors == [(13, "drift-instance-foreign", "region instance=outcome holds $.outcome.checks[*].took_ms, which the shape does not have")]
    _edit(project, "  note: nothing", "  notes: nothing")
    assert [e[1] for e in _errors(run_cli, project)[1]] == ["drift-instance-reshaped"]


def test_json_and_template_instances_are_held_to_their_keys_headings_and_labels(project, run_cli):
    _edit(project, '"data": { "id": "x1", "items": [] }', '"data": { "items": [ { "name": "a", "size": 2 } ] }')
    _edit(project, "**Fix:** clear it on deploy", "**Fixed by:** clear it on deploy")
    errors = _errors(run_cli, project)[1]
    assert [(code, message) for _, code, message in errors] == [
        ("drift-instance-reshaped", "region instance=adapterreply lacks $.data.id and holds $.data.items[*].size, which the shape does not have"),
        ("drift-instance-reshaped", "region instance=rootcause lacks fix: and holds fixed by:, which the shape does not have"),
    ]


def test_a_region_with_no_block_of_the_shape_is_unreadable(project, run_cli):
    _edit(project, "```yaml\noutcome:\n", "```yaml\nverdict:\n")
    assert [e[1] for e in _errors(run_cli, project)[1]] == ["drift-instance-unreadable"]


@pytest.mark.parametrize(
    ("marker", "code"),
    [
        ("<!-- contractc:begin instance=outcome sha256=" + "0" * 64 + " -->", "marker-syntax"),
        ("<!-- contractc:begin instance=no_such_shape -->", "marker-reference"),
    ],
)
def test_an_instance_marker_with_a_hash_or_an_unknown_shape_is_bad_input(project, run_cli, marker, code):
    _edit(project, "<!-- contractc:begin instance=outcome -->", marker)
    run = run_cli("check", "--root", str(project), "--no-cache")
    assert run.code == 2 and f"agents/runner.md:5:1: error[{code}]" in run.err


def test_an_instance_written_as_one_member_of_the_shapes_object_keeps_its_key(project, run_cli):
    # `"data": {...}` on its own, as a prompt shows the one member it adds: its key is the member's name, and
    # the keys under it are under that name, as scan reads the block (not the shape's top-level keys)
    _edit(project, '{\n  "status": "failed",\n  "data": { "id": "x1", "items": [] }\n}', '"data": { "id": "x1", "items": [] }')
    errors = _errors(run_cli, project)[1]
    # the fragment lacks the envelope's other member, and nothing else: before, its keys were read as top-level
    assert [(code, message) for _, code, message in errors] == [
        ("drift-instance-missing", "region instance=adapterreply lacks $.status, which the shape has"),
    ]
