"""Diagnostics are values: collected through the pipeline, printed once by the CLI.

Every message a user sees has the shape ``path:line:col: severity[code]: message``
so that editors and CI can link it.  The codes are listed, with a one-line
summary each, in :data:`CODES`; ``docs/drift-codes.md`` documents each one under
an anchor of the same name, and a test keeps the two in step.
"""

import enum
import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


def explain_command(code: str) -> str:
    """The command that prints a code's section of the drift-codes page, offline."""
    return f"contractc explain {code}"


def _plain(role: str, text: str) -> str:
    return text


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class ExitCode(enum.IntEnum):
    """The one exit-code policy of every command."""

    CLEAN = 0
    """Everything is current / valid."""
    DRIFT = 1
    """A copy drifted, or a validated document failed its checks."""
    BAD_INPUT = 2
    """Bad input or usage: nothing was compared and nothing was written."""
    INTERNAL = 3
    """A bug in contractc: a short message asking for a report (the traceback with ``--debug``)."""
    INTERRUPTED = 130
    """Ctrl-C: whatever was being written was rolled back first."""


# code -> (exit code it implies, one-line summary).  Bad-input codes exit 2,
# drift and validation codes exit 1.
CODES: dict[str, tuple[ExitCode, str]] = {
    # bad input: configuration
    "config-missing": (ExitCode.BAD_INPUT, "no contractc.yaml was found"),
    "config-syntax": (ExitCode.BAD_INPUT, "contractc.yaml is not valid YAML"),
    "config-invalid": (ExitCode.BAD_INPUT, "contractc.yaml does not match its schema"),
    "unsafe-path": (ExitCode.BAD_INPUT, "a path leaves the project root, or an output folder would hold the user's files"),
    "unsafe-name": (ExitCode.BAD_INPUT, "a name that becomes part of an output path is not a plain name"),
    # bad input: contracts
    "file-missing": (ExitCode.BAD_INPUT, "a file named by the configuration does not exist"),
    "file-unreadable": (ExitCode.BAD_INPUT, "an input exists but cannot be read: permissions, not a regular file, or too large"),
    "not-utf8": (ExitCode.BAD_INPUT, "a file is not valid UTF-8"),
    "unclosed-fence": (ExitCode.BAD_INPUT, "a fenced block is never closed"),
    "duplicate-anchor": (ExitCode.BAD_INPUT, "two sections derive the same anchor"),
    "unknown-section": (ExitCode.BAD_INPUT, "a configured shared section does not exist"),
    "yaml-syntax": (ExitCode.BAD_INPUT, "a YAML block in a contract does not parse"),
    "duplicate-shape": (ExitCode.BAD_INPUT, "two shapes resolve to the same id"),
    "bad-shape": (ExitCode.BAD_INPUT, "a shape section is incomplete"),
    "write-failed": (ExitCode.BAD_INPUT, "an output could not be written; nothing was changed"),
    "file-changed": (ExitCode.BAD_INPUT, "a file changed while contractc was writing; the write was rolled back"),
    "locked": (ExitCode.BAD_INPUT, "another contractc run holds the project's lock"),
    "journal-refused": (ExitCode.BAD_INPUT, "the journal of an interrupted build names what contractc never writes; nothing was touched"),
    # bad input: check options
    "bad-ref": (ExitCode.BAD_INPUT, "the git ref given to --changed-since cannot be compared with"),
    # bad input: data shapes and schemas
    "bad-notation": (ExitCode.BAD_INPUT, "a value in a data shape is not in the notation"),
    "ambiguous-ref": (ExitCode.BAD_INPUT, "a placeholder names more than one shape"),
    "dangling-ref": (ExitCode.CLEAN, "warning: a placeholder `{ ...full NAME... }` names a shape the project does not define"),
    "bad-default": (ExitCode.BAD_INPUT, "a `default` in a comment does not fit its field"),
    "schema-invalid": (ExitCode.BAD_INPUT, "a compiled schema is not valid draft 2020-12"),
    "example-invalid": (ExitCode.BAD_INPUT, "a shape's derived example fails its own schema"),
    "optional-inferred": (ExitCode.CLEAN, "note: build made a field optional because of its comment"),
    "check-not-mechanised": (ExitCode.CLEAN, "note: a receiver check has words no phrasing reads; validate does not run it"),
    "unknown-shape": (ExitCode.BAD_INPUT, "`validate` (or a `budgets.shapes` key) names a shape the project does not define"),
    "document-syntax": (ExitCode.BAD_INPUT, "a document to validate does not parse or has no front matter"),
    # bad input: managed regions and role files
    "marker-syntax": (ExitCode.BAD_INPUT, "a contractc marker line does not follow the marker grammar"),
    "marker-unclosed": (ExitCode.BAD_INPUT, "a region is begun but never ended"),
    "marker-unopened": (ExitCode.BAD_INPUT, "an end marker has no begin marker"),
    "marker-nested": (ExitCode.BAD_INPUT, "a region begins inside another region"),
    "marker-overlap": (ExitCode.BAD_INPUT, "an end marker closes a region other than the one open: regions overlap"),
    "marker-reference": (ExitCode.BAD_INPUT, "a new region names an unknown or ambiguous shape or section"),
    "role-front-matter": (ExitCode.BAD_INPUT, "a role file's YAML front matter is malformed"),
    "unknown-agent": (ExitCode.BAD_INPUT, "a role file or a budget is configured for an agent that produces no shape"),
    # bad input: site
    "site-collision": (ExitCode.BAD_INPUT, "two contracts would get the same site page"),
    "site-template": (ExitCode.BAD_INPUT, "a site template is missing or does not render"),
    "site-config": (ExitCode.BAD_INPUT, "mkdocs.yml lacks a markdown extension the contract pages need"),
    "site-fence": (ExitCode.CLEAN, "warning (mkdocs): a contract's fence label is no code fence to the site's Markdown"),
    "site-url": (ExitCode.CLEAN, "warning (mkdocs): mkdocs.yml and contractc.yaml name different site_urls"),
    "site-docs-dir": (ExitCode.CLEAN, "warning (build): mkdocs.yml's docs_dir is not a folder, so mkdocs cannot start"),

    # bad input: diff
    "bad-against": (ExitCode.BAD_INPUT, "the older side given to `diff` (--against REF or --against-path) cannot be read"),
    "changes-invalid": (ExitCode.BAD_INPUT, "the approval file contractc.changes.yaml is malformed"),

    # drift
    "drift-output": (ExitCode.DRIFT, "a generated file differs from what the contract compiles to"),
    "drift-missing": (ExitCode.DRIFT, "a generated file does not exist yet"),
    "drift-orphan": (ExitCode.DRIFT, "a file in an output folder is no longer produced by any contract"),
    "leftover": (ExitCode.DRIFT, "a staged or backup file left by an interrupted build"),
    "recovered": (ExitCode.CLEAN, "note: an interrupted build was finished or rolled back"),
    # drift: managed regions, restatements, pins
    "drift-region-new": (ExitCode.DRIFT, "a managed region has not been filled by build yet"),
    "drift-region-new-differs": (ExitCode.DRIFT, "a new region already holds bytes that differ from the contract; build refuses it without --force"),
    "drift-region-stale": (ExitCode.DRIFT, "a managed region is stale: the contract changed since build filled it"),
    "drift-region-edited": (ExitCode.DRIFT, "a managed region was edited by hand; build refuses it without --force"),
    "drift-region-stale-edited": (ExitCode.DRIFT, "a managed region is stale and was edited by hand; build refuses it without --force"),
    "drift-region-unstamped": (ExitCode.DRIFT, "a managed region holds the current bytes but its marker records others"),
    "drift-region-orphaned": (ExitCode.DRIFT, "a managed region names a shape or section that no longer exists"),
    "drift-instance-missing": (ExitCode.DRIFT, "an instance region lacks a key, heading or label line its shape has"),
    "drift-instance-foreign": (ExitCode.DRIFT, "an instance region holds a key, heading or label line its shape does not have"),
    "drift-instance-retyped": (ExitCode.DRIFT, "an instance region changes a type or the enum members its shape writes (scan's rule)"),
    "drift-instance-reshaped": (ExitCode.DRIFT, "an instance region both lacks parts of its shape's structure and holds foreign ones"),
    "drift-instance-unreadable": (ExitCode.DRIFT, "an instance region holds no block whose structure check can read"),
    "drift-restatement": (ExitCode.DRIFT, "a shape is copied by hand outside any managed region"),
    "drift-unresolved": (ExitCode.DRIFT, "a divergent copy adopt left as it is (contractc.yaml, unresolved): reported until its entry is deleted"),
    "drift-allowance": (ExitCode.DRIFT, "an allow_restatements entry matches nothing, names an unknown shape, or points at a line that moved"),
    "drift-pin": (ExitCode.DRIFT, "a contract's bytes no longer match the sha256 it is pinned to"),
    # drift: links and anchors
    "drift-link": (ExitCode.DRIFT, "a link into a contract or the contract site names no existing anchor"),
    # diff: contract changes by whom they break
    "breaking-producers": (ExitCode.DRIFT, "a contract change a producing agent must follow: it must emit something new or stricter"),
    "breaking-receivers": (ExitCode.DRIFT, "a contract change that lets a receiving skill see something it may reject"),
    "breaking-producers-receivers": (ExitCode.DRIFT, "a contract change that breaks both the producers and the receivers of a shape"),
    "breaking-links": (ExitCode.DRIFT, "a published anchor is gone (or now names something else), so links to it break"),
    "changed-unclassified": (ExitCode.DRIFT, "a rule changed in a way the diff cannot classify: treated as breaking"),
    "change-compatible": (ExitCode.CLEAN, "note: a contract change that breaks nobody"),
    "change-accepted": (ExitCode.CLEAN, "note: a breaking change accepted in contractc.changes.yaml"),
    "acceptance-stale": (ExitCode.DRIFT, "an acceptance added since the older side matches no change"),
    # drift: context budget
    "over-budget": (ExitCode.DRIFT, "a dispatch snippet is larger than its context budget"),
    # scan: copies of a shape in a plugin that is not (yet) managed
    "scan-shape": (ExitCode.CLEAN, "note: a shape scan found, its copies and its owning copy"),
    "scan-divergent": (ExitCode.DRIFT, "a drifted copy of a shape, or an instance that breaks its structure"),
    "scan-near-copy": (ExitCode.CLEAN, "warning: a block is nearly a copy of a shape, under another key"),
    "scan-uncertain": (ExitCode.CLEAN, "warning: nothing decides whether a member is a drifted copy or an instance by design"),
    "scan-example": (ExitCode.CLEAN, "note: a worked example of a shape, not scored as a copy"),
    "scan-too-deep": (ExitCode.BAD_INPUT, "a fenced block nests too deeply for scan to read it safely"),
    "scan-unread": (ExitCode.CLEAN, "note: a YAML, JSON or template block scan could not read, and why"),
    "scan-member": (ExitCode.CLEAN, "note: a member of a shape that agrees with it (a copy, or an instance)"),
    "adopt-file": (ExitCode.CLEAN, "note: a file adopt writes, or would write (adopt --format json|github)"),
    "adopt-rewritten": (ExitCode.CLEAN, "warning: an adopted copy whose bytes change (adopt --format json|github)"),
    "adopt-checks-differ": (ExitCode.CLEAN, "warning: a copy's receiver checks differ from the list the adopted contract holds"),
    "adopt-checks-missing": (ExitCode.CLEAN, "warning: a copy carries no receiver checks while the adopted contract holds some"),
    "adopt-skipped": (ExitCode.CLEAN, "note: a copy adopt leaves as it is (adopt --format json|github)"),
    "adopt-allowed": (ExitCode.CLEAN, "note: a block adopt allows under allow_restatements (adopt --format json|github)"),
    "adopt-kept": (ExitCode.CLEAN, "note: an instance, example or unresolved drifted copy adopt leaves byte for byte (adopt --format json|github)"),
    "adopt-resolve": (ExitCode.BAD_INPUT, "--resolve ID=PATH:LINE names no group scan found, no copy of it, or a copy over the contract's block"),
    "adopt-region-span": (ExitCode.BAD_INPUT, "adopt would write a region over a line that is none of the copies it adopts (adopt's bug: such a group is left out): refused"),
    "adopt-configured": (ExitCode.BAD_INPUT, "adopt cannot add to what the plugin has without changing it (a contract file, a shape id, contractc.yaml)"),
    # init: the starter project
    "init-exists": (ExitCode.BAD_INPUT, "a file `init` would write already exists; init wrote nothing"),
    "init-plugin": (ExitCode.BAD_INPUT, "`init` found pasted copies in agents/ or skills/: start with scan and adopt"),
    # validation of documents
    "invalid-document": (ExitCode.DRIFT, "a document does not match a data shape's schema"),
    "check-failed": (ExitCode.DRIFT, "a return fails a receiver check of its text shape"),
    "checks-file-invalid": (ExitCode.BAD_INPUT, "a contract's explicit check rules (contracts/<name>.checks.yaml) do not parse or fit the vocabulary"),
    "check-rule-drift": (ExitCode.BAD_INPUT, "an explicit check rule holds a literal its check's prose does not say"),
    "check-pattern-slow": (ExitCode.BAD_INPUT, "an explicit regex rule ran past its time limit on a return, so the return was not judged"),
    "nothing-checked": (ExitCode.BAD_INPUT, "`validate` names a text shape none of whose receiver checks is mechanised"),
    "check-not-run": (ExitCode.BAD_INPUT, "`validate --require-all` names a text shape with a receiver check that is not mechanised"),
}


class Diagnostic(NamedTuple):
    """One located message (a typed, immutable record; a change is ``d._replace(...)``)."""

    path: str
    """Project-relative path (POSIX separators) of the file the message is about."""
    line: int
    """1-based line; 0 when the message is about the whole file."""
    col: int
    """1-based column; 0 when unknown."""
    code: str
    """A key of :data:`CODES`."""
    message: str
    """What is wrong, in one sentence."""
    hint: str = ""
    """How to fix it, when there is something to say."""
    severity: Severity = Severity.ERROR

    @classmethod
    def at(cls, where: Any, code: str, message: str, hint: str = "", severity: Severity = Severity.ERROR) -> "Diagnostic":
        """The diagnostic at the start of ``where`` (a :class:`~contractc.model.records.Span`)."""
        return cls(where.path, where.line, where.col, code, message, hint, severity)

    @property
    def exit_code(self) -> ExitCode:
        if self.severity is not Severity.ERROR:
            return ExitCode.CLEAN
        return CODES[self.code][0]

    @property
    def location(self) -> str:
        """``path:line:col``, ``path`` for a whole file, empty when the message is about no file."""
        if self.path and self.line:
            return f"{self.path}:{self.line}:{self.col or 1}"
        return self.path

    @property
    def full_hint(self) -> str:
        """The hint as printed: the fix, then the command that explains the code."""
        more = f"`{explain_command(self.code)}`"
        return f"{self.hint}; more: {more}" if self.hint else f"{more} explains this message"

    @property
    def on_command_line(self) -> bool:
        """The message is about an option (``--site-pages:1:1``), an argument (``argv:1:N``) or what came on
        standard input (``<stdin>``, ``validate SHAPE -``), not a file in the repository."""
        return self.path.startswith("-") or self.path in ("argv", "<stdin>")

    def url(self, docs_url: str = "") -> str:
        """Where the code is explained online: its anchor on the drift-codes page at ``docs_url``.

        Empty without a ``docs_url`` (contractc.yaml): no link is printed to a page
        nobody published; ``contractc explain CODE`` works offline either way.
        """
        return f"{docs_url.split('#', 1)[0]}#{self.code}" if docs_url else ""

    def format(
        self, paint: Callable[[str, str], str] = _plain, docs_url: str = "", *, short: bool = False, located: bool = False
    ) -> str:
        """The one message format; ``paint(role, text)`` may colour the parts (roles:
        ``location``, the severity's value, ``code``, ``message``, ``hint``, ``url``).
        The ``see:`` line is there only when a ``docs_url`` is configured.

        ``located`` is the first line alone, ``path:line:col: severity[code]: message``
        (``--quiet``: only the located lines).  ``short`` is the one-line form
        ``path:line: message`` (``validate`` lists a document's errors so: one line
        each, the code being the same for all)."""
        message = visible(self.message)  # a path or name quoted from a file may hold an escape sequence
        if short:
            where = visible(f"{self.path}:{self.line}" if self.path and self.line else self.path)
            return f"{paint('location', where)}: {paint('message', message)}" if where else paint("message", message)
        head = f"{paint(self.severity.value, self.severity.value)}[{paint('code', self.code)}]: {paint('message', message)}"
        if self.location:
            head = f"{paint('location', visible(self.location))}: {head}"
        if located:
            return head
        lines = [head, f"  hint: {paint('hint', visible(self.full_hint))}"]
        if docs_url:
            lines.append(f"  see: {paint('url', self.url(docs_url))}")
        return "\n".join(lines)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.code)


_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with every control character but tab and newline written as an escape (``\\x1b``): a
    quoted return line, a path or a name read from a file cannot move the cursor, recolour or retitle the
    terminal it is printed on, nor reorder it (bidi)."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


class ContractcError(Exception):
    """Raised to stop a stage that cannot go on; carries every diagnostic found so far."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


def json_path(path: Iterable[object]) -> str:
    """A key path as jsonschema's ``error.json_path`` writes it: ``$.owners[0].name``."""
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)


def exit_code_for(diagnostics: list[Diagnostic]) -> ExitCode:
    """The exit code a list of diagnostics implies: the worst one wins."""
    return max((d.exit_code for d in diagnostics), default=ExitCode.CLEAN)


def yaml_json_message(error: Any) -> str:
    """jsonschema's message with its Python spellings in JSON (``null`` not ``None``, ``true`` not ``True``)."""
    import json

    message = error.message
    for value in (error.instance, error.validator_value):
        try:
            python, spelled = repr(value), json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            continue
        if python != spelled:
            message = message.replace(python, spelled)
    return message
