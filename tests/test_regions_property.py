"""Property: build changes nothing outside managed regions, whatever surrounds them."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import write_tree
from contractc.emit.filled import render_target
from contractc.load import load_project
from contractc.load.references import region_bytes
from contractc.load.targets import indented, region_held, region_indent, scan_regions
from contractc.model.records import TargetFile
from region_project import project_files

REFS = [
    "shape=report",
    "bundle=echoreturn",
    "section=contracts/returns.md#overview,building",
    "shape=planning.task_brief",
    "shape=echoreturn",
]
EOLS = ["\n", "\r\n", "\r"]

# Any text but a marker line; line breaks are added by the strategy, in the file's own style.
line = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=30).filter(
    lambda s: "contractc:" not in s
)
lines = st.lists(line, max_size=5)
blank = st.sampled_from(["", " ", "\t", "  \t"])


@st.composite
def target(draw) -> bytes:
    eol = draw(st.sampled_from(EOLS))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    parts = [bom] + [text + eol for text in draw(lines)]
    for _ in range(draw(st.integers(1, 3))):
        ref = draw(st.sampled_from(REFS))
        sha = draw(st.sampled_from(["", " sha256=" + "ab" * 32]))
        parts.append(f"{draw(blank)}<!-- contractc:begin {ref}{sha} -->{draw(blank)}{eol}")
        parts += [text + draw(st.sampled_from(EOLS)) for text in draw(lines)]  # old contents: any line ending
        parts.append(f"{draw(blank)}<!-- contractc:end -->{draw(blank)}{eol}")
        parts += [text + eol for text in draw(lines)]
    tail = draw(line)  # maybe no final newline
    return ("".join(parts) + tail).encode("utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return load_project(write_tree(tmp_path_factory.mktemp("p"), project_files()))


def outside(data: bytes, contracts) -> list[bytes]:
    """The file's bytes with each begin marker and each region's contents cut out."""
    pieces, done = [], 0
    for region in scan_regions("t.md", data, contracts):
        pieces.append(data[done : region.marker.start])
        pieces.append(data[region.marker.end : region.content.start])
        done = region.content.end
    return [*pieces, data[done:]]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=target())
def test_bytes_outside_regions_never_change(project, data):
    before = TargetFile("t.md", data, scan_regions("t.md", data, project.contracts))
    out = render_target(project, before)
    after = TargetFile("t.md", out, scan_regions("t.md", out, project.contracts))
    assert outside(out, project.contracts) == outside(data, project.contracts)
    # a region whose begin marker is indented holds the contract's bytes re-indented alike (a region in a list item)
    assert [region_held(out, r) for r in after.regions] == [region_bytes(project, r) for r in before.regions]
    assert [out[r.content.start : r.content.end] for r in after.regions] == [
        indented(region_bytes(project, r), region_indent(data, r)) for r in before.regions
    ]
    assert render_target(project, after) == out  # a second build changes nothing


FRAGMENTS = [
    b"<!-- contractc:begin shape=report -->",
    b"<!-- contractc:begin bundle=echoreturn sha256=" + b"0" * 64 + b" -->",
    b"<!-- contractc:end -->",
    b"<!-- contractc:end shape=report -->",
    b"<!--contractc:begin",
    b"<!-- contractc:",
    b"-->",
    b"\r\n",
    b"\n",
    b"\r",
    b" ",
    b"\xef\xbb\xbf",
    b"\xff",
    b"```yaml\nreport:\n",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.binary(max_size=8)), max_size=25))
def test_any_bytes_give_regions_or_located_marker_errors_never_a_crash(project, pieces):
    from contractc.report.diagnostics import ContractcError
    from contractc.drift.restatements import _blocks

    data = b"".join(pieces)
    try:
        regions = scan_regions("t.md", data, project.contracts)
    except ContractcError as exc:
        assert all(d.path == "t.md" and 1 <= d.line <= data.count(b"\n") + data.count(b"\r") + 1 for d in exc.diagnostics)
        return
    render_target(project, TargetFile("t.md", data, regions))
    list(_blocks(data))
