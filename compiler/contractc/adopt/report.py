"""``adopt``'s plan as a :class:`~contractc.report.format.Report`, for ``--format json`` and ``github``.

The text format stays the plan (:mod:`contractc.adopt.show`); the machine formats
carry the same facts as located diagnostics, like ``scan``'s, so the JSON is one
document of ``data/check-report.schema.json``:

* ``adopt-file`` (note) for each file adopt writes (or would write), its diff among ``changes``;
* ``adopt-rewritten`` (warning) at each copy whose bytes change, and why;
* ``adopt-checks-differ`` (warning) at each copy's receiver-check list that differs from the one the contract holds;
* ``adopt-checks-missing`` (warning) at each copy that carries no receiver-check list while the contract holds one;
* ``adopt-skipped`` (note) at each copy left as it is, and why (a divergent one: recorded under ``unresolved``);
* ``adopt-kept`` (note) at each instance, example and unresolved drifted copy, left byte for byte (a drifted one with its diff);
* ``adopt-allowed`` (note) at each block allowed under ``allow_restatements``.

None of them exits non-zero: a plan printed or applied is exit 0.
"""

from __future__ import annotations


from contractc.adopt.plan import Plan
from contractc.adopt.show import LABELS, UNRESOLVED_TITLE, checks_change, differs, shape_of, summary, unchecked
from contractc.report.diagnostics import Diagnostic, Severity
from contractc.report.format import Report


def adopt_report(plan: Plan, written: bool) -> Report:
    diagnostics = []
    for change in plan.changes:
        verb = "wrote" if written else "would write"
        state = "new" if change.actual is None else "changed"
        kind = change.output.kind if change.output else "file"
        hint = "" if written else "run `contractc adopt --write` to apply the plan"
        said = f"{verb} {change.path} ({state}, {kind})"
        if change.path == plan.contract and plan.where:
            said += f": new shapes {', '.join(plan.added)} {plan.where}" + (f"; renamed: {'; '.join(plan.renamed)}" if plan.renamed else "")
        if change.path == plan.contract and plan.templated:
            said += "; written as templates, with no JSON Schema: " + "; ".join(f"{shape} ({why})" for shape, why in plan.templated)
        diagnostics.append(Diagnostic(change.path, 0, 0, "adopt-file", said, hint, Severity.NOTE))
    for path, found in plan.filled:
        for line, ref in found:
            done = "filled" if written else "will be filled"
            diagnostics.append(Diagnostic(path, line, 1, "adopt-rewritten", f"region {ref} {done} with the contract's bytes (--accept-drift): it held a drifted copy", "", Severity.WARNING))
    for r in plan.rewritten:
        diagnostics.append(
            Diagnostic(
                r.unit.block.path,
                r.unit.line,
                r.unit.block.col,
                "adopt-rewritten",
                f"copy of {r.shape} {'changed' if written else 'will change'}: {r.why}",
                "the owning copy wins; name the right copy with `--resolve ID=PATH:LINE`",
                Severity.WARNING,
            )
        )
    attached = {}
    for r in plan.rewritten:
        if r.change is not None:
            d = next(x for x in reversed(diagnostics) if x.code == "adopt-rewritten" and x.path == r.unit.block.path and x.line == r.unit.line)
            attached[d] = r.change
    for k in plan.kept:
        hint = f"if this copy is the right one: --resolve {k.resolve}; to rewrite every drifted copy: --accept-drift" if k.resolve and not written else ""
        d = Diagnostic(k.unit.block.path, k.unit.line, k.unit.block.col, "adopt-kept", f"{k.label} of {k.shape} left byte for byte: {k.why}", hint, Severity.NOTE)
        diagnostics.append(d)
        if k.change is not None:
            attached[d] = k.change
    for shape, found in plan.checks:
        chosen = plan.carried[shape]
        d = Diagnostic(
            found.unit.block.path,
            found.line,
            1,
            "adopt-checks-differ",
            f"receiver checks of {plan.shapes.get(shape, shape)}: {differs(chosen)}",
            "make the lists agree in the contract after adopting (the copies' lists are left as they are)",
            Severity.WARNING,
        )
        diagnostics.append(d)
        attached[d] = checks_change(found, chosen)
    for shape, unit in plan.unchecked:
        diagnostics.append(
            Diagnostic(
                unit.block.path,
                unit.line,
                unit.block.col,
                "adopt-checks-missing",
                f"receiver checks of {plan.shapes.get(shape, shape)}: {unchecked(plan.carried[shape])}",
                "if this copy's receiver must not run them, give it a shape of its own in the contract after adopting",
                Severity.WARNING,
            )
        )
    recorded = {(path, line) for path, line, _, _ in plan.unresolved} if plan.changes else set()
    for unit, why in plan.skipped:
        hint = UNRESOLVED_TITLE.replace("divergent copies left as they are, r", "divergent: r") if (unit.block.path, unit.line) in recorded else ""
        diagnostics.append(
            Diagnostic(unit.block.path, unit.line, unit.block.col, "adopt-skipped", f"copy of {shape_of(plan, unit)} left as it is: {why}", hint, Severity.NOTE)
        )
    for path, shape, line, why, sha256 in plan.allowed:
        diagnostics.append(
            d := Diagnostic(
                path,
                line,
                1,
                "adopt-allowed",
                f"block of {shape} allowed under allow_restatements (sha256 {sha256}): {why}",
                "",
                Severity.NOTE,
            )
        )
        if (path, line) in plan.allowed_diffs:
            attached[d] = plan.allowed_diffs[(path, line)]
    checked = len(plan.scan.files) if plan.scan is not None else 0
    report = Report.of(diagnostics, plan.changes, checked=checked)
    return report._replace(labels=LABELS, headline=summary(plan, written), attached=attached)
