"""Text shapes compared: the template, the producer and consumers, and the receiver checks.

Checks are paired by their text, not their number, so a check inserted in the
middle is one ``check-added`` (and the checks after it ``check-renumbered``),
not a rewording of every later check.  A pair whose words differ goes to
:func:`contractc.diff.checks.classify_reworded`.
"""

from __future__ import annotations

import difflib
import re

from contractc.diff.checks import classify_reworded, classify_rules
from contractc.diff.records import ChangeRecord, Location, verdicts
from contractc.model.records import Check, Contract, TextShape

SIMILAR = 0.6
"""How alike two checks' words must be (difflib ratio) to be one check reworded rather than one removed and one added."""


def compare_text_shape(
    old_contract: Contract, old: TextShape, new_contract: Contract, new: TextShape
) -> list[ChangeRecord]:
    records: list[ChangeRecord] = []

    def record(kind, detail, message, found, old_span, new_span, agents=()) -> None:
        records.append(
            ChangeRecord(
                kind,
                new.id,
                detail,
                new_contract.path,
                message,
                found,
                Location.of(old_span),
                Location.of(new_span),
                agents,
            )
        )

    name = new.name
    if _template(old_contract, old) != _template(new_contract, new):
        record(
            "template-changed",
            "",
            f"{name}: the template changed: its producer must now emit the new form",
            verdicts("producers"),
            old.template or old.span,
            new.template or new.span,
            (new.producer,),
        )
    if old.producer != new.producer:
        record(
            "producer-changed",
            "",
            f"{name}: now produced by {new.producer} (was {old.producer})",
            verdicts("producers"),
            old.span,
            new.span,
            (new.producer,),
        )
    for consumer in sorted(set(new.consumers) - set(old.consumers)):
        record("consumer-added", consumer, f"{name}: now also consumed by {consumer}", (), old.span, new.span)
    for consumer in sorted(set(old.consumers) - set(new.consumers)):
        record("consumer-removed", consumer, f"{name}: no longer consumed by {consumer}", (), old.span, new.span)
    for kind, detail, message, found, before, after in compare_checks(old.checks, new.checks):
        record(
            kind,
            detail,
            f"{name}: {message}",
            found,
            before.span if before else None,
            after.span if after else None,
            (new.producer,),
        )
    return records


def compare_checks(old: tuple[Check, ...], new: tuple[Check, ...]):
    """(kind, detail, message, verdicts, old check, new check) for every check that changed."""
    a, b = [_words(c.text) for c in old], [_words(c.text) for c in new]
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for before, after in zip(old[i1:i2], new[j1:j2]):
                if before.number != after.number:
                    yield (
                        "check-renumbered",
                        f"check-{before.number}",
                        f"check {before.number} is now check {after.number}: a link to #{before.anchor} now lands on another check",
                        verdicts("links"),
                        before,
                        after,
                    )
                if before.rules != after.rules:
                    yield _rules_changed(before, after)
            continue
        gone, came = list(old[i1:i2]), list(new[j1:j2])
        for before in list(gone):
            best = max(came, key=lambda c: _ratio(before, c), default=None)
            if best is None or _ratio(before, best) < SIMILAR:
                continue
            gone.remove(before)
            came.remove(best)
            kind, message, found = classify_reworded(before, best)
            yield (
                kind,
                f"check-{before.number}",
                f"check {before.number}{_renumbered(before, best)}: {message}",
                found,
                before,
                best,
            )
        for before in gone:
            yield (
                "check-removed",
                f"check-{before.number}",
                f"receiver check {before.number} was removed: a receiver may now get returns it used to refuse",
                verdicts("receivers"),
                before,
                None,
            )
        for after in came:
            yield (
                "check-added",
                f"check-{after.number}",
                f"receiver check {after.number} is new: a return that passed before may now be refused",
                verdicts("producers"),
                None,
                after,
            )


def _rules_changed(before: Check, after: Check):
    """The same words, other rules: a form the check names was redefined, or a status it names is gone."""
    detail, where = f"check-{before.number}", f"check {before.number}"
    if before.rules is not None and after.rules is not None:
        kind, message, found = classify_rules(before.rules, after.rules, "same words, but what it requires")
        return kind, detail, f"{where}: {message}", found, before, after
    if after.rules is None:
        message = "same words, but it is no longer mechanised: `contractc validate` stops enforcing it"
        return "check-unmechanised", detail, f"{where}: {message}", verdicts("receivers"), before, after
    message = "same words, but it is mechanised now: `contractc validate` enforces it"
    return "check-mechanised", detail, f"{where}: {message}", verdicts("producers"), before, after


def _renumbered(before: Check, after: Check) -> str:
    return f" (now check {after.number})" if before.number != after.number else ""


def _ratio(a: Check, b: Check) -> float:
    return difflib.SequenceMatcher(a=_words(a.text), b=_words(b.text), autojunk=False).ratio()


def _words(text: str) -> str:
    """A check's text with its line wrapping undone: rewrapping a check is no change."""
    return re.sub(r"\s+", " ", text).strip()


def _template(contract: Contract, shape: TextShape) -> bytes:
    return contract.slice(shape.template).replace(b"\r\n", b"\n") if shape.template else b""
