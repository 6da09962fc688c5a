"""``contractc validate SHAPE [FILE|-]`` as one decision: which check the shape's kind calls for, and what it prints.

The CLI parses options and prints the :class:`~contractc.report.format.Outcome`; an
option that does not fit the shape SHAPE names is a usage error found here,
since only the loaded project tells a text shape from a data shape.

A data shape's result is a :class:`~contractc.report.format.Report` like ``check``'s, so
``--format json`` prints the same document (``data/check-report.schema.json``);
bad input in a machine format is that document too, on standard output, as for ``check``.
"""

from __future__ import annotations

from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic, ExitCode
from contractc.model.records import Project, Shape
from contractc.report.format import Outcome, Report
from contractc.validate import STDIN, find_shape, read_return

SCHEMAS = {False: "wire schema", True: "artifact schema"}


def validate(
    root: Path,
    shape_id: str,
    file: str,
    *,
    artifact: bool = False,
    mode: str | None = None,
    fmt: str = "text",
    evidence: bool = False,
    require_all: bool = False,
) -> Outcome:
    """Judge FILE (``-``: standard input) against the shape ``shape_id`` names; bad input raises ``ContractcError``
    in the text format, and is the bad-input report in the others."""
    from contractc.load import load_project

    docs_url = ""
    try:
        project = load_project(root)
        docs_url = project.config.docs_url
        shape = find_shape(project, shape_id, mode)
        if shape.kind == "text":
            if artifact:
                return Outcome(usage="--artifact is for data shapes; a text shape is judged by its receiver checks")
            return judge(project, shape, file, fmt, evidence, require_all)
        if require_all:
            return Outcome(usage=f"--require-all is for text shapes (returns); {shape.id} is a data shape, checked against its schema")
        if evidence:
            return Outcome(usage=f"--evidence is for text shapes (returns); {shape.id} is a data shape, checked against its schema")
        if file == STDIN:
            return Outcome(
                usage=f"{shape.id} is a data shape: name the YAML, JSON or Markdown FILE to check (standard input is read only for a text shape's return)"
            )
        from contractc.validate.data import validate_data

        problems = validate_data(project, shape, Path(file), artifact)
    except ContractcError as exc:
        if fmt == "text":
            raise
        return printed(Report.of(exc.diagnostics), fmt, docs_url)
    headline = data_summary(file, shape_id, SCHEMAS[artifact], problems)
    report = Report.of(problems, checked=1)._replace(headline=headline)
    if fmt == "text":  # one short line per error: the code and the hint are the same for all
        return Outcome("".join(f"{p.format(short=True)}\n" for p in problems) + headline + "\n", exit_code=report.exit_code)
    return printed(report, fmt, docs_url)


def printed(report: Report, fmt: str, docs_url: str) -> Outcome:
    """``report`` through the formatter ``check`` uses for ``fmt``, on standard output."""
    from contractc.report.format import FORMATTERS, Options

    return Outcome(FORMATTERS[fmt](report, Options(diff=False, docs_url=docs_url)), exit_code=report.exit_code)


def judge(project: Project, shape: Shape, file: str, fmt: str, evidence: bool, require_all: bool = False) -> Outcome:
    """A text shape: the return's verdict, or with ``evidence`` only the block for the one re-dispatch."""
    from contractc.validate.receiver import Receiver
    from contractc.validate.render import FORMATS, render_evidence

    label, text = read_return(file)
    verdict = Receiver(project).validate(shape, text, require_all=require_all)
    out = render_evidence(verdict) if evidence else FORMATS[fmt](label, verdict, project.config.docs_url)
    return Outcome(out, exit_code=ExitCode.CLEAN if verdict.passed else ExitCode.DRIFT)


def data_summary(file: str, shape_id: str, schema: str, problems: list[Diagnostic]) -> str:
    """The last line: whether ``file`` matches, and how many errors it has."""
    if problems:
        count = f"{len(problems)} error{'s' * (len(problems) != 1)}"
        return f"contractc: {file} does not match {shape_id} ({schema}): {count}"
    return f"contractc: {file} matches {shape_id} ({schema})"
