"""``budgets:`` keys checked against the contracts: a budget for a name nothing has would limit nothing.

A typo in ``budgets.agents`` or ``budgets.shapes`` must not pass as a budget
that holds: ``check`` would never compare anything with it.
"""

from __future__ import annotations

from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.model.records import Config, Contract


def check_budget_names(root: Path, config: Config, contracts: list[Contract]) -> None:
    """Raise ``unknown-agent`` / ``unknown-shape`` at each budget key that names no producer / no text shape."""
    producers = sorted({s.producer for c in contracts for s in c.text_shapes})
    text_shapes = sorted({s.id for c in contracts for s in c.text_shapes})
    problems = []
    for kind, names, known, code, what in (
        ("agents", config.budgets.agents, producers, "unknown-agent", "agent {!r} produces no shape in the contracts"),
        (
            "shapes",
            config.budgets.shapes,
            text_shapes,
            "unknown-shape",
            "{!r} is no text shape of the contracts (only a text shape has a dispatch snippet)",
        ),
    ):
        for name, _ in names:
            if name in known:
                continue
            where = config.where(f"$.budgets.{kind}.{name}")
            problems.append(
                Diagnostic.at(
                    where, code, f"budget for {what.format(name)}: it would limit nothing", f"budgets.{kind} takes one of: {', '.join(known) or 'none'}"
                )
            )
    if problems:
        raise ContractcError(problems)
