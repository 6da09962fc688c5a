"""Judge a text return against a shape's compiled receiver checks: pure, no I/O.

:func:`judge` runs every rule of every mechanised check (:mod:`contractc.model.checks.rules`)
over the return and gives a :class:`Verdict`: the failed checks with their number,
anchor, what is wrong and the offending lines, quoted with their line numbers.  A
conditional rule (``If `consulted`, ...``) runs only when line 1 carries one of its
statuses.  Lines are split at ``\\n``; a ``\\r`` before it is not part of the line, so
a CRLF return is judged like its LF twin.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from contractc.model.checks.forms import form_pattern
from contractc.model.checks import rules
from contractc.model.checks.rules import Form, Rule
from contractc.model.records import Check, TextShape
from contractc.report.diagnostics import ContractcError, Diagnostic

_NUMBERED = re.compile(r"(\d{1,9})[.)] ")
_TOKEN_SPLIT = re.compile(r"[\s`'\"()\[\]<>{},;*|]+")
_FILE_NAME = re.compile(r"(?:[\w.@~+-]+/)*[\w@~+-][\w.@~+-]*\.[A-Za-z][A-Za-z0-9]{0,7}")
_LINE_SUFFIX = re.compile(r"(?::\d+(?:[-:]\d+)*)+$")
QUOTE_LIMIT = 10
PATTERN_SECONDS = 2.0
"""How long one explicit ``regex`` rule may search one return before it is stopped (a pattern that
backtracks without end, e.g. ``(a+)+$``, would otherwise hang the receiver or CI)."""
"""At most this many lines are quoted for a check about the whole body (the rest is counted)."""


@dataclass(frozen=True, slots=True)
class Quote:
    """One line of the return, quoted."""

    line: int
    """1-based line number in the return."""
    text: str
    """The line without its line ending."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a check failed."""

    message: str
    """What is wrong, in one sentence."""
    line: int
    """1-based line to locate it at (the first quoted line, or where the missing line would go)."""
    quotes: tuple[Quote, ...] = ()


@dataclass(frozen=True, slots=True)
class Failure:
    """A receiver check the return fails."""

    number: int
    """The check's number in the contract."""
    anchor: str
    """The check's anchor: ``<shape>-check-<n>``."""
    url: str
    """The check on the contract site (empty when unknown)."""
    text: str
    """The check's own prose, as the contract writes it."""
    problems: tuple[Problem, ...]

    @property
    def line(self) -> int:
        return self.problems[0].line

    @property
    def quotes(self) -> tuple[Quote, ...]:
        """Every offending line, once, in line order."""
        seen = {q.line: q for p in self.problems for q in p.quotes}
        return tuple(seen[n] for n in sorted(seen))


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the receiver concludes about one return."""

    shape: str
    """The shape's id."""
    name: str
    """The shape's name (``AuditReturn``)."""
    status: str | None
    """The status line's value when it is one the shape allows, else None."""
    failures: tuple[Failure, ...]
    """Failed checks in check order."""
    checks: int
    """How many receiver checks the shape has."""
    unmechanised: tuple[int, ...] = ()
    """Numbers of checks that are not mechanised: the receiver still judges them by reading."""
    empty: bool = False
    """The return holds no text at all (whitespace only counts as none)."""
    lines: int = 0
    """How many lines the return has."""

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def failed(self) -> tuple[int, ...]:
        return tuple(f.number for f in self.failures)


class Return:
    """A return split into lines, bullets and numbered items (0-based line indices)."""

    __slots__ = ("text", "lines", "count", "empty", "bullets", "numbered", "status", "data")

    def __init__(self, text: str, data: DataCheck | None = None) -> None:
        self.text = text
        self.data = data
        raw = text.split("\n")
        if text.endswith("\n"):
            raw.pop()  # the newline ends the last line; it does not start another
        self.lines = [line[:-1] if line.endswith("\r") else line for line in raw] if text else []
        self.count = len(self.lines)
        self.empty = not text.strip()
        self.bullets, self.numbered = _items(self.lines)
        self.status: str | None = None

    def item_text(self, item: tuple[int, int]) -> str:
        return "\n".join(self.lines[item[0] : item[1]])

    def quote(self, index: int) -> Quote:
        return Quote(index + 1, self.lines[index] if index < self.count else "")

    def body_quotes(self) -> tuple[Quote, ...]:
        shown = [i for i in range(1, self.count) if self.lines[i].strip()][:QUOTE_LIMIT]
        return tuple(self.quote(i) for i in shown)


def _items(lines: list[str]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Bullets and numbered items, each ``(first line, end)``, continuation lines included.  Line 1 is read
    too: a status line is never a bullet, and a return that opens on a bullet has that bullet checked."""
    bullets: list[list[int]] = []
    numbered: list[list[int]] = []
    current: list[int] | None = None
    blank_before = False
    for i in range(len(lines)):
        line = lines[i]
        if not line or line.isspace():
            blank_before = True
            continue
        head = line[0]
        if head in "-*+" and line[1:2] == " ":
            current = [i, i + 1]
            bullets.append(current)
        elif head.isdigit() and _NUMBERED.match(line):
            current = [i, i + 1]
            numbered.append(current)
        elif current is not None and (head in " \t" or not blank_before):
            current[1] = i + 1
        else:
            current = None
        blank_before = False
    return [(a, b) for a, b in bullets], [(a, b) for a, b in numbered]


DataCheck = Callable[[str, object], list[str]]
"""``(data shape id, value) -> problems``: how an ``is-data`` rule checks a document against a data shape."""


def judge(shape: TextShape, text: str, base_url: str = "", data: DataCheck | None = None) -> Verdict:
    """Run every mechanised check of ``shape`` over ``text``; ``base_url`` + ``#anchor`` locates each check,
    ``data`` checks a document against a data shape (the receiver gives the project's schemas)."""
    ret = Return(text, data)
    status_rule = next((r for c in shape.checks for r in c.rules or () if isinstance(r, rules.StatusLine)), None)
    if status_rule and ret.count and ret.lines[0].startswith(status_rule.prefix):
        value = ret.lines[0][len(status_rule.prefix) :]
        ret.status = value if value in status_rule.values else None
    failures = []
    for check in shape.checks:
        try:
            problems = [
                problem
                for rule in check.rules or ()
                if not rule.when or ret.status in rule.when
                for problem in RUNNERS[type(rule)](rule, ret)
            ]
        except _Stopped:
            raise ContractcError(_stopped(shape, check)) from None
        if problems:
            url = f"{base_url}#{check.anchor}" if base_url else ""
            failures.append(Failure(check.number, check.anchor, url, check.text, tuple(problems)))
    return Verdict(
        shape.id,
        shape.name,
        ret.status,
        tuple(failures),
        len(shape.checks),
        tuple(c.number for c in shape.checks if c.rules is None),
        ret.empty,
        ret.count,
    )


_INVISIBLE = " \t\ufeff\u200b"
"""What a quoted line does not show: blanks, a byte order mark, a zero-width space."""


def _status_line(rule: rules.StatusLine, ret: Return) -> list[Problem]:
    if ret.empty:
        return [Problem("the return is empty: the dispatch returned no text", 1, (ret.quote(0),) if ret.count else ())]
    first = ret.lines[0]
    if first.startswith(rule.prefix) and first[len(rule.prefix) :] in rule.values:
        return []
    allowed = " / ".join(f"`{v}`" for v in rule.values)
    bare = first.strip(_INVISIBLE)
    if bare != first and bare.startswith(rule.prefix) and bare[len(rule.prefix) :] in rule.values:
        # the quoted line looks right to a reader: say what cannot be seen
        lead, trail = first[: first.index(bare)], first[first.index(bare) + len(bare) :]
        what = [("a byte order mark (U+FEFF)" if "\ufeff" in lead else "blanks") + " before it"] if lead else []
        if trail:
            what.append("trailing blanks")
        said = f"line 1 is `{bare}` with {' and '.join(what)}; it must be exactly `{bare}`"
        return [Problem(said, 1, (ret.quote(0),))]
    later = next((i for i in range(1, ret.count) if ret.lines[i].startswith(rule.prefix)), None)
    if later is not None:
        quotes = tuple(ret.quote(i) for i in range(0, later + 1) if ret.lines[i].strip() or i == 0)[:QUOTE_LIMIT]
        return [Problem(f"the status line is line {later + 1}; nothing may come before it", 1, quotes)]
    return [Problem(f"line 1 is not exactly `{rule.prefix}` followed by one of {allowed}", 1, (ret.quote(0),))]


def _pick(line: int, ret: Return) -> tuple[int, str] | Problem:
    """The 0-based index of ``line`` (as :attr:`rules.LineBegins.line` counts) and how to say it, or why there is none."""
    if line == 0:
        index = next((i for i in range(1, ret.count) if ret.lines[i].strip()), None)
        if index is None:
            return Problem("nothing follows the status line", 1, (ret.quote(0),) if ret.count else ())
        return index, "the first non-blank line after the status line"
    if line < 0:
        if not ret.count:
            return Problem("the return has no lines, so no last line", 1)
        return ret.count - 1, f"the last line (line {ret.count})"
    if line > ret.count:
        return Problem(f"the return has {ret.count} lines, so no line {line}", max(ret.count, 1))
    return line - 1, f"line {line}"


def _on_line(line: int, ret: Return, holds: Callable[[str], bool], fails: str) -> list[Problem]:
    """A rule about one line: none when ``holds`` of it, else ``<where> <fails>`` quoting it."""
    picked = _pick(line, ret)
    if isinstance(picked, Problem):
        return [picked]
    index, where = picked
    if holds(ret.lines[index]):
        return []
    return [Problem(f"{where} {fails}", index + 1, (ret.quote(index),))]


def _line_begins(rule: rules.LineBegins, ret: Return) -> list[Problem]:
    return _on_line(rule.line, ret, lambda text: text.startswith(rule.prefix), f"does not begin `{rule.prefix}`")


def _line_ends(rule: rules.LineEnds, ret: Return) -> list[Problem]:
    return _on_line(rule.line, ret, lambda text: text.endswith(rule.suffix), f"does not end `{rule.suffix}`")


def _line_is(rule: rules.LineIs, ret: Return) -> list[Problem]:
    allowed = " / ".join(f"`{v}`" for v in rule.values)
    one_of = "one of " if len(rule.values) > 1 else ""
    return _on_line(rule.line, ret, lambda text: text in rule.values, f"is not exactly {one_of}{allowed}")


def _heading(rule: rules.Heading, ret: Return) -> list[Problem]:
    pattern = _heading_line(rule.text)
    if any(pattern.fullmatch(line) for line in ret.lines):
        return []
    return [Problem(f"no line is the heading `{rule.text}` (`## {rule.text}` or `**{rule.text}**`)", max(ret.count, 1))]


def _heading_line(text: str) -> re.Pattern[str]:
    words = re.escape(text)
    return re.compile(rf"[ \t]*(?:#{{1,6}}[ \t]+{words}[ \t]*#*|\*\*{words}:?\*\*:?)[ \t]*")


def _contains(rule: rules.Contains, ret: Return) -> list[Problem]:
    text = "\n".join(ret.lines)
    held = [v for v in rule.values if v in text]
    missing = [v for v in rule.values if v not in text]
    listed = lambda values: ", ".join(f"`{v}`" for v in values)  # noqa: E731
    if rule.mode == "any" and not held:
        return [Problem(f"the return holds none of {listed(rule.values)}", 1, ret.body_quotes())]
    if rule.mode == "all" and missing:
        return [Problem(f"the return does not hold {listed(missing)}", 1, ret.body_quotes())]
    if rule.mode == "none" and held:
        lines = [i for i in range(ret.count) if any(v in ret.lines[i] for v in held)]
        return [Problem(f"the return holds {listed(held)}, which it must not", lines[0] + 1 if lines else 1,
                        tuple(ret.quote(i) for i in lines[:QUOTE_LIMIT]))]
    if rule.mode == "not-all" and not missing:
        return [Problem(f"the return holds every one of {listed(rule.values)}; it must not hold them all", 1, ret.body_quotes())]
    return []


class _Stopped(Exception):
    """A pattern ran past :data:`PATTERN_SECONDS`."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Stop the ``re`` search inside after ``seconds`` (``re`` checks for signals while it backtracks).  Only
    the main thread can take a signal: elsewhere (a receiver run in a worker thread) the search runs unlimited."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise _Stopped

    previous = signal.signal(signal.SIGALRM, stop)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)  # a caller's own timer (seconds left), given back after
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 1e-6))


def _stopped(shape: TextShape, check: Check) -> Diagnostic:
    path, _, line = check.explicit.rpartition(":")
    return Diagnostic(
        path or check.explicit, int(line) if line.isdigit() else 0, 0, "check-pattern-slow",
        f"{shape.id} check {check.number}: its regex was still searching the return after {PATTERN_SECONDS:g} s and was "
        "stopped, so nothing was judged",
        "rewrite the pattern so it cannot backtrack without end (no nested repeats such as `(a+)+`, no `.*` on both "
        "sides of a repeat)",
    )


def _matches(rule: rules.Matches, ret: Return) -> list[Problem]:
    with _time_limit(PATTERN_SECONDS):
        found = re.compile(rule.pattern, re.MULTILINE).search("\n".join(ret.lines))
    if rule.negate and found:
        line = "\n".join(ret.lines)[: found.start()].count("\n")
        return [Problem(f"the return matches /{rule.pattern}/, which it must not", line + 1, (ret.quote(line),))]
    if not rule.negate and not found:
        return [Problem(f"the return does not match /{rule.pattern}/", 1, ret.body_quotes())]
    return []


def _count(rule: rules.Count, ret: Return) -> list[Problem]:
    if rule.unit == "lines":
        n = ret.count
    elif rule.unit == "words":
        n = sum(len(line.split()) for line in ret.lines)
    else:
        n = len(ret.text)
    unit = rule.unit.removesuffix("s") if n == 1 else rule.unit
    unit = unit.replace("char", "character")
    if rule.most is not None and n > rule.most:
        return [Problem(f"the return is {n} {unit}; at most {rule.most} are allowed", 1)]
    if rule.least is not None and n < rule.least:
        return [Problem(f"the return is {n} {unit}; at least {rule.least} are required", 1)]
    return []


def _is_data(rule: rules.IsData, ret: Return) -> list[Problem]:
    import json

    text = "\n".join(ret.lines)
    name = rule.format.upper()
    if not text.strip():  # an empty YAML stream holds no document (it would load as null and pass)
        return [Problem(f"the return is empty: no {name} document", 1)]
    if rule.format == "json":
        try:
            value = json.loads(text, parse_constant=_not_json)
        except ValueError as exc:
            line = getattr(exc, "lineno", 1)
            return [Problem(f"the return is not a JSON document: {getattr(exc, 'msg', exc)}", line, (ret.quote(line - 1),) if ret.count else ())]
        except RecursionError:  # 100,000 brackets: not a document any receiver reads, and no crash
            return [Problem("the return is not a JSON document: nested too deep to read", 1, (ret.quote(0),) if ret.count else ())]
    else:
        from contractc.load.yaml_safe import load_yaml, plain

        try:
            value = plain(load_yaml(text, "<return>", "document-syntax", what="not a YAML document"))
        except ContractcError as exc:
            d = exc.diagnostics[0]
            line = max(d.line, 1)
            return [Problem(f"the return is {d.message}", line, (ret.quote(line - 1),) if line <= ret.count else ())]
    if not rule.shape:
        return []
    if ret.data is None:
        return [Problem(f"the {name} document cannot be checked against `{rule.shape}`: no project schemas given", 1)]
    return [Problem(f"the {name} document does not match `{rule.shape}`: {why}", 1) for why in ret.data(rule.shape, value)]


def _not_json(name: str) -> None:
    """``NaN``, ``Infinity`` and ``-Infinity``: Python's json reads them, but they are not JSON (RFC 8259)."""
    raise ValueError(f"`{name}` is not a JSON value")


def _carries(form: Form, text: str) -> bool:
    return form_pattern(form.template).search(text) is not None


def _bullets(rule: rules.Bullets, ret: Return) -> list[Problem]:
    bullets = ret.bullets
    if rule.exempt and bullets and ret.lines[bullets[0][0]].startswith(rule.exempt):
        bullets = bullets[1:]
    problems = []
    if rule.begins:
        # A numbered item where a bullet beginning `- **` is required is that bullet written wrongly, not no bullet.
        for start, _ in ret.numbered:
            problems.append(
                Problem(f"line {start + 1} is a numbered item, not a bullet beginning `{rule.begins}`", start + 1, (ret.quote(start),))
            )
    for item in bullets:
        start = item[0]
        if rule.begins and not ret.lines[start].startswith(rule.begins):
            problems.append(Problem(f"the bullet on line {start + 1} does not begin `{rule.begins}`", start + 1, (ret.quote(start),)))
        if rule.form and not _carries(rule.form, ret.item_text(item)):
            problems.append(
                Problem(f"the bullet on line {start + 1} does not carry the {rule.form.name} form", start + 1, (ret.quote(start),))
            )
    return problems


def _numbered_list(rule: rules.NumberedList, ret: Return) -> list[Problem]:
    if not ret.numbered:
        if not rule.start:
            return []
        return [Problem(f"the body holds no numbered list (items `{rule.start}. `, ...)", 1, ret.body_quotes())]
    problems = []
    first = ret.numbered[0][0]
    if rule.start and int(_NUMBERED.match(ret.lines[first])[1]) != rule.start:
        problems.append(Problem(f"the numbered list does not start at `{rule.start}.`", first + 1, (ret.quote(first),)))
    for item in ret.numbered:
        start, text = item[0], ret.item_text(item)
        if rule.form and not _carries(rule.form, text):
            problems.append(
                Problem(f"the item on line {start + 1} does not carry the {rule.form.name} form", start + 1, (ret.quote(start),))
            )
        if rule.names_file:
            bare = form_pattern(rule.form.template).sub(" ", text) if rule.form else text
            if not names_file(bare):
                problems.append(Problem(f"the item on line {start + 1} names no file", start + 1, (ret.quote(start),)))
    return problems


def _heading_bullets(rule: rules.HeadingBullets, ret: Return) -> list[Problem]:
    heads = [i for i in range(1, ret.count) if ret.lines[i].lstrip().startswith(rule.heading)]
    if not heads:
        return []
    problems = [
        Problem(f"line {i + 1} holds more than the heading `{rule.heading}`", i + 1, (ret.quote(i),))
        for i in heads
        if ret.lines[i].rstrip() != rule.heading
    ]
    stray, in_bullet, blank_before = [], False, False
    for i in range(heads[0] + 1, ret.count):
        line = ret.lines[i]
        if not line.strip():
            blank_before = True
            continue
        if line.startswith(rule.bullet):
            in_bullet = True
        elif not (in_bullet and (line[0] in " \t" or not blank_before)):
            stray.append(i)
            in_bullet = False
        blank_before = False
    if stray:
        problems.append(
            Problem(
                f"after `{rule.heading}`, {len(stray)} line(s) neither begin a bullet (`{rule.bullet}`) nor continue one",
                stray[0] + 1,
                tuple(ret.quote(i) for i in stray[:QUOTE_LIMIT]),
            )
        )
    return problems


def _required_line(rule: rules.RequiredLine, ret: Return) -> list[Problem]:
    if any(line.startswith(rule.prefix) for line in ret.lines):
        return []
    return [Problem(f"no line begins `{rule.prefix}`", max(ret.count, 1))]


_LINE_LEAD = re.compile(r"(?:[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)?[ \t>]*(?:\*\*|__|\*|_)?")
"""What may stand before a forbidden line's literal and still make it that line: an indent, a quote, a list
marker, a task box, an emphasis opener (``  - [ ] **TODO:** x`` is a `TODO:` line)."""


def _forbidden_line(rule: rules.ForbiddenLine, ret: Return) -> list[Problem]:
    # the literal behind the lead, or at the very start (a literal that itself opens with `- ` or `**`)
    found = [i for i in range(ret.count) if ret.lines[i][_LINE_LEAD.match(ret.lines[i]).end() :].startswith(rule.prefix)
             or ret.lines[i].startswith(rule.prefix)]
    if not found:
        return []
    where = "line" if len(found) == 1 else "lines"
    numbers = ", ".join(str(i + 1) for i in found[:QUOTE_LIMIT])
    return [Problem(f"{where} {numbers} begin{'s' * (len(found) == 1)} `{rule.prefix}`, which no line may", found[0] + 1,
                    tuple(ret.quote(i) for i in found[:QUOTE_LIMIT]))]


def list_items(lines: list[str]) -> list[tuple[int, int]]:
    """The outermost list items of the return, at any indent, each ``(first line, end)``: a Markdown bullet or
    numbered item, or a YAML sequence entry (``  - point: ...``), with every line that continues it (deeper
    indented lines, so its own sub-items, and lines with no blank line between them and it).  Line 1 is read
    too: a return that opens on its first item (a bare YAML list) has that item checked like the others."""
    items: list[list[int]] = []
    top: list[int] | None = None  # [start, end, indent] of the item open at the outermost level
    blank_before = False
    for i in range(len(lines)):
        line = lines[i]
        bare = line.lstrip(" \t")
        if not bare:
            blank_before = True
            continue
        indent = len(line) - len(bare)
        marker = bare[:2] in ("- ", "* ", "+ ") or bare in ("-", "*", "+") or bool(_NUMBERED.match(bare))
        if top is not None and (indent > top[2] or (not marker and indent >= top[2] and not blank_before)):
            top[1] = i + 1
        elif marker:
            top = [i, i + 1, indent]
            items.append(top)
        else:
            top = None
        blank_before = False
    return [(a, b) for a, b, _ in items]


def _item_lines(rule: rules.ItemLines, ret: Return) -> list[Problem]:
    problems = []
    noun = rule.noun or "item"
    patterns = [(key, _key_line(key)) for key in rule.keys]
    for start, end in list_items(ret.lines):
        held = "\n".join(ret.lines[start:end])
        missing = [key for key, pattern in patterns if not pattern.search(held)]
        if missing:
            names = " and ".join(f"`{key}`" for key in missing)
            problems.append(Problem(f"the {noun} on line {start + 1} has no {names} line", start + 1, (ret.quote(start),)))
    return problems


def _key_line(key: str) -> re.Pattern[str]:
    """A line beginning ``key``, indented or not, as an item of its own (``  - where:``, ``1. where:``) or not."""
    return re.compile(rf"^[ \t]*(?:[-*+] |\d{{1,9}}[.)] )?{re.escape(key)}", re.MULTILINE)


def _max_lines(rule: rules.MaxLines, ret: Return) -> list[Problem]:
    if ret.count <= rule.limit:
        return []
    return [
        Problem(f"the return is {ret.count} lines; at most {rule.limit} are allowed", rule.limit + 1, (ret.quote(rule.limit),))
    ]


def names_file(text: str) -> bool:
    """True when ``text`` names a file (see :class:`contractc.model.checks.rules.NamesFile`)."""
    for token in _TOKEN_SPLIT.split(text):
        if "://" in token:
            continue
        token = _LINE_SUFFIX.sub("", token.partition("::")[0].rstrip(".:!?").lstrip(":!?"))  # `a.py::test_x`: a.py
        name = token.rsplit("/", 1)[-1]
        if name in _PLAIN_FILES or (_DOTFILE.fullmatch(name) and not name[1:].isupper()):
            return True
        if token.startswith(".") and "/" not in token:
            continue  # `.NET`, `.5`: no name before the extension
        if _FILE_NAME.fullmatch(token) and token.lower() not in _NOT_FILES and not token.endswith(".NET"):
            stem, extension = name.rsplit(".", 1)
            if "/" in token or len(stem) >= 2 or len(extension) >= 2:  # `a.py` is a file; `e.g`, `i.e`, `a.m` are not
                return True
    return False


_PLAIN_FILES = frozenset(
    "Makefile GNUmakefile Dockerfile Containerfile Jenkinsfile Vagrantfile Gemfile Rakefile Procfile Brewfile Justfile "
    "Snakefile Pipfile Caddyfile README LICENSE LICENCE COPYING CHANGELOG CHANGES NOTICE AUTHORS CONTRIBUTING CODEOWNERS "
    "OWNERS BUILD WORKSPACE".split()
)
"""File names without an extension that name a file by themselves (``Makefile``, ``README``)."""
_DOTFILE = re.compile(r"\.[A-Za-z][\w.-]*")
"""A dotfile (``.bashrc``, ``~/.bashrc``, ``.gitignore``); one in capitals (``.NET``) names no file."""
_NOT_FILES = frozenset(
    f"{name}.js" for name in "node vue next nuxt express react d3 three chart ember backbone angular socket moment p5 alpine solid".split()
)
"""Product names written like file names: ``Node.js`` names a runtime, not a file (``ASP.NET`` too: no ``.NET`` is one)."""


def _names_file(rule: rules.NamesFile, ret: Return) -> list[Problem]:
    if names_file("\n".join(ret.lines[1:])):
        return []
    return [Problem("the body names no file", 2 if ret.count > 1 else 1, ret.body_quotes())]


def _carries_form(rule: rules.CarriesForm, ret: Return) -> list[Problem]:
    if _carries(rule.form, "\n".join(ret.lines[1:])):
        return []
    return [Problem(f"the body does not carry the {rule.form.name} form", 2 if ret.count > 1 else 1, ret.body_quotes())]


RUNNERS: dict[type, Callable[[Rule, Return], list[Problem]]] = {
    rules.StatusLine: _status_line,
    rules.LineBegins: _line_begins,
    rules.Bullets: _bullets,
    rules.NumberedList: _numbered_list,
    rules.HeadingBullets: _heading_bullets,
    rules.RequiredLine: _required_line,
    rules.ForbiddenLine: _forbidden_line,
    rules.LineIs: _line_is,
    rules.LineEnds: _line_ends,
    rules.Heading: _heading,
    rules.Contains: _contains,
    rules.Matches: _matches,
    rules.Count: _count,
    rules.IsData: _is_data,
    rules.ItemLines: _item_lines,
    rules.MaxLines: _max_lines,
    rules.NamesFile: _names_file,
    rules.CarriesForm: _carries_form,
}
"""One runner per rule kind: ``(rule, return) -> problems`` (none when the rule holds)."""
