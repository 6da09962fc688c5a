"""What ``adopt`` will do, computed in full before anything is written: the :class:`Plan`, shown by
:mod:`contractc.adopt.show` and reported by :mod:`contractc.adopt.report`."""

from __future__ import annotations

from dataclasses import dataclass, field

from contractc.adopt.checks import CheckList
from contractc.output.outputs import Change
from contractc.scan import ScanResult
from contractc.scan.blocks import Unit


@dataclass(frozen=True, slots=True)
class Rewritten:
    """An adopted copy whose bytes change, and why."""

    unit: Unit
    shape: str
    why: str
    change: Change | None = None
    """The copy against the owning copy, for a drifted copy the user chose to rewrite."""


@dataclass(frozen=True, slots=True)
class Kept:
    """A member adopt leaves byte for byte as it is (instance regions are only wrapped around it)."""

    unit: Unit
    shape: str
    label: str
    """scan's label: ``instance``, ``example`` or ``drifted``; ``uncertain`` for a member scan flags so."""
    why: str
    change: Change | None = None
    """For a drifted copy left unresolved, or an instance scan calls divergent: its diff against the owning copy."""
    resolve: str = ""
    """For a drifted copy: the ``--resolve`` argument that makes it the owner (``ID=PATH:LINE``)."""
    divergent: bool = False
    """An instance scan calls divergent, wrapped in an instance region: check may report it."""


@dataclass(slots=True)
class Plan:
    contract: str
    """Project-relative path of the contract to write ('' when there is nothing to adopt)."""
    changes: list[Change] = field(default_factory=list)
    """Every file to write, in path order (contract, contractc.yaml, targets, outputs)."""
    shapes: dict[str, str] = field(default_factory=dict)
    """scan's shape id -> the id in the contract (what each region names)."""
    rewritten: list[Rewritten] = field(default_factory=list)
    skipped: list[tuple[Unit, str]] = field(default_factory=list)
    """Copies left as they are, with the reason."""
    kept: list[Kept] = field(default_factory=list)
    """Instances (wrapped in instance regions), examples and unresolved drifted copies: bytes unchanged."""
    allowed: list[tuple[str, str, int, str, str]] = field(default_factory=list)
    """(path, shape, line, why, sha256): the allow_restatements entries written (by sha256, so prose may move them)."""
    allowed_diffs: dict[tuple[str, int], Change] = field(default_factory=dict)
    """(path, line) of an allowed block -> its diff against the contract, shown in the plan."""
    checks: list[tuple[str, CheckList]] = field(default_factory=list)
    """(shape id as scan named it, a copy's receiver-check list that differs from the one the contract holds)."""
    unchecked: list[tuple[str, Unit]] = field(default_factory=list)
    """(shape id as scan named it, a copy that carries no receiver-check list while another copy does)."""
    carried: dict[str, CheckList] = field(default_factory=dict)
    """Shape id as scan named it -> the receiver-check list the contract holds (the first copy's)."""
    unresolved: list[tuple[str, int, str, str]] = field(default_factory=list)
    """(path, line, shape, why) of each divergent copy left as it is outside any region, recorded in
    contractc.yaml (``unresolved``) so that check reports it."""
    drift_recorded: frozenset[tuple[str, int]] = frozenset()
    """(path, line) of the ``unresolved`` entries that are drifted copies listed under ``kept``."""
    replaced: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Per target file, the (start, end) byte spans of the blocks replaced, in the file as it was."""
    scan: ScanResult | None = None
    configured: bool = False
    """The plugin was adopted before (it has a ``contractc.yaml``)."""
    added: list[str] = field(default_factory=list)
    """On an adopted plugin: the shapes new to its contracts (the others are shapes a contract holds)."""
    pending: int = 0
    """On an adopted plugin with nothing to adopt: the regions never filled that hold other bytes (--accept-drift fills them)."""
    where: str = ""
    """On an adopted plugin: where the new shapes go, and why there."""
    renamed: list[str] = field(default_factory=list)
    templated: list[tuple[str, str]] = field(default_factory=list)
    """(shape id, why) of each YAML shape the contract holds as a text shape's template, not a data shape: its
    copies are managed byte for byte and its instances held to its structure, but it has no JSON Schema."""
    """Titles and anchors given a suffix, since a contract of the project has them already (``old -> new``)."""
    filled: list[tuple[str, list[tuple[int, str]]]] = field(default_factory=list)
    """``--accept-drift`` on an adopted plugin: per target, (line, reference) of each region a first adoption
    left holding a drifted copy's bytes, filled now with the contract's."""
