"""A :class:`~contractc.validate.text.Verdict` printed three ways: located diagnostics, JSON, and the evidence block.

The evidence block is what a skill appends to the original dispatch prompt for its
one re-dispatch (degradation rule 4 of the seed contract): which checks failed, each
failed check's own text, and the offending lines quoted with their numbers.  It is a
function of the verdict alone, so the same return gives the same bytes.
"""

from __future__ import annotations

import json

from contractc.report.diagnostics import Diagnostic, visible
from contractc.validate.text import Failure, Quote, Verdict

CODE = "check-failed"
SCHEMA_ID = "https://contractc.dev/schemas/verdict.schema.json"
"""``data/verdict.schema.json``: what ``--format json`` prints for a text shape."""


def failure_diagnostic(path: str, verdict: Verdict, failure: Failure) -> Diagnostic:
    first = visible(failure.problems[0].message)
    more = len(failure.problems) - 1
    message = f"{verdict.name} check {failure.number} failed: {first}" + (f" (and {more} more)" if more else "")
    return Diagnostic(path, failure.line, 1, CODE, message)


def render_github(path: str, verdict: Verdict, docs_url: str = "") -> str:
    """One GitHub Actions annotation per failed check (its text, anchor and quoted lines in the body), then the summary."""
    from contractc.report.format import github_annotation

    out = []
    for failure in verdict.failures:
        d = failure_diagnostic(path, verdict, failure)
        detail = [f"check {failure.number} ({failure.url or failure.anchor}): {' '.join(failure.text.split())}"]
        detail += [f"also: {visible(p.message)}" for p in failure.problems[1:]]
        detail += _quoted(failure.quotes, "")
        out.append(github_annotation(Diagnostic(d.path, d.line, d.col, d.code, d.message, "\n".join(detail)), docs_url=docs_url))
    return "".join(out) + summary(path, verdict) + "\n"


def _quoted(quotes: tuple[Quote, ...], indent: str) -> list[str]:
    width = len(str(max((q.line for q in quotes), default=1)))
    return [f"{indent}{q.line:>{width}} |" + (f" {visible(q.text)}" if q.text else "") for q in quotes]


def render_text(path: str, verdict: Verdict, docs_url: str = "") -> str:
    """Each failed check as a located diagnostic, then the check's text, anchor and quoted lines, then a summary."""
    out = []
    for failure in verdict.failures:
        out.append(failure_diagnostic(path, verdict, failure).format(docs_url=docs_url))
        out.append(f"  check {failure.number}" + (f" ({failure.url}):" if failure.url else f" ({failure.anchor}):"))
        out += [f"    {line}" for line in failure.text.splitlines()]
        out += [f"  also: {visible(p.message)}" for p in failure.problems[1:]]
        if failure.quotes:
            out.append("  offending lines:")
            out += _quoted(failure.quotes, "    ")
    out.append(summary(path, verdict))
    return "\n".join(out) + "\n"


def summary(path: str, verdict: Verdict) -> str:
    judged = verdict.checks - len(verdict.unmechanised)
    unjudged = f"; not run (not mechanised), judge by reading: {_numbers(verdict.unmechanised)}" if verdict.unmechanised else ""
    if verdict.passed:
        return f"contractc: {path} passes {judged} of {verdict.checks} receiver checks of {verdict.name}{unjudged}"
    return (
        f"contractc: {path} fails {_numbers(verdict.failed)} of the {verdict.checks} receiver checks of {verdict.name}{unjudged}; "
        f"discard it and re-dispatch once with the evidence (`--evidence`) appended to the original prompt"
    )


def _numbers(numbers: tuple[int, ...]) -> str:
    label = "check" if len(numbers) == 1 else "checks"
    return f"{label} {', '.join(map(str, numbers))}"


def verdict_document(path: str, verdict: Verdict, docs_url: str = "") -> dict:
    """The verdict as ``data/verdict.schema.json`` describes it; ``diagnostics`` as every JSON report holds them."""
    from contractc.report.format import diagnostic_document

    return {
        "$schema": SCHEMA_ID,
        "file": path,
        "shape": verdict.shape,
        "name": verdict.name,
        "passed": verdict.passed,
        "status": verdict.status,
        "lines": verdict.lines,
        "empty": verdict.empty,
        "checks": verdict.checks,
        "unmechanised": list(verdict.unmechanised),
        "failures": [
            {
                "check": f.number,
                "anchor": f.anchor,
                "url": f.url,
                "text": f.text,
                "line": f.line,
                "code": CODE,
                "problems": [
                    {"message": p.message, "line": p.line, "quotes": [{"line": q.line, "text": q.text} for q in p.quotes]}
                    for p in f.problems
                ],
                "quotes": [{"line": q.line, "text": q.text} for q in f.quotes],
            }
            for f in verdict.failures
        ],
        "evidence": render_evidence(verdict),
        "diagnostics": [diagnostic_document(failure_diagnostic(path, verdict, f), docs_url) for f in verdict.failures],
    }


def render_json(path: str, verdict: Verdict, docs_url: str = "") -> str:
    return json.dumps(verdict_document(path, verdict, docs_url), indent=2, ensure_ascii=False) + "\n"


def render_evidence(verdict: Verdict) -> str:
    """The block appended to the original dispatch prompt for the one re-dispatch; empty when the return passed."""
    if verdict.passed:
        return ""
    numbers = ", ".join(str(n) for n in verdict.failed)
    plural = "s" if len(verdict.failures) > 1 else ""
    out = ["## Failure evidence: the previous return was discarded", ""]
    if verdict.empty:
        out += ["The previous dispatch returned no text.", ""]
    out += [
        f"It failed receiver check{plural} {numbers} of {verdict.name}. Return again, from the first line,",
        f"in the {verdict.name} shape above, so that every receiver check passes. Do not mention the",
        "previous return.",
    ]
    if verdict.unmechanised:
        out += ["", f"Not run, because not mechanised (the receiver judges {'it' if len(verdict.unmechanised) == 1 else 'them'} by reading): "
                f"{_numbers(verdict.unmechanised)}."]
    for failure in verdict.failures:
        out += ["", f"### Check {failure.number}" + (f" ({failure.url})" if failure.url else ""), ""]
        out += [f"> {line}".rstrip() for line in failure.text.splitlines()]
        out += ["", "What failed:", ""]
        out += [f"- {visible(p.message)}" for p in failure.problems]
        if failure.quotes:
            out += ["", "The offending lines of the previous return:", ""]
            out += _quoted(failure.quotes, "    ")
    return "\n".join(out) + "\n"


FORMATS = {"text": render_text, "json": render_json, "github": render_github}
"""``--format`` name -> ``(path, verdict, docs_url) -> text``."""
