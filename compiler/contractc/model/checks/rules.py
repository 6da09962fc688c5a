"""The vocabulary of compiled receiver checks: one small immutable record (a frozen dataclass) per kind of rule.

A receiver check (:class:`contractc.model.records.Check`) compiles into one or more
rules, stored on it as ``Check.rules``; ``None`` there means its prose matched no
kind and it is *not mechanised* (``build`` says so, the site marks it).  Every
value below is read off the check's own prose (a form's template off the section
that defines it), so the rules cannot say more than the contract does.

These values are also what a check *promises*: ``contractc diff`` can compare
two versions of a rule field by field (fewer ``StatusLine.values`` is stricter,
a lower ``MaxLines.limit`` is stricter, a new ``RequiredLine`` is stricter ...).
Nothing here runs a check; :mod:`contractc.validate.text` does.

Each kind is a frozen dataclass, its ``kind`` its class name in kebab case: two rules
are equal when they are of one kind with equal fields.

Terms every rule uses, on a return split at ``\\n`` (a ``\\r`` before it is dropped):

- *status line*: line 1; the *status* is what follows the :class:`StatusLine` prefix.
- *body*: every line after line 1.
- *bullet*: a body line starting (column 1) with ``- ``, ``* `` or ``+ ``, together with
  the lines that continue it: indented lines, and unindented non-blank lines with no
  blank line between them and the bullet.  A *numbered item* is the same, starting
  with ``<digits>. `` or ``<digits>) ``.
"""

import re
from dataclasses import dataclass, field
from typing import ClassVar, Literal

RuleKind = Literal[
    "status-line",
    "line-begins",
    "bullets",
    "numbered-list",
    "heading-bullets",
    "required-line",
    "forbidden-line",
    "line-is",
    "line-ends",
    "heading",
    "contains",
    "matches",
    "count",
    "is-data",
    "item-lines",
    "max-lines",
    "names-file",
    "carries-form",
]

When = tuple[str, ...]
"""The status values under which a rule applies (``If `a` or `b`, ...``); ``()`` means always.
A conditional rule does not apply when the status line itself is malformed."""


@dataclass(frozen=True, slots=True)
class Form:
    """A form the contract defines once and checks require elsewhere (the citation form)."""

    name: str
    """The form's name as the checks say it: ``citation`` for "the citation form"."""
    template: str
    """The form as written where it is defined; each ``<placeholder>`` is a wildcard (no
    whitespace, brackets, parentheses or backticks), and a placeholder used twice must match
    the same text both times."""
    line: int = field(default=0, compare=False)
    """1-based contract line of the definition (where, not what: not compared)."""


class _Kind:
    """What every rule shares: its ``kind``, its class name in kebab case (``StatusLine`` -> ``status-line``)."""

    __slots__ = ()
    kind: ClassVar[RuleKind]

    def __init_subclass__(cls) -> None:
        cls.kind = re.sub(r"(?<=[a-z])(?=[A-Z])", "-", cls.__name__).lower()


@dataclass(frozen=True, slots=True)
class StatusLine(_Kind):
    """Line 1 is exactly ``prefix`` followed by one of ``values``."""

    prefix: str
    """``status: ``, spaces included."""
    values: tuple[str, ...]
    """The allowed values, in the check's order."""
    when: When = ()


@dataclass(frozen=True, slots=True)
class LineBegins(_Kind):
    """A given line begins with ``prefix``."""

    line: int
    """1-based line number; 0 means the first non-blank line after the status line, -1 the last line."""
    prefix: str
    when: When = ()


@dataclass(frozen=True, slots=True)
class Bullets(_Kind):
    """Every bullet begins with ``begins`` and carries ``form`` (either may be unset)."""

    begins: str = ""
    """Required start of each bullet's first line, e.g. ``- **``; empty for none."""
    form: Form | None = None
    """A form each bullet (any of its lines) must carry; None for none."""
    exempt: str = ""
    """A first bullet beginning with this is excused (``after the opening `- **No pattern bears**` bullet``)."""
    when: When = ()


@dataclass(frozen=True, slots=True)
class NumberedList(_Kind):
    """The body holds a numbered list starting at ``start``; each item carries ``form`` and, if asked, names a file."""

    start: int = 1
    """The number the list must start at; 0 when the check only speaks of each item (no list is then required)."""
    form: Form | None = None
    names_file: bool = False
    when: When = ()


@dataclass(frozen=True, slots=True)
class HeadingBullets(_Kind):
    """Where a line begins with ``heading``, it is ``heading`` alone, and every non-blank
    line after it begins ``bullet`` or continues the bullet above it."""

    heading: str
    """``**Tensions**``."""
    bullet: str = "- "
    when: When = ()


@dataclass(frozen=True, slots=True)
class RequiredLine(_Kind):
    """Some line begins with ``prefix``, line 1 included (``a `**Deliberately skipped**` section is present``)."""

    prefix: str
    when: When = ()


@dataclass(frozen=True, slots=True)
class ForbiddenLine(_Kind):
    """No line of the return begins with ``prefix`` (``Reject the return when a `TODO:` line is present``)."""

    prefix: str
    when: When = ()


@dataclass(frozen=True, slots=True)
class LineIs(_Kind):
    """A given line is exactly one of ``values`` (``The last line is exactly `PASS` or `FAIL` ``)."""

    line: int
    """As :attr:`LineBegins.line`: 1-based, 0 the first non-blank line after the status line, -1 the last line."""
    values: tuple[str, ...]
    when: When = ()


@dataclass(frozen=True, slots=True)
class LineEnds(_Kind):
    """A given line ends with ``suffix``."""

    line: int
    """As :attr:`LineBegins.line`."""
    suffix: str
    when: When = ()


@dataclass(frozen=True, slots=True)
class Heading(_Kind):
    """Some line is a heading reading ``text``: a Markdown heading (``## Risks``, any level) or a bold label
    line (``**Risks**``, ``**Risks:**``, ``**Risks**:``), with nothing else on it."""

    text: str
    when: When = ()


ContainsMode = Literal["any", "all", "none", "not-all"]


@dataclass(frozen=True, slots=True)
class Contains(_Kind):
    """The return holds ``values`` as ``mode`` says: any one of them, all of them, none of them, or not all of them."""

    values: tuple[str, ...]
    mode: ContainsMode = "any"
    when: When = ()


@dataclass(frozen=True, slots=True)
class Matches(_Kind):
    """The return matches the regular expression ``pattern`` (Python syntax, ``^``/``$`` at each line), or with
    ``negate`` does not."""

    pattern: str
    negate: bool = False
    when: When = ()


CountUnit = Literal["lines", "words", "chars"]


@dataclass(frozen=True, slots=True)
class Count(_Kind):
    """The return has at least ``least`` and at most ``most`` ``unit``s (None: no bound).  Words are runs of
    non-blank characters; characters are code points, line endings included.  (At most so many lines is
    :class:`MaxLines`.)"""

    unit: CountUnit
    least: int | None = None
    most: int | None = None
    when: When = ()


@dataclass(frozen=True, slots=True)
class IsData(_Kind):
    """The whole return is a YAML (``yaml``) or JSON (``json``) document valid against the data shape ``shape``
    (its wire schema); an empty ``shape`` asks only that it parse."""

    format: Literal["yaml", "json"]
    shape: str = ""
    when: When = ()


@dataclass(frozen=True, slots=True)
class ItemLines(_Kind):
    """Every outermost list item (a bullet, a numbered item or a YAML sequence entry, at any indent) holds a
    line beginning with each key: its first line after the marker, or a line under it (``  - where:``)."""

    keys: tuple[str, ...]
    """``("where:", "prescription:")``."""
    noun: str = ""
    """What the check calls an item (``finding``); a status named by its plural is the rule's ``when``."""
    when: When = ()


@dataclass(frozen=True, slots=True)
class MaxLines(_Kind):
    """The whole return has at most ``limit`` lines: each ``\\n`` ends one, and text after the last is one more."""

    limit: int
    when: When = ()


@dataclass(frozen=True, slots=True)
class NamesFile(_Kind):
    """The body names at least one file: a path with a ``/``, a name with an extension (``SKILL.md``,
    ``a.py``, ``agents/a.md:12``), a dotfile (``~/.bashrc``) or a file known by its bare name (``Makefile``,
    ``Dockerfile``, ``README``); a URL, a one-letter name with a one-letter extension (``e.g.``), a version
    number or a product name (``Node.js``, ``ASP.NET``) is not one."""

    when: When = ()


@dataclass(frozen=True, slots=True)
class CarriesForm(_Kind):
    """The body carries ``form`` at least once."""

    form: Form
    when: When = ()


Rule = (
    StatusLine
    | LineBegins
    | Bullets
    | NumberedList
    | HeadingBullets
    | RequiredLine
    | ForbiddenLine
    | LineIs
    | LineEnds
    | Heading
    | Contains
    | Matches
    | Count
    | IsData
    | ItemLines
    | MaxLines
    | NamesFile
    | CarriesForm
)
"""One compiled rule; ``Check.rules`` is a tuple of them (all must hold), or None."""


def status_line(alternatives: tuple[str, ...], when: When = ()) -> StatusLine:
    """Line 1 is exactly one of ``alternatives``: a shared ``key: `` prefix is the status line's prefix,
    else the whole line is the status (`PASS` or `FAIL`).  The sidecar's ``equals`` on line 1 reads the same."""
    heads = {a.partition(": ")[0] for a in alternatives}
    if len(heads) != 1 or not all(": " in a for a in alternatives):
        return StatusLine("", tuple(alternatives), when)
    prefix = f"{heads.pop()}: "
    return StatusLine(prefix, tuple(a[len(prefix) :] for a in alternatives), when)

