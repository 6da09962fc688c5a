"""A reworded receiver check, classified by its compiled rules: stricter, looser, both, or unclassified.

:mod:`contractc.model.checks` compiles each check's prose into typed rules
(``Check.rules``), which are what the check promises.  Two versions of a check
are compared rule by rule: a rule that asks more of a return (a status value
removed, a lower line limit, a new required line or form, a condition that now
applies always) is stricter, breaking for producers; one that asks less is
looser, breaking for receivers (a return they used to refuse may now arrive).
A check that is not mechanised on either side cannot be read for intent, so its
change is ``changed, unclassified`` and never compatible.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from contractc.model.checks import rules
from contractc.model.checks.rules import Form, Rule
from contractc.diff.records import Verdict, verdicts
from contractc.model.records import Check

Direction = Literal["stricter", "looser", "both"]
_VERDICTS: dict[Direction, tuple[Verdict, ...]] = {
    "stricter": ("producers",),
    "looser": ("receivers",),
    "both": ("producers", "receivers"),
}


def classify_reworded(old: Check, new: Check) -> tuple[str, str, tuple[Verdict, ...]]:
    """(kind, message, verdicts) for a check whose words changed."""
    if old.rules is None or new.rules is None:
        side = "either version" if old.rules is None and new.rules is None else "one version"
        return (
            "check-reworded",
            f"reworded; {side} is not mechanised, so the change cannot be classified",
            verdicts("unclassified"),
        )
    return classify_rules(old.rules, new.rules, "reworded")


def classify_rules(old: tuple[Rule, ...], new: tuple[Rule, ...], how: str) -> tuple[str, str, tuple[Verdict, ...]]:
    """Compare two compiled versions of one check: ``check-stricter``, ``check-looser``, ``check-changed``,
    or ``check-reworded`` (compatible) when they compile to the same rules."""
    found = list(_compare(old, new))
    if not found:
        return "check-reworded", f"{how}; it compiles to the same rules", ()
    directions = {d for d, _ in found}
    said = "; ".join(text for _, text in found)
    if directions == {"stricter"}:
        return "check-stricter", f"{how} stricter: {said}", verdicts(*_VERDICTS["stricter"])
    if directions == {"looser"}:
        return "check-looser", f"{how} looser: {said}", verdicts(*_VERDICTS["looser"])
    return "check-changed", f"{how}: {said}", verdicts("producers", "receivers")


def _key(rule: Rule) -> tuple:
    """What makes two rules versions of one another: their kind and what they are about."""
    if isinstance(rule, (rules.StatusLine, rules.RequiredLine)):
        return (rule.kind, rule.prefix)
    if isinstance(rule, rules.LineBegins):
        return (rule.kind, rule.line)
    if isinstance(rule, rules.HeadingBullets):
        return (rule.kind, rule.heading)
    if isinstance(rule, rules.CarriesForm):
        return (rule.kind, rule.form.name)
    return (rule.kind,)


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
        added = [v for v in new.values if v not in old.values]
        removed = [v for v in old.values if v not in new.values]
        if removed:
            yield "stricter", f"status value(s) {_codes(removed)} no longer allowed"
        if added:
            yield "looser", f"status value(s) {_codes(added)} now allowed"
    elif isinstance(old, rules.MaxLines) and isinstance(new, rules.MaxLines):
        if new.limit != old.limit:
            yield ("stricter" if new.limit < old.limit else "looser"), f"line limit {old.limit} -> {new.limit}"
    elif isinstance(old, rules.ItemLines) and isinstance(new, rules.ItemLines):
        if added := [k for k in new.keys if k not in old.keys]:
            yield "stricter", f"each item now needs {_codes(added)}"
        if removed := [k for k in old.keys if k not in new.keys]:
            yield "looser", f"items no longer need {_codes(removed)}"
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
    else:  # LineBegins, HeadingBullets, RequiredLine keyed by what they are about: what is left is text
        for name in (n for n in old._fields if n != "when"):
            before, after = getattr(old, name), getattr(new, name)
            if before != after:
                yield "both", f"{old.kind} {name} {after!r} (was {before!r})"


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
    }[rule.kind](rule)
    return text + (f" (if {_codes(rule.when)})" if rule.when else "")


def _codes(values) -> str:
    return " / ".join(f"`{v}`" for v in values)
