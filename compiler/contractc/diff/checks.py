"""Receiver checks across two revisions: paired by meaning (:func:`pair_checks`), then each reworded pair
classified by its compiled rules: stricter, looser, both, or unclassified.

Pairing, in this order, each step only among the checks the earlier steps left:

1. an equal compiled rule (both checks fully mechanised);
2. equal words (line wrapping undone);
3. similarity (:func:`similarity`) at or above :data:`SIMILAR`, the likeliest pairs first.

:mod:`contractc.model.checks` compiles each check's prose into typed rules
(``Check.rules``), which are what the check promises.  Two versions of a check
are compared rule by rule: a rule that asks more of a return (a status value
removed, a lower line limit, a new required line or form, a condition that now
applies always) is stricter, breaking for producers; one that asks less is
looser, breaking for receivers (a return they used to refuse may now arrive).
A check that is not fully mechanised on either side cannot be read for intent, so its
change is "unclassified: read it", never a guessed direction, and never compatible.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields
from typing import Literal, NamedTuple

from contractc.diff.records import BOTH, PRODUCERS, RECEIVERS, Verdict, verdicts
from contractc.model.checks import rules
from contractc.model.checks.rules import Form, Rule
from contractc.model.records import Check

Direction = Literal["stricter", "looser", "both"]


SIMILAR = 0.5
"""The least :func:`similarity` at which two checks left unpaired are one check reworded, not one removed and one added."""

_WEIGHTS = {"literals": 2, "rules": 2, "words": 1}
"""How much each part of :func:`similarity` counts: what a check names exactly (its literals) and what it compiles
to (its rules' kinds and subjects) weigh most; its other words least."""

_STOP = frozenset(
    "a an and are as at be by each every for if in is it its of on or that the this to with".split()  # noqa: SIM905
)


class Pair(NamedTuple):
    """One check in both revisions, or in one only (the other side None), and which pairing step matched it."""

    old: Check | None
    new: Check | None
    by: Literal["rule", "words", "similar", ""]


def pair_checks(old: tuple[Check, ...], new: tuple[Check, ...]) -> list[Pair]:
    """Every check of both revisions, paired as the module says; a check no step pairs is alone (removed or added).

    Steps 1 and 2 take, for each older check in list order, the first free newer check with the same rule (or
    words), one with equal words before any other, so equal checks keep their order.  Step 3 scores every
    pair of checks still free and takes pairs best first (ties: the nearer positions, then list order),
    skipping a check already taken.
    """
    free_old, free_new = list(range(len(old))), list(range(len(new)))
    pairs: list[Pair] = []

    def take(i: int, j: int, by) -> None:
        free_old.remove(i)
        free_new.remove(j)
        pairs.append(Pair(old[i], new[j], by))

    for by, key in (("rule", _rule_key), ("words", lambda c: words(c.text))):
        for i in list(free_old):
            wanted = key(old[i])
            same = [j for j in free_new if wanted is not None and key(new[j]) == wanted]
            if same:
                take(i, min(same, key=lambda j: (words(new[j].text) != words(old[i].text), j)), by)
    scored = sorted(
        (-score, abs(i - j), i, j)
        for i in free_old
        for j in free_new
        if (score := similarity(old[i], new[j])) >= SIMILAR
    )
    for _, _, i, j in scored:
        if i in free_old and j in free_new:
            take(i, j, "similar")
    pairs.extend(Pair(old[i], None, "") for i in free_old)
    pairs.extend(Pair(None, new[j], "") for j in free_new)
    return sorted(pairs, key=lambda p: (p.new.number if p.new else p.old.number, p.new is not None))  # type: ignore[union-attr]


def _rule_key(check: Check) -> tuple[Rule, ...] | None:
    return check.rules if check.rules else None  # a check is compiled whole or not at all


def similarity(old: Check, new: Check) -> float:
    """How alike two checks are, 0 to 1, on three parts, each the share of the smaller side found in the other
    (so a check that only grew a clause still scores high):

    - literals: its code spans (status values, prefixes, ``**Label**`` headings) and numbers (limits);
    - rules: the kind and subject of each compiled rule (``max-lines``, ``bullets``, ``status-line status: ``);
    - words: its other words, lower-cased, a plural ``s`` dropped, without a few filler words.

    A part counts only when both checks have some; the parts are averaged with :data:`_WEIGHTS`.  With no
    part on both sides the checks share nothing that can be weighed: 0.
    """
    parts = [
        ("literals", _literals(old.text), _literals(new.text)),
        ("rules", _rule_subjects(old), _rule_subjects(new)),
        ("words", _plain_words(old.text), _plain_words(new.text)),
    ]
    total = weight = 0.0
    for name, a, b in parts:
        if a and b:
            total += _WEIGHTS[name] * len(a & b) / min(len(a), len(b))
            weight += _WEIGHTS[name]
    return total / weight if weight else 0.0


def words(text: str) -> str:
    """A check's text with its line wrapping undone: rewrapping a check is no change."""
    return re.sub(r"\s+", " ", text).strip()


_CODE = re.compile(r"``(.+?)``|`([^`]+)`")
_NUMBER = re.compile(r"\d+")


def _literals(text: str) -> set[str]:
    spans = {(a or b).strip() for a, b in _CODE.findall(text)}
    return spans | set(_NUMBER.findall(_CODE.sub(" ", text)))


def _plain_words(text: str) -> set[str]:
    found = re.findall(r"[a-z][a-z-]*", _CODE.sub(" ", text).lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in found if w not in _STOP}


def _rule_subjects(check: Check) -> set[tuple]:
    return {_key(rule) for rule in check.rules or ()}


Classified = tuple[str, str, tuple[Verdict, ...]]


def classify_reworded(old: Check, new: Check) -> Classified:
    """(kind, message, verdicts) for a check whose words changed: from the two compiled rules when both
    checks are fully mechanised, else unclassified (never a guessed direction)."""
    if not (old.mechanised and new.mechanised):
        return "check-reworded", f"reworded; {unread(old, new)}", verdicts("unclassified")
    return classify_rules(old.rules, new.rules, "reworded")  # type: ignore[arg-type]


def unread(old: Check, new: Check) -> str:
    """Why a change to a check gets no direction: which revision's check is not fully mechanised."""
    sides = [side for side, c in (("older", old), ("newer", new)) if not c.mechanised]
    which = "either revision's check" if len(sides) == 2 else f"the {sides[0]} revision's check"
    return f"unclassified: read it ({which} is not fully mechanised, so no direction is guessed)"


def classify_rules(old: tuple[Rule, ...], new: tuple[Rule, ...], how: str) -> Classified:
    """Compare two compiled versions of one check: ``check-stricter``, ``check-looser``, ``check-changed``,
    or ``check-reworded`` (compatible) when they compile to the same rules."""
    found = list(_compare(old, new))
    if not found:
        return "check-reworded", f"{how}; it compiles to the same rules", ()
    directions = {d for d, _ in found}
    said = "; ".join(text for _, text in found)
    if directions == {"stricter"}:
        return "check-stricter", f"{how} stricter: {said}", PRODUCERS
    if directions == {"looser"}:
        return "check-looser", f"{how} looser: {said}", RECEIVERS
    return "check-changed", f"{how}: {said}", BOTH


_ABOUT = {
    "status-line": "prefix",
    "required-line": "prefix",
    "forbidden-line": "prefix",
    "line-begins": "line",
    "line-is": "line",
    "line-ends": "line",
    "heading-bullets": "heading",
    "heading": "text",
    "contains": "mode",
    "matches": "negate",
    "count": "unit",
}
"""The field that says what a rule of each kind is about (a kind not listed is about the whole return)."""


def _key(rule: Rule) -> tuple:
    """What makes two rules versions of one another: their kind and what they are about."""
    if isinstance(rule, rules.CarriesForm):
        return (rule.kind, rule.form.name)
    about = _ABOUT.get(rule.kind)
    return (rule.kind, getattr(rule, about)) if about else (rule.kind,)


def _compare(old: tuple[Rule, ...], new: tuple[Rule, ...]) -> Iterator[tuple[Direction, str]]:
    unmatched = list(new)
    for before in old:
        after = next((r for r in unmatched if _key(r) == _key(before)), None)
        if after is None:
            yield "looser", f"no longer requires {_describe(before)}"
            continue
        unmatched.remove(after)
        if before != after:
            yield from _rule_change(before, after)
    for after in unmatched:
        yield "stricter", f"now requires {_describe(after)}"


def _rule_change(old: Rule, new: Rule) -> Iterator[tuple[Direction, str]]:
    yield from _when(old.when, new.when)
    if isinstance(old, rules.StatusLine) and isinstance(new, rules.StatusLine):
        gone, came = "status value(s) {} no longer allowed", "status value(s) {} now allowed"
        yield from _listed(old.values, new.values, gone, came)
    elif isinstance(old, rules.MaxLines) and isinstance(new, rules.MaxLines):
        if new.limit != old.limit:
            yield ("stricter" if new.limit < old.limit else "looser"), f"line limit {old.limit} -> {new.limit}"
    elif isinstance(old, rules.ItemLines) and isinstance(new, rules.ItemLines):
        yield from _listed(new.keys, old.keys, "each item now needs {}", "items no longer need {}")
    elif isinstance(old, rules.Bullets) and isinstance(new, rules.Bullets):
        yield from _required_text("bullets begin", old.begins, new.begins)
        yield from _form(old.form, new.form)
        if old.exempt != new.exempt:
            yield _exemption(old.exempt, new.exempt)
    elif isinstance(old, rules.NumberedList) and isinstance(new, rules.NumberedList):
        if old.start != new.start:
            yield (
                ("stricter" if not old.start else "looser" if not new.start else "both"),
                f"the list starts at {new.start or 'any number'} (was {old.start or 'any number'})",
            )
        yield from _form(old.form, new.form)
        if old.names_file != new.names_file:
            yield (
                ("stricter" if new.names_file else "looser"),
                f"items {'must now' if new.names_file else 'no longer need to'} name a file",
            )
    elif isinstance(old, rules.CarriesForm) and isinstance(new, rules.CarriesForm):
        yield from _form(old.form, new.form)
    elif isinstance(old, rules.LineIs) and isinstance(new, rules.LineIs):
        line = _line(old.line)
        yield from _listed(old.values, new.values, f"{line} may no longer be {{}}", f"{line} may now be {{}}")
    elif isinstance(old, rules.Contains) and isinstance(new, rules.Contains) and old.mode in ("all", "none"):
        # every value required (all) or every value kept out (none): a value more asks more
        verb = _CONTAINS[old.mode]
        yield from _listed(new.values, old.values, f"now also {verb} {{}}", f"no longer {verb} {{}}")
    elif isinstance(old, rules.Count) and isinstance(new, rules.Count):
        yield from _bound(f"at most {{}} {old.unit}", old.most, new.most, lower_is_stricter=True)
        yield from _bound(f"at least {{}} {old.unit}", old.least, new.least, lower_is_stricter=False)
    else:  # LineBegins, HeadingBullets, RequiredLine ... keyed by what they are about: what is left is text
        for name in (f.name for f in fields(old) if f.name != "when"):
            before, after = getattr(old, name), getattr(new, name)
            if before != after:
                yield "both", f"{old.kind} {name} {_value(after)} (was {_value(before)})"


_CONTAINS = {"all": "requires", "none": "keeps out"}


def _listed(kept: tuple, other: tuple, stricter: str, looser: str) -> Iterator[tuple[Direction, str]]:
    """A rule's list of values: those of ``kept`` that ``other`` lacks ask more of a return (said first), those
    of ``other`` that ``kept`` lacks ask less; each message holds ``{}`` for the values."""
    if tighter := [v for v in kept if v not in other]:
        yield "stricter", stricter.format(_codes(tighter))
    if wider := [v for v in other if v not in kept]:
        yield "looser", looser.format(_codes(wider))


def _bound(what: str, old: int | None, new: int | None, lower_is_stricter: bool) -> Iterator[tuple[Direction, str]]:
    """A limit of a count rule: set, dropped, lowered or raised."""
    if old == new:
        return
    if old is None:
        yield "stricter", f"now {what.format(new)}"
    elif new is None:
        yield "looser", f"no longer {what.format(old)}"
    else:
        yield ("stricter" if (new < old) == lower_is_stricter else "looser"), f"{what.format(old)} -> {new}"


def _when(old: tuple[str, ...], new: tuple[str, ...]) -> Iterator[tuple[Direction, str]]:
    """A condition (``If `changes`, ...``): applying in more cases is stricter, in fewer looser."""
    if old == new:
        return
    if not new:
        yield "stricter", f"now applies always (was only {_codes(old)})"
    elif not old:
        yield "looser", f"now applies only {_codes(new)} (was always)"
    elif set(new) > set(old):
        yield "stricter", f"now also applies {_codes([v for v in new if v not in old])}"
    elif set(new) < set(old):
        yield "looser", f"no longer applies {_codes([v for v in old if v not in new])}"
    else:
        yield "both", f"now applies {_codes(new)} (was {_codes(old)})"


def _required_text(what: str, old: str, new: str) -> Iterator[tuple[Direction, str]]:
    if old == new:
        return
    if not old:
        yield "stricter", f"{what} {_codes([new])}"
    elif not new:
        yield "looser", f"{what} with anything (was {_codes([old])})"
    else:
        yield "both", f"{what} {_codes([new])} (was {_codes([old])})"


def _form(old: Form | None, new: Form | None) -> Iterator[tuple[Direction, str]]:
    if old == new:
        return
    if old is None and new is not None:
        yield "stricter", f"a new required form: the {new.name} form"
    elif new is None and old is not None:
        yield "looser", f"the {old.name} form is no longer required"
    elif old is not None and new is not None:
        yield (
            "both",
            f"the required form is now the {new.name} form {new.template} (was the {old.name} form {old.template})",
        )


def _exemption(old: str, new: str) -> tuple[Direction, str]:
    if not old:
        return "looser", f"a first bullet beginning {_codes([new])} is now excused"
    if not new:
        return "stricter", f"no bullet is excused any more (was one beginning {_codes([old])})"
    return "both", f"the excused bullet begins {_codes([new])} (was {_codes([old])})"


def _describe(rule: Rule) -> str:
    text = {
        "status-line": lambda r: f"a status line {_codes([r.prefix])} with {_codes(r.values)}",
        "line-begins": lambda r: f"a line beginning {_codes([r.prefix])}",
        "bullets": lambda r: (
            "bullets"
            + (f" beginning {_codes([r.begins])}" if r.begins else "")
            + (f" carrying the {r.form.name} form" if r.form else "")
        ),
        "numbered-list": lambda r: "a numbered list" + (f" carrying the {r.form.name} form" if r.form else ""),
        "heading-bullets": lambda r: f"bullets under {_codes([r.heading])}",
        "required-line": lambda r: f"a line {_codes([r.prefix])}",
        "item-lines": lambda r: f"item lines {_codes(r.keys)}",
        "max-lines": lambda r: f"at most {r.limit} lines",
        "names-file": lambda r: "a file named in the body",
        "carries-form": lambda r: f"the {r.form.name} form in the body",
        "forbidden-line": lambda r: f"no line {_codes([r.prefix])}",
        "line-is": lambda r: f"{_line(r.line)} exactly {_codes(r.values)}",
        "line-ends": lambda r: f"{_line(r.line)} ending {_codes([r.suffix])}",
        "heading": lambda r: f"a heading {_codes([r.text])}",
        "contains": lambda r: f"{r.mode} of {_codes(r.values)} in the return",
        "matches": lambda r: f"{'no ' if r.negate else ''}match of /{r.pattern}/",
        "count": lambda r: f"{r.unit} within {r.least or 0}..{'' if r.most is None else r.most}",
        "is-data": lambda r: f"a {r.format.upper()} document" + (f" of {_codes([r.shape])}" if r.shape else ""),
    }[rule.kind](rule)
    return text + (f" (if {_codes(rule.when)})" if rule.when else "")


def _line(number: int) -> str:
    return {-1: "the last line", 0: "the first line after the status line"}.get(number, f"line {number}")


def _value(value) -> str:
    """A rule's field as the messages write it: texts as code, anything else as it reads."""
    if isinstance(value, tuple):
        return _codes(value)
    return _codes([value]) if isinstance(value, str) else str(value)


def _codes(values) -> str:
    return " / ".join(f"`{v}`" for v in values)
