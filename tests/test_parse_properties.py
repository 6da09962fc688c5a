"""Property tests for the contract parser: slices are exact and cover the file."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from contractc.report.diagnostics import ContractcError
from contractc.load.contract import parse_contract
from contractc.load.source import source_from_bytes

words = st.text(alphabet=st.sampled_from("abcdeé—x Z9_-`"), min_size=1, max_size=12).filter(lambda w: w.strip(" `"))
paragraph = st.lists(words, min_size=1, max_size=4).map(lambda ws: " ".join(ws).strip() or "text")
block = st.one_of(
    st.tuples(st.integers(1, 4), words).map(lambda t: "#" * t[0] + " " + t[1].strip()),
    paragraph.map(lambda p: "x " + p),
    paragraph.map(lambda p: "```\n## " + p + "\n```"),
)


@st.composite
def documents(draw):
    blocks = draw(st.lists(block, min_size=1, max_size=12))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.booleans())
    text = "\n\n".join(blocks) + draw(st.sampled_from(["", "\n", "\n\n"]))
    return (b"\xef\xbb\xbf" if bom else b"") + text.replace("\n", newline).encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(documents())
def test_sections_slice_exactly_and_cover_the_rest_of_the_file(data):
    try:
        contract = parse_contract(source_from_bytes("c.md", data))
    except ContractcError as exc:
        assert {d.code for d in exc.diagnostics} <= {"duplicate-anchor"}
        return
    for section in contract.sections:
        piece = contract.slice(section.span)
        assert piece.startswith(b"#" * section.level + b" ")
        assert section.span.end <= len(data)
        nested = [s for s in contract.sections if s.parent == section.anchor]
        for child in nested:
            assert section.span.start < child.span.start and child.span.end <= section.span.end
    # Top-level sections (those without a parent) are contiguous and end at end of file.
    roots = [s for s in contract.sections if s.parent is None]
    for before, after in itertools.pairwise(roots):
        assert before.span.end == after.span.start
    if roots:
        assert roots[-1].span.end == len(data)
        assert data[roots[0].span.start :].startswith(b"#")


@settings(max_examples=100, deadline=None)
@given(documents())
def test_anchors_are_unique_and_parsing_is_deterministic(data):
    try:
        first = parse_contract(source_from_bytes("c.md", data))
    except ContractcError:
        return
    anchors = [s.anchor for s in first.sections]
    assert len(anchors) == len(set(anchors))
    assert parse_contract(source_from_bytes("c.md", data)) == first
