"""Data shapes compared field by field, on the notation as :mod:`contractc.model.notation` interprets it.

Nothing here reads the notation: both sides are :class:`~contractc.model.notation.ShapeSpec`
trees, so a field is "optional" or "transient" here exactly when the schema
emitter thinks so.  Verdicts follow the compiled schemas, which close every
object (``additionalProperties: false``): a producer breaks when a document it
emits today may fail tomorrow's schema, a receiver when tomorrow's documents
may carry something today's receiver never saw (or lack something it relied on).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from contractc.diff.records import BOTH, PRODUCERS, RECEIVERS, ChangeRecord, Location, Verdict
from contractc.model.notation import Prop, ShapeSpec, Spec

# One family per JSON type: kinds in a family compile to the same schema type.
_FAMILY = {"string": "string", "text": "string", "example": "string"}
# (older, newer) pairs where the newer kind accepts every value the older did: a widening.
_WIDER = {
    ("integer", "number"),
    ("enum", "string"),
    ("date", "string"),
    ("datetime", "string"),
    ("null", "string"),
}
_ANYTHING = {"any", "open"}


@dataclass(frozen=True, slots=True)
class _Field:
    """A property with the JSON path of the object holding it."""

    parent: str
    prop: Prop

    @property
    def path(self) -> str:
        return f"{self.parent}.{self.prop.name}"


def compare_data_shape(
    old: ShapeSpec, new: ShapeSpec, old_path: str, moved: dict[str, str] | None = None
) -> list[ChangeRecord]:
    """Every change from ``old`` to ``new`` (the same shape); ``old_path`` is the older contract's path.

    ``moved`` maps an old shape id to its new id where the shape stayed the same but its id
    changed (qualified by its section): a ``$ref`` that follows it is no change.
    """
    walk = _Walk(old, new, old_path, moved or {})
    walk.spec(old.spec, new.spec, "$")
    walk.pair_moves()
    return walk.records


class _Walk:
    def __init__(self, old: ShapeSpec, new: ShapeSpec, old_path: str, moved: dict[str, str]):
        self.old, self.new, self.old_path, self.moved = old, new, old_path, moved
        self.records: list[ChangeRecord] = []
        self.removed: list[_Field] = []
        self.added: list[_Field] = []

    def record(self, kind: str, path: str, message: str, found: tuple[Verdict, ...], old, new) -> None:
        """One change at ``path``; ``old`` and ``new`` are the two sides (a spec or a property), or None."""
        self.records.append(
            ChangeRecord(
                kind,
                self.new.id,
                path,
                self.new.contract,
                f"{self.new.id} {path}: {message}",
                found,
                Location(self.old_path, old.line) if old is not None and old.line else None,
                Location(self.new.contract, new.line) if new is not None and new.line else None,
            )
        )

    def spec(self, old: Spec, new: Spec, path: str) -> None:
        o, n = _FAMILY.get(old.kind, old.kind), _FAMILY.get(new.kind, new.kind)
        if o != n:
            self.kind_changed(old, new, path)
        elif o == "enum":
            if added := [v for v in new.enum if v not in old.enum]:
                self.record("enum-values-added", path, f"new value(s) {', '.join(added)}", RECEIVERS, old, new)
            if removed := [v for v in old.enum if v not in new.enum]:
                message = f"value(s) {', '.join(removed)} no longer allowed"
                self.record("enum-values-removed", path, message, PRODUCERS, old, new)
        elif o == "object":
            self.object(old, new, path)
        elif o == "array":
            if old.items and new.items:
                self.spec(old.items[0], new.items[0], f"{path}[*]")
            elif old.items:
                self.record("type-changed", path, "items of any form are now allowed", RECEIVERS, old, new)
            elif new.items:
                self.record("type-changed", path, f"items must now be {_describe(new.items[0])}", PRODUCERS, old, new)
        elif o == "ref" and self.moved.get(old.ref, old.ref) != new.ref:
            was = f"{old.ref}, since renamed {self.moved[old.ref]}" if old.ref in self.moved else old.ref
            self.record("type-changed", path, f"now the shape {new.ref} (was {was})", BOTH, old, new)

    def kind_changed(self, old: Spec, new: Spec, path: str) -> None:
        if _nesting(old, new):
            self.record("nesting-changed", path, f"{_describe(old)} became {_describe(new)}", BOTH, old, new)
            return
        o, n = _FAMILY.get(old.kind, old.kind), _FAMILY.get(new.kind, new.kind)
        if (o, n) in _WIDER or n in _ANYTHING:
            found = RECEIVERS  # accepts more: a receiver may now see values it never handled
        elif (n, o) in _WIDER or o in _ANYTHING:
            found = PRODUCERS  # accepts less: what a producer emits today may be refused
        else:
            found = BOTH
        self.record("type-changed", path, f"type {_describe(old)} became {_describe(new)}", found, old, new)

    def object(self, old: Spec, new: Spec, path: str) -> None:
        before = {p.name: p for p in old.props}
        after = {p.name: p for p in new.props}
        for prop in old.props:
            if prop.name in after:
                self.prop(prop, after[prop.name], f"{path}.{prop.name}")
            else:
                self.removed.append(_Field(path, prop))
        self.added.extend(_Field(path, p) for p in new.props if p.name not in before)
        if old.open and not new.open:
            self.record("object-closed", path, "no longer accepts keys the contract does not list", PRODUCERS, old, new)
        elif new.open and not old.open:
            self.record("object-opened", path, "now accepts keys the contract does not list", RECEIVERS, old, new)

    def prop(self, old: Prop, new: Prop, path: str) -> None:
        if bool(old.optional) != bool(new.optional):
            if new.optional:
                self.record("field-made-optional", path, f"now optional (rule: {new.optional})", RECEIVERS, old, new)
            else:
                self.record("field-made-required", path, "now required", PRODUCERS, old, new)
        if old.transient != new.transient:
            if new.transient:
                message, found = "now transient: never in the artifact", BOTH
            else:
                message = "no longer transient: written to the artifact"
                found = () if new.optional else PRODUCERS
            self.record("transient-changed", path, message, found, old, new)
        self.spec(old.spec, new.spec, path)

    def pair_moves(self) -> None:
        """Removed and added fields of the same form are one rename (same object) or move (another object)."""
        nested = [_Field(parent, prop) for f in self.added for parent, prop in _descendants(f.prop.spec, f.path)]
        for gone in list(self.removed):
            same_name = [f for f in self.added + nested if f.prop.name == gone.prop.name]
            same_form = [
                f for f in self.added if f.parent == gone.parent and _signature(f.prop) == _signature(gone.prop)
            ]
            twins = [f for f in self.removed if f.parent == gone.parent and _signature(f.prop) == _signature(gone.prop)]
            if len(twins) > 1:  # two fields of one form gone, one come: which was renamed is a guess
                same_form = []
            if len(same_name) == 1:
                new = same_name[0]
                self.record("nesting-changed", gone.path, f"moved to {new.path}", BOTH, gone.prop, new.prop)
            elif len(same_form) == 1:
                new = same_form[0]
                self.record("field-renamed", gone.path, f"renamed to {new.prop.name}", BOTH, gone.prop, new.prop)
            else:
                continue
            self.removed.remove(gone)
            if new in self.added:
                self.added.remove(new)
        for gone in self.removed:
            found = PRODUCERS if gone.prop.optional else BOTH
            what = "an optional field" if gone.prop.optional else "a required field"
            self.record("field-removed", gone.path, f"{what} was removed", found, gone.prop, None)
        for new in self.added:
            if new.prop.optional:
                message = f"new optional field (rule: {new.prop.optional})"
                self.record("field-added-optional", new.path, message, (), None, new.prop)
            else:
                self.record("field-added-required", new.path, "new required field", PRODUCERS, None, new.prop)


def _nesting(old: Spec, new: Spec) -> bool:
    """An object became a list of such objects, or the reverse."""
    objects = ("object", "ref", "open")
    return (old.kind in objects and new.kind == "array" and any(i.kind in objects for i in new.items)) or (
        new.kind in objects and old.kind == "array" and any(i.kind in objects for i in old.items)
    )


def _describe(spec: Spec) -> str:
    if spec.kind == "enum":
        return " | ".join(spec.enum)
    if spec.kind == "array":
        return f"[ {_describe(spec.items[0])} ]" if spec.items else "a list"
    if spec.kind == "ref":
        return spec.ref
    if spec.kind == "object":
        return "{ " + ", ".join(p.name for p in spec.props) + " }"
    return _FAMILY.get(spec.kind, spec.kind)


def _signature(prop: Prop) -> tuple:
    """A field's form without its name or position: what must match for a rename."""
    return (bool(prop.optional), prop.transient, _spec_signature(prop.spec))


def _spec_signature(spec: Spec) -> tuple:
    return (
        _FAMILY.get(spec.kind, spec.kind),
        spec.enum,
        spec.ref,
        spec.open,
        tuple(_spec_signature(i) for i in spec.items),
        tuple((p.name, *_signature(p)) for p in spec.props),
    )


def _descendants(spec: Spec, path: str) -> Iterator[tuple[str, Prop]]:
    """Every property under ``spec`` with the path of the object holding it."""
    for prop in spec.props:
        yield path, prop
        yield from _descendants(prop.spec, f"{path}.{prop.name}")
    for item in spec.items:
        yield from _descendants(item, f"{path}[*]")
