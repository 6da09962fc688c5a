"""Stage 5, drift: what ``check`` says beyond "this file differs".

Two named tables, both pure:

* :data:`EXPLAINERS` -- per emitter kind, a finer diagnosis of one drifted
  output (a :class:`~contractc.output.outputs.Change`) of the loaded project.
  ``regions`` says which region of a target drifted and why (stale,
  hand-edited, both ...).  A kind without an explainer gets the generic
  message of :func:`drift_diagnostic` (an output that differs, is missing, or
  that no contract produces any more), located at its first differing line.
* :data:`FINDERS` -- drift that is not a difference of one output, found in
  the project: broken pins, links in the contracts to anchors that do not exist,
  allow_restatements entries that no longer allow anything, divergent copies adopt left as they are
  (``unresolved``), dispatch snippets
  over their context budget.
* :data:`TARGET_FINDERS` -- the same, found in one target file at a time, as
  the pipeline's one pass over the targets reaches it: orphaned regions,
  instance regions that break their shape's structure, restatements of a shape outside any region, dangling links.  Each entry is
  prepared once per project and returns the finder of one target (a :class:`TargetFind`),
  which can also say from a target's bytes alone that it finds nothing there.

:data:`BUILD_REFUSES` is the policy for the codes that need a person's
decision: while any is found, ``build`` writes nothing (exit 1).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol

from contractc.drift.budgets import find_over_budget
from contractc.report.diagnostics import Diagnostic
from contractc.drift.allowances import find_stale_allowances, find_unresolved
from contractc.drift.links import DanglingLinks, find_dangling_links
from contractc.drift.pins import find_broken_pins
from contractc.drift.regions import InstanceRegions, OrphanedRegions, explain_regions
from contractc.drift.restatements import Restatements
from contractc.model.records import Project, TargetFile
from contractc.output.outputs import Change

Explainer = Callable[[Change, Project, "TargetFile | None"], list[Diagnostic]]
"""(the drifted output, the project, the target file whose bytes ``change.actual`` are, when it is one)"""
Finder = Callable[[Project], list[Diagnostic]]


class TargetFind(Protocol):
    """The finder of one kind of drift in one target file, prepared for a project."""

    def __call__(self, target: TargetFile) -> list[Diagnostic]: ...

    def quiet(self, data: bytes, managed: list[tuple[int, int]]) -> bool:
        """True when the finder surely finds nothing in a target holding ``data``, every region of which
        resolves and holds what it must, in the (start, end) byte ranges ``managed``, in file order.

        The pass over the targets asks this first, from the bytes alone, and finds the target's
        regions (builds the model of the target) only for a finder that may find something.
        """
        ...


TargetFinder = Callable[[Project], TargetFind]

EXPLAINERS: dict[str, Explainer] = {
    "regions": explain_regions,
}

FINDERS: dict[str, Finder] = {
    "allowances": find_stale_allowances,
    "unresolved": find_unresolved,
    "pins": find_broken_pins,
    "links": find_dangling_links,
    "budgets": find_over_budget,
}

TARGET_FINDERS: dict[str, TargetFinder] = {
    "orphaned-regions": OrphanedRegions,
    "instances": InstanceRegions,
    "restatements": Restatements,
    "links": DanglingLinks,
}

# code -> True when `build --force` may override it.  A hand edit is a decision a
# person can take with --force; an orphaned region has nothing to be filled with.
BUILD_REFUSES: dict[str, bool] = {
    "drift-region-edited": True,
    "drift-region-new-differs": True,
    "drift-region-stale-edited": True,
    "drift-region-orphaned": False,
}


def refuses_build(diagnostic: Diagnostic, force: bool) -> bool:
    overridable = BUILD_REFUSES.get(diagnostic.code)
    return overridable is not None and not (force and overridable)


def explain(change: Change, project: Project, target: TargetFile | None = None) -> list[Diagnostic]:
    """What is wrong with one drifted output: its kind's explainer if it has one, else the generic message.

    ``target`` is the target file the change is about, when the pass over the targets holds it.
    """
    explainer = EXPLAINERS.get(change.output.kind) if change.output else None
    return (explainer(change, project, target) if explainer else []) or [drift_diagnostic(change)]


def drift_diagnostic(change: Change) -> Diagnostic:
    """The located message for one drifted output."""
    fix = "run `contractc build`"
    if change.expected is None:
        by_hand = "remove it by hand, or move it out of the output folder"
        if change.edited:
            message = "no contract produces this file any more, and it was edited since contractc wrote it"
            hint = f"build never removes a file whose bytes are not the ones it recorded: {by_hand}"
        elif not change.removable:
            message, hint = "no contract produces this file, and contractc has no record of writing it", f"build removes only files it wrote: {by_hand}"
        else:
            message, hint = "no contract produces this file any more", f"{fix} to remove it"
        return Diagnostic(change.path, 0, 0, "drift-orphan", message, hint)
    if change.actual is None:
        kind = change.output.kind if change.output else "output"
        return Diagnostic(change.path, 0, 0, "drift-missing", f"{kind} output has not been generated", f"{fix} to create it")
    line = change.actual.count(b"\n", 0, len(os.path.commonprefix([change.expected, change.actual]))) + 1
    return Diagnostic(change.path, line, 1, "drift-output", "differs from what the contracts compile to", f"{fix} to regenerate it; edit the contract, not the copy")
