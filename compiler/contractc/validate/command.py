"""``contractc validate SHAPE [FILE|-]`` as one decision: which check the shape's kind calls for, and what it prints.

The CLI parses options and prints the :class:`~contractc.report.Outcome`; an
option that does not fit the shape SHAPE names is a usage error found here,
since only the loaded project tells a text shape from a data shape.
"""

from __future__ import annotations

import json
from pathlib import Path

from contractc.diagnostics import Diagnostic, ExitCode
from contractc.model import Project, Shape
from contractc.report import Outcome
from contractc.validate import STDIN, find_shape, read_return, validate_file

SCHEMAS = {False: "wire schema", True: "artifact schema"}


def validate(
    root: Path, shape_id: str, file: str, *, artifact: bool = False, mode: str | None = None, fmt: str = "text", evidence: bool = False
) -> Outcome:
    """Judge FILE (``-``: standard input) against the shape ``shape_id`` names; bad input raises ``ContractcError``."""
    from contractc.load import load_project

    project = load_project(root)
    shape = find_shape(project, shape_id, mode)
    if shape.kind == "text":
        if artifact:
            return Outcome(usage="--artifact is for data shapes; a text shape is judged by its receiver checks")
        return judge(project, shape, file, fmt, evidence)
    if evidence:
        return Outcome(usage=f"--evidence is for text shapes (returns); {shape.id} is a data shape, checked against its schema")
    if file == STDIN:
        return Outcome(
            usage=f"{shape.id} is a data shape: name the YAML, JSON or Markdown FILE to check (standard input is read only for a text shape's return)"
        )
    problems = validate_file(project, shape_id, Path(file), artifact)
    code = ExitCode.DRIFT if problems else ExitCode.CLEAN
    return Outcome(DATA_FORMATS[fmt](file, shape_id, SCHEMAS[artifact], problems), exit_code=code)


def judge(project: Project, shape: Shape, file: str, fmt: str, evidence: bool) -> Outcome:
    """A text shape: the return's verdict, or with ``evidence`` only the block for the one re-dispatch."""
    from contractc.validate.receiver import Receiver
    from contractc.validate.render import FORMATS, render_evidence

    label, text = read_return(file)
    verdict = Receiver(project).validate(shape, text)
    out = render_evidence(verdict) if evidence else FORMATS[fmt](label, verdict)
    return Outcome(out, exit_code=ExitCode.CLEAN if verdict.passed else ExitCode.DRIFT)


def data_text(file: str, shape_id: str, schema: str, problems: list[Diagnostic]) -> str:
    """Each error in the formatter's short form (one line each, the code being the same), then a summary."""
    return "".join(f"{p.format(short=True)}\n" for p in problems) + data_summary(file, shape_id, schema, problems)


def data_github(file: str, shape_id: str, schema: str, problems: list[Diagnostic]) -> str:
    """One GitHub Actions annotation per error, then the summary."""
    from contractc.report import github_annotation

    return "".join(github_annotation(p) for p in problems) + data_summary(file, shape_id, schema, problems)


def data_json(file: str, shape_id: str, schema: str, problems: list[Diagnostic]) -> str:
    errors = [{"path": p.path, "line": p.line, "col": p.col, "message": p.message} for p in problems]
    document = {"file": file, "shape": shape_id, "schema": schema, "passed": not problems, "errors": errors}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def data_summary(file: str, shape_id: str, schema: str, problems: list[Diagnostic]) -> str:
    if problems:
        count = f"{len(problems)} error{'s' * (len(problems) != 1)}"
        return f"contractc: {file} does not match {shape_id} ({schema}): {count}\n"
    return f"contractc: {file} matches {shape_id} ({schema})\n"


DATA_FORMATS = {"text": data_text, "json": data_json, "github": data_github}
"""``--format`` name -> ``(file, shape id, schema, problems) -> text`` for a data shape."""
