"""Schemas as a user meets them: build lists optional fields, check catches drift, validate locates errors."""

from __future__ import annotations

import json

import pytest

from conftest import ECHO_SECTION, snapshot, write_tree

CONTRACT = """\
# Hand-offs

## Planning

```yaml
task_brief:
  goal: string                 # one sentence
  kind: feature | fix
  created_at: "YYYY-MM-DD"
  reviewer: string             # present only when review was requested
  owners:
    - name: string
      role: author | reviewer
  blocked_by: [ PLAN-002 ]     # ← TRANSIENT, resolved by the orchestrator
```

"""
CONTRACT += ECHO_SECTION.replace("## EchoReturn", "## Echo", 1)  # its shape id: echo
CONFIG = "contracts:\n  - path: contracts/h.md\n"


@pytest.fixture
def project(tmp_path):
    return write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/h.md": CONTRACT})


def test_build_writes_wire_and_artifact_schemas_and_lists_optional_fields(project, run_cli):
    result = run_cli("build", "--root", str(project))
    assert (result.code, result.err) == (0, "")
    assert result.out.splitlines() == [
        "wrote prompts/echoer/echo.md",
        "wrote prompts/manifest.json",
        "wrote schemas/h/task_brief.artifact.schema.json",
        "wrote schemas/h/task_brief.schema.json",
        "wrote schemas/manifest.json",
        "contractc: 5 written, 0 already current",
        'contracts/h.md:10:3: note[optional-inferred]: task_brief $.reviewer made optional by "# present only when review was requested" (rule: present only when)',
        "  hint: `contractc explain optional-inferred` explains this message",
    ]
    wire = json.loads((project / "schemas/h/task_brief.schema.json").read_text())
    assert wire["$id"] == "https://example.invalid/contracts/schemas/h/task_brief.schema.json"
    assert wire["properties"]["goal"] == {"description": "one sentence", "type": "string"}
    assert wire["required"] == ["goal", "kind", "created_at", "owners", "blocked_by"]
    artifact = json.loads((project / "schemas/h/task_brief.artifact.schema.json").read_text())
    assert "blocked_by" not in artifact["properties"] and "blocked_by" not in artifact["required"]
    assert artifact["examples"] == [
        {
            "goal": "string",
            "kind": "feature",
            "created_at": "2025-01-31",
            "owners": [{"name": "string", "role": "author"}],
        }
    ]


def test_check_is_one_line_when_clean_and_reports_an_edited_schema_as_drift(project, run_cli):
    run_cli("build", "--root", str(project))
    assert run_cli("check", "--root", str(project)).out == "contractc: 5 files checked, all current\n"
    path = project / "schemas/h/task_brief.schema.json"
    path.write_text(path.read_text().replace('"one sentence"', '"two sentences"'))
    result = run_cli("check", "--root", str(project), "--no-diff")
    assert result.code == 1
    assert (
        result.out.splitlines()[0]
        == "schemas/h/task_brief.schema.json:10:1: error[drift-output]: differs from what the contracts compile to"
    )


def test_site_url_sets_the_schema_ids(project, run_cli):
    write_tree(project, {"contractc.yaml": CONFIG + "site_url: https://docs.example.com/c\n"})
    run_cli("build", "--root", str(project))
    wire = json.loads((project / "schemas/h/task_brief.schema.json").read_text())
    assert wire["$id"] == "https://docs.example.com/c/schemas/h/task_brief.schema.json"


def test_unknown_notation_fails_the_build_located_and_writes_nothing(project, run_cli):
    write_tree(project, {"contracts/h.md": CONTRACT.replace("kind: feature | fix", "kind: enum")})
    before = snapshot(project)
    for command in ("build", "check"):
        result = run_cli(command, "--root", str(project))
        assert result.code == 2
        assert (
            result.err.splitlines()[0]
            == "contracts/h.md:8:9: error[bad-notation]: task_brief: $.kind: `enum` is not a type of the notation"
        )
    assert snapshot(project) == before


def validate(run_cli, project, *args):
    return run_cli("validate", "--root", str(project), *args)


GOOD = "goal: Ship it\nkind: fix\ncreated_at: 2025-02-03\nowners:\n  - name: Ann\n    role: author\nblocked_by: [PLAN-002]\n"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("brief.yaml", GOOD),
        ("wrapped.yaml", "task_brief:\n" + "".join(f"  {line}\n" for line in GOOD.splitlines())),
        (
            "brief.json",
            json.dumps(
                {"goal": "g", "kind": "fix", "created_at": "2025-02-03", "owners": [], "blocked_by": []}, indent=2
            ),
        ),
        ("brief.md", f"---\n{GOOD}---\n# Body\n"),
    ],
)
def test_validate_accepts_yaml_json_wrapped_and_front_matter(project, run_cli, name, text):
    write_tree(project, {name: text})
    result = validate(run_cli, project, "task_brief", str(project / name))
    assert (result.code, result.out) == (0, f"contractc: {project / name} matches task_brief (wire schema)\n")


def test_validate_reports_every_error_on_the_line_of_its_key(project, run_cli, monkeypatch):
    monkeypatch.chdir(project)
    bad = "---\ngoal: Ship it\nkind: feature-ish\ncreated_at: 2025-02-30\nowners:\n  - name: Ann\n    role: author\n    age: 3\nblocked_by: [PLAN-002]\n---\n"
    write_tree(project, {"brief.md": bad})
    assert validate(run_cli, project, "task_brief", "brief.md").out.splitlines() == [
        'brief.md:3: $.kind: "feature-ish" is not one of ["feature", "fix"]',
        'brief.md:4: $.created_at: "2025-02-30" is not a "date"',
        "brief.md:8: $.owners[0].age: unknown key 'age'; allowed keys: name, role",
        "contractc: brief.md does not match task_brief (wire schema): 3 errors",
    ]
    result = validate(run_cli, project, "task_brief", "brief.md", "--artifact")
    assert result.code == 1
    assert (
        "brief.md:9: $.blocked_by: transient field 'blocked_by' is in flight only and must not be in an artifact; strip it before writing"
        in result.out.splitlines()
    )
    write_tree(project, {"missing.yaml": "goal: g\n"})
    assert validate(run_cli, project, "task_brief", "missing.yaml").out.splitlines()[0] == (
        "missing.yaml:1: $: 'kind' is a required property"
    )


def test_an_anchor_defined_again_names_the_latest_node_and_prints_no_python_warning(project, run_cli, monkeypatch):
    """YAML 1.2 allows it; the one YAML loader says nothing outside the diagnostics."""
    import warnings

    monkeypatch.chdir(project)
    reused = CONTRACT.replace("  goal: string ", "  goal: &k string").replace("    - name: string", "    - name: &k string")
    document = "goal: &k Ship it\nreviewer: &k feature\nkind: *k\ncreated_at: 2025-02-03\nowners: []\nblocked_by: []\n"
    write_tree(project, {"contracts/h.md": reused, "brief.yaml": document})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a Python warning would fail the command
        built = run_cli("build", "--root", str(project))
        checked = validate(run_cli, project, "task_brief", "brief.yaml")
    assert (built.code, built.err) == (0, "")
    # `kind: *k` is "feature", the latest node anchored &k, not "Ship it"
    assert (checked.code, checked.err) == (0, "")
    assert checked.out == "contractc: brief.yaml matches task_brief (wire schema)\n"


def _check_report_schema():
    import jsonschema

    from conftest import REPO

    schema = json.loads((REPO / "compiler/contractc/data/check-report.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def test_validate_json_for_a_data_shape_is_checks_document(project, run_cli, monkeypatch):
    monkeypatch.chdir(project)
    write_tree(
        project,
        {
            "contractc.yaml": CONFIG + "docs_url: https://docs.example.com/drift-codes/\n",
            "brief.yaml": GOOD.replace("kind: fix", "kind: feature-ish").replace("    role: author\n", "    role: author\n    age: 3\n"),
        },
    )
    result = validate(run_cli, project, "task_brief", "brief.yaml", "--format", "json")
    assert (result.code, result.err) == (1, "")
    document = json.loads(result.out)
    _check_report_schema().validate(document)  # what check --format json prints, read with the same schema
    assert (document["status"], document["exit_code"], document["checked"], document["drifted"]) == ("drift", 1, 1, 2)
    assert [(d["path"], d["line"], d["code"], d["message"]) for d in document["diagnostics"]] == [
        ("brief.yaml", 2, "invalid-document", '$.kind: "feature-ish" is not one of ["feature", "fix"]'),
        ("brief.yaml", 7, "invalid-document", "$.owners[0].age: unknown key 'age'; allowed keys: name, role"),
    ]
    assert document["diagnostics"][0]["url"] == "https://docs.example.com/drift-codes/#invalid-document"
    assert document["summary"] == "contractc: brief.yaml does not match task_brief (wire schema): 2 errors"
    assert "errors" not in document and document["changes"] == []

    write_tree(project, {"brief.yaml": GOOD})
    clean = json.loads(validate(run_cli, project, "task_brief", "brief.yaml", "--format", "json").out)
    assert (clean["status"], clean["diagnostics"], clean["summary"]) == (
        "clean",
        [],
        "contractc: brief.yaml matches task_brief (wire schema)",
    )


@pytest.mark.parametrize("shape", ["task_brief", "echo", "nope"])
def test_validate_json_reports_bad_input_as_checks_document_on_stdout(project, run_cli, monkeypatch, shape):
    monkeypatch.chdir(project)
    result = validate(run_cli, project, shape, "none.yaml", "--format", "json")
    assert (result.code, result.err) == (2, "")
    document = json.loads(result.out)
    _check_report_schema().validate(document)
    assert (document["status"], document["checked"]) == ("bad-input", 0)
    expected = "unknown-shape" if shape == "nope" else "file-missing"
    assert [d["code"] for d in document["diagnostics"]] == [expected]


@pytest.mark.parametrize(
    ("args", "files", "message"),
    [
        (("nope", "x.yaml"), {"x.yaml": "a: 1\n"}, "nope: error[unknown-shape]: no shape has the id 'nope'"),
        (("task_brief", "none.yaml"), {}, "none.yaml: error[file-missing]: cannot read: No such file or directory"),
        (("task_brief", "x.yaml"), {"x.yaml": "a: [\n"}, "x.yaml:2:1: error[document-syntax]: not valid YAML or JSON"),
        (
            ("task_brief", "x.md"),
            {"x.md": "# no front matter\n"},
            "x.md:1:1: error[document-syntax]: no front matter: the file does not start with a `---` line",
        ),
        (
            ("echo", "x.txt"),
            {"x.txt": b"echo: \xff\n"},
            "x.txt: error[not-utf8]: byte 0xff is not valid UTF-8",
        ),
    ],
)
def test_validate_bad_input_exits_2_with_a_located_message(project, run_cli, monkeypatch, args, files, message):
    monkeypatch.chdir(project)
    write_tree(project, files)
    result = validate(run_cli, project, *args)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(message), result.err


def test_build_checks_each_schema_it_writes_against_the_metaschema_and_writes_nothing_if_one_fails(
    project, run_cli, monkeypatch
):
    from contractc.model import schemas

    real = schemas._schema

    def broken(spec, ref, artifact):  # a compiler bug: a title that is not a string
        out = real(spec, ref, artifact)
        return {**out, "title": 5} if out.get("type") == "string" else out

    monkeypatch.setattr(schemas, "_schema", broken)
    before = snapshot(project)
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    assert (
        "schemas/h/task_brief.artifact.schema.json: error[schema-invalid]: task_brief: not valid draft 2020-12"
        " at $.properties.goal.title: 5 is not of type 'string'"
    ) in result.err.splitlines()
    assert snapshot(project) == before


def test_a_schema_that_cannot_be_used_is_located_at_its_shape_on_check_too(project, run_cli, monkeypatch):
    from contractc.model import schemas

    real = schemas._schema

    def broken(spec, ref, artifact):  # a compiler bug that misspells a type
        out = real(spec, ref, artifact)
        return {**out, "type": "strin"} if out.get("type") == "string" else out

    monkeypatch.setattr(schemas, "_schema", broken)
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert result.err.splitlines()[0] == (
        "contracts/h.md:6:1: error[schema-invalid]: task_brief: the compiled schema cannot be used: Unknown type 'strin' for validator with schema:"
    )
