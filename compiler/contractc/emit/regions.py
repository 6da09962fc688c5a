"""Managed regions: each target file's bytes with every region refilled from the contracts.

Only two things change in a target: the bytes between a region's marker lines
(replaced by contract slices, never re-serialised) and the begin marker itself
(rewritten to carry ``sha256=`` of those bytes).  Every other byte is copied
through, so line endings, a BOM, trailing blanks and a missing final newline
outside the regions survive; output.py keeps the file mode.
"""

from __future__ import annotations

import hashlib

from contractc.load.references import region_bytes
from contractc.model import Project, Region, TargetFile

__all__ = ["begin_marker", "emit_regions", "region_bytes", "render_target"]


def emit_regions(project: Project) -> dict[str, bytes]:
    return {t.path: render_target(project, t) for t in project.targets if t.regions}


def begin_marker(region: Region, data: bytes) -> bytes:
    """The begin marker that records ``data`` as the region's bytes."""
    return f"<!-- contractc:begin {region.label} sha256={hashlib.sha256(data).hexdigest()} -->".encode()


def render_target(project: Project, target: TargetFile) -> bytes:
    """``target`` with every resolvable region refilled; orphaned regions are left exactly as they are."""
    parts: list[bytes] = []
    done = 0
    for region in target.regions:
        data = region_bytes(project, region)
        if data is None:
            continue
        parts += [
            target.data[done : region.marker.start],
            begin_marker(region, data),
            target.data[region.marker.end : region.content.start],
            data,
        ]
        done = region.content.end
    parts.append(target.data[done:])
    return b"".join(parts)
