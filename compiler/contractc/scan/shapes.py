"""Stage 2 of ``scan``: group the units into shapes, choose each shape's owning copy, judge the others.

Grouping (docs/adopt.md, "How scan groups copies"):

* units of one kind and one key are candidates for one shape;
* two units with the same bytes are copies of one shape, whatever their stages;
* two units are copies of one shape when their stages agree (or one has none)
  and their field sets overlap by at least half (Jaccard >= 0.5): the same key
  with other fields in another stage is another shape (``review-stage.task_brief``);
* a template's "fields" are its lines with every ``<placeholder>`` alike, so a
  renamed placeholder is drift, not a new shape.

The owning copy (:func:`choose_owner`): a copy matching ``--owner GLOB``; else
the copies in files that dispatch (orchestrators, skills, commands), the
variant most of them hold; else the variant most copies hold; a tie goes to
the first copy in path order.  The report says which rule decided.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Literal, NamedTuple

from contractc.scan.blocks import Unit

NEAR_RATIO = 0.8
"""A lone block this similar (difflib ratio) to a shape's owning copy, under another key, is a near-copy."""
SAME_SHAPE = 0.5
"""The field-set overlap (Jaccard) above which two units with one key are copies of one shape."""
_FRONT_DISPATCH = re.compile(rb"^(?:role:\s*orchestrator|dispatches:)", re.MULTILINE)


Label = Literal["copy", "drifted", "instance", "example"]
"""What a group member is (docs/adopt.md, "How scan classifies"): a byte copy of the owner, a copy that
drifted from it, an instance filled with its own values by design, or an example of the shape."""


class Member(NamedTuple):
    """One block of a group, labelled (see /work/wt/SCAN_API.md)."""

    unit: Unit
    label: Label
    reason: str
    """A few words saying why it has its label (``same bytes as the owner``)."""


@dataclass(frozen=True, slots=True)
class Group:
    """One shape and every copy of it."""

    id: str
    """The key, qualified by its stage (``review-stage.task_brief``) when the key names several shapes."""
    kind: str
    key: str
    stage: str | None
    copies: tuple[Unit, ...]
    """Every copy, the owner included, in path and line order."""
    owner: Unit
    owner_reason: str
    """Which rule chose the owner, said the way the report prints it."""
    members: tuple[Member, ...] = ()
    """Every copy labelled, in the order of ``copies``."""

    @property
    def owner_rule(self) -> str:
        return self.owner_reason

    @property
    def identical(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.copies if u is not self.owner and u.text == self.owner.text)

    @property
    def divergent(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.copies if u.text != self.owner.text)


@dataclass(frozen=True, slots=True)
class NearCopy:
    unit: Unit
    group: Group
    ratio: float


@dataclass(slots=True)
class _Cluster:
    kind: str
    key: str
    stage: str | None
    fields: frozenset[str]
    units: list[Unit] = field(default_factory=list)


def group_units(
    units: list[Unit], dispatchers: set[str], owner_globs: tuple[str, ...] = ()
) -> tuple[list[Group], list[Group], list[NearCopy]]:
    """(shapes with two or more copies, shapes stated once, near-copies), each in id order."""
    clusters: list[_Cluster] = []
    # Units inside a stage section seed the clusters, so a stage-less copy joins the stage it matches.
    for unit in sorted(units, key=lambda u: (u.stage is None, u.block.path, u.line)):
        best, score = None, SAME_SHAPE
        for cluster in clusters:
            if (cluster.kind, cluster.key) != (unit.block.kind, unit.key):
                continue
            if any(u.text == unit.text for u in cluster.units):
                best = cluster  # the same bytes under another stage's heading are one shape pasted twice, not two shapes
                break
            if cluster.stage and unit.stage and cluster.stage != unit.stage:
                continue
            overlap = _jaccard(cluster.fields, unit.fields)
            if overlap >= score:
                best, score = cluster, overlap
        if best is None:
            best = _Cluster(unit.block.kind, unit.key, unit.stage, unit.fields)
            clusters.append(best)
        best.units.append(unit)
        best.stage = best.stage or unit.stage
    per_key = Counter((c.kind, c.key) for c in clusters)
    groups: list[Group] = []
    numbered: Counter[tuple[str, str]] = Counter()
    for cluster in clusters:
        copies = tuple(sorted(cluster.units, key=lambda u: (u.block.path, u.line)))
        if per_key[(cluster.kind, cluster.key)] == 1:
            ident = cluster.key
        elif cluster.stage:
            ident = f"{cluster.stage}.{cluster.key}"
        else:
            numbered[(cluster.kind, cluster.key)] += 1
            ident = f"{cluster.key}-{numbered[(cluster.kind, cluster.key)]}"
        owner, rule = choose_owner(copies, dispatchers, owner_globs)
        groups.append(Group(ident, cluster.kind, cluster.key, cluster.stage, copies, owner, rule, _members(copies, owner)))
    groups.sort(key=lambda g: g.id)
    shared = [g for g in groups if len(g.copies) > 1]
    single = [g for g in groups if len(g.copies) == 1]
    near = []
    for lone in single:
        unit = lone.owner
        scored = [
            (difflib.SequenceMatcher(None, _body(unit), _body(g.owner), autojunk=False).ratio(), g)
            for g in shared
            if g.kind == unit.block.kind and g.key != unit.key
        ]
        ratio, group = max(scored, key=lambda s: s[0], default=(0.0, None))
        if group is not None and ratio >= NEAR_RATIO:
            near.append(NearCopy(unit, group, ratio))
    return shared, single, near


def choose_owner(copies: tuple[Unit, ...], dispatchers: set[str], owner_globs: tuple[str, ...] = ()) -> tuple[Unit, str]:
    """The owning copy and the rule that chose it (see the module docstring)."""
    if owner_globs:
        matched = [u for u in copies if any(fnmatchcase(u.block.path, g) for g in owner_globs)]
        if matched:
            return _majority(matched)[0], f"it matches --owner {' '.join(owner_globs)}"
    dispatching = [u for u in copies if u.block.path in dispatchers]
    if dispatching:
        owner, held = _majority(dispatching)
        variants = len({u.text for u in dispatching})
        if variants == 1:
            return owner, f"it is in {owner.block.path}, which dispatches the shape"
        return owner, f"{held} of the {len(dispatching)} copies in dispatching files hold it"
    owner, held = _majority(list(copies))
    if held * 2 > len(copies):
        return owner, f"{held} of the {len(copies)} copies hold it (no dispatching file has one)"
    return owner, "no file dispatches it and no variant has a majority: the first copy in path order"


def _members(copies: tuple[Unit, ...], owner: Unit) -> tuple[Member, ...]:
    def one(unit: Unit) -> Member:
        if unit is owner:
            return Member(unit, "copy", "the owning copy")
        if unit.text == owner.text:
            return Member(unit, "copy", "same bytes as the owner")
        return Member(unit, "drifted", "differs from the owner")

    return tuple(one(u) for u in copies)


def is_dispatcher(path: str, data: bytes) -> bool:
    """A file that dispatches shapes: a skill, a command, an orchestrator agent, or front matter that says so.

    Its copy is the statement the specialists were given, so it owns the shape.
    """
    parts = path.split("/")
    if "skills" in parts[:-1] or "commands" in parts[:-1]:
        return True
    if "orchestrat" in parts[-1].lower():
        return True
    if data.startswith(b"---"):
        end = data.find(b"\n---", 3)
        return bool(_FRONT_DISPATCH.search(data[: end if end > 0 else 0]))
    return False


def _majority(units: list[Unit]) -> tuple[Unit, int]:
    counts = Counter(u.text for u in units)
    best = max(counts.values())
    return next(u for u in units if counts[u.text] == best), best


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def _body(unit: Unit) -> str:
    return unit.text.replace(unit.key, "", 1) if unit.block.kind == "yaml" else unit.text
