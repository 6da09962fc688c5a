"""Two models in, every classified change out: contracts, sections, shapes, then published anchors."""

from __future__ import annotations

from dataclasses import replace

from contractc.diff.anchors import compare_anchors, published
from contractc.diff.data import compare_data_shape
from contractc.diff.records import ChangeRecord, Location, verdicts
from contractc.diff.sections import compare_sections
from contractc.diff.text import compare_text_shape
from contractc.model.records import Contract, DataShape, Project, Shape, TextShape
from contractc.model.notation import ShapeSpec


def compare_projects(old: Project, new: Project, redirects: dict[str, str]) -> list[ChangeRecord]:
    """Every change from ``old`` to ``new``, in contract and line order."""
    records: list[ChangeRecord] = []
    before = {c.path: c for c in old.contracts}
    after = {c.path: c for c in new.contracts}
    old_specs, new_specs = _specs(old), _specs(new)
    sections = {p: compare_sections(before[p], after[p]) for p in before if p in after}
    moved = _moved_shapes(before, after, {p: renamed for p, (_, renamed) in sections.items()})
    for path in [*before, *(p for p in after if p not in before)]:
        o, n = before.get(path), after.get(path)
        if o is None:
            records.append(_whole(n, "contract-added", f"contract {path} is new", (), new=True))
        elif n is None:
            found = verdicts("producers", "receivers") if o.shapes else ()
            records.append(
                _whole(
                    o,
                    "contract-removed",
                    f"contract {path} was removed with its {len(o.shapes)} shape(s)",
                    found,
                    new=False,
                )
            )
        else:
            section_records, renamed = sections[path]
            records.extend(section_records)
            records.extend(_compare_shapes(o, n, renamed, old_specs, new_specs, moved))
    records = _fold_anchors(records, compare_anchors(published(old), published(new), redirects))
    records.extend(_compare_config(old, new))
    return sorted(records, key=_order)


def _fold_anchors(records: list[ChangeRecord], anchors: list[ChangeRecord]) -> list[ChangeRecord]:
    """Fold each removed shape's lost anchors (its own, its fields', its checks') into its one ``shape-removed``
    record: one record, one acceptance.  An anchor with a redirect stays a record of its own."""
    removed = {r.subject: r for r in records if r.kind == "shape-removed"}
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
        lost = folded.get(record.subject) if record.kind == "shape-removed" else None
        if lost:
            listed = ", ".join(f"#{a}" for a in lost)
            record = replace(
                record,
                message=f"{record.message}, with its published anchors {listed}: every link to them breaks",
                verdicts=verdicts(*{*record.verdicts, "links"}),
                anchors=tuple(lost),
            )
        out.append(record)
    return out + kept


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
    old: Contract,
    new: Contract,
    renamed: dict[str, str],
    old_specs: dict[str, ShapeSpec],
    new_specs: dict[str, ShapeSpec],
    moved: dict[str, str],
) -> list[ChangeRecord]:
    records: list[ChangeRecord] = []
    matched: set[str] = set()
    for shape in old.shapes:
        twin = _twin(shape, new, renamed)
        if twin is None:
            records.append(
                _shape_record(
                    old,
                    shape,
                    "shape-removed",
                    f"shape {shape.id} was removed",
                    verdicts("producers", "receivers"),
                    gone=True,
                )
            )
            continue
        matched.add(twin.id)
        if twin.id != shape.id:
            records.append(_renamed_record(old, shape, new, twin))
        if isinstance(shape, TextShape) and isinstance(twin, TextShape):
            records.extend(compare_text_shape(old, shape, new, twin))
        elif isinstance(shape, DataShape) and isinstance(twin, DataShape):
            records.extend(compare_data_shape(old_specs[shape.id], new_specs[twin.id], old.path, moved))
    for shape in new.shapes:
        if shape.id not in matched:
            records.append(_shape_record(new, shape, "shape-added", f"shape {shape.id} is new", (), gone=False))
    return records


def _moved_shapes(
    before: dict[str, Contract], after: dict[str, Contract], renamed: dict[str, dict[str, str]]
) -> dict[str, str]:
    """Old shape id -> new id, for every shape whose id changed while it stayed the same shape
    (``task_brief`` became ``planning-stage.task_brief`` when a second stage defined the same key)."""
    moved = {}
    for path, sections in renamed.items():
        for shape in before[path].shapes:
            twin = _twin(shape, after[path], sections)
            if twin is not None and twin.id != shape.id:
                moved[shape.id] = twin.id
    return moved


def _renamed_record(old: Contract, shape: Shape, new: Contract, twin: Shape) -> ChangeRecord:
    """The same shape under a new id: its page, its anchors and its schema's ``$id`` move with the id."""
    message = f"shape {shape.id} is now {twin.id}: its page and schema move (published links to them break)"
    agents = (twin.producer,) if isinstance(twin, TextShape) else ()
    return ChangeRecord(
        "shape-renamed", shape.id, "", new.path, message, verdicts("links"), _line_of(shape), _line_of(twin), agents
    )


def _twin(shape: Shape, new: Contract, renamed: dict[str, str]) -> Shape | None:
    """The same shape in the newer contract: the same kind in the same (possibly renamed) section."""
    section = renamed.get(shape.section, shape.section)
    for other in new.shapes:
        if other.kind != shape.kind or other.section != section:
            continue
        if isinstance(shape, TextShape) or (
            isinstance(other, DataShape) and isinstance(shape, DataShape) and other.key == shape.key
        ):
            return other
    return None


def _specs(project: Project) -> dict[str, ShapeSpec]:
    return project.specs


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
