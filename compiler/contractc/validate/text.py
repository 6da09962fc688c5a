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
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from contractc.model.checks.forms import form_pattern
from contractc.model.checks import rules
from contractc.model.checks.rules import Form, Rule
from contractc.model.records import TextShape

_NUMBERED = re.compile(r"(\d{1,9})[.)] ")
_TOKEN_SPLIT = re.compile(r"[\s`'\"()\[\]<>{},;*|]+")
_FILE_NAME = re.compile(r"(?:[\w.@~+-]+/)*[\w@~+-][\w.@~+-]*\.[A-Za-z][A-Za-z0-9]{0,7}")
_LINE_SUFFIX = re.compile(r"(?::\d+(?:[-:]\d+)*)+$")
QUOTE_LIMIT = 10
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

    __slots__ = ("lines", "count", "empty", "bullets", "numbered", "status")

    def __init__(self, text: str) -> None:
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
    """Bullets and numbered items of the body, each ``(first line, end)``, continuation lines included."""
    bullets: list[list[int]] = []
    numbered: list[list[int]] = []
    current: list[int] | None = None
    blank_before = False
    for i in range(1, len(lines)):
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


def judge(shape: TextShape, text: str, base_url: str = "") -> Verdict:
    """Run every mechanised check of ``shape`` over ``text``; ``base_url`` + ``#anchor`` locates each check."""
    ret = Return(text)
    status_rule = next((r for c in shape.checks for r in c.rules or () if isinstance(r, rules.StatusLine)), None)
    if status_rule and ret.count and ret.lines[0].startswith(status_rule.prefix):
        value = ret.lines[0][len(status_rule.prefix) :]
        ret.status = value if value in status_rule.values else None
    failures = []
    for check in shape.checks:
        problems = [
            problem
            for rule in check.rules or ()
            if not rule.when or ret.status in rule.when
            for problem in RUNNERS[type(rule)](rule, ret)
        ]
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
        what = " and ".join(
            part
            for part in (
                ("a byte order mark (U+FEFF)" if "\ufeff" in lead else "blanks") + " before it" if lead else "",
                "trailing blanks" if trail else "",
            )
            if part
        )
        return [Problem(f"line 1 is `{bare}` with {what}; it must be exactly `{bare}`", 1, (ret.quote(0),))]
    later = next((i for i in range(1, ret.count) if ret.lines[i].startswith(rule.prefix)), None)
    if later is not None:
        quotes = tuple(ret.quote(i) for i in range(0, later + 1) if ret.lines[i].strip() or i == 0)[:QUOTE_LIMIT]
        return [Problem(f"the status line is line {later + 1}; nothing may come before it", 1, quotes)]
    return [Problem(f"line 1 is not exactly `{rule.prefix}` followed by one of {allowed}", 1, (ret.quote(0),))]


def _line_begins(rule: rules.LineBegins, ret: Return) -> list[Problem]:
    if rule.line == 0:
        index = next((i for i in range(1, ret.count) if ret.lines[i].strip()), None)
        if index is None:
            return [Problem("nothing follows the status line", 1, (ret.quote(0),))]
        where = "the first non-blank line after the status line"
    elif rule.line < 0:
        if not ret.count:
            return [Problem("the return has no lines, so no last line", 1)]
        index = ret.count - 1
        where = f"the last line (line {ret.count})"
    else:
        index = rule.line - 1
        if index >= ret.count:
            return [Problem(f"the return has {ret.count} lines, so no line {rule.line}", max(ret.count, 1))]
        where = f"line {rule.line}"
    if ret.lines[index].startswith(rule.prefix):
        return []
    return [Problem(f"{where} does not begin `{rule.prefix}`", index + 1, (ret.quote(index),))]


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
    if any(line.startswith(rule.prefix) for line in ret.lines[1:]):
        return []
    return [Problem(f"no line begins `{rule.prefix}`", max(ret.count, 1))]


def _item_lines(rule: rules.ItemLines, ret: Return) -> list[Problem]:
    problems = []
    noun = rule.noun or "bullet"
    patterns = [(key, _key_line(key)) for key in rule.keys]
    for start, end in ret.bullets:
        held = "\n".join(ret.lines[start + 1 : end])
        missing = [key for key, pattern in patterns if not pattern.search(held)]
        if missing:
            names = " and ".join(f"`{key}`" for key in missing)
            problems.append(Problem(f"the {noun} on line {start + 1} has no {names} line", start + 1, (ret.quote(start),)))
    return problems


@lru_cache(maxsize=64)
def _key_line(key: str) -> re.Pattern[str]:
    """A line beginning ``key``, indented or not, as a sub-bullet (``  - where:``) or not."""
    return re.compile(rf"^[ \t]*(?:[-*+] )?{re.escape(key)}", re.MULTILINE)


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
        token = _LINE_SUFFIX.sub("", token.strip(".:!?"))
        if _FILE_NAME.fullmatch(token):
            stem = token.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            if "/" in token or len(stem) >= 2:
                return True
    return False


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
    rules.ItemLines: _item_lines,
    rules.MaxLines: _max_lines,
    rules.NamesFile: _names_file,
    rules.CarriesForm: _carries_form,
}
"""One runner per rule kind: ``(rule, return) -> problems`` (none when the rule holds)."""
