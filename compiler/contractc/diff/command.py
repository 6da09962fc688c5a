"""The ``contractc diff`` command's body (the click options are in :mod:`contractc.cli`)."""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path

import click

from contractc.diagnostics import ContractcError
from contractc.report import Report


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
) -> int:
    from contractc.diff.gate import diagnostics, headline, run_diff

    try:
        result = run_diff(root, against, against_path)
        if accept:
            written = _accept(root, result, why or "")
            if written:
                click.echo(f"contractc: accepted {written} change(s) in contractc.changes.yaml", err=fmt != "text")
                result = run_diff(root, against, against_path)
    except ContractcError as exc:
        return _print(Report.of(exc.diagnostics), None, fmt, quiet, color, prefix)
    report = replace(Report.of(diagnostics(result)), headline=headline(result))
    docs_url = result.side.project.config.docs_url if result.side is not None else ""
    return _print(report, result, fmt, quiet, color, prefix, docs_url)


def _accept(root: Path, result, why: str) -> int:
    """Append an entry for every breaking change no acceptance covers; all-or-nothing. Returns how many."""
    from contractc.diff.accept import append_entries
    from contractc.diff.sides import CHANGES_NAME
    from contractc.output import Change, write_changes

    failing = result.failing
    if not failing:
        return 0
    before = result.side.changes if result.side is not None else None
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    data = append_entries(before, failing, why, today)
    write_changes(root, [Change(CHANGES_NAME, data, before, None)])
    return len(failing)


def _print(report: Report, result, fmt: str, quiet: bool, color: bool, prefix: str, docs_url: str = "") -> int:
    from contractc.diff.report import format_diff_json
    from contractc.report import FORMATTERS, Options, stream_for

    if fmt == "json":
        click.echo(format_diff_json(report, result, docs_url), nl=False)
        return report.exit_code
    to_stderr = stream_for(fmt, report)
    text = FORMATTERS[fmt](report, Options(diff=False, quiet=quiet, color=color, path_prefix=prefix, docs_url=docs_url))
    if text:
        click.echo(text, nl=False, err=to_stderr, color=color)
    return report.exit_code
