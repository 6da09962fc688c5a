"""Stage 2 of ``scan``: group the units into shapes, choose each shape's owning copy, label every member.

Grouping (docs/adopt.md, "How scan groups copies"):

* YAML units are candidates for one shape when they have the same key; JSON
  documents, front matters and templates whatever their names;
* units whose discriminating field holds another literal value (``status:
  success`` and ``status: failed``), or name another mode or direction
  (``direction: to-cache``), are variants, never one shape;
* two candidates are one shape when their structures (key paths at every depth;
  a template's headings, labels and tags) overlap by at least SAME_SHAPE
  (Jaccard), counted through an index of the structures already seen, so the
  cost grows with the number of blocks, not its square;
* the same bytes are always one shape; headings around a block never split one;
* a nested mapping (an element of ``per_reviewer_results``) joins a shape when
  its structure overlaps it by NESTED_SHAPE.

The owning copy (:func:`choose_owner`), among the members that are neither
examples nor nested (a shape written filled in only: among its examples), and
never a copy stating less notation than half of what another states: a copy
matching ``--owner GLOB``; else the copy a file declares as the definition
(under ``templates/``, ``references/`` or a schema file, or introduced by prose
such as "produces the following format"), several definitions that differ
ranked as the rest; else, in a git work tree, the copy whose lines changed most
recently; else the variant (or, for data, the structure) most copies hold; else
a tie-break (the enum the others fill in, a dispatching file, the structure that
holds every other, path order). The report prints the reason, and what chose the
owner (:data:`Basis`) decides how firmly the others are held.

Every member is labelled (:class:`Member`): ``copy`` (the owner's bytes),
``drifted`` (meant to be a copy, and it is not), ``instance`` (the shape's
structure with its own values) or ``example``. Instances and examples are held
to the owner's structure, values free (:func:`_held`); a drifted copy and a
member that breaks the structure are divergent, and a member nothing decides
about (a tie-break chose the owner) is :attr:`Member.uncertain`.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Literal, NamedTuple

from contractc.load.git import run_git
from contractc.load.worked import EXAMPLE_WORDS, is_notation
from contractc.scan.blocks import DISCRIMINATORS as _DISCRIMINATORS
from contractc.scan.blocks import NESTED_KEYS, PLACEHOLDER, Unit, illustration

NEAR_RATIO = 0.8
"""A lone block this similar (difflib ratio) to a shape's owning copy, under another key, is a near-copy."""
SAME_SHAPE = 0.5
"""The structure overlap (Jaccard of key paths, headings, labels) at or above which two candidates are one shape."""
CONTAINED_PATHS = 4
"""A YAML or JSON structure of at least this many key paths, all of them in another's, is that shape (a copy that lost keys)."""
TRANSLATED = 0.8
"""The share of the smaller's key paths a translation's data block and its original's have in common to be one block."""
LINE_SHARE = 0.5
"""Below this share of lines (Jaccard of their distinct lines) in common with an owner that nothing but path order
chose, a copy is an instance of its own: two blocks that differ in most lines prove no drift."""
NO_MAJORITY = "no variant has a majority"
MIN_SHARED = 3
"""Two blocks sharing fewer key paths, headings or labels than this are one shape only when they share more than half
of them (a key gained by a two-key block is drift; two excerpts of one record, two keys of four in common, are not)."""
SIDE_BY_SIDE = 0.8
"""A block joins a shape that already has a copy in its own file only at this overlap: two blocks side by side in one
file that share some keys (a completion block and a document header) are two shapes, not variants."""
NESTED_SHAPE = 0.8
"""The overlap at or above which a nested mapping is a copy of a shape stated elsewhere."""
_FRONT_DISPATCH = re.compile(rb"^(?:role:\s*orchestrator|dispatches:)", re.MULTILINE)
_DECLARES = re.compile(
    r"(?i)produces? the following|the following (?:format|shape|structure|schema|template)|same (?:shape|format|structure) as"
    r"|canonical|single source of truth|is defined (?:here|as)|\bschema\b"
)
_QUOTES = re.compile(r"(?i)\b(?:returns|replies|responds)\b")
_DEFINITION_DIRS = {"templates", "template", "references", "schemas", "schema"}
_ROLE_DIRS = {"agents", "skills", "commands", "workflows", "prompts"}
_TYPE_WORDS = {
    "string", "str", "text", "integer", "int", "number", "float", "boolean", "bool", "null", "none", "list", "array",
    "object", "dict", "map", "date", "datetime", "timestamp", "url", "path", "uuid", "any",
}
Label = Literal["copy", "drifted", "instance", "example"]
"""What a member is: the owner's bytes, a copy that drifted from them, an instance with its own values, an example."""


class Member(NamedTuple):
    """One block of a group, labelled (docs/adopt.md, "How scan classifies")."""

    unit: Unit
    label: Label
    reason: str
    """A few words saying why it has its label (``same bytes as the owner``)."""
    divergent: bool = False
    """A drifted copy, or an instance that breaks the shape's structure: reported with its diff."""
    against: Unit | None = None
    """The copy its diff is taken against when that is not the owner (the identical peers or the twin it drifted from)."""
    uncertain: bool = False
    """Nothing decides between a drifted copy and an instance by design (a partial subset of the owner's structure,
    and neither a definition, git history nor a majority chose the owner): reported as a warning with its diff,
    never divergent; adopt leaves it as it is."""


@dataclass(frozen=True, slots=True)
class Group:
    """One shape and every member of it."""

    id: str
    """From the key, the template's title or label, or the JSON document's name (and its variant); stable across runs."""
    kind: str
    key: str
    stage: str | None
    copies: tuple[Unit, ...]
    """The members that are neither examples nor nested parts of another block, the owner included, in path and line order."""
    owner: Unit
    owner_reason: str
    """Which rule chose the owner, said the way the report prints it."""
    members: tuple[Member, ...] = ()

    @property
    def divergent(self) -> tuple[Unit, ...]:
        return tuple(m.unit for m in self.members if m.divergent)

    def labelled(self, label: Label) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.label == label)

    def held_against(self, member: Member) -> tuple[Unit, str]:
        """The copy a divergent member's diff is taken against, and how a message names it."""
        against = member.against or self.owner
        if against is self.owner:
            return against, "its owning copy"
        peers = {m.unit.block.path for m in self.members if m.unit.text == against.text}
        return against, "its identical peers, first" if len(peers) >= PEER_COPIES else "its near-identical twin"


@dataclass(frozen=True, slots=True)
class NearCopy:
    unit: Unit
    group: Group
    ratio: float


@dataclass(slots=True)
class _Cluster:
    bucket: tuple[str, ...]
    paths: frozenset[str]
    names: frozenset[str]
    """The keys at each depth (:func:`_names`): a renamed key still overlaps them."""
    units: list[Unit] = field(default_factory=list)
    files: set[str] = field(default_factory=set)


def _bucket(unit: Unit) -> tuple[str, ...]:
    """Which units may be one shape at all: the same kind, the same YAML key, the same variant."""
    kind = unit.block.kind
    if unit.key == "front-matter":
        return ("front-matter", unit.variant)
    if kind == "yaml":
        # a flat block of scalar keys is one unit named by its first key: the same keys in another order are it too
        return ("yaml", "" if unit.key in unit.paths else unit.key, unit.variant)
    return (kind, unit.variant)


def _names(paths: frozenset[str]) -> frozenset[str]:
    """``2:done`` for ``progress.done``: each key with its depth, whatever the keys above it are called."""
    return frozenset(f"{p.count('.') + p.count('[]')}:{p.rsplit('.', 1)[-1].removesuffix('[]')}" for p in paths)


def _jaccard(a: frozenset[str], b: frozenset[str], shared: int | None = None) -> float:
    if not a and not b:
        return 1.0
    shared = len(a & b) if shared is None else shared
    return shared / (len(a) + len(b) - shared)


def group_units(
    units: list[Unit],
    dispatchers: set[str],
    owner_globs: tuple[str, ...] = (),
    history: History | None = None,
    defined: frozenset[str] = frozenset(),
    in_regions: frozenset[tuple[str, int]] = frozenset(),
) -> tuple[list[Group], list[Group], list[NearCopy]]:
    """(shapes with two or more members, shapes stated once, near-copies), each in id order.

    ``defined``: the contracts' paths (adopt on an adopted plugin); ``in_regions``: (path, block start) of the
    blocks inside managed regions, grouped but never members (:func:`_group`)."""
    units = _discriminated(units)
    clusters: list[_Cluster] = []
    index: dict[tuple, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    names: dict[tuple, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    by_text: dict[tuple, int] = {}
    top = [u for u in units if not u.within]
    originals = _originals(top)
    placed: dict[int, int] = {}
    # Shapes seed the clusters before examples, so an example joins the shape it illustrates; a contract's blocks
    # come last, so the plugin's copies (its regions' too) are grouped as they were before it was adopted.
    for unit in sorted(top, key=lambda u: (bool(u.block.example), u.block.path in defined, u.block.path, u.line)):
        bucket = _bucket(unit)
        best = by_text.get((bucket, unit.text))
        original = originals.get(id(unit))
        if best is None and original is not None and id(original) in placed:
            best = placed[id(original)]  # a translation's data block: held to the block it translates, keys and all
        data = bucket[0] != "template"

        def closest(table: dict[str, list[int]], mine: frozenset[str], names: bool = False) -> int | None:
            """The cluster of ``table`` (path -> clusters) whose structure overlaps ``mine`` most, at SAME_SHAPE or more."""
            shared = Counter(i for p in mine for i in table.get(p, ())) if mine else Counter(table.get("", ()))
            found, score = None, SAME_SHAPE
            for i, n in sorted(shared.items()):  # ties go to the earlier cluster, whatever the hash seed
                theirs = clusters[i].names if names else clusters[i].paths
                overlap = _jaccard(theirs, mine, n if mine else 0)
                if data and n >= CONTAINED_PATHS and n == min(len(theirs), len(mine)):
                    overlap = max(overlap, SAME_SHAPE)  # a data shape that lost (or gained) keys wholesale: a stale copy
                if names and len(theirs) + len(mine) - 2 * n > 2:
                    continue  # more than one key renamed: another shape that shares key names
                inside = n >= MIN_SHARED and n == min(len(theirs), len(mine))  # one's keys all the other's: a restatement
                if overlap < SIDE_BY_SIDE and unit.block.path in clusters[i].files and not unit.block.example and not inside:
                    continue  # two blocks side by side in one file that share some keys: two shapes (an example illustrates)
                if mine and n < MIN_SHARED and overlap <= SAME_SHAPE and not (
                    not data and overlap == SAME_SHAPE and _line_share(unit, clusters[i].units[0]) >= LINE_SHARE
                ):
                    continue  # two keys in common, half of the whole: excerpts of one record, each its own (a short
                    # template with one labelled section swapped keeps most of its lines: that one is compared)
                if overlap > score or (overlap == score and found is None):
                    found, score = i, overlap
            return found

        if best is None:
            best = closest(index[bucket], unit.paths)
        if best is None and data and unit.paths:
            # a key renamed (`progress` -> `p_progress`) renames every path under it: the keys at each depth are
            # the same but for that one, so it is compared with the shape it was renamed from
            best = closest(names[bucket], _names(unit.paths), names=True)
        if best is None and unit.block.example and unit.variant:
            # an example fills the discriminating field in (`verdict: approve`): it illustrates the general shape
            best = closest(index[(*bucket[:-1], "")], unit.paths)
        if best is None:
            best = len(clusters)
            clusters.append(_Cluster(bucket, unit.paths, _names(unit.paths)))
            for p in unit.paths or ("",):
                index[bucket][p].append(best)
            for t in clusters[best].names if data else ():
                names[bucket][t].append(best)
        by_text.setdefault((bucket, unit.text), best)
        clusters[best].units.append(unit)
        clusters[best].files.add(unit.block.path)
        placed[id(unit)] = best
    _place_nested([u for u in units if u.within], clusters)
    if history is not None:  # the blames every ambiguous shape will ask for, side by side
        asked = [[u for u in c.units if not u.block.example and not u.within] for c in clusters]
        history.prefetch([q for found in asked if len({u.text for u in found}) > 1 for q in history.questions(found)])
    translated = {id(u) for u, o in ((u, originals.get(id(u))) for u in top) if o is not None and not o.block.example}
    groups = [_group(c, dispatchers, owner_globs, history, translated, defined, in_regions) for c in clusters]
    groups = [g for g in groups if g is not None]
    _name(groups)
    groups.sort(key=lambda g: g.id)
    shared_groups = [g for g in groups if len(g.members) > 1]
    single = [g for g in groups if len(g.members) == 1]
    return shared_groups, single, _near_copies(single, shared_groups)


MAX_VARIANTS = 5
"""A discriminating field names variants only when its literal values are this few (and repeat, see :func:`_discriminated`)."""


def _discriminated(units: list[Unit]) -> list[Unit]:
    """``units`` with a variant kept only where its field discriminates: among the blocks that may be one shape (one
    kind, one YAML key), the field takes at most :data:`MAX_VARIANTS` literal values and at most one per two blocks
    (``status: success`` and ``failed`` over the adapters), or every block holding it sits in one file (per-outcome
    blocks side by side). A value an enum of that field names (``Status: pending`` where another copy writes
    ``pending | in_progress | completed``) is that general shape's value filled in, no variant; so is a field of free
    text (``status: implementing``, ``designing``, ... thirty values over a hundred blocks)."""
    from dataclasses import replace

    from contractc.scan.blocks import MODES

    seen: dict[tuple, list[tuple[Unit, str]]] = defaultdict(list)
    enums: dict[tuple, set[str]] = defaultdict(set)
    for u in units:
        for path, written in u.slots:
            field_name = path.removeprefix("label:")  # a template's `**Status**: a | b` names its field so
            value = _type_of(written) if field_name in (*_DISCRIMINATORS, *MODES) else None
            if isinstance(value, frozenset):
                enums[(*_bucket(u)[:-1], field_name)].update(v.lower() for v in value)
        for part in u.variant.split(",") if u.variant else ():  # `status=success`, then `direction=to-cache`
            seen[(*_bucket(u)[:-1], part.split("=", 1)[0])].append((u, part))
    plain: set[tuple[int, str]] = set()
    for population, held in seen.items():
        named = enums.get(population, set())
        plain.update((id(u), part) for u, part in held if part.split("=", 1)[1] in named)
        values = {part for _, part in held}
        few = len(values) <= MAX_VARIANTS and len(values) * 2 <= len(held)
        if not (few or len({u.block.path for u, _ in held}) == 1):
            plain.update((id(u), part) for u, part in held)
    if not plain:
        return units
    kept = lambda u: ",".join(p for p in u.variant.split(",") if (id(u), p) not in plain) if u.variant else ""  # noqa: E731
    return [replace(u, variant=kept(u)) if u.variant and kept(u) != u.variant else u for u in units]


_LEVEL = re.compile(r"^h\d:")


def _level_free(paths: frozenset[str]) -> frozenset[str]:
    """A template's structure with its headings' levels left out (``h:findings``); data paths as they are."""
    return frozenset(_LEVEL.sub("h:", p) for p in paths) if any(p[:1] == "h" for p in paths) else paths


def _originals(units: list[Unit]) -> dict[int, Unit]:
    """id of each YAML or JSON unit of a translation (``docs/zh-CN/references/x.md``) -> the unit it translates: the one
    of the original file (the same path after the language folder, in no translation) whose key paths hold
    :data:`TRANSLATED` of the smaller's (a stale translation lost keys, or the original gained them)."""
    data = [u for u in units if u.block.kind in ("json", "yaml")]
    by_file: dict[str, list[Unit]] = defaultdict(list)
    for u in sorted(data, key=lambda u: (u.block.path, u.line)):
        by_file[u.block.path].append(u)
    out: dict[int, Unit] = {}
    for path, found in by_file.items():
        language = translation(path)
        if not language:
            continue
        tail = path.split(f"{language}/", 1)[1]
        same = [p for p in by_file if p != path and not translation(p) and (p == tail or p.endswith(f"/{tail}"))]
        if len(same) != 1:
            continue  # no original, or more than one: nothing says which it translates
        for mine in found:
            scored = [(_contained(mine.paths, theirs.paths), -theirs.line, theirs) for theirs in by_file[same[0]]]
            score, _, theirs = max(scored, key=lambda t: t[:2])
            if score >= TRANSLATED and theirs.block.kind == mine.block.kind:
                out[id(mine)] = theirs
    return out


def _contained(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def _place_nested(nested: list[Unit], clusters: list[_Cluster]) -> None:
    """Each nested mapping or template section into the shape it copies, when one overlaps it by NESTED_SHAPE (its
    own block's aside). A section's headings are compared whatever their level: pasted on its own, a report's
    ``### Findings`` is often a ``## Findings``."""
    index: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(clusters):
        if len(c.paths) >= 3:
            for p in _level_free(c.paths):
                index[p].append(i)
    placed: dict[tuple[int, int], tuple[float, Unit]] = {}
    for unit in nested:
        mine = _level_free(unit.paths)
        shared = Counter(i for p in mine for i in index.get(p, ()))
        best, score = None, NESTED_SHAPE
        for i, n in sorted(shared.items()):  # ties go to the later cluster, whatever the hash seed
            c = clusters[i]
            if (
                any(u.block is unit.block for u in c.units)
                or all(u.block.path == unit.block.path for u in c.units)
                or (c.bucket[0] == "template") != (unit.block.kind == "template")
            ):
                continue  # its own block's or file's shape: a part of it, not a copy pasted elsewhere
            overlap = _jaccard(_level_free(c.paths), mine, n)
            if c.bucket[0] == "template" and n == len(mine) >= NESTED_KEYS and len(c.paths) == n + 1:
                overlap = max(overlap, NESTED_SHAPE)  # a section that lost one field, its heading and the rest the shape's
            if overlap >= score:
                best, score = i, overlap
        key = (id(unit.block), best)
        if best is not None and (key not in placed or placed[key][0] < score):
            placed[key] = (score, unit)  # of a block's parts matching one shape, the closest (a section, not its parent's)
    for (_, best), (_, unit) in sorted(placed.items(), key=lambda kv: (kv[1][1].block.path, kv[1][1].line)):
        clusters[best].units.append(_releveled(unit, clusters[best].paths))


def _releveled(unit: Unit, paths: frozenset[str]) -> Unit:
    """A template section with its headings moved to the levels the shape writes them at (``### Finding`` as
    ``## Finding``), so only its fields and notation are compared."""
    title = next((p for p, _ in unit.slots if _LEVEL.match(p)), "")
    level = next((int(p[1]) for p in paths if _LEVEL.match(p) and p[3:] == title[3:]), 0)
    if not title or not level or level == int(title[1]):
        return unit
    shift = level - int(title[1])

    def moved(p: str) -> str:
        return f"h{min(6, max(1, int(p[1]) + shift))}{p[2:]}" if _LEVEL.match(p) else p

    from dataclasses import replace

    slots = tuple((moved(p), v) for p, v in unit.slots)
    return replace(unit, paths=frozenset(map(moved, unit.paths)), slots=slots)


FILLED_MAJORITY = 0.75
"""The share of a filled-in-only shape's examples that must share the owner's structure to hold the others to it."""


def _group(
    cluster: _Cluster,
    dispatchers: set[str],
    owner_globs: tuple[str, ...],
    root: History | None,
    translated: set[int] = frozenset(),
    defined: frozenset[str] = frozenset(),
    in_regions: frozenset[tuple[str, int]] = frozenset(),
) -> Group | None:
    everything = sorted(cluster.units, key=lambda u: (u.block.path, u.line, bool(u.within)))
    regions = [u for u in everything if (u.block.path, u.block.start) in in_regions]
    copies = tuple(u for u in everything if (u.block.path, u.block.start) not in in_regions)
    candidates = [u for u in copies if not u.block.example and not u.within]
    if not candidates:
        # a shape only ever written filled in: its examples are held to the structure of the one that owns it
        shown = [u for u in copies if not u.within and not illustration(u.block.before, u.text)]
        if len(shown) < 2:
            return None  # only nested parts and Good/Bad illustrations: no shape stated here
        candidates = shown
    originals = [u for u in candidates if not translation(u.block.path)]
    originals = [u for u in originals if not u.twice] or originals  # a copy naming a key twice owns nothing
    held = [u for u in candidates if u.block.path in defined]  # a contract's block owns its group
    against = None
    if held:
        owner, reason, basis = held[0], f"{held[0].block.path} holds it", "declared"
        shown = [u for u in regions if not u.within and not u.block.example]
        if shown:
            # the copies outside regions are judged as the first adoption judged them: against the copy the owner
            # is made from (the one the plugin's copies, regions included, choose), held as firmly as it was then
            plugin = [u for u in originals if u.block.path not in defined]
            first, _, chosen = choose_owner((*shown, *plugin), dispatchers, owner_globs, root)
            if first.text == owner.text:
                against, basis = first, chosen
    else:
        owner, reason, basis = choose_owner(tuple(originals or candidates), dispatchers, owner_globs, root)
    if owner.block.example and basis in ("history", "majority"):
        # examples vary by design (an optional key left out): only when most of them, three or more, share the
        # owner's structure is one that breaks it divergent
        shared = sum(1 for u in candidates if u.paths == owner.paths)
        basis = "majority" if shared >= 3 and shared >= FILLED_MAJORITY * len(candidates) else "weak"
    labelled = [Member(u, "copy", "the owning copy") if u is owner and against else _label(u, against or owner, basis, id(u) in translated) for u in copies]
    members = _peer_drift(labelled, dispatchers, root)
    # `copies`: the members adopt may manage (never an example, nor a part of another block)
    managed = tuple(u for u in candidates if not u.block.example)
    return Group("", owner.block.kind, owner.key, owner.stage, managed, owner, reason, members)


def _name(groups: list[Group]) -> None:
    """Shape ids from the owner's key, title or label, and the variant; qualified by stage, then numbered, when two collide."""
    base = {}
    for g in groups:
        name = _record_name(g.owner) or g.owner.key
        if g.owner.variant:
            value = "-".join(part.split("=", 1)[1] for part in g.owner.variant.split(","))
            if value not in name.split("-"):
                name = f"{name}-{value}"
        base[id(g)] = name
    counts = Counter(base.values())
    colliding: dict[str, list[Group]] = defaultdict(list)
    for g in groups:
        colliding[base[id(g)]].append(g)
    seen: Counter[str] = Counter()
    for g in sorted(groups, key=lambda g: (-len(g.members), g.owner.block.path, g.owner.line)):
        name = base[id(g)]
        if counts[name] > 1 and g.stage:
            name = f"{g.stage}.{name}"
        elif counts[name] > 1:
            name = _distinct_name(name, g, colliding[name])
        if g.kind not in ("yaml", "json"):
            name = _bounded(name)  # a data shape's id is its key, as the contract will read it
        seen[name] += 1
        if seen[name] > 1:
            name = f"{name}-{seen[name]}"
        object.__setattr__(g, "id", name)


_FILE_NAME = re.compile(r"(?<![\w<{-])\.?([A-Za-z][\w-]*?)\.(?:ya?ml|json)\b")


def _record_name(unit: Unit) -> str:
    """A YAML record's name from the file it describes, named in its header comment or the line above the block
    (``# SPRINT.yaml``, "Update `.project-standards.yaml`:" -> ``sprint``, ``project-standards``); empty for
    anything else, or when nothing names a file."""
    from contractc.load.slug import slugify

    if unit.block.kind != "yaml" or unit.within or unit.key not in unit.paths or unit.key == "front-matter":
        return ""
    header = [line for line in unit.text.splitlines() if line.strip()][:3]
    said = [line for line in header if line.lstrip().startswith("#")] + [unit.block.before]
    for line in said:
        found = _FILE_NAME.search(line)
        if found and slugify(found.group(1)):
            return slugify(found.group(1).replace("_", "-"))
    return ""


MAX_NAME = 48
"""A template's name, made of its title's or label's words, is cut to this many characters (at a word): it names
a section, an anchor and a file (``prompts/AGENT/NAME.md``), and a sentence-long title made a file name too
long for the file system."""


def _bounded(name: str) -> str:
    if len(name) <= MAX_NAME:
        return name
    cut = name[: MAX_NAME + 1].rsplit("-", 1)[0]
    return cut if len(cut) >= MAX_NAME // 2 else name[:MAX_NAME].rstrip("-")


def _distinct_name(name: str, group: Group, others: list[Group]) -> str:
    """``packet-id-status``: the name qualified by the owner's first field no other shape of that name has."""
    from contractc.load.slug import slugify

    theirs = set().union(*(g.owner.paths for g in others if g is not group))
    for path, _ in group.owner.slots:
        if path and path not in theirs and slugify(path.split(":", 1)[-1]) != name:
            word = slugify(path.split(":", 1)[-1].replace("[]", "").replace(".", "-").replace("<>", ""))
            if word:
                return f"{name}-{word}"
    return name


def _near_copies(single: list[Group], shared: list[Group]) -> list[NearCopy]:
    """Lone YAML units nearly a shape's owner under another key: bounded by structure, then difflib's quick ratios."""
    index: dict[str, list[Group]] = defaultdict(list)
    for g in shared:
        if g.kind == "yaml":
            for p in g.owner.paths:
                index[p].append(g)
    near = []
    for lone in single:
        unit = lone.owner
        if unit.block.kind != "yaml" or len(unit.paths) < 2:
            continue
        shared_paths = Counter(id(g) for p in unit.paths for g in index.get(p, ()))
        best, best_ratio = None, NEAR_RATIO
        for g in sorted({id(g): g for p in unit.paths for g in index.get(p, ())}.values(), key=lambda g: g.id):
            if g.key == unit.key or _jaccard(g.owner.paths, unit.paths, shared_paths[id(g)]) < SAME_SHAPE:
                continue
            matcher = difflib.SequenceMatcher(None, _body(unit), _body(g.owner), autojunk=False)
            if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio >= best_ratio:
                best, best_ratio = g, ratio
        if best is not None:
            near.append(NearCopy(unit, best, best_ratio))
    return near


# -- ownership ------------------------------------------------------------------------------------


Basis = Literal["chosen", "declared", "tie", "history", "majority", "weak"]
"""What chose the owner: ``--owner``, a definition file, a tie-break among several definitions that differ (no
history or majority among them), git history, a majority (or identical copies), or nothing but a tie-break. Only a
``weak`` owner (or a ``tie``, for another definition) leaves a member :attr:`Member.uncertain`."""


def choose_owner(
    copies: tuple[Unit, ...], dispatchers: set[str], owner_globs: tuple[str, ...] = (), root: History | None = None
) -> tuple[Unit, str, Basis]:
    """The owning copy, the rule that chose it (see the module docstring) and what that rule rests on."""
    if owner_globs:
        matched = [u for u in copies if any(fnmatchcase(u.block.path, g) for g in owner_globs)]
        if matched:
            return _majority(matched, dispatchers)[0], f"it matches --owner {' '.join(owner_globs)}", "chosen"
    if len({u.text for u in copies}) == 1:
        owner = _majority(list(copies), dispatchers)[0]
        return owner, f"all {len(copies)} copies hold the same bytes" if len(copies) > 1 else "it is the only copy", "majority"
    share = {id(u): _stated(u) / max(len(u.slots), 1) for u in copies}
    best = max(share.values())
    if best * 2 >= 1:
        # a copy that states less notation (placeholders, enums, types) than half of what a copy in notation does
        # (filled in, or elided: `T####-slug`, `YYYY-MM-DD`) never owns the shape that copy states
        copies = tuple(u for u in copies if share[id(u)] * 2 >= best)
    # an excerpt (`...` for what it leaves out, values elided) never owns what a whole copy states, unless it is the
    # one a file declares as the definition
    declared = [u for u in copies if _declared(u)]
    declared = [u for u in declared if not _elides(u)] or declared
    copies = tuple(u for u in copies if not _elides(u)) or copies
    if declared:
        owner, reason, basis = _ranked(declared, dispatchers, root)
        why = f"{owner.block.path} declares it as the definition ({_declared(owner)})"
        if len(variants(declared)) == 1:
            return owner, why, "declared"
        # several definitions that differ: the declaration decides nothing between them, what chose among them does
        return owner, f"{why}; of the {len(variants(declared))} definitions, {reason}", basis if basis != "weak" else "tie"
    return _ranked(list(copies), dispatchers, root)


def _after_header(text: str) -> str:
    """A YAML unit's text from its first key on: without the comment and blank lines above it."""
    lines = text.splitlines(keepends=True)
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("#")):
        lines.pop(0)
    return "".join(lines)


def _elides(unit: Unit) -> bool:
    """Whether a YAML or JSON unit shows only part of its shape: a ``...`` line or member, or a value elided to
    ``...`` (``"project": "..."``); a template's ``...`` line is its content."""
    if unit.block.kind == "template":
        return False
    return bool(_ELIDED_LINE.search(unit.text)) or any(_value(v) in ("...", "…") for _, v in unit.slots)


def _ranked(copies: list[Unit], dispatchers: set[str], root: History | None) -> tuple[Unit, str, Basis]:
    """The owner among ``copies`` by git history, then the majority, then a tie-break (never path order alone when
    one copy's structure holds every other's, or its enum is what the others fill in)."""
    if root is not None:
        newest = _newest(copies, root)
        if newest is not None:
            return newest, f"its lines changed most recently in git history ({_when(newest, root)})", "history"
    owner, held = _majority(copies, dispatchers)
    if held * 2 > len(copies):
        return owner, f"{held} of the {len(copies)} copies hold it", "majority"
    structures = Counter(u.paths for u in copies)
    common, shared = structures.most_common(1)[0]
    if shared * 2 > len(copies) and len(structures) > 1 and copies[0].block.kind != "template":
        # each its own values, most of them one structure (a template's headings alone say less: its lines decide)
        owner = _majority([u for u in copies if u.paths == common], dispatchers)[0]
        return owner, f"{shared} of the {len(copies)} copies have its structure", "majority"
    general = [u for u in variants(copies) if any(_fills(other, u) for other in copies if other.text != u.text)]
    if len(general) == 1:  # the one copy whose enum the others fill in (`pending | done` where another says `pending`)
        return general[0], f"{NO_MAJORITY}; the others fill in its enum ({_few(_fills(next(o for o in copies if _fills(o, general[0])), general[0]))})", "weak"
    if owner.block.path in dispatchers:
        return owner, f"{NO_MAJORITY}; it is in {owner.block.path}, which dispatches the shape", "weak"
    widest = [u for u in variants(copies) if all(o.paths <= u.paths for o in copies) and any(o.paths < u.paths for o in copies)]
    if widest:  # a copy that lost keys is the other's partial restatement, not its owner
        return widest[0], f"{NO_MAJORITY}; the others' structure lies inside its", "weak"
    return owner, f"{NO_MAJORITY}: the first copy in path order", "weak"


_STATED_TYPES = _TYPE_WORDS - {"path", "url", "date", "datetime", "timestamp", "uuid"}


def _stated(unit: Unit) -> int:
    """How many of ``unit``'s values state notation: a placeholder (``{{slug}}``, ``<id>``, ``[x]``; not ``...``),
    an enum or a type word. Format tokens (``YYYY-MM-DD``, ``T####-slug``, ``path``) only stand in for a value."""
    return sum(1 for _, v in unit.slots if _states(v))


def _states(text: str) -> bool:
    items = _items(text)
    if items is not None:  # `["Finding 1"]` is a list, not a [placeholder]: as its elements are
        return any(_states(json.dumps(i, ensure_ascii=False)) for i in items)
    return (
        any(m.group() not in ("...", "…") for m in PLACEHOLDER.finditer(text))
        or isinstance(_type_of(text), frozenset)
        or _value(text).lower() in _STATED_TYPES
    )


def mirrors(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one file kept under two trees (``.agents/skills/x/SKILL.md`` and
    ``.claude/skills/x/SKILL.md``, ``sdk/prompts/templates/x.md`` and ``core/templates/x.md``): under top folders of
    their own (at most two each), the same two or more last parts. Translations are never mirrors."""
    pa, pb = a.split("/"), b.split("/")
    if a == b or len(pa) < 3 or len(pb) < 3 or pa[0] == pb[0] or translation(a) or translation(b):
        return False  # one tree, or a translation (its words differ by design)
    tail = min(len(pa), len(pb)) - 1
    while tail > 2 and pa[-tail:] != pb[-tail:]:
        tail -= 1
    return pa[-tail:] == pb[-tail:] and len(pa) - tail <= 2 and len(pb) - tail <= 2


_LANGUAGE = re.compile(r"^[a-z]{2}(?:[-_](?:[A-Za-z]{2}|Han[st]|han[st]))?$")
"""``fr``, ``zh-CN``, ``pt_br``, ``zh-Hans``: a language folder; never ``db-move`` or ``ui-kit`` (a word after the dash)."""


def translation(path: str) -> str:
    """The language folder (``docs/zh-CN/...``) when ``path`` is a translation, which never owns a shape; else empty."""
    parts = path.split("/")[:-1]
    return next((p for p in parts if _LANGUAGE.match(p) and p.lower() not in ("go", "js", "ts", "py", "sh", "ui", "qa")), "")


def _declared(unit: Unit, files_only: bool = False) -> str:
    """Why ``unit``'s file or the prose before it declares it the shape's definition; empty when nothing does.
    ``files_only``: only a definition file (under ``templates/`` ..., or a schema file) counts, not the prose."""
    parts = unit.block.path.lower().split("/")
    for part in reversed(parts[:-1]):  # the nearest folder that says what its files are
        if part in _DEFINITION_DIRS:
            return f"a {part}/ file"
        if part in _ROLE_DIRS:
            break  # an agent kept under templates/ (a plugin shipped as a template) is an agent, not a definition
    if "schema" in parts[-1]:
        return "a schema file"
    m = None if files_only else _DECLARES.search(unit.block.before)
    return f'the text above says "{m.group(0)}"' if m else ""


def is_dispatcher(path: str, data: bytes) -> bool:
    """A file that dispatches shapes: a skill, a command, an orchestrator agent, or front matter that says so."""
    parts = path.split("/")
    if "skills" in parts[:-1] or "commands" in parts[:-1]:
        return True
    if "orchestrat" in parts[-1].lower():
        return True
    if data.startswith(b"---"):
        end = data.find(b"\n---", 3)
        return bool(_FRONT_DISPATCH.search(data[: end if end > 0 else 0]))
    return False


def _majority(units: list[Unit], dispatchers: set[str] = frozenset()) -> tuple[Unit, int]:
    held = [u.paths if u.block.display else u.text for u in units]  # a display's sample values are its own
    counts = Counter(held)
    best = max(counts.values())
    tied = [u for u, h in zip(units, held) if counts[h] == best]
    return next((u for u in tied if u.block.path in dispatchers), tied[0]), best


# -- git history: which copy changed last ---------------------------------------------------------


class History:
    """What git says about one work tree: when each file last changed (one ``git log`` for the scan), and
    whether a copy's own lines changed after a given time (``git blame --since``, which stops walking
    history there, so it stays cheap however long the history is).

    Lines not committed yet count as changed now (the user's latest edit). Every git command runs with
    :func:`contractc.load.git.run_git` (nothing the repository's configuration names ever runs); the blames a
    scan needs run side by side (:meth:`prefetch`).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.times: dict[tuple[str, int, int, int], int | None] = {}
        self._files: dict[str, int] | None = None

    def file_changed(self, path: str) -> int:
        """When git last changed the file (uncommitted: now): an upper bound on its lines' time."""
        if self._files is None:
            self._files = _file_times(self.root)
        return self._files.get(path, 0)

    def questions(self, units: list[Unit] | tuple[Unit, ...], step: int = 1) -> list[tuple[str, int, int, int]]:
        """The blames of one step: the ``step`` variants in the files changed last, each looked at back to when the
        next variant's file last changed (path, first, last, since). Any line found there is newer than every
        other variant's lines, whose files are all older; none found: the next step looks one variant deeper."""
        ranked = sorted(variants(units), key=lambda u: -self.file_changed(u.block.path))  # the file changed last first
        if step >= len(ranked):
            return []
        since = self.file_changed(ranked[step].block.path)
        return [
            (u.block.path, u.line, u.line + max(u.text.count("\n"), 1) - 1, since)
            for u in ranked[:step]
            if self.file_changed(u.block.path) > since
        ]

    def prefetch(self, questions: list[tuple[str, int, int, int]]) -> None:
        from concurrent.futures import ThreadPoolExecutor

        keys = sorted(set(questions) - set(self.times))
        if keys:
            with ThreadPoolExecutor(max_workers=4) as pool:
                for key, when in zip(keys, pool.map(lambda k: _blame(self.root, *k), keys)):
                    self.times[key] = when

    def changed_since(self, key: tuple[str, int, int, int]) -> int | None:
        if key not in self.times:
            self.times[key] = _blame(self.root, *key)
        return self.times[key]


def _blame(root: Path, path: str, first: int, last: int, since: int) -> int | None:
    """The author time of the newest commit among lines ``first``..``last`` of ``path`` made after ``since``
    (``git blame --since``: history is walked back to ``since`` only); None when none is, or git cannot say."""
    bound = (f"--since={since}",) if since else ()  # 0: the whole history (a root commit's lines count too)
    try:
        done = run_git(root, "blame", "--line-porcelain", *bound, "-L", f"{first},{last}", "--", path)
    except OSError:
        return None
    if done.returncode != 0:
        return None
    newest, when, boundary = None, 0, False
    for line in done.stdout.splitlines():
        if line.startswith(b"author-time "):
            when = int(line.split()[1])
        elif line == b"boundary":
            boundary = True  # a line older than ``since``: its commit says nothing
        elif line.startswith(b"\t"):  # the line itself closes its header
            if (not boundary or not since) and when > since:
                newest = max(newest or 0, when)
            when, boundary = 0, False
    return newest


def variants(units: list[Unit] | tuple[Unit, ...]) -> list[Unit]:
    """The first unit of each distinct text: what history is asked about."""
    return list({u.text: u for u in reversed(units)}.values())[::-1]


HISTORY_STEPS = 4
"""How many variants deep :func:`_newest` looks before it leaves the choice to the majority."""


def _newest(units: list[Unit], history: History) -> Unit | None:
    """The variant whose own lines git changed last, when that is clear; None otherwise (see :meth:`History.questions`)."""
    for step in range(1, HISTORY_STEPS + 1):
        asked = history.questions(units, step)
        found = [(t, key) for key in asked if (t := history.changed_since(key)) is not None]
        if not found:
            continue
        latest = max(t for t, _ in found)
        if sum(1 for t, _ in found if t == latest) > 1:
            return None  # one commit changed both: history does not tell them apart
        path, line = next(key for t, key in found if t == latest)[:2]
        return next(u for u in variants(units) if (u.block.path, u.line) == (path, line))
    shown = variants(units)
    if len({u.block.path for u in shown}) == 1 and len(shown) <= HISTORY_STEPS:
        # one file's variants (a return block and its restatement further down): their own lines' commits decide
        found = [(t, u) for u in shown if (t := history.changed_since((u.block.path, u.line, u.line + max(u.text.count("\n"), 1) - 1, 0)))]
        latest = max((t for t, _ in found), default=None)
        if latest is not None and sum(1 for t, _ in found if t == latest) == 1:
            return next(u for t, u in found if t == latest)
    return None


def _file_times(root: Path) -> dict[str, int]:
    """Project-relative path -> author time of the newest commit that touched it (now for uncommitted changes)."""
    import time

    def git(*args: str) -> bytes:
        try:
            done = run_git(root, *args)
        except OSError:
            return b""
        return done.stdout if done.returncode == 0 else b""

    times: dict[str, int] = {}
    when = 0
    for chunk in git("log", "--relative", "--no-renames", "--format=%x01%at", "--name-only", "-z", "--", ".").split(b"\0"):
        for part in chunk.split(b"\n"):
            if part.startswith(b"\x01"):
                when = int(part[1:] or 0)
            elif part:
                times.setdefault(part.decode("utf-8", "surrogateescape"), when)
    now = int(time.time())
    prefix = git("rev-parse", "--show-prefix").strip().decode("utf-8", "surrogateescape")
    for entry in git("status", "--porcelain", "-z", "--untracked-files=all", "--", ".").split(b"\0"):
        if len(entry) > 3:
            path = entry[3:].decode("utf-8", "surrogateescape")
            times[path[len(prefix) :] if path.startswith(prefix) else path] = now
    return times


def _when(unit: Unit, history: History) -> str:
    import datetime

    t = max((t or 0 for k, t in history.times.items() if k[:2] == (unit.block.path, unit.line)), default=0)
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d")


# -- labels ---------------------------------------------------------------------------------------


def _label(unit: Unit, owner: Unit, basis: Basis = "majority", translated: bool = False) -> Member:
    """``basis``: what chose ``owner`` (:data:`Basis`); ``translated``: a translation's data block, matched to the
    (non-example) block it translates."""
    if unit.twice and unit is not owner:
        # whatever else it is, one of its objects names a key twice: a parser keeps the last and drops the other
        why = f"it holds {_few(list(unit.twice))} twice in one object, and a JSON parser keeps only the last"
        return Member(unit, "example" if unit.block.example else "instance", why, True)
    if unit is owner:
        return Member(unit, "example" if unit.block.example else "copy", "the owning copy")
    if translated and unit.text != owner.text and owner.paths != unit.paths:
        # keys are never translated: a translation whose keys differ from its original's is a stale one
        why = _structure(sorted(owner.paths - unit.paths), sorted(unit.paths - owner.paths))
        return Member(unit, "instance", f"a translation ({translation(unit.block.path)}) whose keys differ from its original's: {why}", True)
    where = f" in {unit.within}" if unit.within else ""
    filled = unit.block.example or (
        unit.block.kind != "template" and not _stated(unit) and _stated(owner) and "filled in with format tokens, not notation"
    )
    if filled:
        # an example's values are its own; its key paths are the shape's (it may elide some with `...`)
        shown = illustration(unit.block.before, unit.text) or unit.block.example == illustration("Bad:", "")  # a part under `BAD:`
        if unit.text == owner.text or shown or translation(unit.block.path):
            return Member(unit, "example", filled)
        theirs, mine = _slot_map(owner), _slot_map(unit)
        own = any(_value(theirs[p]) != _value(mine[p]) for p in theirs.keys() & mine.keys())
        extra = sorted(unit.paths - owner.paths)
        reworded = [p for p in theirs.keys() & mine.keys() if p and theirs[p] != mine[p]]  # its opening text is a header
        if (
            owner.block.example and not own and reworded and theirs.keys() == mine.keys() and unit.paths == owner.paths
            and len(unit.paths) >= MIN_SHARED and unit.block.path != owner.block.path
        ):
            # the same example, every key and value the owner's, pasted in another file with its comments (the fields'
            # descriptions) reworded: a copy that drifted, not an illustration of its own
            why = f"the owner's example, every key and value the same, with the comments of {_few(sorted(reworded))} reworded{where}"
            return Member(unit, "example", why, uncertain=True) if basis in ("weak", "tie") else Member(unit, "drifted", why, True)
        outcome = _outcome(unit, owner) if extra and not _renamed(sorted(owner.paths - unit.paths), extra) else ""
        if outcome:
            return Member(unit, "example", f"filled in, {outcome}, with keys of its own ({_few(extra)}): a variant by design")
        held = _held(unit, owner, basis, "example", sorted(owner.paths - unit.paths), extra, own, "filled in, but ")
        return held or Member(unit, "example", filled)
    if unit.text == owner.text:
        return Member(unit, "copy", "same bytes as the owner")
    if _squash(unit.text) == _squash(owner.text):
        return Member(unit, "copy", f"the owner's text but for whitespace{where}")
    if _lines(unit.text) == _lines(owner.text):
        # `- <item>` stated once or three times: one list placeholder, not another notation
        return Member(unit, "instance", f"the owner's lines, with a repeated line stated another number of times{where}")
    missing = sorted(owner.paths - unit.paths)
    extra = sorted(unit.paths - owner.paths)
    drift, own = _slot_differences(unit, owner)
    titles = (_title(owner), _title(unit))
    retitled = titles[0] != titles[1] and titles[0] in missing and titles[1] in extra
    if retitled:
        missing.remove(titles[0])  # each instance's own title heading (`### <date> — /this-command`)
        extra.remove(titles[1])
        own.append(titles[1])
    broken = _structure(missing, extra)
    retyped = changed_notation(unit, owner, own)
    if unit.block.path == owner.block.path and not unit.within and (own or drift):
        # beside the owner: its own values (or the owner's own, where it states notation), or keys of its own, make a
        # variant; only its notation, two uses worded apart (`{N}` and `{_max_rounds}`); a key lost and nothing else
        # of its own, a restatement that drifted (below)
        if own or extra or _slot_differences(owner, unit)[1]:
            return Member(unit, "instance", "beside the owner in the same file, with values or notation of its own: a variant by design")
        if not broken:
            return Member(unit, "instance", f"the notation of {_few(drift)} differs from the owner's, beside it in the same file", uncertain=True)
    if unit.within and (missing or extra or drift) and _declared(unit) and not _declared(owner):
        # a section of the definition, pasted elsewhere and changed there: the block elsewhere is its instance
        return Member(unit, "instance", f"a part of a definition file ({_declared(unit)}), {unit.within}; the owning copy is its instance")
    if mirrors(unit.block.path, owner.block.path):
        why = broken or f"{_few(drift + own) or 'its lines'} differ"
        return Member(unit, "drifted", f"{why}, in a mirror of the owner's file (the same file under another tree)", True)
    language = translation(unit.block.path)
    if language and (unit.block.kind == "template" or not (missing or extra)):
        return Member(unit, "instance", f"a translation ({language}) of the owner{where}")
    if unit.block.display and owner.block.display:
        # a display sample's values are a sample's own; its label rows and section titles are the shape's, and its
        # title line (its key) says which display it is: two displays of other titles that share rows are two outputs
        if broken and unit.key == owner.key:
            return Member(unit, "drifted", f"{broken}: a display whose rows or titles differ from the owner's", True)
        if broken:
            return Member(unit, "instance", f"another display, titled its own way ({broken})")
        return Member(unit, "instance", "the owner's rows and titles, with sample values of its own")
    if broken and not extra and titles[0] in missing and unit.block.kind == "template":
        # a section of the template on its own (`## Milestone: ...` of a whole template file): an excerpt, not a copy
        return Member(unit, "instance", f"an excerpt of the owner: its structure lies inside the owner's, without its title{where}")

    def instance(reason: str) -> Member:
        # an instance fills the shape with its own values; its types and enum members are the shape's
        if retyped and basis == "weak" and _own_vocabulary(unit, owner):
            # each instance its own enum, none of the owner's members in it (each reviewer its own categories)
            return Member(unit, "instance", f"{reason or 'its own values'}, and an enum of its own ({retyped}){where}")
        if retyped and basis == "weak":  # nothing but a tie-break chose the owner: which enum is the shape's?
            return Member(unit, "instance", f"its own values, but {retyped}{where}; nothing says which copy is the shape", uncertain=True)
        if retyped:
            return Member(unit, "instance", f"its own values, but {retyped}{where}", True)
        return Member(unit, "instance", f"{reason}{where}")

    outcome = _outcome(unit, owner) if extra and not _fills(unit, owner) and not _renamed(missing, extra) else ""
    if outcome:
        # a failure envelope's error details beside `status: failed`: the context keys of its own outcome, not keys a
        # copy of the success envelope gained
        return instance(f"{outcome}, with keys of its own ({_few(extra)}): a variant by design")
    shared = len(owner.paths & unit.paths)
    theirs, mine = _slot_map(owner), _slot_map(unit)
    common = sum(1 for p in set(theirs) & set(mine) if theirs[p] or mine[p])  # fields with a value, not bare headings
    emptied = [p for p in set(theirs) & set(mine) if _value(theirs[p]) and not _value(mine[p])]  # text lost, not its own
    if not broken and not emptied and common >= 2 and len(drift) + len(own) >= common and len(set(drift) | set(own)) >= common:
        return instance("the same structure with its own text in every field")
    if retitled and not broken and len(drift) >= 3 and len(drift) * 2 >= shared:
        # most of its fields worded its own way: another use of the shape (this command's entry), not a copy that slipped
        return instance(f"the same structure, worded its own way in {len(drift)} of {shared} fields")
    if broken and all(p.startswith("line:") for p in (*missing, *extra)):
        return instance(f"a template with lines of its own ({broken})")
    if own:
        # an instance may word its placeholders its own way; a lost key or a changed type or enum breaks it
        typed = [p for p in drift if not (PLACEHOLDER.search(theirs.get(p, "")) and PLACEHOLDER.search(mine[p]))]
        filled_in = _fills(unit, owner)
        if extra and filled_in:
            # it fills in the owner's enum, so it is an instance of the owner: it may leave a field out, not add one
            lost, added = _unheld(unit, owner, missing, extra)
            if _own_payload(lost, added, owner):
                # every field of the envelope kept, its own keys only inside them (an agent's own findings and
                # metrics in a shared return envelope): are the owner's nested keys the shape, or an illustration?
                why = _structure(lost, added)
                return Member(unit, "instance", f"it fills in the owner's {_few(filled_in)} and keeps its every field, with content of its own inside them ({why}){where}; nothing says whether the owner's nested keys are the shape", uncertain=True)
            return Member(unit, "instance", f"it fills in the owner's {_few(filled_in)}, but {_structure(lost, added) or broken}{where}", True)
        held = _held(unit, owner, basis, "instance", missing, extra, True, f"its own values ({_few(own)}), but ", where)
        if held is not None:
            return instance("") if retyped and not held.divergent else held
        if typed and basis in ("declared", "tie", "chosen") and not _declared(unit, files_only=True):
            # held to the definition a file declares (or --owner names); between peer instances a difference proves no drift
            return Member(unit, "instance", f"its own values ({_few(own)}), but changes the notation of {_few(typed)}{where}", True)
        if typed:
            return instance(f"its own values ({_few(own)}) and its own notation; no file declares the shape")
        return instance(f"the same structure with its own values for {_few(own)}")
    share = _line_share(unit, owner)
    quoted = _QUOTES.search(unit.block.before)  # "Each agent returns with:": a copy of another's return, meant to be the same
    weak = basis == "weak"
    if (weak or not (owner.block.fence and unit.block.fence)) and unit.block.kind == "template" and (broken or drift) and share < LINE_SHARE and not _declared(unit) and not quoted:
        return instance(f"only {share:.0%} of its lines are the owner's, and no file declares the shape")
    if broken:
        held = _held(unit, owner, basis, "drifted", missing, extra, False, "", where, alike=not drift)
        if held is not None:
            return held
    if drift:
        if small(unit, owner) and not _declared(owner) and not retyped and all(
            PLACEHOLDER.search(theirs.get(p, "")) and PLACEHOLDER.search(mine.get(p, "")) for p in drift
        ):
            # one key and nothing under it, its placeholder worded apart (`<timestamp>`, `[timestamp]`): too little to
            # tell a copy from another shape that uses the same key (a changed type or enum is drift all the same)
            return Member(unit, "instance", f"the notation of {_few(drift)} differs, in a shape of one key{where}; nothing says which copy is the shape", uncertain=True)
        return Member(unit, "drifted", f"the notation of {_few(drift)} differs from the owner's{where}", True)
    if any(_unheld(unit, owner, missing, extra)):
        # keys that are not the owner's, which nothing above judged (a key renamed with all it holds): no copy, and
        # no instance check would hold (its structure is not the shape's); say so, and adopt leaves it as it is
        return Member(unit, "instance", f"{broken}{where}: a key renamed with all it holds, or an entry of its own; nothing says which copy is the shape", uncertain=True)
    if unit.within:
        return Member(unit, "copy", f"the owner's fields and notation, nested in {unit.within}")
    if unit.block.kind == "json":
        return Member(unit, "copy", "the owner's document, laid out differently")
    if unit.block.kind == "yaml" and _after_header(unit.text) == _after_header(owner.text):
        # the same lines under comment lines of its own above the first key: the block's header (`# Standards
        # tracking`), which the first key's unit carries, not a description of that key
        return Member(unit, "instance", f"the owner's text under header comments of its own above its first key{where}")
    if unit.block.path == owner.block.path and not unit.within:
        # the owner's keys, values and notation beside it, in another order or with other comments: a second
        # example of the shape in the same file, or the same one restated; nothing says it drifted
        return Member(unit, "instance", f"the owner's keys and values in another order or with other comments, beside it in the same file; nothing says which copy is the shape", uncertain=True)
    return Member(unit, "drifted", f"its lines differ from the owner's (order or comments){where}", True)


def _held(
    unit: Unit,
    owner: Unit,
    basis: Basis,
    label: Label,
    missing: list[str],
    extra: list[str],
    own: bool,
    why: str,
    where: str = "",
    alike: bool = False,
) -> Member | None:
    """The verdict on a member whose key paths, headings or label lines are not the owner's; None when it is left
    to the caller (only elided paths differ, or an instance with values and fields of its own that nothing holds
    to the owner's). ``own``: its values are its own (an instance's, an example's); ``alike``: its values and
    notation are the owner's, so only its keys differ.

    * Held to a definition (a declared file, ``--owner``), a lost or foreign key is divergent.
    * Otherwise keys of its own around the owner's whole core (another operation's context keys) make an instance
      of its own, and a member with values and fields of its own is no copy at all; a member that only lost keys,
      or one that differs from the owner in nothing but its keys, is divergent when git history, a majority or
      the text above ("the scout returns:") backs the owner, or when it restates the owner in the owner's file.
    * With nothing but a tie-break behind the owner (:data:`Basis` ``weak``, or a ``tie`` for another definition),
      it is uncertain, unless it is the owner's text with a key lost or renamed: whichever side is stale, that drifted."""
    lost, extra = _unheld(unit, owner, missing, extra)
    if not lost and not extra:
        return None
    broken = _structure(lost, extra)
    same = unit.block.path == owner.block.path and not unit.within
    # another definition file defines its own shape: held to the owner only as far as history or a majority chose it
    defined = basis == "chosen" or (basis in ("declared", "tie") and not _declared(unit))
    weak = basis == "weak" or (basis == "tie" and not defined)
    if not extra and len(lost) * 3 > len(owner.paths) and len(lost) > 1 and not defined:
        # a few of the owner's keys shown on their own (`## Options` quoting three of a config's sixty keys)
        return Member(unit, label, f"{why.removesuffix(', but ')}: an excerpt, {len(unit.paths)} of the owner's {len(owner.paths)} key paths{where}")
    renamed = bool(extra) and unit.block.kind != "template" and _renamed(lost, extra)
    many = owner.block.example and basis == "majority"  # one of many examples, most of which agree
    if label == "example" and (_map_key(lost, extra) if renamed else not extra and _entry(lost)):
        return None  # an example names its own entries of a map (`<server-name>` -> `github`), or leaves one out
    if label == "example" and not extra and re.search(EXAMPLE_WORDS, unit.block.before):
        return None  # the text above calls it an example (`**Example:**`) and it shows fewer fields: abridged
    if lost and extra and _file_entries(unit, lost, extra) and _file_entries(owner, extra, lost):
        # each file's own entries of one map (`components.docs` in configure-docs, `components.sentry` in
        # configure-sentry): an instance by design, named for its file
        return Member(unit, "instance" if label == "drifted" else label, f"{why.removesuffix(', but ') + ', ' if why else ''}its own entries of a map, named for its file ({_few(extra)}){where}")
    if renamed and not (many or defined):
        return None  # a key renamed with all it holds (`memory` and `issue_tracking`): a sibling entry, another shape
    if _declared(unit) and basis in ("declared", "tie") and lost and extra:
        weak = True  # two definition files, a section each of its own: nothing says one is the other's stale copy
    if own and not lost:
        # another operation's context keys (`uri` for a fetch), even against a definition: the shape's core is whole
        return Member(unit, label, f"{why.removesuffix(', but ')} with keys of its own ({broken}) around the shape's whole core{where}")
    if own and not defined:
        if extra and not renamed or many and not extra:
            return None  # fields of its own, or an optional key left out: nothing holds it to the owner's
        filled = not _stated(unit) and bool(_stated(owner))  # a filled-in copy of the shape the owner states
        if same and not filled:
            return None  # its own values beside the owner: a variant by design
        if not (many or (same and filled)):
            weak = True  # peer instances, or an example elsewhere: nothing says one of them holds the other's keys
    if label == "example" and not same and not renamed:
        weak = True  # an example elsewhere may be abridged: nothing says it is meant whole
    if not _stated(owner) and (own or extra) and basis != "majority":
        # the owner states no notation: an example, whatever folder holds it, and no definition; unless most copies
        # agree with it, an example with values or keys of its own is another example, not a copy that lost keys
        defined, weak = False, True
    inside = all("." in p or "[" in p for p in (*lost, *extra))  # below the top level: not the block's own subject
    if not weak or (lost and (alike and (not extra or inside) or same and not own and not extra)) or _QUOTES.search(unit.block.before):
        # the owner's values and notation but a key lost, or one renamed inside it (beside it: not all its keys):
        # whichever side is stale, it drifted (blind4-2: the same file is no variant by itself)
        return Member(unit, label, f"{why}{broken}{where}", True)
    if label == "example" and owner.block.example and not same:
        return None  # two examples of a shape no copy states, each its own: nothing to weigh
    # not a drifted copy (adopt would make it the owner's bytes): an instance or an example, flagged uncertain
    return Member(unit, "instance" if label == "drifted" else label, f"{why}{broken}{where}; nothing says which copy is the shape", uncertain=True)


OUTCOME_FLAGS = ("success", "ok", "passed", "succeeded")
"""Top-level fields whose literal ``true`` or ``false`` says which outcome a block reports (``"success": false``)."""


def _outcome(unit: Unit, owner: Unit) -> str:
    """``another outcome (status: failed)`` when a top-level discriminating field (``status``, ``result``, ...), mode
    or direction, or an outcome flag (``success: false``), holds a literal in both ``unit`` and ``owner`` and they
    differ; else empty. An enum the owner writes there is no literal: a copy that fills it in is its instance."""
    from contractc.scan.blocks import MODES

    mine, theirs = _slot_map(unit), _slot_map(owner)
    for path in (*_DISCRIMINATORS, *MODES, *OUTCOME_FLAGS):
        for key in (path, f"label:{path}"):
            if key not in mine or key not in theirs:
                continue
            a, b = _value(theirs[key]), _value(mine[key])
            flag = path in OUTCOME_FLAGS
            if a.lower() == b.lower() or not (flag and {a.lower(), b.lower()} == {"true", "false"} or not flag and _literal(a) and _literal(b)):
                continue
            return f"another outcome ({path}: {b})"
    return ""


def _literal(text: str) -> bool:
    """A short literal word (``failed``, ``to-cache``): no placeholder, type word, enum or prose."""
    return bool(re.fullmatch(r"[\w.-]{1,40}", text)) and not _notation(text)


def small(unit: Unit, owner: Unit) -> bool:
    """Whether ``unit`` and ``owner`` together hold one key path, heading or label and nothing under it (``name:
    <sprint-name>``, a template of one opening line): too little for an uncertain member to be worth a warning
    by default (``scan -v`` and the JSON report still list it)."""
    return len(unit.paths | owner.paths) <= 1


def _file_entries(unit: Unit, lost: list[str], extra: list[str]) -> bool:
    """Whether every path of ``extra`` is an entry of one map below the top level (``components.docs_level``) that
    ``lost`` has entries of too, each named for ``unit``'s file (``docs`` for ``skills/configure-docs/SKILL.md``)."""
    parents = {p.rsplit(".", 1)[0] for p in (*lost, *extra) if "." in p}
    if len(parents) != 1 or not all("." in p for p in (*lost, *extra)):
        return False
    stem = f"-{_stem(unit.block.path)}-"
    for path in extra:
        key = path.rsplit(".", 1)[1].replace("_", "-").lower()
        heads = [key[:i] for i in range(min(3, len(key)), len(key) + 1) if i == len(key) or key[i] == "-"]
        if not any(f"-{h}-" in stem for h in heads):
            return False
    return True


def _map_key(lost: list[str], extra: list[str]) -> bool:
    """Whether the key renamed (:func:`_renamed`) is a map's entry: below the top level, or a placeholder
    (``<message_id>``)."""
    gone = _names(frozenset(lost)) - _names(frozenset(extra))
    depth, name = next(iter(gone)).split(":", 1)
    return depth != "0" or bool(PLACEHOLDER.search(name))


def _entry(lost: list[str]) -> bool:
    """Whether the paths lost are one entry of a map, whole: a key below the top level and everything under it."""
    root = min(lost, key=len)
    return ("." in root or "[" in root) and len(lost) > 1 and all(p == root or p.startswith((f"{root}.", f"{root}[]")) for p in lost)


def _renamed(lost: list[str], extra: list[str]) -> bool:
    """Whether the keys gained are the keys lost under one other name (``progress`` -> ``p_progress``): the same
    keys at each depth (:func:`_names`) but for one."""
    a, b = _names(frozenset(lost)), _names(frozenset(extra))
    gone, gained = a - b, b - a
    return len(gone) == len(gained) == 1 and len(lost) == len(extra) and next(iter(gone))[0] == next(iter(gained))[0]


_ELIDED_LINE = re.compile(r"(?m)^\s*(?:#|//)?\s*(?:\.\.\.|…)\s*,?\s*$|,\s*(?:\.\.\.|…)\s*[,}]|[{,]\s*(?:\.\.\.|…)\s*,")
_ELIDED_VALUE = {"...", "…", "[...]", "[…]", '["..."]', '["…"]', "{...}", "{…}", "[]", "{}"}


_OPTIONAL = re.compile(r"(?i)#.*(?:\b(?:optional|optionnel|facultatif|opcional)\b|任意|可选|可選)")
_OPEN = {"object", "dict", "map"}
"""Type words for a value whose keys are each copy's own (``collections: <object>``)."""


def _unheld(unit: Unit, owner: Unit, missing: list[str], extra: list[str]) -> tuple[list[str], list[str]]:
    """(the paths ``unit`` lost, the paths it added) that the owner holds it to: not those it elides, nor those the
    owner leaves out with ``[...]``, ``[]`` or an object's type (``<object>``: its keys are each copy's own), nor
    keys the owner says are optional (``config: <object>  # Optional``), with all they hold."""
    optional = [p for p, v in owner.slots if p and _OPTIONAL.search(v)]
    lost = [p for p in missing if not _elided(unit, p) and not any(p == o or p.startswith((f"{o}.", f"{o}[]")) for o in optional)]
    return lost, [p for p in extra if not _elided(owner, p)]


def _elided(unit: Unit, path: str) -> bool:
    """Whether ``unit`` elides ``path`` or leaves it open: a ``...`` line or member stands for the keys it leaves
    out, or ``path`` lies under a value written ``[...]``, ``{...}``, empty (``[]``: no items in this example) or
    as an object's type."""
    if unit.block.kind != "template" and _ELIDED_LINE.search(unit.text):  # a template's `...` line is its content
        return True
    return any(
        (_value(v) in _ELIDED_VALUE or _type_of(v) in _OPEN) and path.startswith((f"{p}.", f"{p}[]")) for p, v in unit.slots if p
    )


PEER_COPIES = 2
"""Identical instances in this many files or more are one text meant to be the same: a peer that all but matches it drifted."""
TWIN_SHARE = 0.75
"""Two instances in two files sharing at least this share of their lines (and :data:`TWIN_LINES` lines or more) are one
text meant to be the same: one of them drifted."""
TWIN_LINES = 5
NAMED_TWIN = 0.8
"""Two instances in two files that open with the same line, where the shape's members open in several ways
(``Task: spawn frontend-validator``: the same instance, named), and whose texts are at least this alike (difflib
ratio) are one text meant to be the same: one of them drifted."""


def _peer_drift(members: list[Member], dispatchers: set[str] = frozenset(), history: History | None = None) -> tuple[Member, ...]:
    """Hold each instance to its peers in other files, whatever the owner (the same block pasted into sibling plugins,
    or a caller's copy of what an agent receives). An instance with the structure and most lines of identical peers in
    :data:`PEER_COPIES` files drifted from them; of two near-identical templates (:data:`TWIN_SHARE`, or
    :data:`NAMED_TWIN` for two that open with the same line), an instance and another instance or a copy, one is
    reported against the other (``later``; ``history``: what git says, when the plugin is a work tree).
    Translations are never held."""
    peers = [
        m.unit for m in members
        if m.label == "instance" and not m.divergent and not m.unit.within and not translation(m.unit.block.path)
        and not m.unit.block.display  # a display's values are a sample's: no peer's are meant to be the same
    ]
    files: dict[str, set[str]] = {}
    for unit in peers:
        files.setdefault(unit.text, set()).add(unit.block.path)
    held = {text: paths for text, paths in files.items() if len(paths) >= PEER_COPIES}
    twins = peers + [m.unit for m in members if m.label == "copy" and not m.unit.within and m.unit not in peers]

    def close(unit: Unit, other: Unit, share: float) -> bool:
        return (
            other.text != unit.text and other.block.path != unit.block.path and other.paths == unit.paths
            and _lines(other.text) != _lines(unit.text) and _line_share(unit, other) >= share
        )

    named = len({_lines(m.unit.text)[0] for m in members if m.unit.text.strip()}) > 1  # the members open in several ways

    def twin(unit: Unit, other: Unit) -> bool:
        if not close(unit, other, 0.0):
            return False
        if _line_share(unit, other) >= TWIN_SHARE:
            return True
        # the same instance, named by its first line, and reworded a little in many lines (`UI consistency`,
        # `UI/UX consistency`): alike in words, not in lines
        mine, theirs = _lines(unit.text), _lines(other.text)
        return (
            named and theirs and mine[0] == theirs[0]
            and difflib.SequenceMatcher(None, "\n".join(mine), "\n".join(theirs), autojunk=False).ratio() >= NAMED_TWIN
        )

    def later(unit: Unit, other: Unit) -> bool:
        """Whether ``unit``, not ``other``, is the twin that drifted: only the other is in a definition file, or git
        changed the other's lines last, or the other is the fuller (a stale copy lacks what was added), or, of two as
        full, only the other is in a dispatching file, else ``unit`` is the later in path order."""
        declared = bool(_declared(unit, files_only=True)), bool(_declared(other, files_only=True))
        if declared[0] != declared[1]:
            return declared[1]
        newest = _newest([unit, other], history) if history is not None else None
        if newest is not None:
            return newest is other
        lines = len(_lines(unit.text)), len(_lines(other.text))
        if lines[0] != lines[1]:
            return lines[0] < lines[1]
        rank = lambda u: (u.block.path in dispatchers, u.block.path, u.line)  # noqa: E731
        return rank(unit) < rank(other) if (unit.block.path in dispatchers) != (other.block.path in dispatchers) else rank(unit) > rank(other)

    out = []
    for m in members:
        unit = m.unit
        if unit not in peers:
            out.append(m)
            continue
        match = next((p for p in peers if p.text in held and unit.block.path not in held[p.text] and close(unit, p, LINE_SHARE)), None)
        if match is not None:
            where = ", ".join(sorted(held[match.text])[:2])
            why = f"the {len(held[match.text])} identical copies in {where}"
        elif unit.block.kind == "template" and len(_lines(unit.text)) >= TWIN_LINES and unit.text not in held:
            # a data block's instances differ in a value by design (one per adapter); a template's twin is a pasted copy
            match = next((p for p in twins if p.text not in held and twin(unit, p) and later(unit, p)), None)
            why = f"the near-identical copy in {match.block.path}" if match else ""
        if match is None:
            out.append(m)
            continue
        changed = len(set(_lines(unit.text)) - set(_lines(match.text)))
        out.append(Member(unit, "instance", f"{changed} of its lines differ from {why}: a copy that drifted from its peers", True, match))
    return tuple(out)


def _title(unit: Unit) -> str:
    """The template's first structure path when it is a heading (its title), else empty."""
    first = next((p for p, _ in unit.slots if p), "")
    return first if first[:1] == "h" and first[1:2].isdigit() else ""


def changed_notation(unit: Unit, owner: Unit, own: list[str] | None = None) -> str:
    """How ``unit`` changes the types or enum members ``owner`` writes (``its enum of verdict adds defer``), "" when
    it keeps them: an instance's types and enum members are the shape's, but a definition file with values of its
    own (``own``: its fields of its own, asked of :func:`_slot_differences` when None) defines its own.  The one
    rule scan's labels and check's instance regions (:mod:`contractc.drift.structure`) share."""
    if own is None:
        own = _slot_differences(unit, owner)[1]
    return "" if own and _declared(unit, files_only=True) else _typed_changes(unit, owner)


def _retyped(unit: Unit, owner: Unit) -> list[tuple[str, str | frozenset[str], str | frozenset[str]]]:
    """(path, the owner's type or enum, ``unit``'s) at each field where both write one and they disagree."""
    mine, theirs = _slot_map(unit), _slot_map(owner)
    found = []
    for path in theirs.keys() & mine.keys():
        a, b = _type_of(theirs[path]), _type_of(mine[path])
        if a is not None and b is not None and a != b and not _same_kind(theirs[path], mine[path]):
            found.append((path, a, b))
    return found


def _typed_changes(unit: Unit, owner: Unit) -> str:
    """``its enum of verdict adds defer``: the fields where both copies write a type or an enum and they disagree."""
    said = []
    for path, a, b in _retyped(unit, owner):
        name = path.split(":", 1)[-1] or "its opening text"
        if isinstance(a, frozenset) and isinstance(b, frozenset):
            gained, lost = sorted(b - a), sorted(a - b)
            change = " and ".join(part for part in (gained and f"adds {', '.join(gained)}", lost and f"drops {', '.join(lost)}") if part)
            said.append(f"its enum of {name} {change}")
        else:
            said.append(f"the type of {name} is {_shown(b)}, not {_shown(a)}")
    return "; ".join(sorted(said)[:2])


OWN_VOCABULARY = 3
"""An enum of at least this many members, none of them the owner's, is an instance's own vocabulary."""


def _own_vocabulary(unit: Unit, owner: Unit) -> bool:
    """Whether every field where ``unit`` and ``owner`` write types or enums that disagree holds two enums with no
    member in common (``...`` aside), ``unit``'s of :data:`OWN_VOCABULARY` members or more: its own list of
    categories, not the owner's list changed."""
    changed = _retyped(unit, owner)
    members = lambda kind: {m.lower() for m in kind} - {"...", "…"}  # noqa: E731
    return bool(changed) and all(
        isinstance(a, frozenset) and isinstance(b, frozenset) and not members(a) & members(b) and len(members(b)) >= OWN_VOCABULARY
        for _, a, b in changed
    )


def _type_of(text: str) -> str | frozenset[str] | None:
    """A value's type word (``string``) or enum members (``{a, b}``), None when it is neither (a placeholder, a literal)."""
    body = _value(text)
    if body[:1] + body[-1:] in ("<>", "[]", "()"):
        body = body[1:-1].strip()
    if body.lower() in _TYPE_WORDS:
        return _TYPE_SYNONYMS.get(body.lower(), body.lower())
    parts = [p.strip().strip("\"'`").strip() for p in body.split("|")]
    if len(parts) > 1 and all(parts) and is_notation(body):
        return frozenset(parts)
    return None


_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_RANGE = re.compile(r"\s*(?:-|–|—|to|\.\.)\s*")


def _same_kind(a: str, b: str) -> bool:
    """Whether an enum and a placeholder (or type word) say one thing: ``1 | 2 | 3`` and ``<integer: 1, 2, or 3>``,
    ``<integer>`` or ``<float: 0.0-1.0>`` (a type that holds every member, a range around them), ``a | b`` and
    ``<one of a, b>``. A placeholder naming another type, or other members, differs; a string enum needs its members."""
    for enum_text, other in ((a, b), (b, a)):
        enum = _type_of(enum_text)
        if not isinstance(enum, frozenset):
            continue
        if isinstance(_type_of(other), frozenset):
            return False  # two enums: _typed_changes compares their members
        body = _value(other)
        if not PLACEHOLDER.fullmatch(body) and body.lower() not in _TYPE_WORDS:
            return False
        body = body.strip("<>{}[]").strip()
        head, sep, rest = body.partition(":")
        if not sep:
            head, _, rest = body.partition(" ")
        kind = _TYPE_SYNONYMS.get(head.strip().lower(), head.strip().lower())
        if kind not in _TYPE_WORDS:
            kind, rest = "", body
        numbers = [float(m) for m in _NUMBER.findall(rest)]
        try:
            members = sorted(float(m) for m in enum)
        except ValueError:  # an enum of words: the placeholder must list every member
            words = {w.lower() for w in re.findall(r"[\w.-]+", rest)}
            return kind in ("", "string") and not numbers and {m.lower() for m in enum} <= words
        whole = all(m.is_integer() and "." not in e for m, e in zip(members, sorted(enum, key=float)))
        if kind not in ("", "number", "any") and not (kind == "integer" and whole):
            return False
        if not numbers:
            return bool(kind) and not re.search(r"\w", rest)  # `<integer>`: the type alone
        if sorted(numbers) == members:
            return True
        pair = _NUMBER.split(rest.strip())
        return len(numbers) == 2 and len(pair) == 3 and bool(_RANGE.fullmatch(pair[1])) and min(numbers) <= members[0] and members[-1] <= max(numbers)
    return False


_MOMENT = re.compile(r"^YYYY-MM-DD|^[<{\[(].*\b(?:iso[ -]?8601|timestamp|datetime|date|time)\b.*[>}\])]$", re.I)


def _moment(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one date or time written two ways: a format token (``YYYY-MM-DDTHH:MM:SSZ``) and a
    placeholder naming one (``<ISO 8601>``, ``{timestamp}``, ``[date]``). Two placeholders are compared as written
    (``{date}`` and ``{{TIMESTAMP}}``: another style, perhaps another engine's)."""
    a, b = _value(a), _value(b)
    return bool(_MOMENT.search(a) and _MOMENT.search(b)) and (a.startswith("YYYY") != b.startswith("YYYY"))


def _own_payload(lost: list[str], added: list[str], owner: Unit) -> bool:
    """Whether the key paths an instance lost and added (elided ones left out) all lie inside the owner's fields,
    none of those fields lost, and it adds keys of its own: content of its own under the envelope's fields."""
    def top(path: str) -> str:
        return re.split(r"[.\[]", path, maxsplit=1)[0]

    nested = all(top(p) != p for p in (*lost, *added))
    return bool(added) and nested and {top(p) for p in (*lost, *added)} <= {top(p) for p in owner.paths}


def _fills(unit: Unit, owner: Unit) -> list[str]:
    """The fields where ``unit`` writes one member of the enum ``owner`` writes there (``pending`` of ``pending | done``)."""
    mine, theirs = _slot_map(unit), _slot_map(owner)
    found = []
    for path in mine.keys() & theirs.keys():
        enum = _type_of(theirs[path])
        if isinstance(enum, frozenset) and _type_of(mine[path]) is None and _value(mine[path]).lower() in {v.lower() for v in enum}:
            found.append(path)
    return sorted(found)


def _shown(kind: str | frozenset[str]) -> str:
    return " | ".join(sorted(kind)) if isinstance(kind, frozenset) else kind


_TYPE_SYNONYMS = {"str": "string", "text": "string", "int": "integer", "bool": "boolean", "float": "number", "array": "list",
                  "dict": "object", "map": "object", "none": "null"}


def _structure(missing: list[str], extra: list[str]) -> str:
    parts = []
    if missing:
        parts.append(f"lacks {_few(missing)}")
    if extra:
        parts.append(f"adds {_few(extra)}")
    return " and ".join(parts)


def _few(paths: list[str]) -> str:
    shown = ", ".join(p.split(":", 1)[-1] or "its opening text" for p in paths[:3])
    return shown + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def _slot_differences(unit: Unit, owner: Unit) -> tuple[list[str], list[str]]:
    """(paths whose notation differs: drift, paths holding the unit's own literal values: an instance's)."""
    mine, theirs = _slot_map(unit), _slot_map(owner)
    drift, own, named = [], [], []
    names = (_stem(unit.block.path), _stem(owner.block.path))
    for path, value in mine.items():
        if path not in theirs or theirs[path] == value:
            continue
        if names[0] != names[1] and min(map(len, names)) >= 3 and names[0] in value.lower() and names[1] in theirs[path].lower():
            own.append(path)  # each names its own file (`Usage: /gsd-add-phase` in add-phase.md)
            continue
        if _same_kind(theirs[path], value):
            continue  # `1 | 2 | 3` and `<integer: 1, 2, or 3>`: one set of numbers, written two ways
        if _type_of(theirs[path]) == "string" and PLACEHOLDER.search(value) and _type_of(value) is None or _moment(theirs[path], value):
            # a schema's `name: <string>`, a template's `<sprint-name>`: a string, named its own way; `{ISO 8601}` and
            # `YYYY-MM-DDTHH:MM:SS`: one timestamp, written two ways
            named.append(path)
            continue
        # a template's opening text (before its first heading or label) is its own title line, not its notation
        template = unit.block.kind == "template"
        kind = "own" if template and not path else _difference(theirs[path], value, not template)
        (own if kind == "own" else drift).append(path)
    # strings and moments named their own way make an instance, unless another field's notation drifted
    return drift, own + named if not drift else own


def _stem(path: str) -> str:
    """``add-phase`` of ``workflows/add-phase.md``; the folder's name for ``skills/x/SKILL.md``."""
    parts = path.lower().rsplit("/", 2)
    stem = parts[-1].rsplit(".", 1)[0]
    return parts[-2] if stem in ("skill", "readme", "index") and len(parts) > 1 else stem


def _slot_map(unit: Unit) -> dict[str, str]:
    out: dict[str, str] = {}
    for path, value in unit.slots:
        out[path] = f"{out[path]}\n{value}" if path in out else value
    return out


def _difference(owner: str, copy: str, data: bool) -> str:
    """``drift`` when the two differ in notation (or a template's prose); ``own`` when the copy holds a value of its own.

    ``data``: a YAML or JSON value, where any literal is a value (a template's long prose is its definition).
    """
    if _items(owner) is not None and _items(copy) is not None:
        # a list of plain values (`["a.test.ts"]`) is as its elements are: notation on both sides, or a value of its own
        return "drift" if _notation(owner) and _notation(copy) else "own"
    if _normal(owner) == _normal(copy) or _value(owner) == _value(copy):
        return "drift"  # a renamed placeholder, a quoted number, a changed comment
    held = PLACEHOLDER.findall(owner)
    if not data and held and sorted(held) == sorted(PLACEHOLDER.findall(copy)):
        return "own"  # the same placeholders around a fixed part of its own (`Usage: /other-command <x>`)
    a, b = _notation(owner), _notation(copy)
    if a and b:
        return "drift"  # a type, an enum, a comment changed
    if data:
        return "own"
    if (a or _short(owner)) and not b and _short(copy):
        return "own"  # a placeholder filled in, or a short value of its own (`Effect: closed`)
    return "drift"


def _value(text: str) -> str:
    body = text.split(" #", 1)[0] if not text.lstrip().startswith("#") else ""
    return body.strip().strip("\"'`").strip()


_LETTER = re.compile(r"(?<![\w'])[A-Z](?![\w'])|\bv[A-Z]\b")  # `N/5`, `vN`: a capital standing for a number


_PHRASE = 4
"""A list element of this many words or more describes the list's items (``["file paths inspected"]``): notation."""


def _items(text: str) -> list | None:
    """The elements of a JSON list of plain values (strings, numbers, null) as a slot holds it; None for anything else."""
    body = _value(text)
    if body[:1] != "[":
        return None
    try:
        items = json.loads(body)
    except ValueError:
        return None
    return items if isinstance(items, list) and not any(isinstance(i, (list, dict)) for i in items) else None


def _notation(text: str) -> bool:
    body = _value(text)
    items = _items(body)
    if items:
        # notation when its elements are (`["<file>"]`, `["..."]`) or are phrases standing for the items (`["file paths
        # inspected"]`); `["a.test.ts"]` is a value, as `"a.test.ts"` is, and so is a call's own argument list, literal
        # arguments beside a placeholder or a `...spread` (`["clear", ...scope_flags]`, `["--org", "{org}"]`)
        return all(_notation(json.dumps(i, ensure_ascii=False)) or len(str(i).split()) >= _PHRASE for i in items)
    return (
        not body
        or body.lower() in _TYPE_WORDS
        or bool(PLACEHOLDER.fullmatch(body))
        or is_notation(body)
        or bool(_LETTER.search(body))
    )


def _short(text: str) -> bool:
    body = _value(text)
    return bool(body) and len(body.split()) <= 3 and "\n" not in body and not PLACEHOLDER.search(body)


def _normal(text: str) -> str:
    return " ".join(PLACEHOLDER.sub("<>", text).split())


def _lines(text: str) -> list[str]:
    """The non-blank lines of ``text``, whitespace squashed, a line repeated right after itself kept once."""
    out: list[str] = []
    for line in text.splitlines():
        squashed = " ".join(line.split())
        if squashed and (not out or out[-1] != squashed):
            out.append(squashed)
    return out


def _line_share(unit: Unit, owner: Unit) -> float:
    a, b = set(_lines(unit.text)), set(_lines(owner.text))
    return len(a & b) / len(a | b) if a | b else 1.0


def _squash(text: str) -> str:
    return " ".join(text.split())


def _body(unit: Unit) -> str:
    return unit.text.replace(unit.key, "", 1) if unit.block.kind == "yaml" else unit.text
