"""The generic drift messages: an output that differs, is missing, or that no contract produces any more.

An output kind with an explainer (:data:`contractc.drift.EXPLAINERS`) says more; every
other drifted output gets one of these, located at its first differing line.
"""

from __future__ import annotations

from contractc.output.outputs import Change
from contractc.report.diagnostics import Diagnostic


def drift_diagnostic(change: Change) -> Diagnostic:
    """The located message for one drifted output."""
    fix = "run `contractc build`"
    if change.expected is None and change.edited:
        return Diagnostic(
            change.path,
            0,
            0,
            "drift-orphan",
            "no contract produces this file any more, and it was edited since contractc wrote it",
            "build never removes a file whose bytes are not the ones it recorded: remove it by hand, or move it out of the output folder",
        )
    if change.expected is None and not change.removable:
        return Diagnostic(
            change.path,
            0,
            0,
            "drift-orphan",
            "no contract produces this file, and contractc has no record of writing it",
            "build removes only files it wrote: remove it by hand, or move it out of the output folder",
        )
    if change.expected is None:
        return Diagnostic(change.path, 0, 0, "drift-orphan", "no contract produces this file any more", f"{fix} to remove it")
    if change.actual is None:
        kind = change.output.kind if change.output else "output"
        return Diagnostic(change.path, 0, 0, "drift-missing", f"{kind} output has not been generated", f"{fix} to create it")
    line = first_difference(change.expected, change.actual)
    return Diagnostic(
        change.path,
        line,
        1,
        "drift-output",
        "differs from what the contracts compile to",
        f"{fix} to regenerate it; edit the contract, not the copy",
    )


def first_difference(expected: bytes, actual: bytes) -> int:
    """1-based line of the first byte where ``actual`` departs from ``expected``."""
    n = 0
    limit = min(len(expected), len(actual))
    while n < limit and expected[n] == actual[n]:
        n += 1
    return actual.count(b"\n", 0, n) + 1
