"""Stage 5, drift: what ``check`` says beyond "this file differs".

Two named tables, both pure:

* :data:`EXPLAINERS` -- per emitter kind, a finer diagnosis of one drifted
  output (a :class:`~contractc.output.Change`) of the loaded project.
  ``regions`` says which region of a target drifted and why (stale,
  hand-edited, both ...).  A kind without an explainer gets the generic
  ``drift-output`` message.
* :data:`FINDERS` -- drift that is not a difference of one output: orphaned
  regions, restatements of a shape outside any region, broken pins, links to
  anchors that do not exist, dispatch snippets over their context budget.

:data:`BUILD_REFUSES` is the policy for the codes that need a person's
decision: while any is found, ``build`` writes nothing (exit 1).
"""

from __future__ import annotations

from collections.abc import Callable

from contractc.budget import find_over_budget
from contractc.diagnostics import Diagnostic
from contractc.drift.allowances import find_stale_allowances
from contractc.drift.pins import find_broken_pins
from contractc.drift.regions import explain_regions, find_orphaned_regions
from contractc.drift.restatements import find_restatements
from contractc.model import Project
from contractc.output import Change
from contractc.site.links import find_dangling_links

Explainer = Callable[[Change, Project], list[Diagnostic]]
Finder = Callable[[Project], list[Diagnostic]]

EXPLAINERS: dict[str, Explainer] = {
    "regions": explain_regions,
}

FINDERS: dict[str, Finder] = {
    "orphaned-regions": find_orphaned_regions,
    "restatements": find_restatements,
    "allowances": find_stale_allowances,
    "pins": find_broken_pins,
    "links": find_dangling_links,
    "budgets": find_over_budget,
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
