"""``contractc build`` as one decision: the run, and what it says about it, as an :class:`~contractc.report.format.Outcome`.

The CLI parses options and prints; here the :class:`~contractc.pipeline.Result`
becomes the lines a person reads: each file written or removed and a summary,
or, when a region needs a decision, its diagnostics with the diff of what
``--force`` would write over.
"""

from __future__ import annotations

from pathlib import Path

from contractc.report.diagnostics import ExitCode
from contractc.report.format import Outcome


def build(root: Path, force: bool = False, site_pages: str | None = None) -> Outcome:
    from contractc.output.outputs import Mode
    from contractc.pipeline import run

    result = run(root, Mode.BUILD, force=force, site_pages=site_pages)
    failed = Outcome.failed(result.diagnostics, result.docs_url)
    if result.exit_code is ExitCode.BAD_INPUT:
        return failed
    if result.refused:
        from contractc.report.format import unified_diff

        # what --force would write over: the hand-made bytes are shown, not lost unseen
        diffs = "".join(unified_diff(change) for change in result.changes)
        last = f"contractc: nothing written; {len(result.diagnostics)} region(s) need a decision\n"
        return Outcome(diagnostics=failed.diagnostics, err=diffs + last, exit_code=failed.exit_code, docs_url=result.docs_url)
    lines = [f"{'removed' if change.expected is None else 'wrote'} {change.path}" for change in result.changes]
    written = len(result.changes)
    lines.append(f"contractc: {written} written, {result.checked - written} already current")  # first build or tenth: one wording
    lines += [note.format(docs_url=result.docs_url) for note in result.notes]
    # Drift build cannot fix (a hand-made copy of a shape, a broken pin) still fails the build.
    return Outcome("\n".join(lines) + "\n", failed.diagnostics, exit_code=failed.exit_code, docs_url=result.docs_url)
