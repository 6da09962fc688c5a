"""Why a managed region drifted, told from the SHA-256 its begin marker recorded.

Three hashes decide: *recorded* (on the marker: what build last put in),
*held* (of the bytes in the region now) and *wanted* (of what the contract
gives today).  held == recorded means nobody touched the copy since build;
recorded == wanted means the contract did not change since.
"""

from __future__ import annotations

import hashlib

from contractc.report.diagnostics import Diagnostic
from contractc.load.references import region_bytes
from contractc.model.records import Project, Region, TargetFile
from contractc.output.outputs import Change

_FIX = "run `contractc build`"
_DECIDE = (
    "build will not overwrite a hand edit: to drop it, run `contractc build --force`; to keep it, carry it "
    "into the contract and run `contractc build` (the region then holds the contract's bytes already)"
)
_DECIDE_STALE = (
    "build will not overwrite a hand edit: to drop it, run `contractc build --force`; to keep it, carry it into "
    "the contract first (`contractc build --force` then writes the contract's bytes, the edit included)"
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
        diagnostic = region_verdict(change.path, region, target.data[region.content.start : region.content.end], wanted)
        if diagnostic:
            found.append(diagnostic)
    return found


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
            "build will not overwrite them unseen: to drop them, run `contractc build --force`; to keep them, carry "
            "them into the contract and run `contractc build` (the region then holds the contract's bytes already)",
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


def orphaned_regions_in(project: Project) -> _OrphanFinder:
    """The finder of orphaned regions in one target: a region whose reference no longer resolves."""
    return _OrphanFinder()


class _OrphanFinder:
    """The finder of orphaned regions in one target file."""

    __slots__ = ()

    def __call__(self, target: TargetFile) -> list[Diagnostic]:
        return [
            Diagnostic(
                target.path,
                region.marker.line,
                region.marker.col,
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
