"""Managed regions: each target file's bytes with every region refilled from the contracts.

Only two things change in a target: the bytes between a region's marker lines
(replaced by contract slices, never re-serialised) and the begin marker itself
(rewritten to carry ``sha256=`` of those bytes).  Every other byte is copied
through, so line endings, a BOM, trailing blanks and a missing final newline
outside the regions survive; output.py keeps the file mode.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.load.references import region_bytes
from contractc.model import Project, Region, TargetFile

__all__ = ["begin_marker", "emit_regions", "region_bytes", "render_target"]


def emit_regions(project: Project) -> dict[str, bytes]:
    """Every target with regions, refilled.  The pipeline does not call this (it would hold every
    target at once): its one pass over the targets renders each with :func:`renderer`."""
    problems: list[Diagnostic] = []
    render = renderer(project)
    files = {t.path: render(t) for t in project.targets.scan(problems) if t.regions}
    if problems:
        raise ContractcError(problems)
    return files


def renderer(project: Project) -> Callable[[TargetFile], bytes]:
    """:func:`render_target` for many targets: each reference's bytes and begin marker are made once."""
    made: dict[tuple[str, str], tuple[bytes, bytes] | None] = {}

    def fill(region: Region) -> tuple[bytes, bytes] | None:
        key = (region.kind, region.ref)
        if key not in made:
            data = region_bytes(project, region)
            made[key] = None if data is None else (data, begin_marker(region, data))
        return made[key]

    def render(target: TargetFile) -> bytes:
        return _render(target, fill)

    return render


def begin_marker(region: Region, data: bytes) -> bytes:
    """The begin marker that records ``data`` as the region's bytes."""
    return f"<!-- contractc:begin {region.label} sha256={hashlib.sha256(data).hexdigest()} -->".encode()


def render_target(project: Project, target: TargetFile) -> bytes:
    """``target`` with every resolvable region refilled; orphaned regions are left exactly as they are."""
    return renderer(project)(target)


def _render(target: TargetFile, fill: Callable[[Region], tuple[bytes, bytes] | None]) -> bytes:
    parts: list[bytes] = []
    done = 0
    for region in target.regions:
        filled = fill(region)
        if filled is None:
            continue
        data, marker = filled
        parts += [
            target.data[done : region.marker.start],
            marker,
            target.data[region.marker.end : region.content.start],
            data,
        ]
        done = region.content.end
    parts.append(target.data[done:])
    return b"".join(parts)
