"""Property: the ids Python-Markdown gives the annotated contract are exactly the compiler's anchors."""

from __future__ import annotations

import posixpath
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from contractc.report.diagnostics import ContractcError
from contractc.load.contract import parse_contract
from contractc.load.source import source_from_bytes
from contractc.site.annotate import annotate_contract
from contractc.emit.site import _relative_paths
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


# Markdown made of what decides where a code span or a raw HTML tag is: backticks next to spaces
# and line ends, table pipes, quote and list markers, indentation, HTML and reference definitions.
_PIECES = ["`", "``", " ", "  ", "\n", "a", "x:", "|", "|---|", "> ", "- ", "1. ", "    ", "<b>", "</b>",
           '<span title="` ', '">', "<div>", "\\`", "[r]", "\n[r]: /u '` t `'\n", "```", "#", "\t", "\r\n", "*"]
# A block is a few pieces, most of them backticks, spaces, letters and line ends, so that a block
# often holds one span and nothing else next to a backtick.
markdown_pieces = st.lists(
    st.lists(st.one_of(st.sampled_from(["`", " ", "a", "\n"]), st.sampled_from(_PIECES)), max_size=12).map("".join),
    max_size=5,
).map("\n\n".join)


def _full_parse_spans(text: str) -> str:
    """What the site wrote before it parsed inline content selectively: every block's inlines, from one full parse."""
    from markdown_it import MarkdownIt

    from contractc.site.code_spans import _apply, _find_span, html_code

    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits, done = [], 0
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type != "inline" or token.map is None or not token.children:
            continue
        begin, end = starts[token.map[0]], starts[min(token.map[1], len(lines))]
        cursor = max(begin, done)
        for child in token.children:
            content = child.content
            if child.type != "code_inline" or content == content.strip(" ") or not content.strip(" ") or "\n" in content:
                continue
            found = _find_span(text, child.markup, content, cursor, end)
            if found is not None:
                edits.append((found[0], found[1], html_code(content)))
                cursor = done = found[1]
    return _apply(text, edits)


@settings(max_examples=400, deadline=None)
@given(markdown_pieces)
def test_spaced_code_spans_are_those_a_full_commonmark_parse_finds(text):
    """The site parses the inline content of a block only when it could hold a spaced span: the page is unchanged."""
    from contractc.site.code_spans import visible_code_spans

    assert visible_code_spans(text) == _full_parse_spans(text)


@settings(max_examples=300, deadline=None)
@given(markdown_pieces)
def test_a_blocks_inline_tokens_are_the_full_parsers(text):
    """Code spans and raw HTML tags, which the site rewrites, are read exactly as a full parse reads them."""
    from markdown_it import MarkdownIt

    from contractc.load.blocks import inline_children, parse_blocks

    full = [t for t in MarkdownIt("commonmark").enable("table").parse(text) if t.type == "inline"]
    tokens, env = parse_blocks(text)
    blocks = [t for t in tokens if t.type == "inline"]
    assert [(t.content, t.map) for t in blocks] == [(t.content, t.map) for t in full]
    for block, whole in zip(blocks, full):
        wanted = [(c.type, c.content, c.markup) for c in whole.children if c.type in ("code_inline", "html_inline")]
        got = [(c.type, c.content, c.markup) for c in inline_children(block, env) if c.type in ("code_inline", "html_inline")]
        assert got == wanted


fence_lines = st.lists(
    st.lists(
        st.sampled_from(
            ["```", "~~~", "````", "`", "yaml", " example", " {.a .b}", "{", "}", " x=1", ' t="a b"', "\\", "&amp;",
             "&#96;", "{&#125;}", "&#123;", "> ", "- ", "1. ", "    ", " ", "\t", "a", "é", "\ufeff"]
        ),
        max_size=6,
    ).map("".join),
    max_size=12,
).flatmap(lambda lines: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda end: end.join(lines)))


@settings(max_examples=400, deadline=None)
@given(fence_lines)
def test_fences_the_site_would_show_as_text_are_those_a_commonmark_parse_finds(text):
    """The `site-fence` warning names every fence a full CommonMark parse finds that superfences shows as text."""
    from markdown_it import MarkdownIt

    from contractc.load.blocks import parse_blocks
    from contractc.site.warnings import RENDERED_INFO, unrendered_fence_labels

    parsed = [
        (t.map[0] + 1, t.info.strip())
        for t in MarkdownIt("commonmark").enable("table").parse(text)
        if t.type == "fence" and not RENDERED_INFO.match(t.info.strip())
    ]
    assert unrendered_fence_labels(parse_blocks(text)[0]) == parsed


span_prose = st.lists(
    st.one_of(st.sampled_from(["`", " ", "a", "\n", "``"]), st.sampled_from(
        ["`x `", "` y`", "|", "|---|\n", "> ", "- ", "    ", "[r]", "[r]: /u\n", "<b>", "a < b", "\\`", "*", "#", "\r\n",
         "{#z}", " ##", "\u2028", "&#96;", '<a title="`', '` x">', "[` x`][r]"]
    )),
    max_size=10,
).map("".join)


@st.composite
def spanned_contracts(draw):
    """Contracts whose headings, prose and receiver checks hold code spans with and without edge spaces."""
    blocks = []
    for level, words, prose in draw(st.lists(st.tuples(st.integers(1, 3), span_prose, span_prose), min_size=1, max_size=5)):
        blocks += ["#" * level + " Title " + words.replace("\n", " ").replace("\r", " "), prose]
    shape = draw(st.one_of(st.none(), st.lists(span_prose.map(lambda t: t.replace("\n", " ").replace("\r", " ")), min_size=1, max_size=3)))
    if shape is not None:
        items = "\n".join(f"{n}. Line begins `x: ` {text}" for n, text in enumerate(shape, 1))
        blank = draw(st.sampled_from(["\n", ""]))
        blocks.append(f"## Shape Return\n\nProduced by `a`; consumed by `b`.\n\n```\nx\n```\n\nReceiver checks:\n{blank}{items}")
    return ("\n\n".join(blocks) + "\n").encode("utf-8")


@settings(max_examples=400, deadline=None)
@given(spanned_contracts(), st.booleans())
def test_a_contract_page_is_its_annotated_text_with_visible_spans(data, with_notes):
    """Spans found in the contract's own text land where the annotated text's own reading puts them.

    Raw HTML is the exception, by design: made inert, its backticks may read as a span in the annotated
    text, but the page's spans are the contract's own reading (the loader's one parse)."""
    from hypothesis import assume

    from contractc.site.annotate import spaced_spans
    from contractc.site.code_spans import visible_code_spans

    assume(b"<" not in data)
    try:
        contract = parse_contract(source_from_bytes("c.md", data))
    except ContractcError:
        return
    notes = {s.anchor: "*Shape page:* [Return](shapes/x.md), produced by [`a`](agents/a.md)" for s in contract.sections} if with_notes else {}
    assert annotate_contract(contract, notes, spaced_spans(contract)) == visible_code_spans(annotate_contract(contract, notes))


@settings(max_examples=400, deadline=None)
@given(
    spanned_contracts(),
    st.sampled_from(["", "**Cite form.** A cite reads `[<n>] <title>`.\n", "**Cite form.**\n\n```\n[<n>]\n```\n", "# T \\* &amp; `a` {#t}\n"]),
)
def test_the_loader_reads_a_contract_as_a_full_parse_does(data, extra):
    """The loader parses inline content only where it reads it (titles, forms): the contract it builds is the same."""
    from unittest import mock

    from contractc.load import contract as loader

    data = extra.encode() + data.replace(b"Line begins `x: ` ", b"Every bullet carries the cite form; line begins `x: ` ", 1)
    try:
        with mock.patch.object(loader, "_parse", lambda text: (loader.markdown().parse(text), {})):
            full = parse_contract(source_from_bytes("c.md", data))
    except ContractcError as exc:
        full = exc.diagnostics
    try:
        ours = parse_contract(source_from_bytes("c.md", data))
    except ContractcError as exc:
        ours = exc.diagnostics
    assert ours == full
