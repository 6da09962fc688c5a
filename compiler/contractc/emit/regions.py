"""Managed regions: each target file's bytes with every region refilled from the contracts.

How a target is refilled lives in :mod:`contractc.emit.filled`, below the stages
(the site and the pipeline need it too); this emitter applies it to every target.
"""

from __future__ import annotations

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.emit.filled import renderer
from contractc.model.records import Project

__all__ = ["emit_regions"]


def emit_regions(project: Project) -> dict[str, bytes]:
    """Every target with regions, refilled.  The pipeline does not call this (it would hold every
    target at once): its one pass over the targets renders each with :func:`renderer`."""
    from contractc.report.progress import counted

    problems: list[Diagnostic] = []
    render = renderer(project)
    targets = counted(project.targets.scan(problems), "refilling targets", len(project.targets.paths))
    files = {t.path: render(t) for t in targets if t.regions}
    if problems:
        raise ContractcError(problems)
    return files
