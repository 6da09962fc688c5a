"""The contract model: immutable values produced by ``load`` and read by ``emit``.

Every object keeps the :class:`Span` it came from, so any section, block or
check can be sliced from the source bytes exactly and every message can be
located.  Nothing here does I/O.

The values are typed, immutable records, frozen dataclasses (a change is
``dataclasses.replace(x, ...)``).  :class:`Contract` and :class:`Project` keep
what they derive on first use (a lookup index, the contracts by path) as a
``functools.cached_property``, so they have no slots; a ``replace`` starts
without it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal


def _empty() -> Mapping:
    return MappingProxyType({})


if TYPE_CHECKING:
    from contractc.model.checks.rules import Rule


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
    rules: "tuple[Rule, ...] | None" = None
    """The check compiled from its prose (:mod:`contractc.model.checks.rules`); None when it is not mechanised."""
    unread: tuple[str, ...] = ()
    """Why a check is not mechanised: the words of its prose no phrasing reads (quoted as written), or
    what it names that the contract lacks; empty for a mechanised check."""

    explicit: str = ""
    """Where the check's explicit rule is written (``contracts/x.checks.yaml:4``); empty when its rules
    are read from its prose."""

    @property
    def mechanised(self) -> bool:
        """Every clause of the check was read into ``rules``: `validate` runs it, whole.  A check is never
        half mechanised: one unread clause leaves ``rules`` None."""
        return self.rules is not None


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
    fields: "tuple[Field, ...]" = ()
    """A mapping's keys in source order."""
    items: "tuple[Node, ...]" = ()
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
    spec: "Spec | None" = None
    """The notation interpreted (stage 2, :mod:`contractc.model.notation`): set by ``load`` on every shape it returns."""
    kind: Literal["data"] = "data"


Kind = Literal[
    "string", "text", "example", "date", "datetime", "integer", "number", "boolean", "null",
    "enum", "array", "object", "any", "ref", "open",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Spec:
    """What one value of a data shape may be: the notation, interpreted."""

    kind: Kind
    line: int
    col: int
    enum: tuple[str, ...] = ()
    """Allowed values of an ``enum``."""
    examples: tuple[Any, ...] = ()
    """Literal values the contract wrote (``FR-001``, ``8``), in source order."""
    items: "tuple[Spec, ...]" = ()
    """An array's item variants; empty when any item is allowed."""
    props: "tuple[Prop, ...]" = ()
    """An object's keys in source order."""
    open: bool = False
    """An object that also accepts keys the contract does not list."""
    ref: str = ""
    """The id of the shape a ``ref`` points at."""
    written: str = ""
    """The placeholder as written (``{ ...full x... }``), quoted in descriptions."""
    nullable: bool = False
    """``null`` is also allowed (``string | null``, or a ``# ← NULLABLE`` comment)."""


@dataclass(frozen=True, slots=True)
class Prop:
    """One key of an object."""

    name: str
    spec: Spec
    comment: str
    """The attached comment, the property's description."""
    optional: str = ""
    """Why the key may be absent: the rule that matched its comment; empty when required."""
    transient: bool = False
    """In flight only: in the wire schema, never in the artifact schema."""
    default: Any = None
    has_default: bool = False
    line: int = 0
    """1-based file line of the key."""
    col: int = 0


@dataclass(frozen=True, slots=True)
class ShapeSpec:
    """A data shape with its notation interpreted, and where it comes from (what schemas and the site read)."""

    id: str
    key: str
    contract: str
    """Project-relative path of the contract."""
    sha256: str
    """SHA-256 of the shape's own fenced block (fences included): its schemas' provenance, which an edit
    anywhere else in the contract leaves as it is."""
    section: str
    line: int
    comment: str
    spec: Spec

    def has_transient(self, specs: "dict[str, ShapeSpec]") -> bool:
        """True when the shape or a shape it refers to has a transient field (so it has an artifact schema)."""
        return _has_transient(self.spec, specs, {self.id})


def _has_transient(spec: Spec, specs: dict[str, ShapeSpec], seen: set[str]) -> bool:
    if spec.kind == "ref" and spec.ref not in seen:
        return _has_transient(specs[spec.ref].spec, specs, seen | {spec.ref})
    return any(p.transient or _has_transient(p.spec, specs, seen) for p in spec.props) or any(
        _has_transient(i, specs, seen) for i in spec.items
    )


Shape = TextShape | DataShape


@dataclass(frozen=True)
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
    data: bytes = field(default=b"", repr=False)
    """The source bytes, for slicing."""
    blocks: "tuple[list, dict] | None" = field(default=None, repr=False, compare=False)
    """The loader's one CommonMark reading of the contract (:func:`contractc.load.blocks.parse_blocks`: its
    block tokens and their ``env``), handed down to the stages that read its Markdown again (the site)."""

    @cached_property
    def _index(self) -> dict[tuple[str, str], "Section | Shape"]:
        """Sections by ``("section", anchor)`` and shapes by ``("shape", id)``, first of each, made on first
        lookup: a lookup per shape or region is then a dict access, not a scan of the whole contract."""
        index: dict[tuple[str, str], Section | Shape] = {}
        for s in self.sections:
            index.setdefault(("section", s.anchor), s)
        for shape in self.shapes:
            index.setdefault(("shape", shape.id), shape)
        return index

    def section(self, anchor: str) -> Section:
        return self._index[("section", anchor)]

    def has_section(self, anchor: str) -> bool:
        return ("section", anchor) in self._index

    def shape(self, shape_id: str) -> Shape:
        return self._index[("shape", shape_id)]

    def sections_of(self, shape: Shape) -> list[Section]:
        """The sections a shape's bundle is cut from: the shared ones and the shape's own, in source order."""
        held = (self._index.get(("section", a)) for a in {*self.shared, shape.section})
        return sorted((s for s in held if s is not None), key=lambda s: s.span.start)

    def slice(self, span: Span) -> bytes:
        return self.data[span.start : span.end]

    @property
    def text_shapes(self) -> tuple[TextShape, ...]:
        return tuple(s for s in self.shapes if isinstance(s, TextShape))

    @property
    def data_shapes(self) -> tuple[DataShape, ...]:
        return tuple(s for s in self.shapes if isinstance(s, DataShape))

    def section_hashes(self) -> dict[str, str]:
        """Anchor -> SHA-256 of the section's own bytes: its heading up to its first subsection."""
        import hashlib

        hashes = {}
        for section in self.sections:
            children = [s.span.start for s in self.sections if s.parent == section.anchor]
            end = min(children, default=section.span.end)
            hashes[section.anchor] = hashlib.sha256(self.data[section.span.start : end]).hexdigest()
        return hashes

    def bundle(self, shape: Shape) -> bytes:
        """The dispatch bundle: shared sections plus the shape's section, sliced, in source order."""
        spans = [s.span for s in self.sections_of(shape)]
        parts, end = [], 0
        for span in spans:
            if span.start >= end:  # a section nested in one already taken is not repeated
                parts.append(self.data[span.start : span.end])
                end = span.end
        return b"".join(parts)


RegionKind = Literal["shape", "section", "bundle", "instance"]


@dataclass(frozen=True, slots=True)
class Region:
    """A managed region of a target file: begin marker, generated bytes, end marker."""

    kind: RegionKind
    """What the begin marker names: a shape's block, sections, a shape's dispatch bundle, or (``instance``)
    a shape whose structure the user's own block keeps (:mod:`contractc.drift.regions`)."""
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
    data: bytes
    regions: tuple[Region, ...]


@dataclass(frozen=True, slots=True)
class Targets:
    """The files matched by ``targets:``, in path order, read and scanned one at a time.

    A target is read, its regions found and resolved, when :meth:`scan` reaches
    it, and is dropped once the caller is done with it: a project of 100,000
    prompt files is checked in the memory of one.  ``load`` finds the paths and
    gives the reader (:func:`contractc.load.targets.load_targets`).
    """

    paths: tuple[str, ...] = ()
    reader: Callable[[str], TargetFile] | None = None
    """Reads and scans one target; raises :class:`~contractc.report.diagnostics.ContractcError` for its marker problems."""

    def scan(self, problems: list) -> Iterator[TargetFile]:
        """Every target, read in turn; a target's marker problems go to ``problems`` and it is skipped."""
        from contractc.report.diagnostics import ContractcError

        read = self.reader
        for path in self.paths:
            try:
                yield read(path)  # type: ignore[misc]
            except ContractcError as exc:
                problems.extend(exc.diagnostics)

    def get(self, path: str) -> TargetFile | None:
        """The target at ``path``, read now, or None when ``path`` is not a target (raises for its marker problems)."""
        i = bisect_left(self.paths, path)
        if i < len(self.paths) and self.paths[i] == path and self.reader is not None:
            return self.reader(path)
        return None


@dataclass(frozen=True, slots=True)
class RoleFile:
    """An agent's role file (``agents:`` in the configuration)."""

    agent: str
    path: str
    data: bytes
    body_start: int
    """Byte offset where the body starts: past the YAML front matter, or 0 when there is none."""


@dataclass(frozen=True, slots=True)
class PinRecord:
    """What ``prompts/manifest.json`` recorded about a pinned contract's bytes."""

    sha256: str
    sections: dict[str, str]
    """Anchor -> SHA-256 of the section's own bytes (heading to its first subsection)."""


@dataclass(frozen=True, slots=True)
class ContractEntry:
    path: str
    shared: tuple[str, ...]
    sha256: str | None
    """A pinned SHA-256, when the configuration pins one."""
    span: Span
    """Where the entry is in contractc.yaml."""


@dataclass(frozen=True, slots=True)
class Outputs:
    """``out:``, the output folders, project-relative."""

    prompts: str = "prompts"
    """Dispatch snippets and their manifest."""
    schemas: str = "schemas"
    """JSON Schemas of the data shapes."""
    site: str | None = None
    """Where ``build`` stores the site's pages; None: the mkdocs plugin renders them in memory."""

    def folders(self) -> tuple[str, ...]:
        """Every configured output folder: none of their files is ever a target."""
        return tuple(f for f in (self.prompts, self.schemas, self.site) if f is not None)


@dataclass(frozen=True, slots=True)
class SiteOptions:
    """``site:``, the contract site."""

    prefix: str = "contracts"
    """Folder of the generated pages inside the site, without leading or trailing ``/``; empty: the site root."""
    templates: str | None = None
    """Project folder whose templates override the shipped ones by name; None: the shipped ones only."""
    directory_urls: bool = True
    """Whether the site uses directory URLs (mkdocs' ``use_directory_urls``)."""


@dataclass(frozen=True, slots=True)
class Budgets:
    """``budgets:``, context budgets in estimated tokens (:mod:`contractc.model.budget`)."""

    agents: tuple[tuple[str, int], ...] = ()
    """(agent, ceiling on each dispatch snippet sent to it) by agent name."""
    shapes: tuple[tuple[str, int], ...] = ()
    """(text shape id, ceiling on its dispatch snippet) by shape id."""


@dataclass(frozen=True, slots=True)
class AllowedRestatement:
    """One ``allow_restatements:`` entry: hand-made copies check must not report."""

    path: str
    """Glob pattern of the target file(s)."""
    shape: str | None = None
    """Only copies of this shape id; None: any shape."""
    line: int | None = None
    """Without ``sha256``: only the copy whose opening fence is on this line; None: any line.
    With ``sha256``: a hint only (a note says where the copy moved)."""
    sha256: str | None = None
    """Only the copy whose bytes (opening fence line through closing fence line) have this SHA-256."""

    def allows(self, path: str, shape: str, line: int, digest: Callable[[], str]) -> bool:
        """Whether the entry covers the copy: path glob and shape, then its bytes (``digest()``,
        computed only when asked) or else its ``line``."""
        from fnmatch import fnmatchcase

        if not fnmatchcase(path, self.path) or (self.shape is not None and self.shape != shape):
            return False
        if self.sha256 is not None:
            return self.sha256 == digest()
        return self.line is None or self.line == line


@dataclass(frozen=True, slots=True)
class Unresolved:
    """One ``unresolved:`` entry: a divergent copy adopt left as it is, which check reports until it is deleted."""

    path: str
    line: int
    shape: str
    why: str = ""


@dataclass(frozen=True, slots=True)
class ScanOptions:
    """``scan:`` in contractc.yaml: the options adopt was given, read again by ``scan`` and ``adopt``."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    owner: tuple[str, ...] = ()


DEFAULT_SITE_URL = "https://example.invalid/contracts/"
"""``site_url`` when contractc.yaml sets none (the site layout drops its ``contracts`` prefix from page URLs)."""


@dataclass(frozen=True, slots=True)
class MkdocsFile:
    """What contractc reads of the project's ``mkdocs.yml`` (the site it publishes to): two keys, located."""

    path: str
    site_url: str
    """``site_url`` as written, ending with ``/``; empty when unset."""
    site_url_line: int
    docs_dir: str
    """``docs_dir`` as written, else mkdocs' default ``docs``."""
    docs_dir_line: int
    """0 when ``docs_dir`` is not written (the default)."""
    docs_dir_exists: bool


@dataclass(frozen=True, slots=True)
class Config:
    """The validated ``contractc.yaml``, typed: every key with its default applied, nothing left raw."""

    path: str
    contracts: tuple[ContractEntry, ...]
    out: Outputs
    site_url: str
    """Where the site is published, ending with ``/``."""
    site: SiteOptions = SiteOptions()
    targets: tuple[str, ...] = ()
    """Glob patterns of the files that may hold managed regions, as written."""
    agents: tuple[tuple[str, str], ...] = ()
    """(agent, role file path as written) by agent name."""
    allow_restatements: tuple[AllowedRestatement, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()
    """Divergent copies adopt left as they are: reported by check (``drift-unresolved``) until deleted."""
    budgets: Budgets = Budgets()
    positions: Mapping[str, tuple[int, int]] = field(default_factory=_empty)
    """1-based (line, column) of every key path, e.g. ``$.contracts[0].path``."""
    docs_url: str = ""
    """Where the drift-codes page is published (``docs_url``); empty: messages carry no link."""
    site_url_from: str = ""
    """Which file named ``site_url``: ``contractc.yaml``, else ``mkdocs.yml``; empty: the default."""
    mkdocs: MkdocsFile | None = None
    """The project's ``mkdocs.yml``, when there is one beside contractc.yaml."""
    scan: ScanOptions = ScanOptions()

    def where(self, key_path: str) -> Span:
        """The span of a key path (``$.out.prompts``), for locating messages about it."""
        line, col = self.positions.get(key_path, (1, 1))
        return Span(self.path, line, col, 0, 0)


@dataclass(frozen=True)
class Project:
    """Everything the emitters need: the configuration and every parsed contract.

    What is derived from the model on first use (the contracts by path) is kept as a
    ``functools.cached_property``; a ``replace`` starts without it.  The site's layout is not part of
    the model: :func:`contractc.model.layout.site_layout` computes it for the stage that needs it.
    """

    config: Config
    contracts: tuple[Contract, ...]
    targets: Targets = Targets()
    """Every file matched by ``targets:``, in path order, read as it is scanned."""
    roles: tuple[RoleFile, ...] = ()
    """Role files by agent (``agents:``), sorted by agent."""
    pins: Mapping[str, PinRecord] = field(default_factory=_empty)
    """Contract path -> the section hashes recorded while its bytes matched its pin."""
    root: str = "."
    """The project root as given to the loader, for the few emitters that read project files
    (the site's template override folder)."""
    specs: Mapping[str, ShapeSpec] = field(default_factory=_empty)
    """Every data shape's interpreted notation by shape id, in source order (the same trees as ``DataShape.spec``)."""

    @cached_property
    def _contracts_by_path(self) -> dict[str, Contract]:
        by_path: dict[str, Contract] = {}
        for c in self.contracts:
            by_path.setdefault(c.path, c)  # the first of a path, as a scan would find
        return by_path

    def shapes(self) -> list[tuple[Contract, Shape]]:
        return [(c, s) for c in self.contracts for s in c.shapes]

    def contract(self, path: str) -> Contract:
        """The contract at ``path`` (a dict made on first use: looked up once per shape or region)."""
        return self._contracts_by_path[path]

    def snippet_path(self, shape: TextShape) -> str:
        """Where a text shape's dispatch snippet lives: ``<out.prompts>/<producer>/<shape>.md``."""
        return f"{self.config.out.prompts}/{shape.producer}/{shape.id}.md"

    def target(self, path: str) -> TargetFile | None:
        """The target file at ``path``, read now; None when it is not a target."""
        return self.targets.get(path)
