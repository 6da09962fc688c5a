"""The contract parser: sections, anchors, shapes, checks, and exact byte slices."""

from __future__ import annotations

import pytest

from contractc.report.diagnostics import ContractcError
from contractc.load.contract import parse_contract
from contractc.load.source import source_from_bytes

SHAPE_DOC = """\
# Returns

Intro text.

## Shared bits {#shared}

Everyone reads this.

## PingReturn

Produced by `pinger` in fast mode; consumed by `pong-skill` and
`other-skill`.

```
status: ok
```

Receiver checks:

1. Line 1 is `status: ok`.
2. The return is short,
   at most three lines.

## Notes

Nothing.
"""


def parse(text: str | bytes, shared: tuple[str, ...] = ()):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_contract(source_from_bytes("contracts/c.md", data), shared)


def errors(text: str | bytes, shared: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(ContractcError) as info:
        parse(text, shared)
    return [d.format().splitlines()[0] for d in info.value.diagnostics]


def test_sections_have_slug_or_explicit_anchors_and_parents():
    contract = parse(SHAPE_DOC)
    assert [(s.anchor, s.level, s.parent) for s in contract.sections] == [
        ("returns", 1, None),
        ("shared", 2, "returns"),
        ("pingreturn", 2, "returns"),
        ("notes", 2, "returns"),
    ]
    assert contract.section("shared").title == "Shared bits"
    assert contract.section("shared").explicit


def test_slug_rule_matches_python_markdown_toc():
    from markdown.extensions.toc import slugify as toc_slugify

    from contractc.load.slug import slugify

    for title in ["Return shapes — the skill↔agent contract", "Über `code` & more!", "A  b -- c", "déjà vu_2"]:
        assert slugify(title) == toc_slugify(title, "-")


def test_section_slice_runs_to_next_heading_of_same_or_higher_level():
    contract = parse(SHAPE_DOC)
    ping = contract.section("pingreturn")
    assert contract.slice(ping.span).startswith(b"## PingReturn\n")
    assert contract.slice(ping.span).endswith(b"at most three lines.\n\n")
    top = contract.section("returns")
    assert contract.slice(top.span) == SHAPE_DOC.encode()


def test_text_shape_producer_qualifier_consumers_template_and_checks():
    (shape,) = parse(SHAPE_DOC).text_shapes
    assert (shape.id, shape.name, shape.producer, shape.qualifier) == ("pingreturn", "PingReturn", "pinger", "in fast mode")
    assert shape.consumers == ("pong-skill", "other-skill")
    assert shape.template.line == 14
    assert [(c.number, c.anchor, c.span.line) for c in shape.checks] == [
        (1, "pingreturn-check-1", 20),
        (2, "pingreturn-check-2", 21),
    ]
    assert shape.checks[1].text == "The return is short,\nat most three lines."


def test_bundle_is_shared_sections_then_shape_section_in_source_order():
    contract = parse(SHAPE_DOC, shared=("shared",))
    (shape,) = contract.text_shapes
    data = SHAPE_DOC.encode()
    expected = data[data.index(b"## Shared bits") : data.index(b"## Notes")]
    assert contract.bundle(shape) == expected


def test_crlf_bom_tabs_and_non_ascii_slice_exactly():
    text = SHAPE_DOC.replace("Everyone reads this.", "Évery\tone — reads this.  ")
    data = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")
    contract = parse(data, shared=("shared",))
    section = contract.slice(contract.section("shared").span)
    assert section == "## Shared bits {#shared}\r\n\r\nÉvery\tone — reads this.  \r\n\r\n".encode()
    assert contract.slice(contract.section("returns").span).startswith(b"# Returns")  # BOM not included
    assert contract.sha256 == __import__("hashlib").sha256(data).hexdigest()


def test_headings_inside_fences_and_indented_fences_are_not_sections():
    doc = "# T\n\n```md\n## Not a heading\n```\n\n- item\n\n  ~~~\n  ## Also not\n  ~~~\n\n## Real\n"
    assert [s.anchor for s in parse(doc).sections] == ["t", "real"]


def test_nested_fence_with_longer_outer_marker():
    doc = "# T\n\n````\n```\n## inner\n```\n````\n\n## After\n"
    assert [s.anchor for s in parse(doc).sections] == ["t", "after"]


def test_unclosed_fence_is_located():
    assert errors("# T\n\ntext\n\n```yaml\na: 1\n") == [
        "contracts/c.md:5:1: error[unclosed-fence]: fenced block opened with ``` is never closed"
    ]


def test_duplicate_anchor_names_both_lines():
    assert errors("# T\n\n## Same\n\n## Same\n") == [
        "contracts/c.md:5:1: error[duplicate-anchor]: anchor 'same' is already used by the heading on line 3"
    ]


def test_unknown_shared_section_lists_known_anchors():
    with pytest.raises(ContractcError) as info:
        parse(SHAPE_DOC, shared=("nope",))
    (d,) = info.value.diagnostics
    assert d.code == "unknown-section" and "'nope'" in d.message and "shared, pingreturn, notes" in d.hint


def test_yaml_error_is_located_at_the_file_line():
    doc = "# T\n\n## S\n\n```yaml\nshape:\n  a: 1\n   b: [\n```\n"
    (line,) = errors(doc)
    assert line.startswith("contracts/c.md:8:") and "error[yaml-syntax]" in line


def test_non_utf8_is_located():
    (line,) = errors(b"# T\n\nbad \xff byte\n")
    assert line.startswith("contracts/c.md:3:5: error[not-utf8]: byte 0xff")


def test_data_shape_fields_keep_comments_lines_and_transient_markers():
    doc = (
        "# T\n\n## Stage\n\n```yaml\nbrief:\n  goal: string      # one sentence\n"
        "  later: [ a ]      # ← TRANSIENT, dropped\n  ops: [ { name, summary } ]\n```\n"
    )
    (shape,) = parse(doc).data_shapes
    assert (shape.id, shape.key, shape.section, shape.block.line) == ("brief", "brief", "stage", 5)
    fields = shape.root.value.fields
    assert [(f.name, f.line, f.comment) for f in fields] == [
        ("goal", 7, "one sentence"),
        ("later", 8, "← TRANSIENT, dropped"),
        ("ops", 9, ""),
    ]
    op = fields[2].value.items[0]
    assert [(f.name, f.value.kind) for f in op.fields] == [("name", "absent"), ("summary", "absent")]


def test_a_multi_key_yaml_block_is_a_located_error_never_silently_ignored():
    doc = "# T\n\n## S\n\n```yaml\na: string\nb: integer\n```\n"
    with pytest.raises(ContractcError) as raised:
        parse(doc)
    (problem,) = raised.value.diagnostics
    assert problem.format().splitlines()[0] == (
        "contracts/c.md:7:1: error[bad-shape]: a yaml block holds 2 top-level keys (a, b); a data shape is one key per block"
    )
    assert "```{.yaml .example}" in problem.hint  # `yaml example` is no fence to Python-Markdown: the site would break


def test_a_multi_key_yaml_block_marked_example_is_an_example():
    doc = "# T\n\n## S\n\n```yaml example\na: 1\nb: 2\n```\n"
    assert parse(doc).data_shapes == ()


def test_bundle_does_not_repeat_a_shared_section_nested_in_the_shape_section():
    doc = "# T\n\n## PingReturn\n\nProduced by `a`; consumed by `b`.\n\n### Notes\n\nn\n\n## Other\n"
    contract = parse(doc, shared=("notes",))
    (shape,) = contract.text_shapes
    assert contract.bundle(shape) == doc.encode()[doc.index("## PingReturn") : doc.index("## Other")]
