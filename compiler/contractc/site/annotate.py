"""The contract's own Markdown with the compiler's anchors written into it.

Every heading gets an explicit ``{#anchor}`` (attr_list), and every receiver
check list item gets its ``{#<shape>-check-<n>}`` on a line of its own at the
end of the item, after a line marking it *mechanised* or **not mechanised**
(whether ``contractc validate`` runs it) and a visible permalink (``§``), so no
site engine ever derives an id differently from the compiler.  A section may
get a note after its heading (the links to the shape and agent pages it
defines).  Raw HTML in the contract (an HTML block, an inline tag) is made
inert: its ``<`` is written ``&lt;``, so the page shows the tag as text and a
contract can never put a script, a handler or a form on the site.  Everything
else is the contract's bytes, unchanged.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from contractc.load.slug import split_explicit
from contractc.model.records import Check, Contract
from contractc.site.code_spans import _apply, spaced_span_edits

_CLOSING_HASHES = re.compile(r"(?:\s+#+)?\s*$")
_ITEM_MARKER = re.compile(r"^(\s*\d+[.)]\s*)")


PERMALINK = '[§](#{anchor} "Permanent link to this check")'


def spaced_spans(contract: Contract) -> list[tuple[int, int, str]]:
    """(start, end, HTML) in bytes of each code span of the contract with an edge space, in order, read
    from the loader's one parse of the contract (:attr:`~contractc.model.records.Contract.blocks`)."""
    text = contract.data.decode("utf-8")
    if "` " not in text and " `" not in text:
        return []
    edits, at, offset = [], 0, 0  # str offsets -> byte offsets, in one pass (the edits are in order)
    for start, stop, html in spaced_span_edits(text, *contract.blocks):
        offset += len(text[at:start].encode("utf-8"))
        width = len(text[start:stop].encode("utf-8"))
        edits.append((offset, offset + width, html))
        offset, at = offset + width, stop
    return edits


def check_markdown(contract: Contract, check: Check, spans: list[tuple[int, int, str]]) -> str:
    """A receiver check's text as its shape page shows it: made inert (:func:`inert_markdown`), with the
    spaced code spans the contract's reading found in the check's list item (``spans``: :func:`spaced_spans`)."""
    text = inert_markdown(check.text)
    edits, at = [], 0
    for start, end, html in spans[bisect_left(spans, (check.span.start,)) :]:  # the spans are in order
        if start >= check.span.end:
            break
        written = contract.data[start:end].decode("utf-8")
        found = text.find(written, at)
        if found >= 0:
            at = found + len(written)
            edits.append((found, at, html))
    return _apply(text, edits)


def annotate_contract(
    contract: Contract, notes: dict[str, str] | None = None, spans: list[tuple[int, int, str]] = ()
) -> str:
    """The contract's Markdown with its anchors; ``notes`` (section anchor -> Markdown) go after headings, and
    ``spans`` (:func:`spaced_spans`, as the contract's page shows them) become HTML that keeps their edge
    spaces; a span that reaches into what a heading's rewrite changes is left as written."""
    notes = notes or {}
    data = contract.data
    edits: list[tuple[int, int, bytes]] = []  # (start, end, replacement)
    in_headings: set[int] = set()
    for section in contract.sections:
        start = section.heading.start
        end = data.find(b"\n", start, section.heading.end)
        end = section.heading.end if end < 0 else end
        if end > start and data[end - 1 : end] == b"\r":
            end -= 1
        line = data[start:end].decode("utf-8")
        text, _ = split_explicit(line)
        if text.lstrip().startswith("#"):
            text = _CLOSING_HASHES.sub("", text)
        kept = _inert_heading(text.rstrip()).encode()
        inside = set(range(bisect_left(spans, (start,)), bisect_left(spans, (end,))))  # a span is in one block
        in_headings |= inside
        if inside and kept == data[start : start + len(kept)]:
            placed = [(s - start, e - start, html.encode()) for s, e, html in (spans[i] for i in sorted(inside))]
            kept = _apply(kept, [edit for edit in placed if edit[1] <= len(kept)])
        edits.append((start, end, kept + f" {{#{section.anchor}}}".encode()))
        note = notes.get(section.anchor)
        if note:
            after = section.heading.end
            newline = b"" if data[:after].endswith(b"\n") else b"\n"
            edits.append((after, after, newline + f"\n{note}\n\n".encode()))
    for shape in contract.text_shapes:
        for i, check in enumerate(shape.checks):
            first = data[check.span.start : data.find(b"\n", check.span.start) + 1 or check.span.end].decode("utf-8")
            marker = _ITEM_MARKER.match(first)
            indent = " " * (len(marker.group(1)) if marker else 3)
            if i == 0 and not _follows_blank_line(data, check.span.start):
                # Python-Markdown, unlike CommonMark, needs a blank line before a list.
                edits.append((check.span.start, check.span.start, b"\n"))
            newline = b"" if data[: check.span.end].endswith(b"\n") else b"\n"
            mark = "*mechanised*" if check.rules else "**not mechanised** (the receiver judges it by reading)"
            if check.rules and check.explicit:
                mark += f", by an explicit rule (`{check.explicit}`)"
            lines = f"{indent}{mark} {PERMALINK.format(anchor=check.anchor)}\n{indent}{{#{check.anchor}}}\n"
            edits.append((check.span.end, check.span.end, newline + lines.encode()))
    edits.extend(_inert_html(contract))
    edits.extend(_inert_links(contract))
    edits.extend((s, e, html.encode()) for i, (s, e, html) in enumerate(spans) if i not in in_headings)
    text = _apply(data, edits).decode("utf-8")
    return text.removeprefix("\ufeff")


def _follows_blank_line(data: bytes, offset: int) -> bool:
    """True when the line before ``offset`` is blank (or there is none)."""
    if offset == 0:
        return True
    # Bounds instead of a copy of everything before ``offset``: called once per shape.
    end = offset - 2 if offset >= 2 and data.startswith(b"\r\n", offset - 2) else offset - 1
    start = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1
    return not data[start:end].strip()


def _inert_html(contract: Contract) -> list[tuple[int, int, bytes]]:
    """An edit per ``<`` of raw HTML (CommonMark's html_block and html_inline), writing it ``&lt;``."""
    data = contract.data
    if not any(_outside_fences(contract, at) for at in _all(data, b"<", 0, len(data))):
        return []  # raw HTML begins with `<`; inside a fenced block (the shapes' templates) a `<` is code
    return _html_edits(contract.path, data, contract.blocks)


def inert_markdown(text: str) -> str:
    """``text`` (Markdown shown on its own: a receiver check on its shape's page) with its raw HTML and its
    links of unsafe schemes made inert, as :func:`_inert_html` and :func:`_inert_links` make a contract's."""
    data = text.encode("utf-8")
    if b"<" not in data and b":" not in data:
        return text
    edits = (_html_edits("<text>", data) if b"<" in data else []) + _link_edits(data)
    return _apply(data, edits).decode("utf-8") if edits else text


def _html_edits(path: str, data: bytes, blocks: tuple | None = None) -> list[tuple[int, int, bytes]]:
    """The edits of :func:`_inert_html` for Markdown ``data``; ``blocks``: its parse, when already made."""
    from contractc.load.blocks import inline_children, parse_blocks
    from contractc.load.source import source_from_bytes

    src = source_from_bytes(path, data)
    edits: list[tuple[int, int, bytes]] = []
    previous = ""
    tokens, env = blocks if blocks is not None else parse_blocks(src.text)
    for token in tokens:
        after_heading, previous = previous == "heading_open", token.type
        if token.map is None or after_heading:  # a heading line is rewritten whole: see _inert_heading
            continue
        start, end = src.offset(token.map[0]), src.offset(token.map[1])
        if token.type == "html_block":
            edits.extend((i, i + 1, b"&lt;") for i in _all(data, b"<", start, end))
        elif token.type == "inline" and "<" in token.content:  # raw HTML inline begins with `<`
            at = start
            for child in inline_children(token, env):
                if child.type != "html_inline":
                    continue
                found = data.find(child.content.encode("utf-8"), at, end)
                if found < 0:
                    continue
                at = found + len(child.content.encode("utf-8"))
                edits.extend((i, i + 1, b"&lt;") for i in _all(data, b"<", found, at))
    return edits


SAFE_SCHEMES = ("http", "https", "mailto")
"""The only link schemes a contract's page keeps; a relative link (no scheme) is kept too."""
BLOCKED = b"#blocked-link"
"""What an unsafe link's destination becomes: a link to nowhere on the same page."""
_DESTINATION = re.compile(
    rb"(?:(?<=\]\()|(?<=\]\(<)|(?m:^ {0,3}\[[^\]\n]+\]:[ \t]*<?)|(?<=<))[ \t]*"
    rb"(?P<dest>(?:[^ \n()<>\\]|\\.|\((?:[^ \n()\\]|\\.)*\))+)"  # a tab does not end it: browsers drop tabs
)
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):")


def _inert_links(contract: Contract) -> list[tuple[int, int, bytes]]:
    """The edits of :func:`_link_edits` for the contract's text outside fenced blocks and headings
    (a heading is rewritten whole, by :func:`_inert_heading`, which makes its links inert too)."""
    data = contract.data
    if b":" not in data:
        return []
    headings = [(s.heading.start, s.heading.end) for s in contract.sections]
    return [
        edit
        for edit in _link_edits(data)
        if _outside_fences(contract, edit[0]) and not any(a <= edit[0] < b for a, b in headings)
    ]


def _link_edits(data: bytes) -> list[tuple[int, int, bytes]]:
    """An edit per link destination whose scheme is not http, https or mailto (``javascript:``, ``data:``,
    ``vbscript:``, ``file:`` ...), so neither mkdocs nor Zensical renders a live link from it: in inline
    links and images and reference definitions the destination becomes :data:`BLOCKED`; an autolink's
    ``<`` is written ``&lt;``, so it shows as the text it was (and a heading keeps its slug).  The scheme
    is read as a browser reads it: HTML entities decoded, tabs, newlines and controls dropped, any case."""
    import html

    edits = []
    for match in _DESTINATION.finditer(data):
        start, end = match.span("dest")
        raw = data[start:end].decode("utf-8", "replace")
        seen = "".join(ch for ch in html.unescape(raw) if ord(ch) > 0x20 and ch != "\x7f").lower()
        scheme = _SCHEME.match(seen)
        if not scheme or scheme.group(1) in SAFE_SCHEMES:
            continue
        before = data[max(0, match.start() - 2) : match.start()]
        if before.endswith(b"<") and not before.endswith(b"(<"):  # an autolink: only when closed by `>`
            if match.start() == start and data[end : end + 1] == b">":
                edits.append((start - 1, start, b"&lt;"))
        else:
            edits.append((start, end, BLOCKED))
    return edits


def _outside_fences(contract: Contract, offset: int) -> bool:
    """Whether ``offset`` lies outside every fenced block the loader found (the shapes' blocks, fences included)."""
    for shape in contract.text_shapes:
        if shape.template is not None and shape.template.start <= offset < shape.template.end:
            return False
    return not any(shape.block.start <= offset < shape.block.end for shape in contract.data_shapes)


def _all(data: bytes, needle: bytes, start: int, end: int) -> list[int]:
    found, at = [], data.find(needle, start, end)
    while at >= 0:
        found.append(at)
        at = data.find(needle, at + 1, end)
    return found


def _inert_heading(text: str) -> str:
    """A heading line with the ``<`` of each inline HTML tag written ``&lt;`` (code spans kept) and its
    unsafe links made inert (:func:`_link_edits`)."""
    if ":" in text:
        text = _apply(text.encode("utf-8"), _link_edits(text.encode("utf-8"))).decode("utf-8")
    if "<" not in text:
        return text
    from contractc.load.contract import markdown  # the full parser the loader made: parseInline needs its inline stage

    inline = markdown().parseInline(text.lstrip("#").strip())[0]
    for child in inline.children or ():
        if child.type == "html_inline":
            text = text.replace(child.content, child.content.replace("<", "&lt;"), 1)
    return text
