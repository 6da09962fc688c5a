"""A change record: one typed difference between two revisions of the contracts, and whom it breaks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from contractc.model.records import Span

Verdict = Literal["producers", "receivers", "links", "unclassified"]
"""Who a change breaks: a producing agent (must now emit something new or stricter), a receiving
skill (may now see something it rejects), a published link (an anchor is gone), or nobody can
tell (a reworded rule): ``unclassified`` is never compatible."""

VERDICT_ORDER: tuple[Verdict, ...] = ("producers", "receivers", "links", "unclassified")
PRODUCERS: tuple[Verdict, ...] = ("producers",)
RECEIVERS: tuple[Verdict, ...] = ("receivers",)
BOTH: tuple[Verdict, ...] = ("producers", "receivers")
"""The verdicts most changes carry, in :data:`VERDICT_ORDER`."""


@dataclass(frozen=True, slots=True)
class Location:
    """Where one side of a change is: a contract (or contractc.yaml) and a line on that side."""

    path: str
    line: int
    col: int = 1

    @classmethod
    def of(cls, span: Span | None) -> Location | None:
        return None if span is None else cls(span.path, span.line, span.col)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    """One classified change."""

    kind: str
    """What changed, e.g. ``field-removed``, ``check-added``, ``section-anchor-renamed``."""
    subject: str
    """The shape id, section anchor or published anchor the change is about."""
    detail: str
    """Where inside the subject: a field path (``$.owners[*].name``), ``check-4``; empty for the whole subject."""
    contract: str
    """The contract the change is in (the newer side's path, or the older side's when it is gone)."""
    message: str
    """One sentence a person reads."""
    verdicts: tuple[Verdict, ...]
    """Whom it breaks, in :data:`VERDICT_ORDER`; empty means compatible."""
    old: Location | None = None
    """Where it was in the older revision; None when it is new."""
    new: Location | None = None
    """Where it is now; None when it is gone."""
    agents: tuple[str, ...] = ()
    """The agents whose dispatch snippets carry the change (a shared section reaches all of them)."""
    anchors: tuple[str, ...] = ()
    """The published anchors the change is about: a check's (``check-renumbered``: the old one, then the new
    one); ``shape-removed`` and ``shape-renamed``: those of the shape, its fields and its checks that it took with it."""
    stood: Location | None = None
    """A change that is gone (``new`` None): the line of today's file where the removed text stood (the line
    that now follows it), when the file is still there."""

    @property
    def id(self) -> str:
        """The stable name an acceptance uses: ``kind:subject[:detail]``, no line numbers."""
        return ":".join(part for part in (self.kind, self.subject, self.detail) if part)

    @property
    def direction(self) -> str:
        """Which way a receiver check moved, for a record comparing two versions of one: ``stricter``,
        ``looser``, ``both``, ``same`` (other words, the same rules) or ``unclassified`` (either version
        is not fully mechanised: read it); empty for any other record."""
        if self.kind == "check-reworded":
            return "unclassified" if "unclassified" in self.verdicts else "same"
        return _DIRECTIONS.get(self.kind, "")

    @property
    def breaking(self) -> bool:
        return bool(self.verdicts)

    @property
    def verdict_text(self) -> str:
        """``compatible``, ``breaking for producers and receivers``, ``changed, unclassified`` ..."""
        if not self.verdicts:
            return "compatible"
        parts = [v for v in self.verdicts if v != "unclassified"]
        text = "breaking for " + " and ".join(parts) if parts else ""
        if "unclassified" in self.verdicts:
            text = f"{text}; changed, unclassified" if text else "changed, unclassified"
        return text


_DIRECTIONS = {
    "check-stricter": "stricter",
    "check-looser": "looser",
    "check-changed": "both",
    "check-mechanised": "stricter",  # same words: validate now enforces it
    "check-unmechanised": "looser",  # same words: validate no longer enforces it
}


def verdicts(*found: Verdict) -> tuple[Verdict, ...]:
    """``found`` without repeats, in the one order every report uses."""
    return tuple(v for v in VERDICT_ORDER if v in found)
