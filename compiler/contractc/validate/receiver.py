"""The receiver's Python API: load a project once, look a text shape up, judge returns, build the re-dispatch.

::

    from contractc import Receiver

    receiver = Receiver.load("path/to/project")          # parse contracts once
    shape = receiver.shape("design-auditor", mode="audit")  # or an id / a name: "auditreturn", "AuditReturn"
    verdict = receiver.validate(shape, text)             # a Verdict: .passed, .failures[i].number/.anchor/.quotes
    if not verdict.passed:
        prompt = receiver.redispatch(shape, verdict)     # the dispatch snippet + the failure evidence

Judging a return does no I/O and reads nothing but the model.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.model.records import Contract, Project, TextShape
from contractc.validate.text import Verdict, judge

_MODE = re.compile(r"\bin (?P<mode>[\w-]+) mode\b")


def shape_mode(shape: TextShape) -> str:
    """The producer's mode that yields ``shape`` (``audit`` for "in audit mode"), empty when none is said."""
    m = _MODE.search(shape.qualifier)
    return m["mode"] if m else ""


def text_candidates(project: Project, key: str, mode: str | None = None) -> list[tuple[Contract, TextShape]]:
    """The text shapes ``key`` may name: the one with that id or name, else every shape that producer
    makes (only those of ``mode`` when given)."""
    texts = [(c, s) for c, s in project.shapes() if isinstance(s, TextShape)]
    found = [(c, s) for c, s in texts if s.id == key] or [(c, s) for c, s in texts if s.name == key]
    if not found:
        found = [(c, s) for c, s in texts if s.producer == key]
        if mode is not None:
            found = [(c, s) for c, s in found if shape_mode(s) == mode]
    elif mode is not None and shape_mode(found[0][1]) != mode:
        found = []
    return found


def find_text_shape(project: Project, key: str, mode: str | None = None) -> tuple[Contract, TextShape]:
    """The text shape ``key`` names: a shape id, a shape name, or a producer (with ``mode`` when it has several).

    An unknown key, a mode the producer does not have, or a producer with several shapes and
    no mode is an ``unknown-shape`` error naming the choices.
    """
    texts = [(c, s) for c, s in project.shapes() if isinstance(s, TextShape)]
    found = text_candidates(project, key, mode)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        modes = ", ".join(f"--mode {shape_mode(s)} ({s.id})" if shape_mode(s) else s.id for _, s in found)
        raise ContractcError(
            Diagnostic(key, 0, 0, "unknown-shape", f"{key!r} produces {len(found)} shapes; say which", f"choose one: {modes}")
        )
    known = ", ".join(sorted({s.id for _, s in texts} | {s.producer for _, s in texts})) or "none"
    said = f" in mode {mode!r}" if mode is not None else ""
    if mode is not None and (existing := text_candidates(project, key)):
        modes = sorted({shape_mode(s) for _, s in existing if shape_mode(s)})
        having = f"its modes: {', '.join(modes)}" if modes else "it names no mode: drop --mode"
        raise ContractcError(Diagnostic(key, 0, 0, "unknown-shape", f"{key!r} has no mode {mode!r}", having))
    raise ContractcError(
        Diagnostic(key, 0, 0, "unknown-shape", f"no text shape or producer is called {key!r}{said}", f"known: {known}")
    )


def check_page_url(project: Project, contract: Contract) -> str:
    """The contract's page on the contract site; a check's anchor is appended after ``#``."""
    from contractc.model.layout import site_address

    prefix = project.config.site.prefix
    page = f"{prefix}/{PurePosixPath(contract.path).stem}.md" if prefix else f"{PurePosixPath(contract.path).stem}.md"
    return site_address(project.config, page)


def refuse_unjudged(shape: TextShape, require_all: bool) -> None:
    """Raise when judging ``shape`` would leave the verdict to nothing: no check mechanised, or with
    ``require_all`` any check not mechanised (located on the check, quoting the words not read)."""
    unrun = [c for c in shape.checks if not c.mechanised]
    if len(unrun) == len(shape.checks):
        where = shape.checks[0].span if shape.checks else shape.span
        said = f"none of its {len(unrun)} receiver checks is mechanised" if unrun else "it states no receiver checks"
        raise ContractcError(
            Diagnostic.at(
                where,
                "nothing-checked",
                f"{shape.name} cannot be validated: {said}, so any return, even an empty one, would pass unjudged",
                "word a check as a phrasing `contractc explain check-not-mechanised` lists (or give it an explicit rule); "
                "until then the receiver judges returns by reading",
            )
        )
    if require_all and unrun:
        from contractc.model.checks.compile import unread_words

        raise ContractcError(
            [
                Diagnostic.at(
                    c.span,
                    "check-not-run",
                    f"{shape.name} check {c.number} is not mechanised (not read: {unread_words(c)}), and --require-all asks for every check",
                    "word it as a phrasing `contractc explain check-not-mechanised` lists, or drop --require-all to judge it by reading",
                )
                for c in unrun
            ]
        )


class Receiver:
    """A loaded project ready to judge returns of its text shapes (see the module docstring)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._schemas: dict | None = None  # compiled on the first is-data rule
        self._contracts = {s.id: c for c, s in project.shapes() if isinstance(s, TextShape)}

    @classmethod
    def load(cls, root: str | Path = ".") -> Receiver:
        """Load ``contractc.yaml`` and its contracts under ``root``; bad input raises :class:`ContractcError`."""
        from contractc.load import load_project

        return cls(load_project(Path(root)))

    def shape(self, key: str, mode: str | None = None) -> TextShape:
        """A text shape by id, name, or producer (``mode`` picks among a producer's shapes)."""
        return find_text_shape(self.project, key, mode)[1]

    def validate(self, shape: TextShape | str, text: str | bytes, *, require_all: bool = False) -> Verdict:
        """Judge ``text`` against every mechanised receiver check of ``shape``; bytes must be UTF-8, as for the CLI.

        Nothing checked is not a pass: a shape with no mechanised check raises :class:`ContractcError`
        (``nothing-checked``), and so does any check that is not mechanised when ``require_all`` is set
        (``check-not-run``), each located on the contract, as ``validate`` exits 2 for them.  A ``text`` that
        is neither ``str`` nor ``bytes`` (None: no return was read) is a ``TypeError``."""
        if not isinstance(text, (str, bytes)):
            raise TypeError(f"Receiver.validate: the return must be str or bytes, not {type(text).__name__}")
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                why = f"byte 0x{text[exc.start]:02x} is not valid UTF-8"
                raise ContractcError(Diagnostic("<return>", 0, 0, "not-utf8", why, "send the return as UTF-8")) from None
        if isinstance(shape, str):
            shape = self.shape(shape)
        contract = self._contracts[shape.id]
        refuse_unjudged(shape, require_all)
        return judge(shape, text, check_page_url(self.project, contract), self._data_problems)

    def _data_problems(self, shape_id: str, value: object) -> list[str]:
        """Why ``value`` does not match the data shape ``shape_id`` (by id or key): its wire schema's errors."""
        from contractc.report.diagnostics import json_path, yaml_json_message
        from contractc.model.schemas import compile_schemas, schema_registry, validator

        if self._schemas is None:
            self._schemas = compile_schemas(self.project)
        compiled = self._schemas
        target = compiled.get(shape_id) or next((c for c in compiled.values() if getattr(c.shape, "key", None) == shape_id), None)
        if target is None:
            return [f"the project compiles no data shape `{shape_id}`"]
        schema = target.schema(False)
        key = getattr(target.shape, "key", None)
        if isinstance(value, dict) and list(value) == [key] and key not in schema.get("properties", {}):
            value = value[key]  # wrapped in the shape's key, the way the contract writes it
        check = validator(schema, schema_registry(compiled))
        return [f"{json_path(e.absolute_path)}: {yaml_json_message(e)}" for e in check.iter_errors(value)]

    def dispatch(self, shape: TextShape | str) -> str:
        """The dispatch snippet: the shared sections and the shape's section, verbatim (``prompts/<agent>/<shape>.md``)."""
        if isinstance(shape, str):
            shape = self.shape(shape)
        return self._contracts[shape.id].bundle(shape).decode("utf-8")

    def evidence(self, verdict: Verdict) -> str:
        """The failure evidence block to append to the original dispatch prompt (empty when it passed)."""
        from contractc.validate.render import render_evidence

        return render_evidence(verdict)

    def redispatch(self, shape: TextShape | str, verdict: Verdict, prompt: str | None = None) -> str:
        """The one re-dispatch: the original ``prompt`` (default: the dispatch snippet) plus the evidence."""
        original = self.dispatch(shape) if prompt is None else prompt
        return original.rstrip("\n") + "\n\n" + self.evidence(verdict)
