"""Two models in, every classified change out: contracts, sections, shapes, then published anchors."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import replace

from contractc.diff.anchors import compare_anchors, published
from contractc.diff.checks import pair_checks
from contractc.diff.data import compare_data_shape
from contractc.diff.records import BOTH, ChangeRecord, Location, verdicts
from contractc.diff.sections import compare_sections
from contractc.diff.text import compare_text_shape, template_bytes
from contractc.model.records import Contract, DataShape, Project, Shape, TextShape
from contractc.model.schemas import schema_paths


def compare_projects(old: Project, new: Project, redirects: dict[str, str]) -> list[ChangeRecord]:
    """Every change from ``old`` to ``new``, in contract and line order."""
    records: list[ChangeRecord] = []
    before = {c.path: c for c in old.contracts}
    after = {c.path: c for c in new.contracts}
    sections = {p: compare_sections(before[p], after[p]) for p in before if p in after}
    twins = {p: _twins(old, new, before[p], after[p], renamed) for p, (_, renamed) in sections.items()}
    moved = _moved_shapes(twins)
    for path in [*before, *(p for p in after if p not in before)]:
        o, n = before.get(path), after.get(path)
        if o is None:
            records.append(_whole(n, "contract-added", f"contract {path} is new", (), new=True))
        elif n is None:
            said = f"contract {path} was removed with its {len(o.shapes)} shape(s)"
            records.append(_whole(o, "contract-removed", said, BOTH if o.shapes else (), new=False))
        else:
            section_records, _ = sections[path]
            renamed_text = {s for s, t in twins[path].items() if t.id != s and t.kind == "text"}
            # a renamed text shape's own section: the rename record says it
            records.extend(
                r for r in section_records if not (r.kind == "section-anchor-renamed" and r.subject in renamed_text)
            )
            records.extend(_compare_shapes(old, new, o, n, twins[path], moved))
    records = _fold_anchors(records, compare_anchors(published(old), published(new), redirects))
    records.extend(_compare_config(old, new))
    return sorted(_where_they_stood(records, before, after), key=_order)


def _where_they_stood(
    records: list[ChangeRecord], before: dict[str, Contract], after: dict[str, Contract]
) -> list[ChangeRecord]:
    """Each removal whose contract is still there, with the line of today's file where the removed text stood."""
    maps: dict[str, Callable[[int], int]] = {}
    out = []
    for record in records:
        gone = record.old if record.new is None else None
        if gone is not None and gone.path in before and gone.path in after:
            if gone.path not in maps:
                maps[gone.path] = line_map(before[gone.path].data, after[gone.path].data)
            record = replace(record, stood=Location(gone.path, maps[gone.path](gone.line)))
        out.append(record)
    return out


def line_map(old: bytes, new: bytes) -> Callable[[int], int]:
    """Old line number -> today's: a kept line where it is now, a removed or replaced one at the line that now
    follows the lines around it (the last line when nothing follows)."""
    a, b = old.splitlines(), new.splitlines()
    blocks = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()

    def where(line: int) -> int:
        index = line - 1
        for tag, i1, i2, j1, _ in blocks:
            if i1 <= index < i2:
                return j1 + (index - i1) + 1 if tag == "equal" else min(j1 + 1, max(len(b), 1))
        return max(len(b), 1)

    return where


def _fold_anchors(records: list[ChangeRecord], anchors: list[ChangeRecord]) -> list[ChangeRecord]:
    """Fold each removed or renamed shape's lost anchors (its own, its fields', its checks') into its one
    ``shape-removed`` or ``shape-renamed`` record: one record, one acceptance.  An anchor with a redirect
    stays a record of its own."""
    removed = {r.subject: r for r in records if r.kind in _FOLDING}
    folded: dict[str, list[str]] = {}
    kept = []
    for record in anchors:
        owner = _owner(record.subject, removed) if record.kind == "anchor-removed" else None
        if owner is None:
            kept.append(record)
        else:
            folded.setdefault(owner, []).append(record.subject)
    out = []
    for record in records:
        lost = folded.get(record.subject) if record.kind in _FOLDING else None
        if lost:
            listed = ", ".join(f"#{a}" for a in lost)
            said = _FOLDING[record.kind].format(listed=listed)
            record = replace(
                record,
                message=f"{record.message}{said}",
                verdicts=verdicts(*{*record.verdicts, "links"}),
                anchors=tuple(lost),
            )
        out.append(record)
    return out + kept


_FOLDING = {
    "shape-removed": ", with its published anchors {listed}: every link to them breaks",
    "shape-renamed": ": {listed} no longer resolve",
}
"""The records a shape's lost anchors fold into, and how each says them."""


def _owner(anchor: str, removed: dict[str, ChangeRecord]) -> str | None:
    """The removed shape whose page section carries ``anchor`` (the longest id it starts with), if any."""
    owners = [sid for sid in removed if anchor == sid or anchor.startswith(sid + "-")]
    return max(owners, key=len) if owners else None


def _compare_config(old: Project, new: Project) -> list[ChangeRecord]:
    """What contractc.yaml itself changes for readers: the site URL every published link starts with."""
    if not old.contracts or old.config.site_url == new.config.site_url:
        return []
    where = Location.of(new.config.where("$.site_url"))
    before = Location.of(old.config.where("$.site_url"))
    message = f"the site moved from {old.config.site_url} to {new.config.site_url}: every published link breaks"
    return [
        ChangeRecord("site-url-changed", "site_url", "", new.config.path, message, verdicts("links"), before, where)
    ]


def _compare_shapes(
    old_project: Project,
    new_project: Project,
    old: Contract,
    new: Contract,
    twins: dict[str, Shape],
    moved: dict[str, str],
) -> list[ChangeRecord]:
    records: list[ChangeRecord] = []
    old_specs, new_specs = old_project.specs, new_project.specs
    for shape in old.shapes:
        twin = twins.get(shape.id)
        if twin is None:
            records.append(_shape_record(old, shape, "shape-removed", f"shape {shape.id} was removed", BOTH, gone=True))
            continue
        if twin.id != shape.id:
            records.append(_renamed_record(old_project, new_project, new, shape, twin))
        if isinstance(shape, TextShape) and isinstance(twin, TextShape):
            records.extend(compare_text_shape(old, shape, new, twin))
        elif isinstance(shape, DataShape) and isinstance(twin, DataShape):
            records.extend(compare_data_shape(old_specs[shape.id], new_specs[twin.id], old.path, moved))
    matched = {t.id for t in twins.values()}
    for shape in new.shapes:
        if shape.id not in matched:
            records.append(_shape_record(new, shape, "shape-added", f"shape {shape.id} is new", (), gone=False))
    return records


def _twins(
    old_project: Project, new_project: Project, old: Contract, new: Contract, renamed: dict[str, str]
) -> dict[str, Shape]:
    """Old shape id -> the same shape in the newer contract.

    First by place: the same kind in the same (possibly renamed) section, a data shape with the same key.
    Then, for a shape whose id is gone, by content among the newer shapes whose id is new: a text shape
    with the same template, or with at least half its checks paired by an equal rule or equal words; a data
    shape whose schema compares equal.  That pairing is a rename, not one shape removed and another added.
    """
    twins: dict[str, Shape] = {}
    for shape in old.shapes:
        twin = _placed_twin(shape, new, renamed)
        if twin is not None and twin.id not in {t.id for t in twins.values()}:
            twins[shape.id] = twin
    old_ids = {s.id for s in old.shapes}
    new_ids = {s.id for s in new.shapes}
    for shape in old.shapes:
        if shape.id in twins or shape.id in new_ids:
            continue
        taken = {t.id for t in twins.values()}
        for other in new.shapes:
            if other.id in old_ids or other.id in taken or other.kind != shape.kind:
                continue
            if _same_content(old_project, new_project, old, shape, new, other):
                twins[shape.id] = other
                break
    return twins


def _placed_twin(shape: Shape, new: Contract, renamed: dict[str, str]) -> Shape | None:
    """The same shape in the newer contract by place: the same kind in the same (possibly renamed) section."""
    section = renamed.get(shape.section, shape.section)
    for other in new.shapes:
        if other.kind != shape.kind or other.section != section:
            continue
        if isinstance(shape, TextShape) or (
            isinstance(other, DataShape) and isinstance(shape, DataShape) and other.key == shape.key
        ):
            return other
    return None


def _same_content(
    old_project: Project, new_project: Project, old: Contract, shape: Shape, new: Contract, other: Shape
) -> bool:
    if isinstance(shape, TextShape) and isinstance(other, TextShape):
        if shape.template and other.template and template_bytes(old, shape) == template_bytes(new, other):
            return True
        exact = [p for p in pair_checks(shape.checks, other.checks) if p.by in ("rule", "words")]
        return bool(shape.checks) and 2 * len(exact) >= len(shape.checks)
    return not compare_data_shape(old_project.specs[shape.id], new_project.specs[other.id], old.path)


def _moved_shapes(twins: dict[str, dict[str, Shape]]) -> dict[str, str]:
    """Old shape id -> new id, for every shape whose id changed while it stayed the same shape
    (``task_brief`` became ``planning-stage.task_brief`` when a second stage defined the same key)."""
    return {old: twin.id for found in twins.values() for old, twin in found.items() if twin.id != old}


def _renamed_record(
    old_project: Project, new_project: Project, new: Contract, shape: Shape, twin: Shape
) -> ChangeRecord:
    """The same shape under a new id: every name made from the id changes with it.

    ``contractc validate OLD-ID`` now exits 2 (no such shape), the dispatch snippet or the schema file is
    written under the new name, and the shape's page and anchors move: whoever validates the shape or
    reads its snippet or schema by name breaks (receivers), and so does every published link (links).
    """
    if isinstance(shape, TextShape) and isinstance(twin, TextShape):
        before, after = old_project.snippet_path(shape), new_project.snippet_path(twin)
        what = "dispatch snippet"
        readers = [f"the skills that dispatch {twin.producer} with it ({', '.join(twin.consumers) or 'none named'})"]
        agents: tuple[str, ...] = (twin.producer,)
    else:
        before = schema_paths(old_project.config.out.schemas, old_project.specs[shape.id])[0]
        after = schema_paths(new_project.config.out.schemas, new_project.specs[twin.id])[0]
        what, readers, agents = "schema (and its `$id`)", ["whoever validates its documents"], ()
    moves = f"its {what} {before} is now {after}" if before != after else f"its {what} stays {after}"
    message = (
        f"shape {shape.id} is now {twin.id}: `contractc validate {shape.id}` now exits 2 "
        f"(`contractc validate {twin.id}` is the command now); {moves}; its page and published anchors move. "
        f"Breaks {' and '.join(readers)}, and every link to it"
    )
    return ChangeRecord(
        "shape-renamed",
        shape.id,
        "",
        new.path,
        message,
        verdicts("receivers", "links"),
        _line_of(shape),
        _line_of(twin),
        agents,
    )


def _line_of(shape: Shape) -> Location:
    span = shape.span if isinstance(shape, TextShape) else shape.block
    return Location(span.path, span.line)


def _shape_record(contract: Contract, shape: Shape, kind: str, message: str, found, gone: bool) -> ChangeRecord:
    where = _line_of(shape)
    agents = (shape.producer,) if isinstance(shape, TextShape) else ()
    return ChangeRecord(
        kind, shape.id, "", contract.path, message, found, where if gone else None, None if gone else where, agents
    )


def _whole(contract: Contract, kind: str, message: str, found, new: bool) -> ChangeRecord:
    where = Location(contract.path, 1)
    return ChangeRecord(
        kind, contract.path, "", contract.path, message, found, None if new else where, where if new else None
    )


def _order(record: ChangeRecord) -> tuple:
    where = record.new or record.old
    return (record.contract, where.line if where else 0, record.kind, record.id)
