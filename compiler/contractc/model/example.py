"""The minimal example instance of a data shape, derived from its :class:`~contractc.model.notation.Spec`.

Minimal means: required keys only, one item per list that says what its items
are, the first value of an enum (or the value the contract wrote), sample
strings, a fixed date.  The build validates it against the wire schema (so a
shape that no document could satisfy fails early) and embeds it in the schema's
``examples``, where the site shows it.
"""

from __future__ import annotations

from typing import Any

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.model.records import ShapeSpec, Spec

SAMPLE_STRING = "string"
SAMPLE_TEXT = "text\n"
SAMPLE_DATE = "2025-01-31"
SAMPLE_DATETIME = "2025-01-31T09:30:00Z"
SAMPLE_ANY = "any"


def derive_example(shape: ShapeSpec, specs: dict[str, ShapeSpec], artifact: bool = False) -> Any:
    """The example of ``shape``; in artifact form without transient fields."""
    return _Deriver(specs, artifact).value(shape.spec, (shape.id,), shape)


class _Deriver:
    def __init__(self, specs: dict[str, ShapeSpec], artifact: bool):
        self.specs, self.artifact = specs, artifact

    def value(self, spec: Spec, chain: tuple[str, ...], shape: ShapeSpec) -> Any:
        kind = spec.kind
        if kind == "ref":
            if spec.ref in chain:
                raise ContractcError(
                    Diagnostic(
                        shape.contract,
                        spec.line,
                        spec.col,
                        "bad-notation",
                        f"{shape.id}: `{spec.written}` makes {' -> '.join((*chain, spec.ref))} contain itself, so no document can satisfy it",
                        "mark one field on the cycle `# ← OPTIONAL`",
                    )
                )
            target = self.specs[spec.ref]
            return self.value(target.spec, (*chain, spec.ref), target)
        if kind == "object":
            return {
                p.name: p.default if p.has_default else self.value(p.spec, chain, shape)
                for p in spec.props
                if not p.optional and not (self.artifact and p.transient)
            }
        if kind == "array":
            return [self.value(spec.items[0], chain, shape)] if spec.items else []
        if spec.examples:
            return spec.examples[0]
        if kind == "enum":
            return spec.enum[0]
        return {
            "string": SAMPLE_STRING,
            "text": SAMPLE_TEXT,
            "date": SAMPLE_DATE,
            "datetime": SAMPLE_DATETIME,
            "integer": 0,
            "number": 0.5,
            "boolean": False,
            "null": None,
            "open": {},
            "any": SAMPLE_ANY,
        }[kind]


def locate(spec: Spec, path: list[Any]) -> tuple[int, int]:
    """File line and column of the deepest key of a JSON path (``['steps', 0, 'summary']``) inside ``spec``."""
    where = (spec.line, spec.col)
    for step in path:
        if isinstance(step, int) and spec.items:
            spec = spec.items[0]
            continue
        prop = next((p for p in spec.props if p.name == step), None)
        if prop is None:
            break
        where, spec = (prop.line, prop.col), prop.spec
    return where
