"""Managed regions: each target file with every region refilled from the contracts, one target at a time.

How a region is refilled lives in :mod:`contractc.emit.filled` (the role-file
prompts refill their role file too).  :func:`stream_regions` reads each target,
refills it and hands it on before reading the next, so memory stays flat however
many prompt files a project has; the pipeline compares each with disk and
searches it for drift as it comes (:func:`contractc.pipeline.compare_targets`).

Most targets are current: such a target is judged from its bytes
(:class:`~contractc.load.targets.CurrentLines`), and its regions are found only
when something may be wrong with it.  Nothing done per target depends on the
size of the project.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from contractc.emit.filled import Refill
from contractc.model.records import Project, TargetFile
from contractc.report.diagnostics import ContractcError, Diagnostic

if TYPE_CHECKING:
    from contractc.load.targets import TargetReader

__all__ = ["Filled", "emit_regions", "stream_regions"]


class Filled(NamedTuple):
    """One target as :func:`stream_regions` hands it on."""

    path: str
    data: bytes
    """The target's bytes on disk."""
    managed: list[tuple[int, int]] | None
    """When every region already holds what it must (told from the bytes alone): the regions' spans; else None."""
    target: TargetFile | None
    """The target with its regions found; None when ``managed`` (nothing had to be found)."""
    expected: bytes | None
    """What the target must hold; None when it has no regions, or when the stream does not refill."""


def stream_regions(project: Project, render: bool = True, label: str = "checking targets") -> Iterator[Filled]:
    """Every target in path order, refilled when ``render``; each target's marker problems are raised
    together once every target was handed on (exit 2), so nothing is written while one is wrong."""
    from contractc.load.targets import CurrentLines
    from contractc.report.progress import counted

    refill = Refill(project)
    targets = project.targets
    reader: TargetReader = targets.reader  # type: ignore[assignment]  # load_targets makes every Targets' reader
    current = CurrentLines()
    problems: list[Diagnostic] = []
    for path in counted(targets.paths, label, len(targets.paths)):
        try:
            data = reader.read(path)
            managed = current.managed(data)
            if managed is not None:  # every region holds what it must
                yield Filled(path, data, managed, None, data if render and managed else None)
                continue
            target = reader.scan(path, data)
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
            continue
        yield Filled(path, data, None, target, refill(target) if render and target.regions else None)
        current.learn(target, refill.fill)
    if problems:
        raise ContractcError(problems)


def emit_regions(project: Project) -> dict[str, bytes]:
    """Every target with regions, refilled, all at once (:func:`contractc.pipeline.compile_project`; a
    run streams them instead)."""
    return {f.path: f.expected for f in stream_regions(project, label="refilling targets") if f.expected is not None}
