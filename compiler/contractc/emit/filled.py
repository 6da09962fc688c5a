"""Target files with their managed regions refilled, and the role-file prompts built on them.

What a target must hold (``build`` writes it, ``check`` compares it) and what a
role-file prompt is (``prompts/<agent>/<shape>.full.md``: the role file's body,
then the shape's dispatch bundle) are computed here, because more than one
emitter needs them: the regions emitter (:mod:`contractc.emit.regions`) refills
targets, the role-prompt emitter writes the role prompts, and the site pages
publish them byte for byte (:mod:`contractc.emit.site`).  Only two things change
in a target: the bytes between a region's marker lines (replaced by contract
slices, never re-serialised) and the begin marker itself (rewritten to carry
``sha256=`` of those bytes).  Every other byte is copied through, so line
endings, a BOM, trailing blanks and a missing final newline outside the regions
survive; :mod:`contractc.output.outputs` keeps the file mode.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from contractc.load.references import region_bytes
from contractc.load.targets import indented, region_held, region_indent
from contractc.model.records import Project, Region, TargetFile

__all__ = ["Refill", "begin_marker", "emit_role_prompts", "render_target", "role_prompts"]


class Refill:
    """:func:`render_target` for many targets: each reference's bytes and begin marker are made once."""

    __slots__ = ("_project", "_made")

    def __init__(self, project: Project):
        self._project = project
        self._made: dict[tuple[str, str], tuple[bytes, bytes] | None] = {}

    def __call__(self, target: TargetFile) -> bytes:
        return _render(target, self.fill)

    def fill(self, region: Region) -> tuple[bytes, bytes] | None:
        """What ``region`` must hold and the begin marker that records it; None for an orphan."""
        key = (region.kind, region.ref)
        made = self._made
        if key not in made:
            data = region_bytes(self._project, region)
            made[key] = None if data is None else (data, begin_marker(region, data))
        return made[key]

    def leaving_undecided(self, target: TargetFile, fill_undecided: bool = False) -> bytes:
        """``target`` refilled as ``build`` (without ``--force``) would: a region filled before is refreshed only
        while nobody edited it since (its bytes are the ones its marker records), and a region never filled that
        holds other bytes (``drift-region-new-differs``) is left as it is unless ``fill_undecided``: what adopt writes."""

        def fill(region: Region) -> tuple[bytes, bytes] | None:
            filled = self.fill(region)
            held = region_held(target.data, region)  # a region in a list item is compared less its indent
            if filled is None or held == filled[0]:
                return filled
            if region.recorded is not None:
                return filled if hashlib.sha256(held).hexdigest() == region.recorded else None
            return filled if fill_undecided or not held.strip() else None

        return _render(target, fill)


def begin_marker(region: Region, data: bytes) -> bytes:
    """The begin marker that records ``data`` as the region's bytes."""
    return f"<!-- contractc:begin {region.label} sha256={hashlib.sha256(data).hexdigest()} -->".encode()


def render_target(project: Project, target: TargetFile) -> bytes:
    """``target`` with every resolvable region refilled; orphaned regions are left exactly as they are."""
    return Refill(project)(target)


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
            indented(data, region_indent(target.data, region)),  # a region in a list item keeps its indent
        ]
        done = region.content.end
    parts.append(target.data[done:])
    return b"".join(parts)


def role_prompts(project: Project) -> dict[str, tuple[str, str, bytes]]:
    """``prompts/<agent>/<shape>.full.md`` -> (agent, shape id, bytes) for every agent with a role file.

    The bytes are, byte for byte, the role file without its YAML front matter,
    then the bundle that ``prompts/<agent>/<shape>.md`` holds.  A body that does
    not end with a newline gets one, so the bundle's first heading starts a line.
    When the role file is also a target, its regions are taken as build fills
    them, so one build is enough (idempotent), and its region marker lines are
    left out: they are bookkeeping for ``check`` of the role file itself (which
    keeps them), noise to the model that reads the prompt, and nothing reads
    them in the prompt (an output folder is never a target).
    """
    folder = project.config.out.prompts
    found = {}
    produced: dict[str, list] = {}  # each agent's text shapes, in contract and source order: one pass, not one per role
    for contract in project.contracts:
        for shape in contract.text_shapes:
            produced.setdefault(shape.producer, []).append((contract, shape))
    for role in project.roles:
        target = project.target(role.path)  # read again: the targets are not held
        data = role.data
        if target is not None and target.regions:
            data = without_marker_lines(render_target(project, target))
        # A region never sits inside front matter (load refuses that), so the offset holds after rendering.
        body = data[role.body_start :]
        if body and not body.endswith((b"\n", b"\r")):
            body += b"\n"
        for contract, shape in produced.get(role.agent, ()):
            found[f"{folder}/{role.agent}/{shape.id}.full.md"] = (role.agent, shape.id, body + contract.bundle(shape))
    return found


def emit_role_prompts(project: Project) -> dict[str, bytes]:
    """The role-prompt emitter: each ``prompts/<agent>/<shape>.full.md`` (the site publishes the same bytes)."""
    return {path: data for path, (_, _, data) in role_prompts(project).items()}


def without_marker_lines(data: bytes) -> bytes:
    """``data`` without its region begin and end marker lines (each with its line ending); every other byte kept."""
    from contractc.load.targets import is_marker_line

    return b"".join(line for line in data.splitlines(keepends=True) if not is_marker_line(line))
