"""The contract model: immutable values produced by ``load`` and read by ``emit``.

Every object keeps the :class:`Span` it came from, so any section, block or
check can be sliced from the source bytes exactly and every message can be
located.  Nothing here does I/O.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from contractc.checks.rules import Rule


@dataclass(frozen=True, slots=True)
class Span:
    """Where something is in a source file."""

    path: str
    """Project-relative POSIX path."""
    line: int
    """1-based line of the first character."""
    col: int
    """1-based column of the first character."""
    start: int
    """Byte offset of the first byte (inclusive)."""
    end: int
    """Byte offset past the last byte (exclusive)."""


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and everything up to the next heading of the same or higher level."""

    anchor: str
    """Stable id: the explicit ``{#id}`` or the Python-Markdown toc slug of the title."""
    title: str
    """Heading text as rendered (markup and any ``{#id}`` removed)."""
    level: int
    """1 for ``#``, 2 for ``##`` ..."""
    span: Span
    """From the heading line to the next heading of the same or higher level."""
    heading: Span
    """The heading line(s) alone."""
    explicit: bool = False
    """True when the author wrote the anchor as ``{#id}``."""
    parent: str | None = None
    """Anchor of the enclosing section, if any."""


@dataclass(frozen=True, slots=True)
class Check:
    """One numbered receiver check of a text shape."""

    number: int
    """The number the author gave the item (``1.`` -> 1)."""
    text: str
    """The item's source text with the list marker removed and lines joined by newlines."""
    span: Span
    """The whole list item."""
    anchor: str
    """``<shape-anchor>-check-<number>``."""
    rules: tuple[Rule, ...] | None = None
    """The check compiled from its prose (:mod:`contractc.checks.rules`); None when it is not mechanised."""


@dataclass(frozen=True, slots=True)
class TextShape:
    """A return format shown in a fenced block with receiver checks."""

    id: str
    """Unique id in the project: the section anchor."""
    name: str
    """The section title, e.g. ``ConsultationReturn``."""
    section: str
    """Anchor of the section that defines it."""
    producer: str
    """The agent that produces it."""
    qualifier: str
    """Words after the producer (``in audit mode``); empty when none."""
    consumers: tuple[str, ...]
    """The skills or agents that consume it."""
    template: Span | None
    """The fenced template block, fences included."""
    checks: tuple[Check, ...]
    """The receiver checks in source order."""
    span: Span
    """The ``Produced by ...`` line."""
    kind: Literal["text"] = "text"


@dataclass(frozen=True, slots=True)
class Node:
    """A value in a data-shape block as written, before any notation is interpreted."""

    kind: Literal["scalar", "map", "seq", "absent"]
    """``absent`` is a key written without a value (``{ name, summary }``)."""
    line: int
    """1-based file line."""
    col: int
    """1-based file column."""
    text: str = ""
    """A scalar's value as a string (``null`` for YAML null)."""
    quoted: bool = False
    """The scalar was written in quotes (``"YYYY-MM-DD"``)."""
    block: bool = False
    """A literal or folded block scalar (``key: |``)."""
    fields: tuple[Field, ...] = ()
    """A mapping's keys in source order."""
    items: tuple[Node, ...] = ()
    """A sequence's items."""


@dataclass(frozen=True, slots=True)
class Field:
    """One key of a data shape and the comment the author attached to it."""

    name: str
    value: Node
    comment: str
    """The attached comment without ``#`` markers; continuation lines joined by a space."""
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class DataShape:
    """A fenced YAML block whose single top-level key names the shape."""

    id: str
    """Unique id: the key, or ``<section-anchor>.<key>`` when the key is used in several sections."""
    key: str
    """The top-level key, e.g. ``generation_brief``."""
    section: str
    """Anchor of the innermost section holding the block."""
    block: Span
    """The fenced block, fences included."""
    body: Span
    """The YAML between the fences."""
    root: Field
    """The top-level key and its value."""
    kind: Literal["data"] = "data"


Shape = TextShape | DataShape


@dataclass(frozen=True, slots=True)
class Contract:
    """One parsed contract document."""

    path: str
    """Project-relative POSIX path."""
    sha256: str
    """SHA-256 of the exact bytes."""
    title: str
    """The first level-1 heading, or the file name."""
    sections: tuple[Section, ...]
    shapes: tuple[Shape, ...]
    shared: tuple[str, ...]
    """Anchors of the sections that travel with every dispatch, in source order."""
    data: bytes = field(repr=False, default=b"")
    """The source bytes, for slicing."""
    _index: dict[tuple[str, str], Section | Shape] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """Sections by ``("section", anchor)`` and shapes by ``("shape", id)``, first of each, filled on first
    lookup: a lookup per shape or region is then a dict access, not a scan of the whole contract."""

    def _indexed(self) -> dict[tuple[str, str], Section | Shape]:
        if not self._index:
            for s in self.sections:
                self._index.setdefault(("section", s.anchor), s)
            for shape in self.shapes:
                self._index.setdefault(("shape", shape.id), shape)
        return self._index

    def section(self, anchor: str) -> Section:
        return self._indexed()[("section", anchor)]

    def has_section(self, anchor: str) -> bool:
        return ("section", anchor) in self._indexed()

    def shape(self, shape_id: str) -> Shape:
        return self._indexed()[("shape", shape_id)]

    def sections_of(self, shape: Shape) -> list[Section]:
        """The sections a shape's bundle is cut from: the shared ones and the shape's own, in source order."""
        index = self._indexed()
        held = (index.get(("section", a)) for a in {*self.shared, shape.section})
        return sorted((s for s in held if s is not None), key=lambda s: s.span.start)

    def slice(self, span: Span) -> bytes:
        return self.data[span.start : span.end]

    @property
    def text_shapes(self) -> tuple[TextShape, ...]:
        return tuple(s for s in self.shapes if isinstance(s, TextShape))

    @property
    def data_shapes(self) -> tuple[DataShape, ...]:
        return tuple(s for s in self.shapes if isinstance(s, DataShape))

    def bundle(self, shape: Shape) -> bytes:
        """The dispatch bundle: shared sections plus the shape's section, sliced, in source order."""
        spans = [s.span for s in self.sections_of(shape)]
        parts, end = [], 0
        for span in spans:
            if span.start >= end:  # a section nested in one already taken is not repeated
                parts.append(self.data[span.start : span.end])
                end = span.end
        return b"".join(parts)


RegionKind = Literal["shape", "section", "bundle"]


@dataclass(frozen=True, slots=True)
class Region:
    """A managed region of a target file: begin marker, generated bytes, end marker."""

    kind: RegionKind
    """What the begin marker names: a shape's block, sections, or a shape's dispatch bundle."""
    ref: str
    """The reference as written after ``kind=`` (``findingsreturn``, ``contracts/x.md#scope``)."""
    recorded: str | None
    """The ``sha256=`` on the begin marker: the hash of the bytes build last put in; None before the first build."""
    marker: Span
    """The begin marker itself, ``<!--`` to ``-->`` (what build rewrites); ``line`` is the marker's line."""
    content: Span
    """The bytes between the begin marker's line and the end marker's line."""
    sources: tuple[Span, ...] | None
    """Contract slices (their ``path`` names the contract) that fill the region, in order;
    for a bundle, the shape's section span; None when the reference no longer resolves."""
    missing: str = ""
    """Why the reference does not resolve (only when ``sources`` is None)."""

    @property
    def label(self) -> str:
        return f"{self.kind}={self.ref}"


@dataclass(frozen=True, slots=True)
class TargetFile:
    """A file matched by ``targets:``: user-owned bytes, possibly holding managed regions."""

    path: str
    data: bytes = field(repr=False)
    regions: tuple[Region, ...]


@dataclass(frozen=True, slots=True)
class RoleFile:
    """An agent's role file (``agents:`` in the configuration)."""

    agent: str
    path: str
    data: bytes = field(repr=False)
    body_start: int
    """Byte offset where the body starts: past the YAML front matter, or 0 when there is none."""


@dataclass(frozen=True, slots=True)
class PinRecord:
    """What ``prompts/manifest.json`` recorded about a pinned contract's bytes."""

    sha256: str
    sections: dict[str, str]
    """Anchor -> SHA-256 of the section's own bytes (heading to its first subsection)."""


@dataclass(frozen=True, slots=True)
class Project:
    """Everything the emitters need: the configuration and every parsed contract."""

    config: Config
    contracts: tuple[Contract, ...]
    targets: tuple[TargetFile, ...] = ()
    """Every file matched by ``targets:``, with its managed regions, in path order."""
    roles: tuple[RoleFile, ...] = ()
    """Role files by agent (``agents:``), sorted by agent."""
    pins: dict[str, PinRecord] = field(default_factory=dict)
    """Contract path -> the section hashes recorded while its bytes matched its pin."""
    root: str = "."
    """The project root as given to the loader, for the few emitters that read project files
    (the site's template override folder)."""

    def shapes(self) -> list[tuple[Contract, Shape]]:
        return [(c, s) for c in self.contracts for s in c.shapes]

    def contract(self, path: str) -> Contract:
        return next(c for c in self.contracts if c.path == path)

    def target(self, path: str) -> TargetFile | None:
        """The target file at ``path`` (a binary search: targets are in path order)."""
        i = bisect_left(self.targets, path, key=lambda t: t.path)
        return self.targets[i] if i < len(self.targets) and self.targets[i].path == path else None


@dataclass(frozen=True, slots=True)
class ContractEntry:
    path: str
    shared: tuple[str, ...]
    sha256: str | None
    """A pinned SHA-256, when the configuration pins one."""
    span: Span
    """Where the entry is in contractc.yaml."""


@dataclass(frozen=True, slots=True)
class Config:
    """The validated ``contractc.yaml``."""

    path: str
    contracts: tuple[ContractEntry, ...]
    out: dict[str, str]
    """Output folders by kind (``prompts``, ``schemas`` ...), project-relative."""
    site_url: str
    raw: dict
    """The whole validated document, for the keys later stages read."""
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    """1-based (line, column) of every key path, e.g. ``$.contracts[0].path``."""
    docs_url: str = ""
    """Where the drift-codes page is published (``docs_url``); empty: messages carry no link."""

    def where(self, key_path: str) -> Span:
        """The span of a key path (``$.out.prompts``), for locating messages about it."""
        line, col = self.positions.get(key_path, (1, 1))
        return Span(self.path, line, col, 0, 0)
