"""The data-shape notation: one golden case per construct, located errors, and properties of the emitter.

Golden cases are data: ``tests/golden/notation/<case>.md`` is a contract, the
folder ``<case>/`` holds every schema it compiles to plus ``notes.txt`` (what
``build`` lists).  ``CONTRACTC_REGEN=1 pytest tests/test_notation.py``
rewrites the expected files; review the diff before committing it.
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import write_tree
from contractc.report.diagnostics import ContractcError

GOLDEN = Path(__file__).parent / "golden" / "notation"
CASES = sorted(p.stem for p in GOLDEN.glob("*.md"))
REGEN = os.environ.get("CONTRACTC_REGEN") == "1"


def project_of(tmp_path: Path, contract: str | bytes, name: str = "c"):
    from contractc.load import load_project

    root = write_tree(
        tmp_path, {"contractc.yaml": f"contracts:\n  - path: contracts/{name}.md\n", f"contracts/{name}.md": contract}
    )
    return load_project(root)


def compiled_files(project) -> dict[str, bytes]:
    from contractc.emit.schemas import emit_schemas
    from contractc.pipeline import build_notes

    files = {path.split("/", 2)[2]: data for path, data in emit_schemas(project).items() if not path.endswith("/manifest.json")}
    notes = "".join(n.format() + "\n" for n in build_notes(project))
    if notes:
        files["notes.txt"] = notes.encode()
    return files


@pytest.mark.parametrize("case", CASES)
def test_golden_case(case, tmp_path):
    files = compiled_files(project_of(tmp_path, (GOLDEN / f"{case}.md").read_bytes(), case))
    expected_dir = GOLDEN / case
    if REGEN:
        shutil.rmtree(expected_dir, ignore_errors=True)
        write_tree(expected_dir, files)
    expected = {p.name: p.read_bytes() for p in sorted(expected_dir.iterdir())}
    assert sorted(files) == sorted(expected)
    for name, data in files.items():
        assert data.decode() == expected[name].decode(), name


def test_every_construct_of_the_reference_page_has_a_golden_case():
    # docs/notation.md names each construct's case in a "golden:" line; all must exist.
    page = (Path(__file__).parents[1] / "docs" / "notation.md").read_text()
    named = {line.split("`")[1] for line in page.splitlines() if line.startswith("Golden case: `")}
    assert named == set(CASES)


BAD = """\
# Bad

## One

```yaml
other:
  a: string
```

```yaml
bad:
  a: str
  b: <text>
  c: string[]
  d: ...anything...
  e: string | boolean
  f: a | | b
  g: [ 1, { a: 1 } ]
  h: solution          # business | stakeholder
  i: string            # ← OPTIONAL ← REQUIRED
  j: low | high        # reserved; default medium
  k: "YYYY-MM-DD"      # default today
  l: { ...full shared... }
```

## Two

```yaml
shared:
  x: string
```

## Three

```yaml
shared:
  y: string
```
"""


def test_every_notation_problem_is_reported_at_once_with_file_line():
    with pytest.raises(ContractcError) as info:
        _load(BAD)  # the loader interprets the notation
    assert [d.format().splitlines()[0] for d in info.value.diagnostics] == [
        "contracts/c.md:12:6: error[bad-notation]: bad: $.a: `str` is not a type of the notation",
        "contracts/c.md:13:6: error[bad-notation]: bad: $.b: `<text>` is not a type of the notation",
        "contracts/c.md:14:6: error[bad-notation]: bad: $.c: `string[]` is not a type of the notation",
        "contracts/c.md:15:6: error[bad-notation]: bad: $.d: placeholder `...anything...` needs brackets",
        "contracts/c.md:16:6: error[bad-notation]: bad: $.e: `string | boolean` mixes a type (string) into an enum",
        "contracts/c.md:17:6: error[bad-notation]: bad: $.f: `a | | b` is not an enum: '' is not a plain word",
        "contracts/c.md:18:6: error[bad-notation]: bad: $.g: a list mixes object and scalar items",
        "contracts/c.md:19:3: error[bad-notation]: bad: $.h: example 'solution' is not one of the values its comment lists (business | stakeholder)",
        "contracts/c.md:20:3: error[bad-notation]: bad: $.i: both ← OPTIONAL and ← REQUIRED",
        "contracts/c.md:21:3: error[bad-default]: bad: $.j: default 'medium' is not one of low | high",
        "contracts/c.md:22:3: error[bad-default]: bad: $.k: default 'today' does not fit a date field",
        "contracts/c.md:23:6: error[ambiguous-ref]: bad: $.l: `{ ...full shared... }` names several shapes: three.shared, two.shared",
    ]


def _load(contract: str):
    """The project of one contract, loaded the way `contractc` loads it (usable inside hypothesis tests)."""
    from contractc.load import load_project

    with tempfile.TemporaryDirectory() as tmp:
        return load_project(
            write_tree(
                Path(tmp), {"contractc.yaml": "contracts:\n  - path: contracts/c.md\n", "contracts/c.md": contract}
            )
        )


def test_a_required_cycle_through_refs_is_an_error_and_an_optional_one_is_not():
    cyclic = "# C\n\n## S\n\n```yaml\nnode:\n  child: { ...full node... }\n```\n"
    with pytest.raises(ContractcError) as info:
        from contractc.emit.schemas import emit_schemas

        emit_schemas(_load(cyclic))
    (line,) = [d.format().splitlines()[0] for d in info.value.diagnostics]
    assert (
        line
        == "contracts/c.md:7:10: error[bad-notation]: node: `{ ...full node... }` makes node -> node contain itself, so no document can satisfy it"
    )
    from contractc.emit.schemas import emit_schemas

    files = emit_schemas(_load(cyclic.replace("node... }", "node... }   # ← OPTIONAL")))
    assert (
        b'"$ref": "https://example.invalid/contracts/schemas/c/node.schema.json"' in files["schemas/c/node.schema.json"]
    )


def test_an_impossible_date_in_a_shape_fails_its_example_at_the_field(tmp_path, run_cli):
    contract = "# C\n\n## S\n\n```yaml\nbrief:\n  due: 2025-02-30\n```\n"
    write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/c.md\n", "contracts/c.md": contract})
    result = run_cli("build", "--root", str(tmp_path))
    assert result.code == 2
    assert result.err.splitlines()[0] == (
        "contracts/c.md:7:3: error[example-invalid]: brief: the derived example fails its schema at $.due: '2025-02-30' is not a 'date'"
    )


def test_an_example_that_fails_its_schema_is_located_at_the_offending_field(tmp_path):
    from contractc.emit.schemas import check_compiled, compile_schemas

    project = project_of(
        tmp_path, '# C\n\n## S\n\n```yaml\nbrief:\n  owners:\n    - name: string\n      since: "YYYY-MM-DD"\n```\n'
    )
    compiled = compile_schemas(project)
    compiled["brief"].wire["examples"][0]["owners"][0]["since"] = "not a date"  # what a wrong deriver would produce
    (problem,) = check_compiled(compiled)
    assert problem.format().splitlines()[0] == (
        "contracts/c.md:9:7: error[example-invalid]: brief: the derived example fails its schema at $.owners[0].since: 'not a date' is not a 'date'"
    )


# --- properties -------------------------------------------------------------------------------

WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "omega"])
LEAVES = st.one_of(
    st.just("string"),
    st.just("integer"),
    st.just('"YYYY-MM-DD"'),
    st.just("2025-02-03"),
    st.integers(0, 99).map(str),
    st.sampled_from(
        [
            "true",
            "false",
            "null",
            "[]",
            "[ ...anything... ]",
            "[ FR-001, NFR-002 ]",
            "[ { name, summary } ]",
            "|",
            "FR-001",
            '"free text"',
        ]
    ),
    st.lists(WORDS, min_size=2, max_size=4, unique=True).map(" | ".join),
    st.sampled_from(["{ ...an unknown thing... }", "{ id: A-1, statement }", "{ prefix: CMP | IF, start: 1 }"]),
)
COMMENTS = st.sampled_from(
    [
        "",
        "# ← TRANSIENT",
        "# ← TRANSIENT, resolved later",
        "# optional — maybe",
        "# ← OPTIONAL",
        "# FRs only; omit otherwise",
        "# plain words",
    ]
)
KEYS = st.sampled_from(["id", "title", "kind", "owner", "steps", "notes", "status", "budget", "traces", "scope"])


@st.composite
def mapping_lines(draw, indent: int, depth: int) -> list[str]:
    lines: list[str] = []
    for key in draw(st.lists(KEYS, min_size=1, max_size=5, unique=True)):
        comment = draw(COMMENTS)
        pad = " " * indent
        form = draw(st.sampled_from(["leaf", "leaf", "map", "list"]) if depth < 2 else st.just("leaf"))
        if form == "leaf":
            leaf = draw(LEAVES)
            lines.append(f"{pad}{key}: {leaf}  {comment}".rstrip())
            if leaf == "|":
                lines.append(f"{pad}  # ...free text...")
        elif form == "map":
            lines.append(f"{pad}{key}:  {comment}".rstrip())
            lines.extend(draw(mapping_lines(indent + 2, depth + 1)))
        else:
            lines.append(f"{pad}{key}:  {comment}".rstrip())
            inner = draw(mapping_lines(indent + 4, depth + 1))
            lines.append(f"{pad}  - {inner[0].lstrip()}")
            lines.extend(inner[1:])
    return lines


def contract_of(lines: list[str]) -> str:
    return "# P\n\n## S\n\n```yaml\nshape:\n" + "\n".join(lines) + "\n```\n"


def transient_documents(spec, example):
    """For each transient field, the artifact-form example plus just that field (and its transient ancestors)."""
    from contractc.model.example import _Deriver

    found = []

    def strip(spec, value, keep):
        if spec.kind == "object" and isinstance(value, dict):
            for p in spec.props:
                if p.transient and p.name in value and not any(p is k for k in keep):
                    del value[p.name]
                elif p.name in value:
                    strip(p.spec, value[p.name], keep)
        elif spec.kind == "array" and spec.items and value:
            strip(spec.items[0], value[0], keep)

    def visit(sub, value, path, chain):
        if sub.kind == "object" and isinstance(value, dict):
            for p in sub.props:
                if p.transient:
                    found.append((p, path + [p.name], chain + [p]))
                if p.name in value:
                    visit(p.spec, value[p.name], path + [p.name], chain + [p])
        elif sub.kind == "array" and sub.items and value:
            visit(sub.items[0], value[0], path + [0], chain)

    visit(spec, example, [], [])
    documents = []
    for prop, path, chain in found:
        doc = copy.deepcopy(example)
        strip(spec, doc, chain)
        target = doc
        for step in path[:-1]:
            target = target[step]
        if prop.name not in target:
            target[prop.name] = _Deriver({}, False).value(prop.spec, ("shape",), None)
        documents.append(([p.name for p in chain if p.transient], doc))  # the outermost transient is the one reported
    return documents


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mapping_lines(2, 0))
def test_properties_of_generated_shapes(lines):
    from contractc.emit.schemas import compile_schemas, emit_schemas, schema_registry, validator
    from contractc.model.example import derive_example

    project = _load(contract_of(lines))
    compiled = compile_schemas(project)  # meta-validates, and fails if the example does not validate
    shape = compiled["shape"]
    registry = schema_registry(compiled)
    example = derive_example(shape.shape, {"shape": shape.shape})
    assert list(validator(shape.wire, registry).iter_errors(example)) == []
    for names, document in transient_documents(shape.shape.spec, example):
        errors = list(validator(shape.artifact, registry).iter_errors(document))
        assert any(repr(name) in e.message for e in errors for name in names), (names, document)
    assert emit_schemas(project) == emit_schemas(_load(contract_of(lines)))


def test_an_anchored_value_means_what_it_means_without_the_anchor():
    """`&name` only names a node: `&k string` is still the string type, `&b true` still a boolean."""
    from contractc.emit.schemas import compile_schemas

    def schema(block: str) -> dict:
        project = _load(f"# C\n\n## S\n\n```yaml\nbrief:\n{block}```\n")
        return compile_schemas(project)["brief"].wire["properties"]

    plain = schema("  goal: string\n  flag: true\n  count: 8\n")
    anchored = schema("  goal: &g string\n  flag: &f true\n  count: &c 8\n")
    assert anchored == plain
    assert anchored["goal"]["type"] == "string" and "const" not in anchored["goal"]
    assert anchored["flag"]["type"] == "boolean"


def test_an_anchored_boolean_stays_a_boolean_in_a_validated_document():
    from contractc.load.yaml_safe import load_yaml, plain

    assert plain(load_yaml("done: &d true\nagain: *d\nn: &n 3\n", "doc.yaml", "document-syntax")) == {
        "done": True,
        "again": True,
        "n": 3,
    }


def test_a_default_that_opens_a_sentence_of_prose_is_read_or_else_is_only_a_description():
    contract = (
        "# C\n\n## S\n\n```yaml\nreview:\n"
        "  enabled: boolean       # Default: true. Set false to skip the review.\n"
        "  mode: fast | full      # Default: thorough. Pick full for releases.\n"
        "  owner: string          # default: the first reviewer's name\n"
        "```\n"
    )
    props = {p.name: p for p in _load(contract).specs["review"].spec.props}  # loads: no bad-default
    assert (props["enabled"].has_default, props["enabled"].default) == (True, True)
    assert not props["mode"].has_default and props["mode"].comment.startswith("Default: thorough.")
    assert not props["owner"].has_default
    with pytest.raises(ContractcError) as info:  # a clause that is only `default X` still has to fit
        _load(contract.replace("# Default: thorough. Pick full for releases.", "# reserved; default thorough"))
    assert [d.code for d in info.value.diagnostics] == ["bad-default"]
