"""Pins: a contract entry's ``sha256:`` says which bytes of the contract were approved.

When the bytes move on, ``check`` fails and names the sections that changed
since.  The old sections are known from ``prompts/manifest.json``: while a
contract matches its pin, build records there the SHA-256 of each section's own
bytes (heading to first subsection), and carries that record forward unchanged
after the contract moves on, until the pin is updated.
"""

from __future__ import annotations

from contractc.report.diagnostics import Diagnostic
from contractc.model.records import Project


def find_broken_pins(project: Project) -> list[Diagnostic]:
    found = []
    for i, entry in enumerate(project.config.contracts):
        contract = project.contract(entry.path)
        if entry.sha256 is None or contract.sha256 == entry.sha256:
            continue
        record = project.pins.get(entry.path)
        if record is not None and record.sha256 == entry.sha256:
            summary = _changes(record.sections, contract.section_hashes())
        else:
            summary = "which sections changed is unknown: prompts/manifest.json holds no record of the pinned bytes"
        where = project.config.where(f"$.contracts[{i}].sha256")
        found.append(
            Diagnostic.at(
                where,
                "drift-pin",
                f"{entry.path} no longer matches its pin sha256 {entry.sha256[:12]}: {summary}",
                f"review the change, then pin the new bytes: sha256: {contract.sha256}",
            )
        )
    return found


def _changes(old: dict[str, str], new: dict[str, str]) -> str:
    parts = []
    changed = [a for a in new if a in old and old[a] != new[a]]
    added = [a for a in new if a not in old]
    removed = [a for a in old if a not in new]
    for label, anchors in (("sections changed since", changed), ("added", added), ("removed", removed)):
        if anchors:
            parts.append(f"{label}: {', '.join(anchors)}")
    return "; ".join(parts) or "no section changed (only bytes before the first heading)"
