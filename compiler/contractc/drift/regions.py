"""Why a managed region drifted, told from the SHA-256 its begin marker recorded.

Three hashes decide: *recorded* (on the marker: what build last put in),
*held* (of the bytes in the region now) and *wanted* (of what the contract
gives today).  held == recorded means nobody touched the copy since build;
recorded == wanted means the contract did not change since.

An instance region (``instance=ID``) holds no contract bytes: its verdict
(:func:`instance_verdict`) holds its block to the shape's structure
(:mod:`contractc.drift.structure`): a key, heading or label line the shape has
and the instance lacks, or one it holds that the shape does not have, fails;
a value of its own never does.
"""

from __future__ import annotations

import hashlib

from contractc.report.diagnostics import Diagnostic
from contractc.load.references import region_bytes
from contractc.load.targets import region_held
from contractc.drift.structure import Compared, compare
from contractc.model.records import Project, Region, TargetFile
from contractc.output.outputs import Change, Output

_FIX = "run `contractc build`"
_OVERWRITES = (
    "`contractc build --force` overwrites {them} with the contract's bytes, deleting the lines check's diff shows "
    "with `-` (in every region that needs this choice: check lists each)"
)
"""How a hint names ``build --force``: what it deletes, never as the first way out (the summary's fix)."""
_DECIDE = (
    "build will not overwrite a hand edit: to keep it, carry it into the contract and run `contractc build` (the "
    "region then holds the contract's bytes already); to drop it, " + _OVERWRITES.format(them="the region")
)
_DECIDE_STALE = (
    "build will not overwrite a hand edit: to keep it, carry it into the contract first; either way, "
    + _OVERWRITES.format(them="the region")
    + ", the edit included only if it is in the contract"
)

def explain_regions(change: Change, project: Project, target: TargetFile | None = None) -> list[Diagnostic]:
    """One diagnostic per drifted region of a target file; [] falls back to the generic message.

    The regions are the ones the loader found in these very bytes (``target``, the
    file the pipeline's pass holds; read again when not given), and what each must
    hold is asked of the emitter: nothing is scanned twice.
    """
    if target is None:
        target = project.target(change.path)
    if change.actual is None or change.expected is None or target is None or target.data != change.actual:
        return []
    found = []
    for region in target.regions:
        wanted = region_bytes(project, region)
        if wanted is None:  # orphaned: the orphaned-regions finder reports it
            continue
        diagnostic = region_verdict(change.path, region, region_held(target.data, region), wanted)
        if diagnostic:
            found.append(diagnostic)
    return found


_BY_DESIGN = (
    "if they differ by design (this block's own values), write `instance=` for `shape=` in the begin marker, "
    "so check holds them to the shape's structure only; "
)
"""The way out a ``shape=`` region holding an instance has (one written by hand, or by an adopt before 2026-12)."""


def region_verdict(path: str, region: Region, held: bytes, wanted: bytes) -> Diagnostic | None:
    """The verdict on one region, or None when it is current and stamped."""
    recorded = region.recorded
    have, want = _sha(held), _sha(wanted)
    label = region.label
    if recorded == want and have == want:
        return None
    if recorded is None and have != want and held.strip():
        code, message, hint = (
            "drift-region-new-differs",
            f"region {label} has not been filled by build yet and already holds bytes that differ from the contract",
            "build will not overwrite them unseen: "
            + (_BY_DESIGN if region.kind == "shape" else "")
            + "to keep them, carry them into the contract and run `contractc build` (the region then holds the "
            "contract's bytes already); to drop them, " + _OVERWRITES.format(them="them"),
        )
    elif recorded is None:
        code, message, hint = (
            "drift-region-new",
            f"region {label} has not been filled by build yet",
            f"{_FIX} to fill it",
        )
    elif have == want:
        code, message, hint = (
            "drift-region-unstamped",
            f"region {label} holds the current bytes but its marker records others (sha256 {recorded[:12]})",
            f"{_FIX} to stamp it",
        )
    elif have == recorded:
        code, message, hint = (
            "drift-region-stale",
            f"region {label} is stale: its source in the contract changed since the last build",
            f"{_FIX} to refresh it",
        )
    elif recorded == want:
        code, message, hint = (
            "drift-region-edited",
            f"region {label} was edited by hand since the last build (marker records sha256 {recorded[:12]}, region holds {have[:12]})",
            _DECIDE,
        )
    else:
        code, message, hint = (
            "drift-region-stale-edited",
            f"region {label} is stale and was edited by hand: both the contract and the copy changed since the last build",
            _DECIDE_STALE,
        )
    return Diagnostic(path, region.marker.line, region.marker.col, code, message, hint)


def instance_verdict(path: str, region: Region, compared: Compared) -> Diagnostic | None:
    """The verdict on one instance region, compared with its shape; None when it keeps the structure."""
    label = region.label
    at = (region.marker.line, region.marker.col)
    keep = "the region's values are its own; its structure is the shape's"
    if compared.unreadable:
        code, message, hint = (
            "drift-instance-unreadable",
            f"region {label} holds no structure check can read: {compared.unreadable}",
            "put the instance's fenced block between the markers, or make the region shape= if it is a copy",
        )
    elif compared.missing and compared.foreign:
        code, message, hint = (
            "drift-instance-reshaped",
            f"region {label} lacks {_listed(compared.missing)} and holds {_listed(compared.foreign)}, which the shape does not have",
            f"{keep}: rename or add the fields the shape has, or change the shape in the contract",
        )
        at = (compared.foreign[0].line, 1)
    elif compared.missing:
        code, message, hint = (
            "drift-instance-missing",
            f"region {label} lacks {_listed(compared.missing)}, which the shape has",
            f"{keep}: add the missing part with a value of its own, or mark it optional in the contract",
        )
    elif compared.foreign:
        code, message, hint = (
            "drift-instance-foreign",
            f"region {label} holds {_listed(compared.foreign)}, which the shape does not have",
            f"{keep}: delete the extra part, or add it to the shape in the contract",
        )
        at = (compared.foreign[0].line, 1)
    elif compared.retyped:
        code, message, hint = (
            "drift-instance-retyped",
            f"region {label} keeps the shape's structure, but {compared.retyped} (the shape's notation)",
            f"{keep}, and so are its types and enum members: write the shape's, or change the shape in the contract "
            "(a producer with a list of its own needs a shape of its own)",
        )
    else:
        return None
    if code != "drift-instance-retyped" and compared.retyped:
        message += f"; and {compared.retyped}"
    return Diagnostic(path, at[0], at[1], code, message, hint)


class InstanceRegions:
    """The finder of instance regions that break their shape's structure, in one target: each compared with
    its shape (:func:`instance_verdict`)."""

    __slots__ = ("_project", "_shapes")

    def __init__(self, project: Project):
        self._project = project
        self._shapes = {s.id: (c, s) for c in project.contracts for s in c.shapes}

    def __call__(self, target: TargetFile) -> list[Diagnostic]:
        return [d for d, _ in self.compared(target)]

    def compared(self, target: TargetFile) -> list[tuple[Diagnostic, Compared]]:
        found = []
        for region in target.regions:
            if region.kind != "instance" or region.sources is None or region.ref not in self._shapes:
                continue
            contract, shape = self._shapes[region.ref]
            held = region_held(target.data, region)
            compared = compare(
                shape,
                contract.slice(region.sources[0]).decode("utf-8", "replace"),
                held.decode("utf-8", "replace"),
                target.path,
                region.content.line,
            )
            verdict = instance_verdict(target.path, region, compared)
            if verdict is not None:
                found.append((verdict, compared))
        return found

    @staticmethod
    def quiet(data: bytes, managed: list[tuple[int, int]]) -> bool:
        """Always: ``quiet`` is asked only of a target whose every marker opens a learnt, current byte region
        (:class:`contractc.load.targets.CurrentLines`), and an instance region's line is never learnt."""
        return True


def instance_changes(project: Project, diagnostics: list[Diagnostic]) -> dict[Diagnostic, Change]:
    """For each instance verdict in ``diagnostics``, the diff from the shape's structure to the instance's
    (one key path, heading or label per line); only the files that hold one are read again."""
    wanted = {d for d in diagnostics if d.code.startswith("drift-instance-")}
    if not wanted:
        return {}
    find = InstanceRegions(project)
    changes = {}
    for path in sorted({d.path for d in wanted}):
        target = project.target(path)
        for d, compared in find.compared(target) if target is not None else ():
            if d in wanted:
                changes[d] = Change(
                    f"{path}:{d.line} (structure of the instance)",
                    "".join(f"{line}\n" for line in compared.shape).encode(),
                    "".join(f"{line}\n" for line in compared.instance).encode(),
                    Output(b"", "instance-structure"),
                    expected_path=f"{path}:{d.line} (structure of the shape)",
                )
    return changes


def _listed(items, limit: int = 4) -> str:
    names = [i.shown for i in items]
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


class OrphanedRegions:
    """The finder of orphaned regions in one target: a region whose reference no longer resolves."""

    __slots__ = ()

    def __init__(self, project: Project):
        pass

    def __call__(self, target: TargetFile) -> list[Diagnostic]:
        return [
            Diagnostic.at(
                region.marker,
                "drift-region-orphaned",
                f"region {region.label} is orphaned: {region.missing}",
                "point the marker at an existing shape or section, or delete the region with its markers",
            )
            for region in target.regions
            if region.sources is None
        ]

    @staticmethod
    def quiet(data: bytes, managed: list[tuple[int, int]]) -> bool:
        """Always: ``quiet`` is asked only of a target whose every region resolves (:meth:`contractc.drift.TargetFind.quiet`)."""
        return True


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
