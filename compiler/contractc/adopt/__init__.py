"""``contractc adopt``: move the copies ``scan`` found under one contract.

The plan is computed in full before anything is written:

1. scan the plugin; every shape with two or more unmanaged copies is adopted;
2. write the contract (:mod:`.contract`): one section per stage, each shape's
   owning copy byte for byte;
3. what happens to each member depends on scan's label (docs/adopt.md, "What
   adopt changes"): a **copy** (the owner's bytes) becomes a managed region; an
   **instance** is wrapped, byte for byte, in an instance region
   (``instance=ID``: check holds it to the shape's structure); an **example** is
   never touched; a **drifted** copy is rewritten to the owner's bytes only when
   the user says so (``--accept-drift`` for every group, ``--resolve ID=PATH:LINE``
   for one, whose copy at PATH:LINE then owns the shape), each such copy's diff
   in the plan; otherwise it stays as it is, in no region (so no ``build --force``
   can put the owner's bytes over it), recorded under ``unresolved`` so that
   ``check`` reports it; a member scan is **uncertain** about is left as it is.
   The one rule: a member whose bytes differ from the contract's is in a
   byte-managed region only when the user chose its rewrite (a copy with other
   bytes is wrapped in an instance region; the contract's line breaks and fence
   info string are the two changes every region makes, each said); a block of
   several keys is one record, never cut into fences;
4. compile the result in a scratch folder with the real pipeline: the regions
   are filled and stamped by the regions emitter, and the schemas and dispatch
   snippets ``build`` would write are added, so that right after ``adopt
   --write`` ``check`` is clean but for the drift left unresolved;
5. a block ``check`` would still call a restatement and that is not a drifted
   copy (a worked example, an identical copy or an instance in a quote) is
   listed under ``allow_restatements`` with the reason and shown with its diff
   in the plan; a drifted copy left unresolved never is, nor a drifted copy in a
   quote (no region can sit there, so adopt cannot rewrite it even with
   ``--accept-drift``): check reports it as a ``drift-restatement``.  A copy in
   a list item becomes a region indented like its fence.

What a contract has no form for (a fenced front matter and its body, known by the fence's text) or could not
hold (compiling the plan failed on adopt's own contract: :func:`_unwritable_groups`) is left as it is; a
divergent copy among it is recorded under ``unresolved`` in contractc.yaml, so check keeps reporting it.
Every region is planned under one safety rule (:func:`contractc.adopt.rewrite.stray_line`): a block is
replaced only when the copies scan found in it hold every line of it; a group with a copy in a block where
that fails is left as it is too (:func:`_unspanned_groups`), and a region over such a block that survives to
the plan that would be written is refused (``adopt-region-span``).

``--write`` applies every change through the output writer, all-or-nothing.

On a plugin adopted before (it has a ``contractc.yaml``, :class:`Existing`), each shape's block in its
contracts joins scan's grouping as the owner of its group, so a copy pasted since is judged against the
contract; the groups that hold no contract block are new shapes, appended to the one contract the
configuration names (:func:`_contract_for`), with any title, anchor or id the project has suffixed; the
configuration is merged line by line (:func:`contractc.adopt.contract.merge_config`), and the scratch
compile holds every contract and every file the project's compile reads.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from contractc.adopt.checks import carried_checks
from contractc.adopt.contract import Placed, Taken, ends, merge_config, render_config, render_contract
from contractc.adopt.plan import Kept, Plan, Rewritten
from contractc.adopt.rewrite import Replacement, block_replacement, instance_replacement, replace_blocks, stray_line
from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.drift.restatements import block_digest
from contractc.load.config import CONFIG_NAME
from contractc.load.targets import dedented
from contractc.load.slug import slugify
from contractc.load.source import count_newlines
from contractc.model.records import Span
from contractc.output.outputs import Change, Output, OutputSet, guard_paths
from contractc.report.format import Outcome, Report
from contractc.scan import ScanResult, scan_plugin
from contractc.scan.blocks import Unit
from contractc.scan.shapes import Group, Member

__all__ = ["Plan", "adopt", "plan_adoption"]

FRONT_MATTER = "front-matter"
"""The key scan gives a fenced front matter (``---`` lines around YAML)."""


def plan_adoption(
    root: Path,
    name: str | None = None,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    owners: tuple[str, ...] = (),
    accept_drift: bool = False,
    resolve: tuple[str, ...] = (),
    _unwritable: tuple[ScanResult, dict[str, str], dict[str, str]] | None = None,
) -> Plan:
    """The whole plan; raises :class:`ContractcError` (exit 2) when the plugin cannot be adopted as it is.

    ``accept_drift`` rewrites every drifted copy to its owner; ``resolve`` holds ``ID=PATH:LINE`` choices,
    each making the copy at PATH:LINE the owner of group ID and rewriting that group's drifted copies.
    ``_unwritable``: the scan, the groups the contract could not hold (by id, why), when the plan is made
    again without them (:func:`_unwritable_groups`), and the YAML groups it holds as templates (by id, why: their
    notation cannot be read, :func:`_notation_groups`)."""
    existing = _existing(root) if os.path.lexists(root / CONFIG_NAME) else None
    result = _unwritable[0] if _unwritable else scan_plugin(root, include, exclude, owners, existing.units if existing else ())
    # A fenced front matter (and the template in its body) is left as it is: a contract has no form for it.
    # A fenced front matter is known by the fence's own text, never by scan's labels: one of plain values is a
    # worked example, one whose YAML scan cannot read is no unit at all, and the body of either is still a
    # template that must not become a region over the whole fence.
    # (the plugin's units: on an adopted plugin, scan's units also hold the contracts' own blocks)
    every = list({id(u): u for u in (*result_units(result), *result.examples) if u.block.path in result.data}.values())
    fronts = {(u.block.path, u.block.start) for u in every if _opens_with_front_matter(u.block, result.data[u.block.path])}
    left = {g.id: "in a fenced front matter: left as it is, a contract has no form for it" for g in result.groups if all((u.block.path, u.block.start) in fronts for u in g.copies)}
    # a YAML block no data shape can be (several top-level keys as one unit, values outside the notation) is
    # held as a text shape's template: its copies byte for byte, its instances to its structure, with no schema
    templated = {g.id: why for g in result.groups if g.id not in left and (why := _not_a_data_shape(g))}
    templated.update(_unwritable[2] if _unwritable else {})
    # a block scan reads but a contract or region cannot hold (an unfenced section, JSON in notation, Markdown
    # under a ```yaml fence): its whole shape is left as it is, and scan keeps reporting its drift
    left.update(
        (g.id, f"{u.block.path}:{u.line} in this shape is {u.block.left}: the shape is left as it is, scan keeps reporting it")
        for g in result.groups
        if g.id not in left and (u := next((m.unit for m in g.members if m.unit.block.left and m.label != "example"), None))
    )
    left.update(_unwritable[1] if _unwritable else {})
    # a shape stated once (beside examples of it) has nothing to adopt: its copy is already the only one
    candidates = [g for g in result.groups if len(g.copies) > 1 and g.id not in left]
    twice = []
    if existing is not None:  # a shape the contract holds goes by its id there
        # a group holding two of the contract's blocks is two shapes alike: which one a copy belongs to is unclear
        twice = [g for g in candidates if sum(_at(u) in existing.ids for u in g.copies) > 1]
        candidates = [dataclasses.replace(g, id=existing.ids[_at(g.owner)]) if _at(g.owner) in existing.ids else g for g in candidates if g not in twice]
    groups, resolved = resolve_groups(candidates, resolve)
    if existing is not None:
        _refuse_resolved_away(groups, resolved, existing)
    new = [g for g in groups if existing is None or _at(g.owner) not in existing.ids]
    unfilled = existing.undecided if existing is not None and accept_drift else {}
    skipped = [(u, left[g.id]) for g in result.groups if g.id in left and len(g.copies) > 1 for u in g.copies]
    # a shape stated once or only filled in has nothing to adopt, but what scan found divergent in it stays reported
    lone = "its shape is stated once or only filled in (examples), so adopt puts nothing of it under a contract: left as it is"
    skipped += [(m.unit, lone) for g in result.groups if len(g.copies) <= 1 for m in g.members if m.divergent]
    if not groups and not unfilled:
        pending = sum(map(len, existing.undecided.values())) if existing else 0
        return Plan("", scan=result, skipped=skipped, unresolved=_unresolved(result, skipped), pending=pending)
    base, contract_path = _contract_for(root, name, existing, bool(new))
    plan = Plan(contract_path, scan=result, configured=existing is not None)
    if existing is not None and new:
        plan.added = [g.id for g in new]
        plan.where = (
            f"appended to {contract_path}, the contract {CONFIG_NAME} names, as new sections" if base
            else f"written to {contract_path}, a new contract added to {CONFIG_NAME}: "
            + (f"{', '.join(sorted(existing.pinned))} is pinned (sha256:)" if existing.pinned and len(existing.contracts) == 1
               else f"{CONFIG_NAME} names {len(existing.contracts)} contracts, so adopt appends to none of them")
        )  # fmt: skip
    plan.skipped += skipped
    plan.skipped += [(u, "alike to two shapes of the contract: left as it is (wrap it by hand in the region of the right one)") for g in twice for u in g.copies if u.block.path in result.data]
    carried = carried_checks(new, result.data)
    plan.checks = [(group_id, c) for group_id, found in sorted(carried.items()) for c in found.differing]
    plan.unchecked = [(group_id, unit) for group_id, found in sorted(carried.items()) for unit in found.missing]
    plan.carried = {group_id: found.chosen for group_id, found in carried.items()}
    checks = {group_id: found.chosen.text for group_id, found in carried.items()}
    contracts = dict(existing.contracts) if existing is not None else {}
    placed = []
    if new:
        title = f"{_title(contract_path.rsplit('/', 1)[-1][:-3])} hand-offs"
        contracts[contract_path], placed, plan.renamed = render_contract(
            title, new, result.dispatchers, checks, result.data, base, existing.taken() if existing else None, frozenset(templated)
        )
        plan.templated = sorted((g.id, templated[g.id]) for g in new if g.id in templated)

    def without(cannot: dict[str, str], as_text: dict[str, str] | None = None) -> Plan:
        """The plan made again without the groups ``cannot`` names (by id, why), each left as it is, and with
        the YAML groups ``as_text`` names held as templates."""
        again = (result, {**(_unwritable[1] if _unwritable else {}), **cannot}, {**templated, **(as_text or {})})
        return plan_adoption(root, name, include, exclude, owners, accept_drift, resolve, again)

    def without_unwritable(exc: ContractcError) -> Plan:
        """The plan made again with the YAML groups whose notation cannot be read held as templates, or without
        the groups the contract cannot hold through adopt's own slip; else the refusal, located at the owning copy
        (the contract is not on disk yet)."""
        contract_bytes = contracts.get(contract_path, b"")
        as_text = {k: why for k, why in _notation_groups(exc.diagnostics, contract_path, contract_bytes, placed).items() if k not in templated}
        if as_text:
            return without({}, as_text)
        cannot = _unwritable_groups(exc.diagnostics, contract_path, contract_bytes, placed)
        if not cannot:
            raise ContractcError([_at_owner(d, contract_path, contract_bytes, placed) for d in exc.diagnostics]) from None
        return without(cannot)

    try:
        blocks, shapes = _contract_ids(contracts)  # by (path, block start)
    except ContractcError as exc:
        return without_unwritable(exc)
    new_ids = {g.id for g in new}
    refs = {p.group.id: blocks[(contract_path, p.offset)] for p in placed} | {g.id: blocks[_at(g.owner)] for g in groups if g.id not in new_ids}
    plan.shapes = {g.id: refs[g.id][0] for g in groups}

    by_block: dict[tuple[str, int], list[Unit]] = {}
    # every unit of a block, examples too (a block is replaced only with all it holds), not the contract's own blocks
    for unit in every:
        by_block.setdefault((unit.block.path, unit.block.start), []).append(unit)
    judged = _judge(groups, refs, shapes, new_ids, resolved, accept_drift, existing, result, fronts, by_block)
    laid = _place(by_block, judged, groups, plan.shapes, result)
    plan.kept, plan.rewritten = judged.kept, laid.rewritten
    plan.skipped += judged.skipped
    replacements, strays = laid.replacements, laid.strays
    # a new shape none of whose copies is in a region now (each sits in a record of several keys) is left as it
    # is, every copy of it: a contract shape nothing holds
    wrapped_ids = judged.adopted.keys() | judged.instances.keys()
    unheld = {
        g.id: "no copy of this shape would be in a region (each is a block of several keys, one record, which a region cannot hold, or left as it is): the shape is left as it is"
        for g in new
        if not any(id(m.unit) in wrapped_ids for m in g.members) and g.id not in left
    }
    if unheld and not strays:
        return without(unheld)
    if strays:
        # a group one of whose blocks a region cannot replace as a whole is left as it is, every copy of it, and
        # the rest adopted; a region over such a block that survives to here (the group is left already, or
        # is no group scan found) is adopt's own slip: refused, nothing written
        cannot = {k: why for k, why in _unspanned_groups(result, strays, wrapped_ids).items() if k not in left}
        if cannot:
            return without(cannot)
        refs_of = {**{i: r for i, (r, _) in judged.adopted.items()}, **judged.instances}
        raise ContractcError([_stray(units, stray, refs_of) for units, stray in strays])
    if existing is not None:
        # only now: a new shape left as it is (above) renames nothing
        _refuse_renamed(existing, blocks, new)
    files = {path: replace_blocks(result.data[path], held) for path, held in replacements.items()}
    plan.replaced = {path: [(r.block.start, r.block.end) for r in found] for path, found in replacements.items()}
    # a drifted copy left as it is sits in a target too, so that check reports it
    watched = {*files, *(k.unit.block.path for k in plan.kept if k.label == "drifted")}
    targets, covered = _targets(root, sorted(watched), result)
    recorded = {"include": list(include), "exclude": list(exclude), "owner": list(owners)}
    # drift adopt leaves as it is, outside any region, is recorded so that check keeps reporting it
    def moved(path: str, line: int) -> int:
        """A line of ``path`` as scan read it, in the file adopt writes (the regions above it add marker lines)."""
        return line + sum(
            count_newlines(r.data) - count_newlines(result.data[path], r.block.start, r.block.end)
            for r in replacements.get(path, ())
            if r.block.line < line
        )

    left_drift = [(u.block.path, u.line, ref, why) for u, ref, why in judged.undecided]
    plan.drift_recorded = frozenset((p, moved(p, n)) for p, n, _, _ in left_drift)
    entries = [*_unresolved(result, plan.skipped), *left_drift]
    plan.unresolved = sorted({(p, moved(p, n), plan.shapes.get(shape, shape), why) for p, n, shape, why in entries})  # the contract's ids
    # an entry an earlier adoption wrote, whose copy the regions written now move: recorded again at its new line
    shifted = {(p, n) for p, n, _, _ in entries if moved(p, n) != n}
    if existing is None:
        out = _out_folders(root)

        def configured(allowed: list) -> bytes:
            return render_config(contract_path, targets, allowed, out, recorded, plan.unresolved)
    else:
        added = [] if contract_path in existing.contracts else [contract_path]
        reached = existing.targets
        targets = [t for t in targets if not {m.relative_to(root).as_posix() for m in root.glob(t)} <= reached]

        # an unresolved copy of an earlier adoption that is in a region now: its entry goes
        settled = {(u.block.path, u.line) for path, found in replacements.items() for r in found for u in by_block[(path, r.block.start)]}
        settled |= shifted
        # an entry whose line no copy starts on any more (text was added above it) for a copy recorded again now
        here = {(u.block.path, u.line) for u in every}
        again = {(p, shape) for p, _, shape, _ in plan.unresolved}
        settled |= {at for at, shape in existing.unresolved.items() if at not in here and (at[0], shape) in again}

        def configured(allowed: list) -> bytes:
            return merge_config(existing.config, added, targets, allowed, recorded, plan.unresolved, frozenset(settled))
    config = configured([])
    # the other files the target globs reach are compiled too, so what check will find there is found now
    files = {**(existing.files if existing else {}), **{p: result.data[p] for p in covered if p not in files}, **files}
    try:
        outputs, found, digests = _compile(root, contracts, config, files, bool(unfilled))
    except ContractcError as exc:  # adopt's own slip, never the user's: those groups are left, the rest adopted
        return without_unwritable(exc)
    plan.filled = sorted(unfilled.items())
    # a quoted drifted copy is reported by check's restatement finder only where it sees the fence (quote markers
    # after at most three spaces each): where it does not, it is recorded with the drift adopt left out
    # (unresolved), so that check reports it all the same
    seen = {(d.path, d.line) for d, _ in found}
    unseen = [i for i, k in enumerate(plan.kept) if k.label == "drifted" and k.unit.block.quoted and (k.unit.block.path, k.unit.block.line) not in seen]
    for i in unseen:
        plan.kept[i] = dataclasses.replace(plan.kept[i], why=plan.kept[i].why.replace(
            "check reports it (drift-restatement) until you fix it by hand",
            "check's restatement finder cannot see it (a quote more than three spaces in): it is recorded under "
            "unresolved, so check reports it until you fix it by hand",
        ))  # fmt: skip
    if unseen:
        left_drift = [(k.unit.block.path, moved(k.unit.block.path, k.unit.line), k.shape, f"drifted copy of {k.shape}: {k.why}") for k in map(plan.kept.__getitem__, unseen)]
        plan.unresolved = sorted({*plan.unresolved, *left_drift})
        shifted.update((k.unit.block.path, k.unit.line) for k in map(plan.kept.__getitem__, unseen) if moved(k.unit.block.path, k.unit.line) != k.unit.line)
        config = configured([])
    # a drifted copy left unresolved is drift check must keep reporting: never allowed, whatever its bytes
    undecided = {block_digest(result.data[k.unit.block.path], k.unit.block) for k in plan.kept if k.label == "drifted"}
    allow = [(d, c) for d, c in found if digests[(d.path, d.line)] not in undecided]
    if allow:
        said = {(k.unit.block.path, moved(k.unit.block.path, k.unit.block.line)): _UNSURE for k in plan.kept if k.label == UNCERTAIN}
        said.update(((p, moved(p, line)), _RECORD) for p, line in laid.records)
        plan.allowed = [_allowance(d, result, digests, said) for d, _ in allow]
        plan.allowed_diffs = {(d.path, d.line): c for d, c in allow if c is not None}
        config = configured(plan.allowed)
        outputs, found, digests = _compile(root, contracts, config, files, bool(unfilled))
    written = {path: (data, "contract") for path, data in contracts.items()} | {CONFIG_NAME: (config, "config")}
    written.update({p: (d, k) for p, (d, k) in outputs.items()})
    olds = {path: _read(root / path) for path in written}
    written = {path: found for path, found in written.items() if olds[path] != found[0]}  # an adopted plugin's other files stay
    guard_adoption(root, written)
    plan.changes = [Change(path, data, olds[path], Output(data, kind)) for path, (data, kind) in sorted(written.items())]
    return plan


@dataclass(slots=True)
class _Judged:
    """What adopt does with each member of the groups it adopts (:func:`_judge`), then as the blocks allow (:func:`_place`)."""

    adopted: dict[int, tuple[str, bytes]] = dataclasses.field(default_factory=dict)
    """id(unit) -> (the contract's id, the region's bytes): a copy that becomes a byte-managed region."""
    instances: dict[int, str] = dataclasses.field(default_factory=dict)
    """id(unit) -> the contract's id: a member wrapped, byte for byte, in an instance region."""
    kept: list[Kept] = dataclasses.field(default_factory=list)
    skipped: list[tuple[Unit, str]] = dataclasses.field(default_factory=list)
    undecided: list[tuple[Unit, str, str]] = dataclasses.field(default_factory=list)
    """Drifted copies left as they are, outside any region (no choice made): (copy, shape, why), recorded unresolved."""


@dataclass(slots=True)
class _Placed:
    """The regions the judged members make, block by block (:func:`_place`)."""

    replacements: dict[str, list[Replacement]] = dataclasses.field(default_factory=dict)
    strays: list[tuple[list[Unit], tuple[int, str]]] = dataclasses.field(default_factory=list)
    records: list[tuple[str, int]] = dataclasses.field(default_factory=list)
    """(path, fence line) of each block of several keys left whole."""
    rewritten: list[Rewritten] = dataclasses.field(default_factory=list)


def _judge(groups, refs, shapes, new_ids, resolved, accept_drift, existing, result, fronts, by_block) -> _Judged:
    """Each member of each group adopted, by scan's label: a copy for a region, an instance for an instance
    region, or kept or skipped, with why (docs/adopt.md, "What adopt changes")."""
    judged = _Judged()
    for group in groups:
        ref, region = refs[group.id]
        accepted = accept_drift or group.id in resolved
        held = group.id not in new_ids  # the contract holds it: its drift is decided there, or by --accept-drift
        for member in group.members:
            unit = member.unit
            if unit.within and member.divergent and unit.block.path in result.data:
                # a part of a larger block that diverges: a region holds a whole block, so it is left as it is, and
                # recorded under unresolved (_unresolved), so that check reports it
                judged.skipped.append((unit, f"a part of a larger block ({unit.within}): a region holds a whole block, so it is left as it is"))
                continue
            if unit.within or unit.block.path not in result.data:
                continue  # a part of another block (adopted as a whole), or the contract's own block
            if (unit.block.path, unit.block.start) in fronts:
                judged.skipped.append((unit, "in a fenced front matter: left as it is, a contract has no form for it"))
                continue
            if existing is not None and existing.allows(unit, ref, result.data):
                judged.kept.append(Kept(unit, ref, "allowed", "allowed under allow_restatements in contractc.yaml: left as it is (delete its entry to have it adopted)"))
                continue
            if existing is not None and (unit.block.path, unit.line) in existing.unresolved and not accepted and unit.text != group.owner.text:
                # an earlier adoption left it for the user to decide, whatever scan calls it against the contract now
                why = f"{member.reason}; recorded under unresolved by an earlier adoption: left as it is, outside any region, until you choose"
                judged.kept.append(Kept(unit, ref, "drifted", why, _copy_change(unit, group.owner)))
                judged.undecided.append((unit, ref, f"drifted copy of {ref} ({member.reason})"))
                continue
            if uncertain(member):
                why = f"{member.reason}: scan cannot tell an instance from a drifted copy, so adopt leaves it as it is, in no region"
                judged.kept.append(Kept(unit, ref, UNCERTAIN, why, _copy_change(unit, member.against or group.owner)))
                continue
            if unit.twice:
                # an instance region's check reads the JSON as a parser does, keeping the last of the two: it could
                # never see the key named twice, so the copy is left out and recorded under unresolved
                judged.skipped.append((unit, "it names a key twice in one object, which a region's check could not see: left as it is, in no region"))
                continue
            if member.label == "example":
                judged.kept.append(Kept(unit, ref, "example", f"{member.reason}: an example is never rewritten"))
                continue
            undecided = member.label == "drifted" and not accepted
            if member.label == "drifted" and unit.block.quoted:
                # never allowed, whatever --accept-drift says: check reports it as a restatement (drift-restatement)
                why = (
                    f"{member.reason}; left as it is{', not rewritten' if accepted else ''}: inside a quote, it cannot be a "
                    "region, and check reports it (drift-restatement) until you fix it by hand, or move it out of the "
                    "quote and wrap it in a region"
                )
                judged.kept.append(Kept(unit, ref, "drifted", why, _copy_change(unit, group.owner), _choice(group, unit)))
                continue
            if unit.block.quoted:
                judged.skipped.append((unit, "inside a quote: a region's marker lines cannot sit in one"))
                continue
            if undecided:
                # left as it is, outside any region: a region would let `build --force` put the owner's bytes over
                # it; recorded under unresolved, so check reports it (drift-unresolved) until the user chooses
                why = f"{member.reason}; left as it is, outside any region, recorded under unresolved: check reports it"
                if held:
                    why += f" (the contract holds {ref}: if this copy is right, carry its difference into {group.owner.block.path}:{group.owner.line})"
                judged.kept.append(Kept(unit, ref, "drifted", why, _copy_change(unit, group.owner), "" if held else _choice(group, unit)))
                judged.undecided.append((unit, ref, f"drifted copy of {ref} ({member.reason})"))
                continue
            if member.label == "instance":
                # a shape the contract holds: an unmanaged instance that breaks it is where an earlier adoption
                # left it (a first one wraps a divergent instance), so it stays so: a second adoption is idempotent
                broken = "" if member.divergent and not held else _breaks(unit, ref, shapes, result.data)
                if broken:
                    # scan holds peer instances to no definition; check would hold it to the owner's shape
                    why = (
                        f"{member.reason}; its structure differs from the owning copy's ({broken}) and scan holds "
                        "peer instances to no definition: left as it is, not held to the shape"
                        if not held
                        else f"{member.reason}; against the contract's block ({broken}): left as it is, in no region (wrap "
                        "it by hand in an instance region to have check hold it to the shape)"
                    )
                    judged.kept.append(Kept(unit, ref, "instance", why, _copy_change(unit, group.owner)))
                    continue
                judged.instances[id(unit)] = ref
                if member.divergent:
                    why = (
                        f"{member.reason}: wrapped in an instance region, bytes unchanged; scan calls it divergent, "
                        "and check reports it where a key, heading or label line, a type or an enum differs from the shape's"
                    )
                    judged.kept.append(Kept(unit, ref, "instance", why, _copy_change(unit, member.against or group.owner), divergent=True))
                else:
                    judged.kept.append(Kept(unit, ref, "instance", f"{member.reason}: wrapped in an instance region, bytes unchanged"))
                continue
            alone = sum(not u.within for u in by_block[(unit.block.path, unit.block.start)]) == 1
            if not accepted and alone and not _holds(unit, region, result.data):
                # the owner's text, but not its block's bytes (a fence's info string, spacing, line endings): a
                # region would rewrite them, which only the user may choose; its structure is the shape's
                judged.instances[id(unit)] = ref
                why = (
                    f"{member.reason}, but its block's bytes are not the ones the contract holds (the diff): wrapped, byte "
                    "for byte, in an instance region; --accept-drift makes it a managed copy of the contract's bytes"
                )
                judged.kept.append(Kept(unit, ref, "instance", why, _bytes_change(unit, region, group.owner, result.data)))
                continue
            judged.adopted[id(unit)] = (ref, region)
    return judged


def _place(by_block, judged: _Judged, groups, ids: dict[str, str], result) -> _Placed:
    """The region each block gets, from its judged units: a block is replaced only with all it holds (a record
    of several keys is left whole, a block with a line no unit holds is a stray); ``judged`` loses what cannot be
    placed; ``ids``: scan's shape id -> the contract's."""
    placed = _Placed()
    for (path, _), units in sorted(by_block.items()):
        units.sort(key=lambda u: u.line)
        wrapped = any(id(u) in judged.adopted for u in units) or (len(units) == 1 and id(units[0]) in judged.instances)
        stray = stray_line(units[0].block, units, result.data[path]) if wrapped else None
        cut = _cut_record(units, judged.adopted) if stray is None and wrapped else None
        if cut is not None:
            # one record of several keys: a region holds one key's block, so the block is left whole (its
            # copies elsewhere are adopted; where check would call it a restatement it is allowed, with its diff)
            placed.records.append((path, units[0].block.line))
            for u in units:
                if judged.adopted.pop(id(u), None) is not None:
                    judged.skipped.append((u, f"{cut[1]} ({path}:{cut[0]}): left as it is"))
            continue
        if stray is not None:
            # the safety rule of every region adopt writes: it replaces exactly the copies it was made from
            placed.strays.append((units, stray))
            continue
        if any(id(u) in judged.adopted for u in units):
            unit = next(u for u in units if id(u) in judged.adopted)  # its block's one key (_cut_record)
            placed.replacements.setdefault(path, []).append(block_replacement(unit.block, unit, *judged.adopted[id(unit)]))
            placed.rewritten += _rewrites(unit, groups, judged.adopted, ids, result.data[path])
        elif len(units) == 1 and id(units[0]) in judged.instances:
            placed.replacements.setdefault(path, []).append(instance_replacement(units[0].block, judged.instances[id(units[0])], result.data[path]))
        else:
            # an instance sharing its block with other keys: left as it is (an instance region holds one key)
            judged.kept = [k for k in judged.kept if not (id(k.unit) in judged.instances and any(k.unit is u for u in units))]
            judged.skipped += [(u, "an instance in a block holding other keys: left as it is") for u in units if id(u) in judged.instances]
    return placed


def adopt(
    root: Path,
    name: str | None = None,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    owners: tuple[str, ...] = (),
    *,
    write: bool = False,
    diff: bool = True,
    fmt: str = "text",
    color: bool = False,
    path_prefix: str = "",
    accept_drift: bool = False,
    resolve: tuple[str, ...] = (),
) -> Outcome:
    """``contractc adopt``: the plan, applied all-or-nothing when ``write``; bad input is the diagnostics (exit 2).

    ``fmt`` ``text`` prints the plan (:mod:`contractc.adopt.show`); ``json`` and ``github`` print it
    as a report, as ``scan`` does (:mod:`contractc.adopt.report`), bad input included.
    """
    from contractc.adopt.show import format_plan
    from contractc.output.outputs import write_changes

    try:
        plan = plan_adoption(root, name, include, exclude, owners, accept_drift, resolve)
        if write and plan.changes:
            from contractc.report.progress import stage

            stage(f"writing {len(plan.changes)} files")
            # the configuration first: a journal of adopt --write cut short always holds it, on disk or staged
            write_changes(root, sorted(plan.changes, key=lambda c: (c.path != CONFIG_NAME, c.path)))
    except ContractcError as exc:
        if fmt == "text":
            return Outcome.failed(exc.diagnostics)
        return _formatted(Report.of(exc.diagnostics), fmt, diff, color, path_prefix)
    if fmt == "text":
        return Outcome(format_plan(plan, written=write, diff=diff))
    from contractc.adopt.report import adopt_report

    return _formatted(adopt_report(plan, written=write), fmt, diff and not write, color, path_prefix)


def _formatted(report: Report, fmt: str, diff: bool, color: bool, path_prefix: str) -> Outcome:
    from contractc.report.format import FORMATTERS, Options

    text = FORMATTERS[fmt](report, Options(diff=diff, color=color, path_prefix=path_prefix))
    return Outcome(text, exit_code=report.exit_code, color=color)


def guard_adoption(root: Path, written: dict[str, tuple[bytes, str]]) -> None:
    """Every file adopt would write obeys the rule of every output path (:func:`contractc.output.outputs.guard_paths`):
    plain names, nothing through a symbolic link (out of the project or not), checked before any is read.

    The plugin files adopt rewrites into regions are the user's, named as the user likes: as for
    ``build``'s targets, the rule leaves them to how they were found (scan reads nothing through a
    link out of the project, and finds a file by its real path).
    """
    problems: list[Diagnostic] = []
    for rel, (data, kind) in sorted(written.items()):
        # Each file under the project root ("."), located at itself: the configuration is not written yet.
        one = OutputSet({rel: Output(data, kind)}, set(), {".": Span(rel, 1, 1, 0, 0)})
        try:
            guard_paths(root, one)
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise ContractcError(problems)


@dataclass(frozen=True, slots=True)
class Existing:
    """An adopted plugin as adopt finds it: what it adds to, and what it must leave as it is."""

    config: bytes
    contracts: dict[str, bytes]
    """Every contract the configuration names, by path."""
    pinned: frozenset[str]
    """Contracts whose entry pins their bytes (``sha256:``): adopt never appends to one."""
    ids: dict[tuple[str, int], str]
    """(contract, byte offset of a shape's block) -> the shape's id."""
    units: tuple[Unit, ...]
    """Each shape's block as scan reads it: grouped with the plugin's copies, and their owner."""
    anchors: frozenset[str]
    titles: frozenset[str]
    files: dict[str, bytes]
    """Every other file the project's compile reads: targets, role files, the output folders' files."""
    targets: frozenset[str]
    """The files its ``targets:`` reach."""
    undecided: dict[str, list[tuple[int, str]]]
    """Per target, (line, reference) of each region never filled that holds other bytes than the contract's."""
    allowed: tuple = ()
    """Its ``allow_restatements`` entries: a block one allows was decided, and a later adoption leaves it."""
    unresolved: dict[tuple[str, int], str] = dataclasses.field(default_factory=dict)
    """(path, line) -> shape of its ``unresolved`` entries: copies left for the user to decide."""

    def taken(self) -> Taken:
        return Taken(set(self.anchors), set(self.titles))

    def allows(self, unit: Unit, shape: str, data: dict[str, bytes]) -> bool:
        """Whether an ``allow_restatements`` entry covers ``unit``'s block (as check matches one: path, shape, bytes or line)."""
        block = unit.block
        return any(a.allows(block.path, shape, block.line, lambda: block_digest(data[block.path], block)) for a in self.allowed)


def _existing(root: Path) -> Existing:
    """The adopted plugin at ``root``: its configuration and contracts as they are (bad ones: exit 2, located)."""
    from contractc.emit.filled import Refill
    from contractc.load import load_project
    from contractc.load.source import source_from_bytes
    from contractc.output.files import read_bytes
    from contractc.scan.blocks import file_units

    project = load_project(root)
    ids = {at: ref for at, (ref, _) in _block_starts(project.contracts).items()}
    units = tuple(
        dataclasses.replace(u, block=dataclasses.replace(u.block, example=""))  # the contract's block is the shape
        for c in project.contracts
        for u in file_units(source_from_bytes(c.path, c.data))
        if (c.path, u.block.start) in ids and not u.within
    )
    files = {r.path: r.data for r in project.roles}
    undecided: dict[str, list[tuple[int, str]]] = {}
    refill = Refill(project)
    problems: list[Diagnostic] = []
    for target in project.targets.scan(problems):
        files[target.path] = target.data
        for region in target.regions:
            held = target.data[region.content.start : region.content.end]
            filled = refill.fill(region) if region.recorded is None and held.strip() else None
            if filled is not None and held != filled[0]:
                undecided.setdefault(target.path, []).append((target.data.count(b"\n", 0, region.marker.start) + 1, region.label))
    if problems:
        raise ContractcError(problems)
    for folder in project.config.out.folders():
        for path in sorted((root / folder).rglob("*")) if (root / folder).is_dir() else ():
            if path.is_file() and not path.is_symlink():
                files[path.relative_to(root).as_posix()] = read_bytes(path)
    if (root / "mkdocs.yml").is_file():
        files["mkdocs.yml"] = read_bytes(root / "mkdocs.yml")
    return Existing(
        read_bytes(root / CONFIG_NAME),
        {c.path: c.data for c in project.contracts},
        frozenset(e.path for e in project.config.contracts if e.sha256),
        ids,
        units,
        frozenset({s.anchor for c in project.contracts for s in c.sections} | set(ids.values())),
        frozenset(s.title.casefold() for c in project.contracts for s in c.sections),
        files,
        frozenset(project.targets.paths),
        undecided,
        project.config.allow_restatements,
        {(u.path, u.line): u.shape for u in project.config.unresolved},
    )


def _at(unit: Unit) -> tuple[str, int]:
    return unit.block.path, unit.block.start


def _contract_for(root: Path, name: str | None, existing: Existing | None, new: bool) -> tuple[bytes, str]:
    """(the bytes the new shapes are appended to, b"" for a new contract; the contract's path).

    On an adopted plugin whose configuration names one contract, not pinned, the new shapes are appended to it;
    otherwise (none, several, or a pinned one) they go into a contract of their own, ``contracts/NAME.md``."""
    if existing is not None and (not new or (len(existing.contracts) == 1 and not existing.pinned)):
        path = next(iter(existing.contracts), "")
        return existing.contracts.get(path, b""), path
    slug = _contract_name(root, name)
    contract_path = f"contracts/{slug}.md"
    if os.path.lexists(root / "contracts") and not os.path.islink(root / "contracts") and not (root / "contracts").is_dir():  # a link: guard_adoption
        raise ContractcError(
            Diagnostic(
                "contracts",
                1,
                1,
                "unsafe-path",
                "contracts is not a folder: adopt writes the contract into the contracts/ folder",
                "move it away, then run adopt again",
            )
        )
    if os.path.lexists(root / contract_path):
        why = "" if existing is None else ": the new shapes go into a contract of their own (the configuration names several, or a pinned one)"
        raise ContractcError(
            Diagnostic(contract_path, 0, 0, "adopt-configured", f"{contract_path} already exists{why}", "choose another name with --name")
        )
    return b"", contract_path


def _refuse_resolved_away(groups: list[Group], resolved: set[str], existing: Existing) -> None:
    """``--resolve ID=PATH:LINE`` naming a copy of a shape the contract holds, other than the contract's block:
    the contract is the truth, so adopt never rewrites it to a copy (exit 2, nothing written)."""
    problems = []
    for g in groups:
        if g.id in resolved and _at(g.owner) not in existing.ids:
            block = next(u for u in existing.units if existing.ids[_at(u)] == g.id)
            problems.append(
                Diagnostic(
                    "--resolve",
                    1,
                    1,
                    "adopt-resolve",
                    f"--resolve {g.owner_reason.removeprefix('--resolve ')}: {g.id} is a shape of {block.block.path} (line {block.line}), "
                    "and adopt never rewrites the contract to a copy",
                    f"carry what this copy has into {block.block.path}:{block.line} and run `contractc build`; or name the "
                    f"contract's block, --resolve {g.id}={block.block.path}:{block.line}, to rewrite the copies to it",
                )
            )
    if problems:
        raise ContractcError(problems)


def _refuse_renamed(existing: Existing, refs: dict[tuple[str, int], tuple[str, bytes]], new: list[Group]) -> None:
    """A new shape that would change the id of a shape the project has (a data shape's key used in another
    section qualifies both): a located refusal at its owning copy, since the regions name the old id."""
    changed = {old: refs[at][0] for at, old in existing.ids.items() if refs.get(at, ("",))[0] != old}
    if not changed:
        return
    problems = [
        Diagnostic(
            g.owner.block.path,
            g.owner.line,
            g.owner.block.col,
            "adopt-configured",
            f"shape {g.id}: its key {g.key} is already the shape {old} of the contract, whose structure these copies "
            f"do not share; adding it would rename {old} to {changed[old]}, and the regions name {old}",
            f"rename the key in these copies (or, if they are copies of {old}, make them so); then run adopt again",
        )
        for g in new
        if g.kind == "yaml" and (old := next((o for o in changed if o.rsplit(".", 1)[-1] == g.key), None))
    ]
    old = next(iter(changed))
    raise ContractcError(problems or Diagnostic(CONFIG_NAME, 1, 1, "adopt-configured", f"adding the new shapes would rename {old} to {changed[old]}", "leave the new copies out with --exclude and add them to the contract by hand"))


def result_units(result: ScanResult) -> list[Unit]:
    """Every unit scan kept, shapes and their copies (not examples): what a block may hold."""
    return [u for g in (*result.groups, *result.single) for u in g.copies]


def _rewrites(unit: Unit, groups: list[Group], adopted: dict[int, tuple[str, bytes]], ids: dict[str, str], original: bytes) -> list[Rewritten]:
    """The adopted copy whose bytes its region will not hold unchanged, with why (the user chose its rewrite:
    an unchosen copy whose bytes differ is an instance region instead); [] when they stay."""
    block = unit.block
    group = next(g for g in groups if any(u is unit for u in g.copies))
    chose = f"--resolve {group.id}=..." if group.owner_reason.startswith("--resolve") else "--accept-drift"
    if unit.text != group.owner.text:
        why = f"drifted from the owning copy at {group.owner.block.path}:{group.owner.line}: its bytes replace it ({chose})"
        return [Rewritten(unit, ids[group.id], why, _copy_change(unit, group.owner))]
    said = _normalised(unit, adopted[id(unit)][1], {block.path: original})
    if said == "":
        return []
    if said is not None:
        return [Rewritten(unit, ids[group.id], f"{said}, as in every region; nothing else changes")]
    why = f"its bytes (fence, blank lines or line endings) differ from the owning copy's block, which replaces it ({chose})"
    return [Rewritten(unit, ids[group.id], why)]


def _contract_ids(contracts: dict[str, bytes]) -> tuple[dict[tuple[str, int], tuple[str, bytes]], dict[str, tuple]]:
    """Each shape's id, by (contract, byte offset of its block), and the bytes its regions hold, asked of the
    contract loader (ids qualified across every contract, as the compiler does); and the shapes by id, each with
    its block's text and its notation read (empty when the notation cannot be read: compiling the plan reports
    why, at the owning copy)."""
    from contractc.load import parse_contract, qualify_shape_ids
    from contractc.load.source import source_from_bytes
    from contractc.model.notation import interpret

    parsed = qualify_shape_ids([parse_contract(source_from_bytes(path, data)) for path, data in contracts.items()])
    try:
        read, _ = interpret(parsed)
    except ContractcError:
        read = ()
    by_id = {shape.id: (shape, text.decode("utf-8", "replace")) for _, shape, text in _blocks(read)}
    return _block_starts(parsed), by_id


def _blocks(contracts) -> Iterator[tuple[tuple[str, int], object, bytes]]:
    """(contract path, byte offset) of each shape's block (a data shape's YAML, a text shape's template), the
    shape, and the block's bytes."""
    from contractc.model.records import DataShape

    for contract in contracts:
        for shape in contract.shapes:
            span = shape.block if isinstance(shape, DataShape) else shape.template
            if span is not None:
                yield (contract.path, span.start), shape, contract.slice(span)


def _block_starts(contracts) -> dict[tuple[str, int], tuple[str, bytes]]:
    """(contract path, byte offset of a shape's block) -> (the shape's id, the bytes its regions hold)."""
    return {at: (shape.id, data) for at, shape, data in _blocks(contracts)}


def _breaks(unit: Unit, ref: str, shapes: dict[str, tuple], data: dict[str, bytes]) -> str:
    """What an instance lacks or holds against the contract's shape ``ref``, as check would say it ("" when it
    keeps the structure, or the shape could not be read)."""
    from contractc.drift.structure import compare

    if ref not in shapes:
        return ""
    shape, text = shapes[ref]
    held = data[unit.block.path][unit.block.start : unit.block.end].decode("utf-8", "replace")
    found = compare(shape, text, held, unit.block.path, unit.block.line)
    parts = [found.unreadable] if found.unreadable else []
    parts += [f"lacks {', '.join(i.shown for i in found.missing[:3])}"] if found.missing else []
    parts += [f"holds {', '.join(i.shown for i in found.foreign[:3])}"] if found.foreign else []
    parts += [found.retyped] if found.retyped else []
    return "; ".join(parts)


def _targets(root: Path, rewritten: list[str], result: ScanResult) -> tuple[list[str], set[str]]:
    """The ``targets:`` globs, and every file they reach.

    Each rewritten file's folder is a glob (``agents/*.md``, ``skills/*/SKILL.md``), so a copy
    pasted into an agent added later fails ``check`` as a restatement.  A folder where the glob
    would also reach a file scan did not read (git-ignored, a link) is listed file by file:
    ``check`` must not depend on files a CI checkout does not have.
    """
    read = set(result.files)
    patterns: set[str] = set()
    covered: set[str] = set()
    for path in rewritten:
        parts = PurePosixPath(path).parts
        if parts[-1] == "SKILL.md" and len(parts) >= 3:
            pattern = "/".join([*map(glob.escape, parts[:-2]), "*", "SKILL.md"])
        elif len(parts) >= 2:
            pattern = "/".join([*map(glob.escape, parts[:-1]), "*" + PurePosixPath(path).suffix])
        else:
            pattern = ""
        reached = {m.relative_to(root).as_posix() for m in root.glob(pattern)} if pattern else set()
        if pattern and reached <= read:
            patterns.add(pattern)
            covered |= reached
        else:
            patterns.add(glob.escape(path))
            covered.add(path)
    return sorted(patterns), covered


def _compile(root: Path, contracts: dict[str, bytes], config: bytes, files: dict[str, bytes], fill_undecided: bool = False):
    """Compile the adopted plugin in a scratch folder: every output ``build`` would write, and what check would still find.

    ``contracts`` holds every contract of the project, ``files`` every other file the compile reads (targets,
    role files, the output folders); ``fill_undecided`` (``--accept-drift``) fills the regions a first adoption
    left holding a drifted copy's own bytes."""
    from contractc.drift.restatements import find_restatements, restatement_changes, unmanaged_copies
    from contractc.emit.filled import Refill
    from contractc.pipeline import compile_project
    from contractc.report.progress import stage

    stage(f"compiling the plan ({len(files)} files)")

    from contractc.output.journal import scratch

    with scratch(root) as folder:
        base = Path(folder)
        for rel, data in {**files, **contracts, CONFIG_NAME: config}.items():
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_bytes(data)
        project, outputs = compile_project(base)
        found = find_restatements(project)
        digests = {(path, line): digest for path, _, line, digest in unmanaged_copies(project)} if found else {}
        diffs = restatement_changes(project, found) if found else {}
        rendered = {p: (o.data, o.kind) for p, o in outputs.files.items()}
        refill = Refill(project)
        for rel, data in files.items():
            target = project.target(rel) if b"contractc:" in data else None
            # a drifted copy kept in a region of its own bytes stays so: build would refuse to overwrite it unseen
            rendered[rel] = (refill.leaving_undecided(target, fill_undecided), "regions") if target is not None and target.regions else rendered.get(rel, (data, "regions"))
        return rendered, [(d, diffs.get(d)) for d in found], digests


def _not_a_data_shape(group: Group) -> str:
    """Why a YAML group's owning copy cannot be a data shape of the contract (one top-level key), or "": the
    contract holds it as a text shape's template."""
    if group.kind != "yaml" or group.key == FRONT_MATTER:
        return ""
    from contractc.load.yaml_block import parse_block

    try:
        parsed = parse_block(group.owner.text, group.owner.block.path, group.owner.line)
    except ContractcError:
        return ""  # the contract's loader reports it, located at the owning copy
    keys = len(parsed) if isinstance(parsed, dict) else 0
    return "" if keys == 1 else f"its block holds {keys} top-level keys as one record (a data shape is one key per block)"


def resolve_groups(groups: list[Group], choices: tuple[str, ...]) -> tuple[list[Group], set[str]]:
    """``groups`` with each ``--resolve ID=PATH:LINE`` applied (that copy owns group ID; the group's copies are
    relabelled against it), and the ids resolved.  An unknown id or a location that is no copy of the group is
    a located refusal (exit 2) naming what may be given."""
    by_id = {g.id: g for g in groups}
    problems: list[Diagnostic] = []
    resolved: set[str] = set()
    for i, choice in enumerate(choices, 1):
        ident, _, where = choice.partition("=")
        path, _, line = where.rpartition(":")
        group = by_id.get(ident)
        if group is None:
            listed = ", ".join(sorted(by_id)[:12]) or "none"
            problems.append(Diagnostic("--resolve", i, 1, "adopt-resolve", f"--resolve {choice}: no group {ident!r} (groups: {listed})", "write --resolve ID=PATH:LINE with an id scan prints"))
            continue
        candidates = [m for m in group.members if m.label in ("copy", "drifted")]
        chosen = next((m.unit for m in candidates if m.unit.block.path == path and line.isdigit() and int(line) in (m.unit.line, m.unit.block.line)), None)
        if chosen is None:
            listed = ", ".join(f"{m.unit.block.path}:{m.unit.line}" for m in candidates)
            problems.append(Diagnostic("--resolve", i, 1, "adopt-resolve", f"--resolve {choice}: no copy of {ident} at {where or '(nothing)'} (copies: {listed})", "name the copy that is right as PATH:LINE"))
            continue
        relabelled = tuple(
            m if m.label not in ("copy", "drifted")
            else Member(m.unit, "copy", "the owning copy (--resolve)") if m.unit is chosen
            else Member(m.unit, "copy", "same bytes as the owner") if m.unit.text == chosen.text
            else Member(m.unit, "drifted", "differs from the copy --resolve chose")
            for m in group.members
        )
        by_id[ident] = dataclasses.replace(group, owner=chosen, owner_reason=f"--resolve {choice}", members=relabelled)
        resolved.add(ident)
    if problems:
        raise ContractcError(problems)
    return [by_id[g.id] for g in groups], resolved


def _opens_with_front_matter(block, data: bytes) -> bool:
    """Whether ``block``'s text (between its fence lines) opens with front matter."""
    from contractc.scan.blocks import opens_with_front_matter

    text = data[block.start : block.end].decode("utf-8", "replace")
    return opens_with_front_matter(text.split("\n", 1)[1] if "\n" in text else "")


def _stray(units: list[Unit], stray: tuple[int, str], refs: dict[int, str]) -> Diagnostic:
    """The refusal of a region over a block that holds a line none of the adopted copies hold."""
    block = units[0].block
    line, why = stray
    shapes = ", ".join(sorted({refs[id(u)] for u in units if id(u) in refs}))
    return Diagnostic(
        block.path,
        line,
        1,
        "adopt-region-span",
        f"adopt would replace the block at line {block.line} with a region of {shapes}, but {why}; nothing is written",
        f"a bug in contractc adopt: leave the file out with --exclude {shlex.quote(block.path)} and report it",
    )


def _unresolved(result: ScanResult, skipped: list[tuple[Unit, str]]) -> list[tuple[str, int, str, str]]:
    """(path, line, shape, why) of each divergent member scan reports that adopt leaves as it is, outside any
    region: the ``unresolved`` entries of contractc.yaml, which check reports (``drift-unresolved``)."""
    left = {id(u): why for u, why in skipped}
    found = []
    for group in result.groups:
        for m in group.members:
            if m.divergent and id(m.unit) in left:
                against, side = group.held_against(m)
                what = "drifted copy" if m.label == "drifted" else "instance"
                why = f"{what} of {group.id} ({m.reason}) against {side} at {against.block.path}:{against.line}; adopt: {left[id(m.unit)]}"
                found.append((m.unit.block.path, m.unit.line, group.id, why))
    return sorted(found)


def _choice(group: Group, unit: Unit) -> str:
    """The ``--resolve`` argument that makes ``unit`` the owner of ``group``."""
    return f"{group.id}={unit.block.path}:{unit.line}"


def _holds(unit: Unit, region: bytes, data: dict[str, bytes]) -> bool:
    """Whether ``unit``'s block (the only unit in it) holds ``region``'s bytes already, but for its line breaks and
    its opening fence's info string: a region of them changes nothing else (:func:`_normalised`)."""
    return _normalised(unit, region, data) is not None


def _normalised(unit: Unit, region: bytes, data: dict[str, bytes]) -> str | None:
    """What a region of ``region`` changes in ``unit``'s block: "" nothing, else the two changes every region
    makes (the contract's line breaks, its fence's info string, as ```` ``` ```` becomes ```` ```yaml ````);
    None when it would change more (only the user may choose that)."""
    block = unit.block
    held = dedented(data[block.path][block.start : block.end], block.indent.encode())
    if held is None:
        return None
    if not block.newline:
        held += b"\n"
    if held == region:
        return ""
    lf = held.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    said = ["its line breaks become the contract's (LF)"] if lf != held else []
    if lf == region:
        return "; ".join(said)
    first, _, rest = lf.partition(b"\n")
    wanted, _, body = region.partition(b"\n")
    run = first[: len(first) - len(first.lstrip(b"`~"))]
    if rest != body or not run or wanted[: len(run)] != run or wanted[len(run) : len(run) + 1] in (b"`", b"~"):
        return None
    info = wanted[len(run) :].decode("utf-8", "replace").strip()
    return "; ".join([*said, f"its fence's info string becomes the contract's ({info or 'none'})"])


def _bytes_change(unit: Unit, region: bytes, owner: Unit, data: dict[str, bytes]) -> Change:
    """A copy's block against the bytes a region would hold (``-`` the block, ``+`` the owner's), for the plan's diff."""
    block = unit.block
    held = data[block.path][block.start : block.end]
    return Change(f"{block.path}:{block.line}", region, held, Output(b"", "copy"), expected_path=f"{owner.block.path}:{owner.block.line}, as the contract holds it")


def _copy_change(unit: Unit, owner: Unit) -> Change:
    """A copy against its owning copy, for the plan's diff (``-`` the copy, ``+`` the owner)."""
    return Change(
        f"{unit.block.path}:{unit.line}",
        ends(owner.text).encode(),
        ends(unit.text).encode(),
        Output(b"", "copy"),
        expected_path=f"{owner.block.path}:{owner.line}",
    )


def _cut_record(units: list[Unit], adopted: dict[int, tuple[str, bytes]]) -> tuple[int, str] | None:
    """Where regions of a block's keys would cut the one record the block holds into several fences (a region
    holds one key's fenced block): the first key, and why; None when it holds one key, or none is adopted."""
    keys = [u for u in units if not u.within]
    left = [u for u in keys if id(u) not in adopted]
    if len(keys) < 2 or len(left) == len(keys):
        return None
    if left:
        return left[0].line, (
            f"the block is one record of {len(keys)} keys and {left[0].key} is not adopted with the others: "
            "regions of some keys would cut the record into several fences"
        )
    return keys[1].line, (
        f"the block is one record of {len(keys)} keys: a region holds one key's fenced block, so regions of its "
        "keys would cut the record into several fences (if its keys are separate hand-offs, give each a fence of "
        "its own by hand, then run adopt again)"
    )


def _unspanned_groups(result: ScanResult, strays: list[tuple[list[Unit], tuple[int, str]]], wrapped) -> dict[str, str]:
    """The groups (by scan's id) with a copy in a block a region would not replace as a whole (``strays``: the
    block's units, and :func:`stray_line`'s line and why), each with why, naming the line; ``wrapped``: the
    ``id`` of each unit a region was planned for."""
    group_of = {id(m.unit): g.id for g in result.groups for m in g.members}
    cannot: dict[str, str] = {}
    for units, (line, why) in strays:
        block = units[0].block
        for unit in units:
            if id(unit) in wrapped and id(unit) in group_of:
                cannot.setdefault(
                    group_of[id(unit)],
                    f"a copy of this shape sits in a block a region cannot replace as a whole ({block.path}:{line}: "
                    f"{why.replace('the region would', 'a region would')}); the shape is left as it is, every copy of it",
                )
    return cannot


def _unwritable_groups(problems: list[Diagnostic], contract_path: str, contract: bytes, placed) -> dict[str, str]:
    """The groups whose block in the contract-to-be does not compile through no fault in the owning copy's own
    notation (a syntax error where adopt wrote the block, or a line adopt wrote around it), each with why.

    A contract adopt writes must compile: such a group is left as it is and the plan says why, located at its
    owning copy, rather than exit 2 on adopt's own contract.  A problem in a data shape's notation, inside the
    owning copy's text, is not here: that shape is held as a template (:func:`_notation_groups`)."""
    cannot: dict[str, str] = {}
    for d in problems:
        if d.path != contract_path:
            continue
        for p, fence_line, closing in _fences(contract, placed):
            if not fence_line <= d.line <= closing:
                continue
            owners = fence_line < d.line < closing and p.group.kind in ("yaml", "json") and not d.code.endswith("-syntax")
            if not owners:
                cannot.setdefault(p.group.id, f"the contract cannot hold it as adopt would write it ({d.code}: {d.message}): left as it is")
    return cannot


def _notation_groups(problems: list[Diagnostic], contract_path: str, contract: bytes, placed) -> dict[str, str]:
    """The YAML groups of the contract-to-be whose owning copy's own text is not notation a data shape can
    hold (``<ok | failed>`` values, a type the notation lacks), each with the first such problem, located at the
    owning copy: the contract holds them as templates."""
    found: dict[str, str] = {}
    for d in problems:
        if d.path != contract_path or d.code.endswith("-syntax"):
            continue
        for p, fence_line, closing in _fences(contract, placed):
            if p.group.kind == "yaml" and fence_line < d.line < closing:
                at = _at_owner(d, contract_path, contract, placed)
                found.setdefault(p.group.id, f"its values are not notation a data shape can hold ({at.path}:{at.line}: {d.message})")
    return found


def _fences(contract: bytes, placed) -> Iterator[tuple[Placed, int, int]]:
    """Each group's block in the contract-to-be, with the 1-based lines of its opening and closing fence."""
    for p in placed:
        fence_line = contract.count(b"\n", 0, p.offset) + 1
        yield p, fence_line, fence_line + p.group.owner.text.count("\n") + 1


def _at_owner(d: Diagnostic, contract_path: str, contract: bytes, placed) -> Diagnostic:
    """A problem found in the contract-to-be, located at the owning copy it came from (the contract is not on disk yet)."""
    if d.path != contract_path:
        return d
    for p, fence_line, closing in _fences(contract, placed):
        if fence_line < d.line <= closing:
            owner = p.group.owner
            line = owner.line + d.line - fence_line - 1
            col = d.col + (owner.block.col - 1)
            return d._replace(path=owner.block.path, line=line, col=col, message=f"{d.message} (in the owning copy of {p.group.id})")
    return d


_UNSURE = "scan cannot tell an instance from a drifted copy: if it is a copy, make it agree and wrap it in a region; then delete this entry"
_RECORD = (
    "a block of several keys (one record), left whole: a region holds one key's block; if its keys are separate "
    "hand-offs, give each a fence of its own, delete this entry and run adopt again"
)


def _allowance(d: Diagnostic, result: ScanResult, digests: dict[tuple[str, int], str], said: dict[tuple[str, int], str]) -> tuple[str, str, int, str, str]:
    """The ``allow_restatements`` entry of a restatement adopt leaves; ``said``: why, by (path, fence line), for
    the blocks adopt left for a reason of its own (a member scan is uncertain about, a record of several keys)."""
    shape = d.message.removeprefix("unmanaged copy of ").split(",", 1)[0]
    example = next((u for u in result.examples if u.block.path == d.path), None)
    if (d.path, d.line) in said:
        why = said[(d.path, d.line)]
    elif example is not None:
        why = "a worked example, not a copy"
    else:
        why = "left as it is by adopt: make it a region or delete it"
    return d.path, shape, d.line, why, digests[(d.path, d.line)]


UNCERTAIN = "uncertain"
"""The label adopt gives, in its plan, a member scan flags uncertain (:func:`uncertain`)."""


def uncertain(member: Member) -> bool:
    """Whether scan cannot tell this member an instance from a drifted copy (``Member.uncertain``, the one place
    adopt reads it): adopt leaves it byte for byte as it is, in no region, and lists it."""
    return member.uncertain


def _out_folders(root: Path) -> dict[str, str]:
    """Where the schemas and dispatch snippets go: folders contractc will own (and clean), so never the user's.

    The defaults (``prompts/``, ``schemas/``) when the plugin has no such folder, else ``contractc/<kind>``.
    """
    from contractc.load.config import DEFAULT_OUT

    out = {}
    for kind, folder in DEFAULT_OUT.items():
        for candidate in (folder, f"contractc/{kind}"):
            if not (root / candidate).exists():
                out[kind] = candidate
                break
        else:
            raise ContractcError(
                Diagnostic(
                    f"contractc/{kind}",
                    0,
                    0,
                    "adopt-configured",
                    f"both {folder}/ and contractc/{kind}/ exist; contractc needs a folder of its own for its {kind}",
                    "move one of them, then run adopt again",
                )
            )
    return out


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


MAX_NAME = 100
"""The longest contract name (``--name``): a file name, far below any file system's limit."""


def _contract_name(root: Path, name: str | None) -> str:
    """The contract's file name from ``--name`` (or the plugin folder's name), slugified.

    A name that is a path (``../../escape``), or whose slug is empty or longer than :data:`MAX_NAME`,
    is refused with a located ``unsafe-name`` at ``--name`` rather than silently changed into another.
    """
    from contractc.model.names import name_problem

    given = name if name is not None else root.resolve().name
    slug = slugify(given) or ("handoffs" if name is None else "")
    problem = None
    if name is not None and (any(ch in name for ch in "/\\\0") or ".." in name):
        problem = "is a path, not a name: the contract is always contracts/NAME.md"
    elif not slug:
        problem = "has no letter or digit to name a file with"
    elif len(slug) > MAX_NAME:
        problem = f"is {len(slug)} characters long as a file name; at most {MAX_NAME}"
    elif name_problem(slug):
        problem = name_problem(slug)
    if problem:
        raise ContractcError(
            Diagnostic(
                "--name",
                1,
                1,
                "unsafe-name",
                f"{'--name ' + repr(name) if name is not None else 'the plugin folder name ' + repr(given)} {problem}",
                "give a short name of letters, digits and '-' with --name (it becomes contracts/NAME.md)",
            )
        )
    return slug


def _title(slug: str) -> str:
    return slug.replace("-", " ").replace("_", " ").capitalize()

