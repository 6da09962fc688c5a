"""The notation on real hand-off material: nullable fields, and `validate` speaking YAML/JSON."""

from __future__ import annotations

import json

import pytest

from conftest import write_tree

CONTRACT = """\
# Hand-offs

## Survey stage

```yaml
task_brief:
  topic: string
  reviewer_note: string | null     # null until the review stage reads it
  depth: quick | thorough | null
  retries: integer | null
  draft: { ...draft_section... }   # ← NULLABLE, unset before the drafting stage
```

```yaml
draft_section:
  heading: string
```

## Review stage

```yaml
task_brief:
  verdict: pass | revise
```
"""
CONFIG = "contracts:\n  - path: contracts/h.md\n"


@pytest.fixture
def project(tmp_path, run_cli):
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/h.md": CONTRACT})
    assert run_cli("build", "--root", str(root)).code == 0
    return root


def _props(project) -> dict:
    return json.loads((project / "schemas/h/survey-stage.task_brief.schema.json").read_text())["properties"]


def test_string_or_null_is_a_nullable_string(project):
    assert _props(project)["reviewer_note"] == {
        "description": "null until the review stage reads it",
        "type": ["string", "null"],
    }


def test_an_enum_or_null_and_a_type_or_null(project):
    props = _props(project)
    assert props["depth"] == {"type": ["string", "null"], "enum": ["quick", "thorough", None]}
    assert props["retries"] == {"type": ["integer", "null"]}


def test_the_nullable_marker_makes_a_reference_nullable(project):
    draft = _props(project)["draft"]
    assert draft["anyOf"][1] == {"type": "null"}
    assert draft["anyOf"][0]["$ref"].endswith("draft_section.schema.json")
    assert draft["description"].startswith("← NULLABLE")


@pytest.mark.parametrize("value", ["null", "~", ""])
def test_validate_accepts_null_where_the_shape_allows_it(project, run_cli, tmp_path, value):
    doc = tmp_path / "doc.yaml"
    doc.write_text(f"topic: caching\nreviewer_note: {value}\ndepth: null\nretries: 3\ndraft: null\n")
    run = run_cli("validate", "--root", str(project), "survey-stage.task_brief", str(doc))
    assert run.code == 0, run.out


def test_validate_messages_say_null_not_none(project, run_cli, tmp_path):
    doc = tmp_path / "doc.yaml"
    doc.write_text("topic: null\nreviewer_note: x\ndepth: deep\nretries: 1\ndraft: null\n")
    run = run_cli("validate", "--root", str(project), "survey-stage.task_brief", str(doc))
    assert run.code == 1
    assert f"{doc.as_posix()}:1: $.topic: null is not of type \"string\"\n" in run.out
    assert "None" not in run.out
    assert f'{doc.as_posix()}:3: $.depth: "deep" is not one of ["quick", "thorough", null]' in run.out


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\n\n"])
def test_an_empty_document_is_a_document_error(project, run_cli, tmp_path, text):
    doc = tmp_path / "doc.yaml"
    doc.write_text(text)
    run = run_cli("validate", "--root", str(project), "review-stage.task_brief", str(doc))
    assert run.code == 2
    assert run.err.startswith(f"{doc.as_posix()}:1:1: error[document-syntax]: empty document: it holds no YAML or JSON value")


def test_an_unqualified_id_used_in_several_stages_names_the_qualified_ids(project, run_cli, tmp_path):
    doc = tmp_path / "doc.yaml"
    doc.write_text("verdict: pass\n")
    run = run_cli("validate", "--root", str(project), "task_brief", str(doc))
    assert run.code == 2
    assert "error[unknown-shape]: shape key 'task_brief' is used in several stages" in run.err
    assert "hint: name one: review-stage.task_brief, survey-stage.task_brief" in run.err


def test_a_type_mixed_into_an_enum_is_still_an_error(tmp_path, run_cli):
    contract = "# H\n\n## S\n\n```yaml\nping:\n  at: a | string\n```\n"
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/h.md": contract})
    run = run_cli("build", "--root", str(root))
    assert run.code == 2 and "mixes a type (string) into an enum" in run.err
