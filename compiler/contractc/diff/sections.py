"""Sections compared: added, removed, anchor renamed, shared or not, and prose that changed.

A section's prose matters to whoever is dispatched with it: the shared sections
travel with every dispatch snippet of the contract, a shape's section with that
shape's.  So a change to such a section names every agent whose snippet carries
it.  The anchor itself (what links point at) is :mod:`contractc.diff.anchors`'
business; a rename here is about content only.
"""

from __future__ import annotations

import difflib
import re

from contractc.diff.records import PRODUCERS, RECEIVERS, ChangeRecord, Location, verdicts
from contractc.model.records import Contract, Section

SIMILAR = 0.8
"""How alike two sections' prose must be (difflib ratio) to be one section whose anchor changed."""


def compare_sections(old: Contract, new: Contract) -> tuple[list[ChangeRecord], dict[str, str]]:
    """The section records, and the renamed anchors (old -> new) so shapes can be paired across a rename."""
    records: list[ChangeRecord] = []
    before = {s.anchor: s for s in old.sections}
    after = {s.anchor: s for s in new.sections}
    renamed = _renames(
        old,
        new,
        [s for s in old.sections if s.anchor not in after],
        [s for s in new.sections if s.anchor not in before],
    )

    def record(kind, subject: Section, message, found, old_section, new_section, agents=()) -> None:
        records.append(
            ChangeRecord(
                kind,
                subject.anchor,
                "",
                new.path if new_section else old.path,
                message,
                found,
                Location.of(old_section.heading) if old_section else None,
                Location.of(new_section.heading) if new_section else None,
                agents,
            )
        )

    def gone_or_new(kind: str, section: Section, contract: Contract, gone: bool) -> None:
        """A section removed (``gone``) or added; a shared one reaches every dispatch."""
        sides = (section, None) if gone else (None, section)
        if section.anchor not in contract.shared:
            record(kind, section, f"section {_title(section)} {'was removed' if gone else 'is new'}", (), *sides)
            return
        agents = carriers(contract, section)
        said = (
            f"was removed from every dispatch ({_names(agents)}): a receiver may now get returns its rules no longer"
            " shape"
            if gone
            else f"is new in every dispatch ({_names(agents)}): its rules are new to those agents"
        )
        found = RECEIVERS if gone else PRODUCERS
        record(f"shared-{kind}", section, f"shared section {_title(section)} {said}", found, *sides, agents)

    for section in old.sections:
        target = after.get(renamed.get(section.anchor, section.anchor))
        if target is None:
            gone_or_new("section-removed", section, old, gone=True)
            continue
        pair = (section, target)
        if target.anchor != section.anchor:
            said = f"section {_title(section)} is now #{target.anchor} ({_title(target)})"
            record("section-anchor-renamed", section, said, (), *pair)
        elif target.title != section.title:  # an explicit {#id} kept the anchor
            said = f"section #{section.anchor} is now titled {_title(target)} (was {_title(section)}); its anchor stays"
            record("section-retitled", section, said, (), *pair)
        if renamed.get(section.parent or "", section.parent) != target.parent:
            said = f"section {_title(target)} moved from {_under(section.parent)} to {_under(target.parent)}"
            record("section-moved", target, said, (), *pair)
        was_shared, is_shared = section.anchor in old.shared, target.anchor in new.shared
        if is_shared and not was_shared:
            agents = carriers(new, target)
            said = f"now travels with every dispatch ({_names(agents)}): its rules are new to those agents"
            record("section-now-shared", target, f"section {_title(target)} {said}", PRODUCERS, *pair, agents)
        elif was_shared and not is_shared:
            agents = carriers(old, section)
            said = f"section {_title(section)} no longer travels with every dispatch ({_names(agents)})"
            record("section-no-longer-shared", section, said, RECEIVERS, *pair, agents)
        if _prose(old, section) != _prose(new, target):
            agents = carriers(new, target)
            if agents:
                said = f"the prose of {_title(target)} changed in the dispatch snippets of {_names(agents)}"
                kind = "shared-section-changed" if is_shared else "section-changed"
                record(kind, target, said, verdicts("unclassified"), *pair, agents)
            else:
                said = f"the prose of {_title(target)} changed; no dispatch carries it"
                record("section-changed", target, said, (), *pair)
    for section in new.sections:
        if section.anchor not in before and section.anchor not in renamed.values():
            gone_or_new("section-added", section, new, gone=False)
    return records, renamed


def carriers(contract: Contract, section: Section) -> tuple[str, ...]:
    """The producing agents whose dispatch snippets carry ``section`` (a shared one reaches all), sorted."""
    found = set()
    for shape in contract.text_shapes:
        bundle = [s.span for s in contract.sections if s.anchor in {*contract.shared, shape.section}]
        if any(span.start <= section.span.start and section.span.end <= span.end for span in bundle):
            found.add(shape.producer)
    return tuple(sorted(found))


def _renames(old: Contract, new: Contract, gone: list[Section], came: list[Section]) -> dict[str, str]:
    """Sections that lost their anchor and gained another: the same prose (or nearly) at the same level."""
    renamed: dict[str, str] = {}
    for section in gone:

        def likeness(other: Section, section: Section = section) -> float:
            prose, theirs = _prose(old, section), _prose(new, other)
            # a heading with no prose of its own (only subsections) is judged by its title
            return _similarity(section.title, other.title) if not (prose or theirs) else _similarity(prose, theirs)

        candidates = [s for s in came if s.level == section.level and s.anchor not in renamed.values()]
        best = max(candidates, key=likeness, default=None)
        if best is not None and likeness(best) >= SIMILAR:
            renamed[section.anchor] = best.anchor
    return renamed


def _prose(contract: Contract, section: Section) -> str:
    """The section's own text (heading excluded, up to its first subsection), shape blocks and checks cut out,
    line wrapping undone: those parts are compared by the shape comparisons."""
    children = [s.span.start for s in contract.sections if s.parent == section.anchor]
    start, end = section.heading.end, min(children, default=section.span.end)
    cuts = []
    for shape in contract.shapes:
        if shape.section != section.anchor:
            continue
        if shape.kind == "text":
            cuts.extend(c.span for c in shape.checks)
            if shape.template:
                cuts.append(shape.template)
        else:
            cuts.append(shape.block)
    data = bytearray(contract.data[start:end])
    for span in sorted(cuts, key=lambda s: s.start, reverse=True):
        if start <= span.start and span.end <= end:
            del data[span.start - start : span.end - start]
    return re.sub(r"\s+", " ", data.decode("utf-8", "replace")).strip()


def _under(parent: str | None) -> str:
    return f"under #{parent}" if parent else "the top of the contract"


def _similarity(a: str, b: str) -> float:
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(a=a, b=b, autojunk=False).ratio()


def _title(section: Section) -> str:
    return f'"{section.title}"'


def _names(agents: tuple[str, ...]) -> str:
    return ", ".join(agents) if agents else "no agent yet"
