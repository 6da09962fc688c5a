"""The ``contractc diff`` command's body (the click options are in :mod:`contractc.cli`, which prints what it returns)."""

from __future__ import annotations

import datetime
from pathlib import Path

from contractc.report.diagnostics import ContractcError
from contractc.report.format import Outcome, Report


def diff_command(
    root: Path,
    against: str | None,
    against_path: Path | None,
    fmt: str,
    quiet: bool,
    accept: bool,
    why: str | None,
    color: bool,
    prefix: str,
) -> Outcome:
    from contractc.diff.gate import diagnostics, headline, run_diff

    said = ""  # what --accept wrote: beside a text report, or on stderr away from a machine-read one
    try:
        result = run_diff(root, against, against_path)
        if accept:
            written = _accept(root, result, why or "")
            if written:
                said = f"contractc: accepted {written} change(s) in contractc.changes.yaml\n"
                result = run_diff(root, against, against_path)
    except ContractcError as exc:
        return _said(_print(Report.of(exc.diagnostics), None, fmt, quiet, color, prefix), said, fmt)
    report = Report.of(diagnostics(result))._replace(headline=headline(result))
    docs_url = result.side.project.config.docs_url if result.side is not None else ""
    return _said(_print(report, result, fmt, quiet, color, prefix, docs_url), said, fmt)


def _accept(root: Path, result, why: str) -> int:
    """Append an entry for every breaking change no acceptance covers; all-or-nothing. Returns how many."""
    from contractc.diff.accept import append_entries
    from contractc.diff.sides import CHANGES_NAME
    from contractc.output.outputs import Change, write_changes

    failing = result.failing
    if not failing:
        return 0
    before = result.side.changes if result.side is not None else None
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    data = append_entries(before, failing, why, today)
    write_changes(root, [Change(CHANGES_NAME, data, before, None)])
    return len(failing)


def _said(outcome: Outcome, said: str, fmt: str) -> Outcome:
    if fmt == "text":
        return outcome._replace(out=said + outcome.out)
    return outcome._replace(err=said + outcome.err)


def _print(report: Report, result, fmt: str, quiet: bool, color: bool, prefix: str, docs_url: str = "") -> Outcome:
    from contractc.diff.report import format_diff_json
    from contractc.report.format import FORMATTERS, Options, stream_for

    if fmt == "json":
        return Outcome(format_diff_json(report, result, docs_url), exit_code=report.exit_code)
    text = FORMATTERS[fmt](report, Options(diff=False, quiet=quiet, color=color, path_prefix=prefix, docs_url=docs_url))
    if stream_for(fmt, report):
        return Outcome(err=text, exit_code=report.exit_code, color=color)
    return Outcome(text, exit_code=report.exit_code, color=color)
