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

import re
from typing import Any

from contractc.load.blocks import inline_children, parse_blocks

SPACE = (
    '<span class="contractc-space" title="a space" '
    'style="white-space:pre;border-bottom:1px dotted currentColor"> </span>'
)


_LINE_END = re.compile(r"\r\n?|\n")
"""Where CommonMark (markdown-it-py) ends a line: its token maps count these."""


def visible_code_spans(text: str) -> str:
    """``text`` (Markdown) with each code span whose content has an edge space written as HTML."""
    if "` " not in text and " `" not in text:
        return text  # no span can begin or end with a space
    tokens, env = parse_blocks(text)
    return _apply(text, spaced_span_edits(text, tokens, env))


def spaced_span_edits(text: str, tokens: list, env: dict) -> list[tuple[int, int, str]]:
    """(start, end, HTML) of each code span of ``text`` with an edge space, in order; ``tokens`` and
    ``env`` are :func:`~contractc.load.blocks.parse_blocks` of ``text``."""
    starts = [0, *(m.end() for m in _LINE_END.finditer(text))]
    if starts[-1] < len(text):
        starts.append(len(text))
    edits: list[tuple[int, int, str]] = []
    done = 0  # past the last span found: the cells of a table row share their line, not their spans
    for token in tokens:
        # A span found below is written with a backtick next to a space, on one line of its
        # block's content; a block without one holds none, so its inlines are not parsed.
        if token.type != "inline" or token.map is None or ("` " not in token.content and " `" not in token.content):
            continue
        begin, end = starts[token.map[0]], starts[min(token.map[1], len(starts) - 1)]
        cursor = max(begin, done)
        for child in inline_children(token, env):
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
            cursor = done = stop
    return edits


def _apply(text, edits: list[tuple[int, int, Any]]):
    """``text`` (a ``str`` or ``bytes``) with each edit's range replaced, assembled in one pass; the edits do
    not overlap, and one written twice (the ``<`` of an autolink in an HTML block) is applied once."""
    parts, cursor = [], 0
    for start, stop, new in sorted(dict.fromkeys(edits), key=lambda edit: edit[:2]):
        parts += [text[cursor:start], new]
        cursor = stop
    parts.append(text[cursor:])
    return text[:0].join(parts)


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
    return f"<code>{SPACE * lead}{plain_text(core)}{SPACE * trail}</code>"


def plain_text(text: str) -> str:
    """``text`` with every punctuation character as a character reference: no Markdown rule reads it."""
    return "".join(c if c.isalnum() or c == " " or ord(c) > 127 else f"&#{ord(c)};" for c in text)
