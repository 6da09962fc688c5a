"""Code spans that begin or end with a space, written so every engine keeps and shows the space.

CommonMark keeps the space in `` `status: ` `` (it strips one space only from a
span padded on both sides); Python-Markdown, under mkdocs and Zensical, strips
it, and a browser would not show a trailing space anyway.  A receiver check
that says "exactly `status: `" means something else without it.  Such spans
(found with markdown-it-py, the CommonMark reading the compiler uses) become an
HTML ``<code>`` whose edge spaces sit in a marked ``<span>``: the space is still
the character that is copied, and a dotted underline shows it.
"""

from __future__ import annotations

from functools import cache

SPACE = (
    '<span class="contractc-space" title="a space" '
    'style="white-space:pre;border-bottom:1px dotted currentColor"> </span>'
)


def visible_code_spans(text: str) -> str:
    """``text`` (Markdown) with each code span whose content has an edge space written as HTML."""
    if "` " not in text and " `" not in text:
        return text  # no span can begin or end with a space
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits: list[tuple[int, int, str]] = []
    for token in commonmark().parse(text):
        if token.type != "inline" or token.map is None or not token.children:
            continue
        begin, end = starts[token.map[0]], starts[min(token.map[1], len(lines))]
        cursor = begin
        for child in token.children:
            if child.type != "code_inline":
                continue
            content = child.content
            if content == content.strip(" ") or not content.strip(" ") or "\n" in content:
                continue
            found = _find_span(text, child.markup, content, cursor, end)
            if found is None:
                continue
            start, stop = found
            edits.append((start, stop, html_code(content)))
            cursor = stop
    for start, stop, html in reversed(edits):
        text = text[:start] + html + text[stop:]
    return text


@cache
def commonmark():
    """The site's one CommonMark parser (tables on), shared by every page of a run: making one compiles its
    rule chains, which costs more than parsing a contract."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


def _find_span(text: str, ticks: str, content: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the span ``ticks content ticks`` is written in ``text[start:end]`` (padded by one space or not)."""
    for raw in (f"{ticks}{content}{ticks}", f"{ticks} {content} {ticks}"):
        at = text.find(raw, start, end)
        while at != -1:
            after = at + len(raw)
            if text[at - 1 : at] != "`" and text[after : after + 1] != "`":
                return at, after
            at = text.find(raw, at + 1, end)
    return None


def html_code(content: str) -> str:
    """``<code>`` holding ``content``: punctuation as character references so no Markdown rule reads it."""
    core = content.strip(" ")
    lead, trail = len(content) - len(content.lstrip(" ")), len(content) - len(content.rstrip(" "))
    body = "".join(c if c.isalnum() or c == " " or ord(c) > 127 else f"&#{ord(c)};" for c in core)
    return f"<code>{SPACE * lead}{body}{SPACE * trail}</code>"
