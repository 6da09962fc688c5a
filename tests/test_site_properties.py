"""Property: the ids Python-Markdown gives the annotated contract are exactly the compiler's anchors."""

from __future__ import annotations

import posixpath
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from contractc.diagnostics import ContractcError
from contractc.load.contract import parse_contract
from contractc.load.source import source_from_bytes
from contractc.site.annotate import annotate_contract
from contractc.site.pages import _relative_paths
from site_helpers import _Ids

# An underscore only inside a word, as in `task_brief`: Python-Markdown reads one at a word's edge
# as emphasis, which can swallow the {#id} (docs/site.md says so).
title = st.one_of(
    st.text(alphabet=st.sampled_from("abcdeé—x Z9-`*#.:&<>"), min_size=1, max_size=16).filter(
        lambda t: t.strip(" `*#")
    ),
    st.from_regex(r"`?[a-z]+_[a-z]+`?( [a-z]+)?", fullmatch=True),
)
explicit = st.one_of(
    st.none(),
    # the same rule for an explicit id: `{#a:_0_}` is emphasis to Python-Markdown, not an id
    st.from_regex(r"[a-z][a-z0-9_.:-]{0,8}", fullmatch=True).filter(lambda i: not re.search(r"_(?![a-z0-9])|(?<![a-z0-9])_", i)),
)
heading = st.tuples(st.integers(1, 4), title, explicit).map(
    lambda t: "#" * t[0] + " " + t[1].strip() + (f" {{#{t[2]}}}" if t[2] else "")
)
checks = st.lists(
    st.text(alphabet=st.sampled_from("abc `x*<>"), min_size=1, max_size=20).filter(lambda s: s.strip(" `*")),
    min_size=1,
    max_size=4,
)


@st.composite
def contracts(draw):
    blocks = draw(st.lists(heading, min_size=1, max_size=8))
    shape = draw(st.one_of(st.none(), checks))
    if shape is not None:
        items = "\n".join(f"{n}. Line {text.strip()}" for n, text in enumerate(shape, 1))
        blank = draw(st.sampled_from(["\n", ""]))
        blocks.append(
            f"## Shape Return\n\nProduced by `a`; consumed by `b`.\n\n```\nx\n```\n\nReceiver checks:\n{blank}{items}"
        )
    return ("\n\n".join(blocks) + "\n").encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(contracts())
def test_rendered_ids_are_the_compilers_anchors(data):
    import markdown

    try:
        contract = parse_contract(source_from_bytes("c.md", data))
    except ContractcError:
        return
    html = markdown.markdown(annotate_contract(contract), extensions=["attr_list", "toc", "tables", "fenced_code"])
    parser = _Ids()
    parser.feed(html)
    expected = [s.anchor for s in contract.sections]
    for shape in contract.text_shapes:
        expected += [c.anchor for c in shape.checks]
    assert sorted(parser.ids) == sorted(expected), annotate_contract(contract)


# Page links: the memoised fast path must give exactly what posixpath.relpath gives, odd paths included.
path_part = st.sampled_from(["contracts", "shapes", "agents", "a.md", "index.md", "..", ".", ""])
docs_path = st.lists(path_part, max_size=4).map("/".join) | st.sampled_from(["/abs/x.md", "a/", "."])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(docs_path, docs_path.filter(bool)), min_size=1, max_size=6))
def test_page_links_are_relpath(pairs):
    relative = _relative_paths()
    for target, here in pairs + pairs:  # the second pass answers from the memo
        try:
            expected: object = posixpath.relpath(target, here)
        except ValueError as exc:
            expected = str(exc)
        try:
            got: object = relative(target, here)
        except ValueError as exc:
            got = str(exc)
        assert got == expected, (target, here)
