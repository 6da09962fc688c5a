"""``contractc explain CODE``: a code's section of the drift-codes page, printed offline.

The page (``docs/drift-codes.md``) ships inside the package as
``contractc/data/drift-codes.md`` (a copy a test keeps byte-identical, so the site and the
command never say different things).  Sections are found by their ``{#code}``
anchors with markdown-it-py's line map, never by a hand-written heading scanner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contractc.report.format import Outcome

_ANCHOR = re.compile(r"\s*\{#([A-Za-z0-9_-]+)\}\s*$")


@dataclass(frozen=True, slots=True)
class CodeSection:
    """One code's documentation."""

    code: str
    title: str
    """The title of the group the code belongs to, e.g. ``Drift: links and anchors (exit 1)``."""
    text: str
    """The section's Markdown below its heading, as written on the page."""


def drift_codes_page() -> str:
    return resources.files("contractc.data").joinpath("drift-codes.md").read_text("utf-8")


@cache
def code_sections() -> dict[str, CodeSection]:
    """Every code section of the page (a level-3 heading with an ``{#anchor}``), by anchor."""
    from markdown_it import MarkdownIt

    text = drift_codes_page()
    lines = text.splitlines(keepends=True)
    tokens = MarkdownIt("commonmark").parse(text)
    headings = [
        (int(t.tag[1]), t.map[0], tokens[i + 1].content)
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.map is not None
    ]
    found: dict[str, CodeSection] = {}
    group = ""
    for n, (level, start, content) in enumerate(headings):
        title = _ANCHOR.sub("", content)
        if level <= 2:
            group = title
        if level != 3 or not _ANCHOR.search(content):
            continue
        end = next((s for lv, s, _ in headings[n + 1 :] if lv <= level), len(lines))
        body = "".join(lines[start + 1 : end]).strip("\n") + "\n"
        code = _ANCHOR.search(content).group(1)
        found[code] = CodeSection(code, group, body)
    return found


def explain(code: str) -> str:
    """The text ``contractc explain CODE`` prints; ``KeyError`` for a code the page does not document."""
    from contractc.report.diagnostics import CODES

    section = code_sections()[code]
    summary = CODES[code][1] if code in CODES else ""
    head = f"{code}: {summary}" if summary else code
    return f"{head}\n{section.title}\n\n{section.text}"


def code_list() -> str:
    """Every code with its one-line summary: ``contractc explain`` without a code."""
    from contractc.report.diagnostics import CODES

    width = max(map(len, CODES))
    rows = [f"  {code.ljust(width)}  exit {int(exit_code)}  {summary}" for code, (exit_code, summary) in sorted(CODES.items())]
    return "Every code contractc can print (`contractc explain CODE` for one):\n" + "\n".join(rows) + "\n"


def explain_page(code: str | None) -> Outcome:
    """``contractc explain [CODE]``: the code's section, the list of every code without one, or for a code
    the page does not document a usage error naming the nearest one."""
    from contractc.report.format import Outcome

    if code is None:
        return Outcome(code_list())
    if code not in code_sections():
        import difflib

        close = difflib.get_close_matches(code, sorted(code_sections()), n=1)
        nearest = f"; did you mean {close[0]}?" if close else ""
        return Outcome(usage=f"contractc has no code {code!r}{nearest} (`contractc explain` lists every code)", parameter="CODE")
    return Outcome(explain(code))
