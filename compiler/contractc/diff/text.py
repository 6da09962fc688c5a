"""Text shapes compared: the template, the producer and consumers, and the receiver checks.

Checks are paired by meaning, not by number (:func:`contractc.diff.checks.pair_checks`),
so a check inserted in the middle is one ``check-added`` (and the checks after it
``check-renumbered``), not a rewording of every later check.  A pair whose words
differ goes to :func:`contractc.diff.checks.classify_reworded`.
"""

from __future__ import annotations

from contractc.diff.checks import (
    Classified,
    classify_reworded,
    classify_rules,
    fully_mechanised,
    pair_checks,
    unread,
    words,
)
from contractc.diff.records import ChangeRecord, Location, verdicts
from contractc.model.records import Check, Contract, TextShape


def compare_text_shape(
    old_contract: Contract, old: TextShape, new_contract: Contract, new: TextShape
) -> list[ChangeRecord]:
    records: list[ChangeRecord] = []

    def record(kind, detail, message, found, old_span, new_span, agents=(), anchors=()) -> None:
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
                anchors,
            )
        )

    name = new.name
    if template_bytes(old_contract, old) != template_bytes(new_contract, new):
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
    for kind, detail, message, found, before, after, anchors in compare_checks(old.checks, new.checks):
        record(
            kind,
            detail,
            f"{name}: {message}",
            found,
            before.span if before else None,
            after.span if after else None,
            (new.producer,),
            anchors,
        )
    return records


def compare_checks(old: tuple[Check, ...], new: tuple[Check, ...]):
    """(kind, detail, message, verdicts, old check, new check, anchors) for every check that changed.

    Checks are paired by :func:`contractc.diff.checks.pair_checks`.  A pair whose number changed is one
    ``check-renumbered`` record naming both anchors (its rewording, when it compiles to the same rules,
    is said in that record); a pair whose words changed is classified by its rules; a check left alone
    is removed or added.
    """
    numbers = {c.number for c in new}
    for before, after, _ in pair_checks(old, new):
        if after is None:
            yield (
                "check-removed",
                f"check-{before.number}",
                f"receiver check {before.number} was removed: a receiver may now get returns it used to refuse",
                verdicts("receivers"),
                before,
                None,
                (before.anchor,),
            )
            continue
        if before is None:
            yield (
                "check-added",
                f"check-{after.number}",
                f"receiver check {after.number} is new: a return that passed before may now be refused",
                verdicts("producers"),
                None,
                after,
                (after.anchor,),
            )
            continue
        detail = f"check-{before.number}"
        reworded = words(before.text) != words(after.text)
        changed = classify_reworded(before, after) if reworded else _rules_changed(before, after)
        if before.number != after.number:
            lands = "now lands on another check" if before.number in numbers else "no longer resolves"
            said = "; reworded, it compiles to the same rules" if changed == _SAME else ""
            message = f"check {before.number} is now check {after.number}, #{after.anchor}{said}: "
            yield (
                "check-renumbered",
                detail,
                message + f"a link to #{before.anchor} {lands}",
                verdicts("links"),
                before,
                after,
                (before.anchor, after.anchor),
            )
            if changed == _SAME:
                continue
        if changed is not None:
            kind, message, found = changed
            yield (
                kind,
                detail,
                f"check {before.number}{_renumbered(before, after)}: {message}",
                found,
                before,
                after,
                (after.anchor,),
            )


_SAME = ("check-reworded", "reworded; it compiles to the same rules", ())
"""What :func:`classify_reworded` says of a rewording to the very same rules."""


def _rules_changed(before: Check, after: Check) -> Classified | None:
    """The same words, other rules: a form the check names was redefined, or a status it names is gone."""
    if before.rules == after.rules and fully_mechanised(before) == fully_mechanised(after):
        return None
    if fully_mechanised(before) and fully_mechanised(after):
        return classify_rules(before.rules, after.rules, "same words, but what it requires")  # type: ignore[arg-type]
    if not fully_mechanised(after):
        if not fully_mechanised(before):
            return "check-reworded", f"same words, other rules; {unread(before, after)}", verdicts("unclassified")
        message = "same words, but it is no longer mechanised: `contractc validate` stops enforcing it"
        return "check-unmechanised", message, verdicts("receivers")
    message = "same words, but it is mechanised now: `contractc validate` enforces it"
    return "check-mechanised", message, verdicts("producers")


def _renumbered(before: Check, after: Check) -> str:
    return f" (now check {after.number})" if before.number != after.number else ""


def template_bytes(contract: Contract, shape: TextShape) -> bytes:
    return contract.slice(shape.template).replace(b"\r\n", b"\n") if shape.template else b""
