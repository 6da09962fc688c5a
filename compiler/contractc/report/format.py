"""The drift report: one :class:`Report`, printed by one formatter of :data:`FORMATTERS`.

A report is diagnostics plus the :class:`~contractc.output.outputs.Change` of each drifted
file, so a formatter never needs to know what a code means: a new drift code
prints in every format with no change here.  Formatters return text; the CLI
decides the stream (:func:`stream_for`).

``text`` is for people (located line, hint, docs link, diff, a summary with the
fix), ``github`` is GitHub Actions workflow commands (annotations on the
pull request's lines), ``json`` is one document described by
``data/check-report.schema.json``.
"""

import re
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from contractc.report import __version__
from contractc.report.diagnostics import Diagnostic, ExitCode, Severity, exit_code_for, explain_command, visible

if TYPE_CHECKING:  # the CLI imports this module for --help; keep it light
    from contractc.output.outputs import Change

SCHEMA_ID = "https://contractc.dev/schemas/check-report.schema.json"
_FIX_COMMAND = r"`(contractc [^`]+)`"  # compiled on first use (re's cache): only a report with drift asks


class Report(NamedTuple):
    """What ``check`` found, ready to print."""

    diagnostics: tuple[Diagnostic, ...]
    """Sorted by path, line, column, code (source order)."""
    changes: "Mapping[str, Change]" = MappingProxyType({})
    """The drifted files by path; a diagnostic's diff is the change with its path."""
    checked: int = 0
    since: str | None = None
    """The ``--changed-since`` ref, when the report is limited to changed files."""
    hidden: int = 0
    """Drift left out because neither its copy nor its sources changed since ``since``."""
    attached: "Mapping[Diagnostic, Change]" = MappingProxyType({})
    """A change shown after one diagnostic, whatever its path (``scan``: a copy against its owning copy)."""
    labels: tuple[str, str] = ("on disk", "from contracts")
    """How a diff names its two sides: the bytes found, and the bytes they should be."""
    headline: str | None = None
    """The last line, when the command has its own (``scan``); else :func:`summary` writes it."""

    @classmethod
    def of(
        cls,
        diagnostics: Iterable[Diagnostic],
        changes: "Iterable[Change]" = (),
        checked: int = 0,
        since: str | None = None,
        hidden: int = 0,
    ) -> "Report":
        return cls(
            tuple(sorted(diagnostics, key=Diagnostic.sort_key)), {c.path: c for c in changes}, checked, since, hidden
        )

    @property
    def exit_code(self) -> ExitCode:
        return exit_code_for(list(self.diagnostics))

    @property
    def drifted(self) -> int:
        return sum(d.exit_code is ExitCode.DRIFT for d in self.diagnostics)

    @property
    def status(self) -> str:
        return {ExitCode.CLEAN: "clean", ExitCode.DRIFT: "drift", ExitCode.BAD_INPUT: "bad-input"}[self.exit_code]

    def fix_commands(self) -> list[str | None]:
        """The command each drift's hint names (None for a hint naming none), each once, sorted."""
        commands = set()
        for d in self.diagnostics:
            if d.exit_code is ExitCode.DRIFT:
                found = re.search(_FIX_COMMAND, d.hint)
                commands.add(found.group(1) if found else None)
        return sorted(commands, key=lambda c: (c is None, c or ""))

    def fix(self) -> str | None:
        """The one command every drift's hint names, or None when the hints differ, or when a hint names a
        ``--force``: that overwrites bytes of the user's, a choice each hint explains, so the summary sends the
        reader to the hints rather than name one command."""
        commands = self.fix_commands()
        decide = any("--force" in d.hint for d in self.diagnostics if d.exit_code is ExitCode.DRIFT)
        return commands[0] if len(commands) == 1 and not decide else None

    def diffed(self) -> "Iterator[tuple[Diagnostic, Change | None]]":
        """Each diagnostic with the change whose diff follows it: the last one of its path gets it.

        A file that does not exist yet gets none: all of it would be ``+`` lines
        that say no more than "not generated" does.
        """
        for i, d in enumerate(self.diagnostics):
            if d in self.attached:
                yield d, self.attached[d]
                continue
            last_of_path = i + 1 == len(self.diagnostics) or self.diagnostics[i + 1].path != d.path
            change = self.changes.get(d.path) if last_of_path else None
            yield d, change if change is not None and change.actual is not None else None


class Options(NamedTuple):
    """How to print: the ``check`` options that are not about what to compare."""

    diff: bool = True
    quiet: bool = False
    color: bool = False
    """Paint the text format with ANSI colours (the CLI decides: a terminal and no NO_COLOR)."""
    path_prefix: str = ""
    """Prepended to paths in GitHub annotations: the project root as seen from the workspace."""
    docs_url: str = ""
    """``docs_url`` of contractc.yaml: where the drift-codes page is published; no links without it."""


def unified_diff(change: "Change", labels: tuple[str, str] = ("on disk", "from contracts")) -> str:
    """A unified diff from what is on disk to what the contracts compile to (or, with ``labels``, any two sides)."""
    import difflib

    def lines(data: bytes | None) -> list[str]:
        return [] if data is None else data.decode("utf-8", "replace").splitlines(keepends=True)

    diff = difflib.unified_diff(
        lines(change.actual),
        lines(change.expected),
        fromfile=f"{change.path} ({labels[0]})",
        tofile=f"{change.expected_path or change.path} ({change.expected_label or labels[1]})",
    )
    return "".join(_shown_line(d) if d.endswith("\n") else _shown_line(d) + "\n\\ No newline at end of file\n" for d in diff)


def _shown_line(line: str) -> str:
    """A diff line with its control characters escaped (a file's escape sequence never reaches the
    terminal), its line ending kept as it is (a CRLF file's diff stays readable)."""
    body = line.rstrip("\r\n")
    return visible(body) + line[len(body) :]


def summary(report: Report) -> str:
    """The last line: what was found and the command that fixes it."""
    if report.headline is not None and report.exit_code is not ExitCode.BAD_INPUT:
        return report.headline
    elsewhere = f"{report.hidden} more drifted outside the changes since {report.since}" if report.hidden else ""
    if report.exit_code is ExitCode.BAD_INPUT:
        return "contractc: bad input, nothing was compared"
    if not report.drifted:
        if report.since is None:
            return f"contractc: {report.checked} files checked, all current"
        line = f"contractc: {report.checked} files checked, no drift in the changes since {report.since}"
        return f"{line} ({elsewhere})" if elsewhere else line
    counts = f"contractc: {report.drifted} drifted, {report.checked} checked" + (f" ({elsewhere})" if elsewhere else "")
    fix = report.fix()
    if fix:
        return f"{counts}; run `{fix}` to fix"
    named = ", ".join(f"`{c}`" for c in report.fix_commands() if c)
    return f"{counts}; fix each as its hint says" + (f" ({named})" if named else "")


# -- text ----------------------------------------------------------------------------------------

_COLORS = {
    "location": {"bold": True},
    "error": {"fg": "red", "bold": True},
    "warning": {"fg": "yellow", "bold": True},
    "note": {"fg": "cyan", "bold": True},
    "code": {"bold": True},
    "url": {"fg": "blue"},
}
_DIFF_COLORS = (
    ("+++", {"bold": True}),
    ("---", {"bold": True}),
    ("@@", {"fg": "cyan"}),
    ("+", {"fg": "green"}),
    ("-", {"fg": "red"}),
)


def format_text(report: Report, options: Options) -> str:
    import click

    def paint(role: str, text: str) -> str:
        return click.style(text, **_COLORS[role]) if options.color and role in _COLORS else text

    def paint_diff(diff: str) -> str:
        if not options.color:
            return diff
        out = []
        for line in diff.splitlines(keepends=True):
            style = next((s for prefix, s in _DIFF_COLORS if line.startswith(prefix)), None)
            out.append(click.style(line.rstrip("\n"), **style) + "\n" if style else line)
        return "".join(out)

    if report.exit_code is ExitCode.BAD_INPUT:
        return "".join(d.format(paint, options.docs_url) + "\n" for d in report.diagnostics)
    if options.quiet:
        return "".join(d.format(located=True) + "\n" for d in report.diagnostics)
    out = []
    for d, change in report.diffed():
        out.append(d.format(paint, options.docs_url) + "\n")
        if change is not None and options.diff:
            out.append(paint_diff(unified_diff(change, report.labels)))
    out.append(summary(report) + "\n")
    return "".join(out)


# -- GitHub Actions workflow commands -------------------------------------------------------------

_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}


def github_data(text: str) -> str:
    """Escape a workflow command's message (GitHub's ``escapeData``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """Escape a workflow command's property value (GitHub's ``escapeProperty``)."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(d: Diagnostic, prefix: str = "", docs_url: str = "") -> str:
    props = []
    if d.path and not d.on_command_line:
        props.append(f"file={github_property(visible(prefix + d.path))}")
        if d.line:
            props.append(f"line={d.line}")
            if d.col:
                props.append(f"col={d.col}")
    props.append(f"title={github_property(f'contractc {d.code}')}")
    url = d.url(docs_url)
    body = visible("\n".join([d.message, f"hint: {d.full_hint}", *([f"see: {url}"] if url else [])]))
    return f"::{_GITHUB_LEVEL[d.severity]} {','.join(props)}::{github_data(body)}\n"


def _github_group(title: str, body: str) -> str:
    # The runner reads a workflow command from any log line that starts with
    # `::` after leading blanks, and a diff's context lines begin with a blank:
    # file contents must not be able to issue commands, so they are fenced
    # with stop-commands and a token derived from the body (so it cannot occur in it).
    import hashlib

    token = "contractc-" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]
    return f"::group::{github_data(title)}\n::stop-commands::{token}\n{body}::{token}::\n::endgroup::\n"


def format_github(report: Report, options: Options) -> str:
    out = [github_annotation(d, options.path_prefix, options.docs_url) for d in report.diagnostics]
    if options.quiet or report.exit_code is ExitCode.BAD_INPUT:
        return "".join(out)
    if options.diff:
        for d, change in report.diffed():
            if change is not None:
                out.append(_github_group(f"contractc diff: {options.path_prefix}{change.path}", unified_diff(change, report.labels)))
    out.append(summary(report) + "\n")
    return "".join(out)


# -- JSON ----------------------------------------------------------------------------------------


def _sha256(data: bytes | None) -> str | None:
    import hashlib

    return None if data is None else hashlib.sha256(data).hexdigest()


def report_document(report: Report, options: Options) -> dict:
    """The JSON report as a plain dict (``data/check-report.schema.json``)."""
    return {
        "$schema": SCHEMA_ID,
        "tool": {"name": "contractc", "version": __version__},
        "status": report.status,
        "exit_code": int(report.exit_code),
        "checked": report.checked,
        "drifted": report.drifted,
        "changed_since": report.since,
        "hidden": report.hidden,
        "fix": report.fix() if report.drifted else None,
        "summary": summary(report),
        "diagnostics": [diagnostic_document(d, options.docs_url) for d in report.diagnostics],
        "changes": [
            {
                "path": c.path,
                "status": "orphan" if c.expected is None else "missing" if c.actual is None else "modified",
                "kind": c.output.kind if c.output else None,
                "expected_sha256": _sha256(c.expected),
                "actual_sha256": _sha256(c.actual),
                "diff": unified_diff(c, report.labels) if options.diff else None,
            }
            for c in sorted([*report.changes.values(), *report.attached.values()], key=lambda c: c.path)
        ],
    }


def diagnostic_document(d: Diagnostic, docs_url: str = "") -> dict:
    """One diagnostic as every JSON report holds it."""
    return {
        "path": d.path,
        "line": d.line,
        "col": d.col,
        "severity": d.severity.value,
        "code": d.code,
        "message": d.message,
        "hint": d.hint,
        "explain": explain_command(d.code),
        "url": d.url(docs_url) or None,
    }


def format_json(report: Report, options: Options) -> str:
    import json

    return json.dumps(report_document(report, options), indent=2, ensure_ascii=False) + "\n"


FORMATTERS: dict[str, Callable[[Report, Options], str]] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
}
FORMATS = tuple(FORMATTERS)


def stream_for(fmt: str, report: Report) -> bool:
    """True when the report goes to stderr: only a text report of bad input does.

    Machine formats always go to stdout, where a CI step or a pipe reads them.
    """
    return fmt == "text" and report.exit_code is ExitCode.BAD_INPUT


class Outcome(NamedTuple):
    """What one command has to say, ready to print: the CLI prints it as it is and exits with its code.

    Standard output first, then on standard error each diagnostic through the
    one formatter (:meth:`Diagnostic.format`), then ``err``.
    """

    out: str = ""
    """For standard output, printed as it is."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """For standard error, each as :meth:`Diagnostic.format` writes it (with ``docs_url``)."""
    err: str = ""
    """For standard error after the diagnostics (the diffs under a refusal, a last line)."""
    exit_code: ExitCode = ExitCode.CLEAN
    docs_url: str = ""
    """``docs_url`` of contractc.yaml, for the diagnostics' ``see:`` lines."""
    usage: str = ""
    """A usage mistake only the command could see (an option that does not fit the shape it names):
    printed as click prints a usage error, exit 2; nothing else is."""
    parameter: str = ""
    """With ``usage``: the parameter it is about (``CODE``), for click's "Invalid value for" form."""
    color: bool = False
    """The text is painted (the CLI asked for colour: a terminal, no NO_COLOR); else any colour is stripped."""

    @classmethod
    def failed(cls, diagnostics: Iterable[Diagnostic], docs_url: str = "") -> "Outcome":
        """The diagnostics alone, exiting as the worst of them says."""
        found = tuple(diagnostics)
        return cls(diagnostics=found, exit_code=exit_code_for(list(found)), docs_url=docs_url)
