"""Stage 2 for receiver checks: each check's prose -> rules (:mod:`contractc.model.checks.rules`).

A check is split into clauses at each ``If `value`, ...`` (its condition: the
rule applies only under those statuses); each clause must match one pattern of
:data:`RECOGNISERS`, which reads the rule's literals (status values, prefixes,
limits, form names) off the prose itself.  A check with any clause no pattern
matches, or naming a form the contract does not define, is not mechanised:
``rules`` stays None, and ``build`` and the site say so.  The contract's bytes
are never touched.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from contractc.model.checks.forms import find_forms
from contractc.model.checks import rules
from contractc.model.checks.rules import Form, Rule, When
from contractc.report.diagnostics import Diagnostic, Severity
from contractc.model.records import Check, Contract, TextShape

_CODE = re.compile(r"`([^`]+)`")
_CLAUSE = re.compile(r"\s(?=If `)")
_CONDITION = re.compile(r"^If (?P<values>`[^`]+`(?:(?:,\s*or\s+|,\s*|\s+or\s+)`[^`]+`)*),\s*")
_ALTERNATIVES = r"`[^`]+`(?:(?:\s*/\s*|,\s*or\s+|,\s*|\s+or\s+)`[^`]+`)*"
_TAIL = r"\s*(?:$|[.,;:(—–]|(?:that|which)\b)"  # compiled on first use, as the recognisers are
"""What may follow a recognised requirement: the clause's end, punctuation, or a relative clause
("names at least one file that was examined").  Anything else ("... and is short") may be a
further requirement no rule reads, so the clause is not recognised rather than half enforced."""
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


class _Unknown(Exception):
    """A clause names something the contract does not define (a form): the check is not mechanised."""


Recogniser = Callable[["re.Match[str]", When, "_Context"], Rule]


class _Context:
    """What a clause may refer to: the contract's forms, the shape's statuses, the check's earlier rules."""

    def __init__(self, forms: dict[str, Form], statuses: tuple[str, ...]) -> None:
        self.forms = forms
        self.statuses = statuses
        self.rules: list[Rule] = []

    def form(self, name: str | None) -> Form | None:
        if not name:
            return None
        try:
            return self.forms[name.lower()]
        except KeyError:
            raise _Unknown(name) from None


def _status(m, when, ctx) -> Rule:
    return rules.StatusLine(m["prefix"], tuple(_CODE.findall(m["values"])), when)


def _status_alternatives(m, when, ctx) -> Rule:
    alternatives = _CODE.findall(m["alts"])
    heads = {a.partition(": ")[0] for a in alternatives}
    if len(heads) != 1 or not all(": " in a for a in alternatives):
        raise _Unknown("status alternatives without one shared `key: ` prefix")
    prefix = f"{heads.pop()}: "
    return rules.StatusLine(prefix, tuple(a[len(prefix) :] for a in alternatives), when)


def _after_status(m, when, ctx) -> Rule:
    return rules.LineBegins(0, m["prefix"], when)


def _last_line(m, when, ctx) -> Rule:
    return rules.LineBegins(-1, m["prefix"], when)


def _nth_line(m, when, ctx) -> Rule:
    number = int(m["n"]) if m["n"] else _ORDINALS.index(m["ord"].lower()) + 1
    return rules.LineBegins(number, m["prefix"], when)


def _exempt(m, when, ctx) -> Rule:
    earlier = next((r for r in reversed(ctx.rules) if isinstance(r, rules.Bullets)), None)
    if earlier is None:
        raise _Unknown("'does' with no earlier bullet rule in the check")
    return earlier._replace(exempt=m["exempt"], when=when)


def _bullets(m, when, ctx) -> Rule:
    if not (m["begins"] or m["form"]):
        raise _Unknown("a bullet rule requiring nothing")
    return rules.Bullets(m["begins"] or "", ctx.form(m["form"]), "", when)


def _numbered(m, when, ctx) -> Rule:
    return rules.NumberedList(int(m["start"]), ctx.form(m["form"]), bool(m["file"]), when)


def _numbered_items(m, when, ctx) -> Rule:
    return rules.NumberedList(0, ctx.form(m["form"]), bool(m["file"]), when)


def _heading(m, when, ctx) -> Rule:
    return rules.HeadingBullets(m["heading"], m["bullet"], when)


def _required(m, when, ctx) -> Rule:
    return rules.RequiredLine(m["prefix"], when)


def _item_lines(m, when, ctx) -> Rule:
    noun = m["noun"].lower()
    # "Every finding has ..." speaks of the items of a `findings` return: its plural is the condition.
    if not when and f"{noun}s" in ctx.statuses:
        when = (f"{noun}s",)
    return rules.ItemLines(tuple(_CODE.findall(m["keys"])), noun, when)


def _max_lines(m, when, ctx) -> Rule:
    return rules.MaxLines(int(m["n"]), when)


def _names_file(m, when, ctx) -> Rule:
    return rules.NamesFile(when)


def _carries_form(m, when, ctx) -> Rule:
    form = ctx.form(m["form"])
    assert form is not None
    return rules.CarriesForm(form, when)


RECOGNISERS: dict[str, tuple[str, str, Recogniser]] = {
    # Tried in order on each clause (its condition removed); the first match wins.  Each pattern is tried
    # only on a clause holding its words (the first string, which every match contains) and compiled on
    # first use, through the re module's cache: a check's plain prose ("The return reads well") costs a
    # few substring tests, and a run compiles only the patterns its contracts' checks use.
    "status-line": (
        "Line 1 is exactly `",
        rf"^Line 1 is exactly `(?P<prefix>[^`]*)` followed by one of (?P<values>{_ALTERNATIVES})",
        _status,
    ),
    "status-alternatives": (
        "Line 1 is ",
        rf"^Line 1 is (?:exactly )?(?P<alts>{_ALTERNATIVES})(?=[.;,]?(?:\s|$))",
        _status_alternatives,
    ),
    "line-after-status": (
        "he first non-blank line after the status line begins `",
        r"\b[Tt]he first non-blank line after the status line begins `(?P<prefix>[^`]+)`",
        _after_status,
    ),
    "nth-line": (
        " begins ",
        rf"(?:\b[Ll]ine (?P<n>\d+)|\b[Tt]he (?P<ord>{'|'.join(_ORDINALS)}) line) begins (?:with )?`(?P<prefix>[^`]+)`",
        _nth_line,
    ),
    "last-line": ("he last line begins ", r"\b[Tt]he last line begins (?:with )?`(?P<prefix>[^`]+)`", _last_line),
    "heading-bullets": (
        "` heading is present, it is the line `",
        r"^If an? `(?P<heading>[^`]+)` heading is present, it is the line `(?P=heading)` alone, and every"
        r" non-blank line after it begins a bullet \(`(?P<bullet>[^`]+)`\) or continues the bullet above it",
        _heading,
    ),
    "bullets-exempt": (
        "every bullet after the opening `",
        r"every bullet after the opening `(?P<exempt>[^`]+)` bullet does\b",
        _exempt,
    ),
    "bullets": (
        "bullet",
        r"\b[Ee]very (?:\w+ )?bullet(?: begins `(?P<begins>[^`]+)`)?(?: and)?"
        r"(?: carries (?:the|an? [\w ]+? in the) (?P<form>[\w-]+) form)?",
        _bullets,
    ),
    "numbered-list": (
        "are a numbered list starting at `",
        r"are a numbered list starting at `(?P<start>\d+)[.)]`"
        r"(?:,? and every item carries the (?P<form>[\w-]+) form(?P<file> and names a file)?)?",
        _numbered,
    ),
    "numbered-items": (
        "very numbered ",
        r"\b[Ee]very numbered (?:item|line) carries (?:the|an? [\w ]+? in the) (?P<form>[\w-]+) form"
        r"(?P<file> and names a file)?",
        _numbered_items,
    ),
    "item-lines": (
        " has a",
        r"^Every (?P<noun>\w+) has (?P<keys>an? `[^`]+` line(?:(?:,\s*and\s+|,\s*|\s+and\s+)an? `[^`]+` line)*)",
        _item_lines,
    ),
    "required-line": (" is present", r"\b[Aa]n? `(?P<prefix>[^`]+)` (?:line|section|heading) is present", _required),
    "max-lines": (" lines", r"(?:≤\s*|\b[Aa]t most |\b[Nn]o more than )(?P<n>\d+) lines\b", _max_lines),
    "names-file": ("names at least one file", r"\bnames at least one file\b", _names_file),
    "carries-form": ("he body carries the ", r"\b[Tt]he body carries the (?P<form>[\w-]+) form\b", _carries_form),
}


def compile_check(text: str, forms: dict[str, Form], statuses: tuple[str, ...] = ()) -> tuple[Rule, ...] | None:
    """The rules a check's prose states, or None when any part of it matches no pattern."""
    ctx = _Context(forms, statuses)
    for clause in _CLAUSE.split(" ".join(text.split())):
        condition = _CONDITION.match(clause)
        when: When = tuple(_CODE.findall(condition["values"])) if condition else ()
        body = clause[condition.end() :] if condition else clause
        rule = _recognise(body, when, ctx)
        if rule is None:
            return None
        ctx.rules.append(rule)
    return tuple(ctx.rules) or None


def _recognise(body: str, when: When, ctx: _Context) -> Rule | None:
    for words, pattern, build in RECOGNISERS.values():
        m = re.search(pattern, body) if words in body else None
        if m is None or not re.compile(_TAIL).match(body, m.end()):
            continue
        try:
            return build(m, when, ctx)
        except _Unknown:
            return None
    return None


def compile_shape(shape: TextShape, forms: dict[str, Form]) -> TextShape:
    """The shape with every check's ``rules`` filled in (None for a check that is not mechanised)."""
    compiled: list[tuple[Check, tuple[Rule, ...] | None]] = []
    statuses: tuple[str, ...] = ()
    for check in shape.checks:
        found = compile_check(check.text, forms, statuses)
        statuses = statuses or next((r.values for r in found or () if isinstance(r, rules.StatusLine)), ())
        compiled.append((check, found))
    # A condition is only as good as the status it names: one that no compiled status line
    # allows could never hold, so its check would pass unenforced.  It is not mechanised.
    return shape._replace(
        checks=tuple(
            check._replace(rules=None if any(set(r.when) - set(statuses) for r in found or ()) else found)
            for check, found in compiled
        ),
    )


def compile_checks(contract: Contract, tokens) -> Contract:
    """Compile every text shape's checks; ``tokens`` is the contract's markdown-it-py parse (for its forms)."""
    if not any(shape.checks for shape in contract.text_shapes):
        return contract
    forms = find_forms(tokens)
    shapes = tuple(compile_shape(s, forms) if isinstance(s, TextShape) else s for s in contract.shapes)
    return contract._replace(shapes=shapes)


def unmechanised_notes(contracts: tuple[Contract, ...]) -> list[Diagnostic]:
    """A ``check-not-mechanised`` note for every receiver check that compiled to no rules."""
    return [
        Diagnostic(
            contract.path,
            check.span.line,
            check.span.col,
            "check-not-mechanised",
            f"{shape.name} check {check.number} is not mechanised: no check kind reads its prose, "
            "so `contractc validate` skips it and receivers judge it by reading",
            "word it as one of the check kinds reads it, or define the form it names",
            Severity.NOTE,
        )
        for contract in contracts
        for shape in contract.text_shapes
        for check in shape.checks
        if check.rules is None
    ]
