"""Managed regions: each target file's bytes with every region refilled from the contracts.

How a target is refilled lives in :mod:`contractc.filled`, below the stages
(the site and the pipeline need it too); this emitter applies it to every target.
"""

from __future__ import annotations

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.filled import begin_marker, render_target, renderer
from contractc.load.references import region_bytes
from contractc.model import Project

__all__ = ["begin_marker", "emit_regions", "region_bytes", "render_target", "renderer"]


def emit_regions(project: Project) -> dict[str, bytes]:
    """Every target with regions, refilled.  The pipeline does not call this (it would hold every
    target at once): its one pass over the targets renders each with :func:`renderer`."""
    problems: list[Diagnostic] = []
    render = renderer(project)
    files = {t.path: render(t) for t in project.targets.scan(problems) if t.regions}
    if problems:
        raise ContractcError(problems)
    return files
