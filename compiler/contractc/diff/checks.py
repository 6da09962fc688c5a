"""A reworded receiver check, classified: stricter (producers), looser (receivers), or unclassified.

Prose cannot be read for intent, so a rewording nothing here can classify is
``changed, unclassified`` and never compatible.
"""

from __future__ import annotations

from contractc.diff.records import Verdict, verdicts
from contractc.model import Check


def classify_reworded(old: Check, new: Check) -> tuple[str, str, tuple[Verdict, ...]]:
    """(kind, message, verdicts) for a check whose words changed."""
    return "check-reworded", "the check was reworded (changed, unclassified)", verdicts("unclassified")
