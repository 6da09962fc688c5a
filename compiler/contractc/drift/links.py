"""Link checking for ``contractc check``: every link into a contract or the site names a real anchor.

Registered as the ``links`` finder of :data:`contractc.drift.FINDERS` (the contracts)
and of :data:`contractc.drift.TARGET_FINDERS` (each target file, as the pass reaches it).
A citation is ``contracts/x.md#anchor`` (a path to a configured contract,
relative to the file it is written in) or ``<site_url><page>#anchor``.  Files
are scanned as bytes with regular expressions, never parsed as Markdown, so
this stays cheap on the ``check`` path; the valid anchors come from
:class:`~contractc.model.layout.Layout` of the project (laid out once a file may cite), the same
layout the pages are rendered from.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from contractc.report.diagnostics import Diagnostic
from contractc.model.records import Project, TargetFile

if TYPE_CHECKING:
    from contractc.model.layout import Layout

# Compiled on first use (through the re module's cache): only a file that may link into the contracts or the
# site is searched, and most prompt files hold no such link.
_INLINE = rb"\]\(\s*<?([^)\s>]+)"
_REFERENCE = rb"(?m)^[ ]{0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)"
_BARE_URL = rb"https?://[^\s)>\]\"'`]+"


def find_dangling_links(project: Project) -> list[Diagnostic]:
    """A ``drift-link`` diagnostic for every dangling citation in the contracts.

    A link to ``#anchor`` inside a shape's block is the block's own (a report template's table of contents
    links the report's headings): it names no anchor of the contract, and is not checked."""
    find = DanglingLinks(project).find
    found = []
    for contract in project.contracts:
        blocks = [(b.start, b.end) for b in (s.template if s.kind == "text" else s.block for s in contract.shapes) if b is not None]
        found += find(contract.path, contract.data, blocks)
    return found


class DanglingLinks:
    """The finder of dangling citations in one target file (called with a target; ``quiet`` asks its bytes first)."""

    __slots__ = ("_project", "_site_url", "_index")

    def __init__(self, project: Project):
        self._project = project
        self._site_url = project.config.site_url.encode("utf-8")
        self._index: _Index | None = None  # built when a file first may cite: most projects' targets never do

    def __call__(self, target: TargetFile) -> list[Diagnostic]:
        return self.find(target.path, target.data)

    def quiet(self, data: bytes, managed: list[tuple[int, int]]) -> bool:
        """True when ``data`` cites nothing (:meth:`contractc.drift.TargetFind.quiet`); the regions do not matter."""
        return _cites_nothing(data, self._site_url)

    def find(self, path: str, data: bytes, blocks: list[tuple[int, int]] = ()) -> list[Diagnostic]:
        """The dangling citations in the file ``path`` holding ``data``; a ``#anchor`` link within one of the
        (start, end) byte ranges ``blocks`` is that block's own, and not one."""
        if _cites_nothing(data, self._site_url):
            return []
        if self._index is None:
            from contractc.model.layout import site_layout

            self._index = _Index(self._project, site_layout(self._project))
        problems = []
        for offset, target in _links(data):
            if target.startswith("#") and any(start <= offset < end for start, end in blocks):
                continue
            message = self._index.dangling(path, target)
            if message:
                line = data.count(b"\n", 0, offset) + 1
                col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
                problems.append(Diagnostic(path, line, col, "drift-link", message[0], message[1]))
        return problems


def _cites_nothing(data: bytes, site_url: bytes) -> bool:
    """Whether ``data`` surely holds no citation, decided by byte searches before any regex runs.

    A link needs ``](`` or ``]:`` (found from the ``]`` bytes: a one-byte search is the fastest there is),
    and a bare URL is judged only under the site_url: a file with none of them (most prompt files) is
    passed before the ``#`` marks are looked at (:func:`_may_cite`).
    """
    at = data.find(b"]")
    while at != -1 and data[at + 1 : at + 2] not in (b"(", b":"):
        at = data.find(b"]", at + 1)
    if at == -1:
        return not (b"/" in data and site_url in data)
    return not _may_cite(data, site_url)


def _may_cite(data: bytes, site_url: bytes) -> bool:
    """Whether ``data`` may hold a citation; most target files hold none, and this keeps the regexes off them.

    A citation names the site (``<site_url>page#anchor``: the URL ends with ``/``, a one-byte search
    first) or puts its ``#`` right after ``.md``, ``(`` or ``: ``.  Short needles like those are slow to
    search for in prose, so the ``#`` bytes are found instead and their left side looked at.
    """
    if b"/" in data and site_url in data:
        return True
    at = data.find(b"#")
    while at != -1 and not data.endswith((b".md", b"(", b": "), 0, at):
        at = data.find(b"#", at + 1)
    return at != -1


def _links(data: bytes) -> list[tuple[int, str]]:
    """(byte offset, target) of every link or bare URL holding a ``#``."""
    found: dict[int, bytes] = {}
    for matches in (re.finditer(_INLINE, data), re.finditer(_REFERENCE, data), re.finditer(_BARE_URL, data)):
        for m in matches:
            start = m.start(1) if m.re.groups else m.start()
            found.setdefault(start, m.group(1) if m.re.groups else m.group())
    return [(offset, target.decode("utf-8", "replace")) for offset, target in sorted(found.items()) if b"#" in target]


class _Index:
    """Which anchors each contract and each site URL offers."""

    def __init__(self, project: Project, layout: Layout):
        from contractc.model.layout import named_prefix, site_relative_url  # needed only once a file may cite

        config = project.config
        self.site_url = config.site_url
        self.contract_pages = {p.key: p.path for p in layout.pages if p.kind == "contract"}
        self.by_url = {site_relative_url(config, p.path).rstrip("/"): p.path for p in layout.pages}
        # The site's own area under site_url: all of it when site_url already names the prefix.
        self.prefix = "" if named_prefix(config) else layout.prefix
        # Each page's anchors, gathered in one walk: a citation costs a lookup, not a walk of the whole site.
        self.anchors: dict[str, set[str]] = {}
        for anchor in layout.anchors:
            self.anchors.setdefault(anchor.page, set()).add(anchor.id)
        self.ranked: dict[str, list[str]] = {}
        """A page's anchors sorted, for the suggestion, made when the page is first cited wrongly."""

    def dangling(self, source: str, target: str) -> tuple[str, str] | None:
        """(message, hint) when ``target`` points into the contracts or the site at a missing anchor."""
        address, _, anchor = target.partition("#")
        if address.startswith(("http://", "https://")):
            if not address.startswith(self.site_url):
                return None
            rel = address[len(self.site_url) :].split("?")[0]
            key = rel.removesuffix("index.html").removesuffix(".html").rstrip("/")
            page = self.by_url.get(key) or self.by_url.get(key + "/index")
            if page is None:
                if self.prefix and not (key + "/").startswith(self.prefix + "/"):
                    return None  # a page of the project's own docs: not ours to judge
                return f"link {target} names no page of the contract site", "see anchors.json for every page and anchor"
            return self._missing(target, page, anchor, page)
        if address.startswith(("mailto:", "ftp:", "//")) or re.match(r"^[a-z][a-z0-9+.-]*:", address):
            return None
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(source), address)) if address else source
        page = self.contract_pages.get(resolved)
        if page is None:
            return None
        return self._missing(target, page, anchor, resolved)

    def _missing(self, target: str, page: str, anchor: str, where: str) -> tuple[str, str] | None:
        import difflib

        known = self.anchors.get(page, set())
        if anchor in known:
            return None
        ranked = self.ranked.get(page)
        if ranked is None:
            ranked = self.ranked[page] = sorted(known)
        close = difflib.get_close_matches(anchor, ranked, n=1)
        hint = f"did you mean #{close[0]}?" if close else "see anchors.json for every anchor"
        return (
            f"link {target} names no anchor {anchor!r} of {where}",
            f"{hint} (edit the link; anchors come from the contract's headings and checks)",
        )
