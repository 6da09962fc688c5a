"""Text shapes compared: the template, the producer and consumers, and the receiver checks.

Checks are paired by meaning, not by number (:func:`contractc.diff.checks.pair_checks`),
so a check inserted in the middle is one ``check-added`` (and the checks after it
``check-renumbered``), not a rewording of every later check.  A pair whose words
differ goes to :func:`contractc.diff.checks.classify_reworded`.
"""

from __future__ import annotations

from contractc.diff.checks import Classified, classify_reworded, classify_rules, pair_checks, unread, words
from contractc.diff.records import PRODUCERS, RECEIVERS, ChangeRecord, Location, verdicts
from contractc.model.records import Check, Contract, TextShape


def compare_text_shape(
    old_contract: Contract, old: TextShape, new_contract: Contract, new: TextShape
) -> list[ChangeRecord]:
    records: list[ChangeRecord] = []

    def record(kind, detail, message, found, old_span, new_span, agents=(), anchors=()) -> None:
        where = Location.of(old_span), Location.of(new_span)
        records.append(ChangeRecord(kind, new.id, detail, new_contract.path, message, found, *where, agents, anchors))

    name, producer = new.name, (new.producer,)
    if template_bytes(old_contract, old) != template_bytes(new_contract, new):
        said = f"{name}: the template changed: its producer must now emit the new form"
        record("template-changed", "", said, PRODUCERS, old.template or old.span, new.template or new.span, producer)
    if old.producer != new.producer:
        said = f"{name}: now produced by {new.producer} (was {old.producer})"
        record("producer-changed", "", said, PRODUCERS, old.span, new.span, producer)
    for consumer in sorted(set(new.consumers) - set(old.consumers)):
        record("consumer-added", consumer, f"{name}: now also consumed by {consumer}", (), old.span, new.span)
    for consumer in sorted(set(old.consumers) - set(new.consumers)):
        record("consumer-removed", consumer, f"{name}: no longer consumed by {consumer}", (), old.span, new.span)

    # Checks are paired by pair_checks.  A pair whose number changed is one ``check-renumbered`` record
    # naming both anchors (its rewording, when it compiles to the same rules, is said in that record); a
    # pair whose words changed is classified by its rules; a check left alone is removed or added.
    numbers = {c.number for c in new.checks}
    for before, after, _ in pair_checks(old.checks, new.checks):
        if after is None:
            said = f"{name}: receiver check {before.number} was removed: a receiver may now get returns it used to refuse"
            anchors = (before.anchor,)
            record("check-removed", f"check-{before.number}", said, RECEIVERS, before.span, None, producer, anchors)
            continue
        if before is None:
            said = f"{name}: receiver check {after.number} is new: a return that passed before may now be refused"
            anchors = (after.anchor,)
            record("check-added", f"check-{after.number}", said, PRODUCERS, None, after.span, producer, anchors)
            continue
        detail, spans = f"check-{before.number}", (before.span, after.span)
        reworded = words(before.text) != words(after.text)
        changed = classify_reworded(before, after) if reworded else _rules_changed(before, after)
        renumbered = ""
        if before.number != after.number:
            lands = "now lands on another check" if before.number in numbers else "no longer resolves"
            same = "; reworded, it compiles to the same rules" if changed == _SAME else ""
            said = f"{name}: check {before.number} is now check {after.number}, #{after.anchor}{same}: "
            said += f"a link to #{before.anchor} {lands}"
            record("check-renumbered", detail, said, verdicts("links"), *spans, producer, (before.anchor, after.anchor))
            if changed == _SAME:
                continue
            renumbered = f" (now check {after.number})"
        if changed is not None:
            kind, message, found = changed
            said = f"{name}: check {before.number}{renumbered}: {message}"
            record(kind, detail, said, found, *spans, producer, (after.anchor,))
    return records


_SAME = ("check-reworded", "reworded; it compiles to the same rules", ())
"""What :func:`classify_reworded` says of a rewording to the very same rules."""


def _rules_changed(before: Check, after: Check) -> Classified | None:
    """The same words, other rules: a form the check names was redefined, or a status it names is gone."""
    if before.rules == after.rules and before.mechanised == after.mechanised:
        return None
    if before.mechanised and after.mechanised:
        return classify_rules(before.rules, after.rules, "same words, but what it requires")  # type: ignore[arg-type]
    if not after.mechanised:
        if not before.mechanised:
            return "check-reworded", f"same words, other rules; {unread(before, after)}", verdicts("unclassified")
        message = "same words, but it is no longer mechanised: `contractc validate` stops enforcing it"
        return "check-unmechanised", message, RECEIVERS
    message = "same words, but it is mechanised now: `contractc validate` enforces it"
    return "check-mechanised", message, PRODUCERS


def template_bytes(contract: Contract, shape: TextShape) -> bytes:
    return contract.slice(shape.template).replace(b"\r\n", b"\n") if shape.template else b""
