"""The plan ``adopt`` prints: every file it writes with a diff, and every copy whose bytes change."""

from __future__ import annotations

from contractc.adopt.plan import Plan
from contractc.adopt.checks import CheckList
from contractc.scan.blocks import Unit
from contractc.output.outputs import Change, Output
from contractc.report.diagnostics import visible  # a file name may hold an escape sequence
from contractc.report.format import unified_diff

LABELS = ("now", "after adopt")
KEPT_TITLES = {
    "instance": "instances, wrapped byte for byte in instance regions (check holds them to the shape's structure)",
    "example": "examples, left byte for byte as they are",
    "drifted": "drifted copies left byte for byte as they are, outside any region, recorded under `unresolved`: check reports them",
    "allowed": "blocks contractc.yaml allows (allow_restatements), left byte for byte as they are: delete an entry to have its block adopted",
    "uncertain": (
        "members scan is uncertain about (an instance, or a copy that drifted?), left byte for byte as they are, in no "
        "region: check does not fail on them (each it would call a restatement is allowed below, with its diff)"
    ),
}
UNRESOLVED_TITLE = (
    "divergent copies left as they are, recorded under `unresolved` in contractc.yaml: check reports each "
    "until the copies agree and you delete its entry"
)
UNRECORDED_TITLE = "divergent copies left as they are (adopt writes no contractc.yaml: `contractc scan` keeps reporting them)"
DRIFT_CHOICE = " until you choose (--accept-drift rewrites every one to its owner, --resolve ID=PATH:LINE names the right copy)"
DRIFT_WRITTEN = (
    " until you choose (`contractc adopt --resolve ID=PATH:LINE` or `--accept-drift` shows each copy's diff, and with"
    " --write rewrites it; or carry its difference into the contract and run `contractc adopt --write`)"
)


def format_plan(plan: Plan, written: bool, diff: bool = True) -> str:
    out = []
    for change in plan.changes:
        verb = "wrote" if written else "would write"
        state = "new" if change.actual is None else "changed"
        out.append(visible(f"{verb} {change.path} ({state}, {change.output.kind if change.output else 'file'})\n"))
        if diff and not written:
            out.append(unified_diff(change, LABELS))
    if plan.where:
        out.append(visible(f"\nnew shapes ({', '.join(plan.added)}): {plan.where}\n"))
    if plan.renamed:
        out.append("\ntitles and anchors a contract of the project has already, given a suffix (nothing existing is reused):\n")
        out += [visible(f"  {r}\n") for r in plan.renamed]
    if plan.templated:
        out.append("\nYAML shapes written as templates, not data shapes (copies managed byte for byte, instances held to the structure, no JSON Schema; write the values in the notation to get one):\n")
        out += [visible(f"  {shape}: {why}\n") for shape, why in plan.templated]
    if plan.filled:
        out.append("\nregions never filled that hold other bytes (a drifted copy an earlier adoption left), filled with the contract's bytes (--accept-drift; the diff is in the file's):\n")
        out += [visible(f"  {path}:{line}: {ref}\n") for path, found in plan.filled for line, ref in found]
    if plan.rewritten:
        out.append(visible(f"\ncopies whose bytes {'changed' if written else 'will change'} (the owning copy wins):\n"))
        for r in plan.rewritten:
            out.append(visible(f"  {r.unit.block.path}:{r.unit.line}: {r.shape}: {r.why}\n"))
            if r.change is not None:
                out.append(unified_diff(r.change, ("this copy", "the owning copy")))
    for label, title in KEPT_TITLES.items():
        kept = [k for k in plan.kept if k.label == label]
        if kept:
            if label == "drifted":
                title += DRIFT_WRITTEN if written else DRIFT_CHOICE
            out.append(visible(f"\n{title}:\n"))
            for k in kept:
                choice = f" (if this copy is the right one: --resolve {k.resolve})" if k.resolve and not written else ""
                out.append(visible(f"  {k.unit.block.path}:{k.unit.line}: {k.shape}: {k.why}{choice}\n"))
                if k.change is not None and diff:
                    out.append(unified_diff(k.change, ("this copy", "the owning copy")))
    if plan.checks:
        out.append("\nreceiver checks that differ from the ones the contract holds (the first copy's list):\n")
        for shape, found in plan.checks:
            chosen = plan.carried[shape]
            out.append(visible(f"  {found.unit.block.path}:{found.line}: {plan.shapes.get(shape, shape)}: {differs(chosen)}\n"))
            if diff:
                out.append(unified_diff(checks_change(found, chosen), ("this copy", "in the contract")))
    if plan.unchecked:
        out.append("\ncopies with no receiver checks, while the contract holds some (the first copy's list):\n")
        for shape, unit in plan.unchecked:
            out.append(visible(f"  {unit.block.path}:{unit.line}: {plan.shapes.get(shape, shape)}: {unchecked(plan.carried[shape])}\n"))
    if plan.skipped:
        out.append("\ncopies left as they are:\n")
        for unit, why in plan.skipped:
            out.append(visible(f"  {unit.block.path}:{unit.line}: {shape_of(plan, unit)}: {why}\n"))
    others = _left_out(plan)
    if others:
        out.append(visible(f"\n{UNRESOLVED_TITLE if plan.changes or plan.configured else UNRECORDED_TITLE}:\n"))
        for path, line, shape, why in others:
            out.append(visible(f"  {path}:{line}: {shape}: {why}\n"))
    if plan.allowed:
        out.append("\nblocks check would call restatements, allowed in contractc.yaml:\n")
        for path, shape, line, why, _ in plan.allowed:
            out.append(visible(f"  {path}:{line}: {shape}: {why}\n"))
            if (path, line) in plan.allowed_diffs:  # nothing allowed unseen
                out.append(unified_diff(plan.allowed_diffs[(path, line)], ("this block", "the contract")))
    out.append(summary(plan, written) + "\n")
    return "".join(out)


def checks_change(found: CheckList, chosen: CheckList) -> Change:
    """The two lists as a change, for a diff from this copy's list to the one the contract holds."""
    return Change(
        f"{found.unit.block.path}:{found.line}",
        chosen.text.encode(),
        found.text.encode(),
        Output(b"", "receiver-checks"),
        expected_path=f"{chosen.unit.block.path}:{chosen.line}",
    )


def differs(chosen: CheckList) -> str:
    return f"its receiver checks differ from those at {chosen.unit.block.path}:{chosen.line}, which the contract holds"


def unchecked(chosen: CheckList) -> str:
    return (
        f"no `Receiver checks:` list follows this copy; those at {chosen.unit.block.path}:{chosen.line}, "
        "which the contract holds, will apply to it too"
    )


def summary(plan: Plan, written: bool) -> str:
    if not plan.changes:
        pending = f"; {_n(plan.pending, 'region holds', 'regions hold')} a drifted copy check reports (`--accept-drift` fills them with the contract's bytes)" if plan.pending else ""
        if plan.skipped:
            drift = f"; {_n(len(plan.unresolved), 'divergent copy', 'divergent copies')} among them, which scan reports" if plan.unresolved else ""
            return f"contractc: nothing to adopt: every shape with two or more unmanaged copies is left as it is (listed above){drift}{pending}"
        left = sum(1 for k in plan.kept if k.label == "drifted")
        if left:
            return f"contractc: nothing to adopt: {_n(left, 'drifted copy is left as it is', 'drifted copies are left as they are')} until you choose (listed above; check reports them){pending}"
        return f"contractc: nothing to adopt: no shape has two or more unmanaged copies{pending}"
    targets = sum(1 for c in plan.changes if c.output and c.output.kind == "regions")
    if plan.configured:
        held = len(plan.shapes) - len(plan.added)
        into = f"{_n(len(plan.added), 'new shape', 'new shapes')} {'appended to' if plan.where.startswith('appended') else 'into'} {plan.contract}, " if plan.added else ""
        into += f"new copies of {_n(held, 'shape', 'shapes')} the contracts hold, " if held else ""
        into += f"{_n(sum(len(r) for _, r in plan.filled), 'region', 'regions')} filled with the contract's bytes (--accept-drift), " if plan.filled else ""
    else:
        into = f"{_n(len(plan.shapes), 'shape', 'shapes')} into {plan.contract}, "
    counts = (
        into + 
        f"{_n(targets, 'file', 'files')} rewritten with managed regions, {len(plan.changes)} files in all, "
        f"{_n(len(plan.rewritten), 'copy changes', 'copies change')} bytes"
    )
    left = sum(1 for k in plan.kept if k.label == "drifted")
    if left:
        counts += f", {_n(left, 'drifted copy', 'drifted copies')} left for check to report"
    others = _left_out(plan)
    if others:
        counts += f", {_n(len(others), 'divergent copy left as it is', 'divergent copies left as they are')} (unresolved) for check to report"
    if written:
        divergent = any(k.divergent for k in plan.kept)
        clean = "(it reports the drift left)" if left or others or divergent else "(clean)"
        return f"contractc: adopted {counts}; run `contractc check` {clean} and commit"
    return f"contractc: dry run, nothing written: {counts}; run `contractc adopt --write` to apply"


def shape_of(plan: Plan, unit: Unit) -> str:
    """The id scan gave the shape ``unit`` is a member of (its own key when it is a member of none)."""
    groups = plan.scan.groups if plan.scan else ()
    return next((g.id for g in groups for m in g.members if m.unit is unit), unit.key)


def _left_out(plan: Plan) -> list[tuple[str, int, str, str]]:
    """The ``unresolved`` entries of copies adopt left out of a shape, not the drifted copies listed (and counted) as kept."""
    return [u for u in plan.unresolved if u[:2] not in plan.drift_recorded]


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
