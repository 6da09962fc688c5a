"""``contractc validate SHAPE FILE``: check a document against a shape, dispatched by the shape's kind.

Each kind of shape has one validator, ``(project, shape, file, artifact) -> [Diagnostic]``,
in :data:`VALIDATORS`; the CLI only looks the shape up and prints what comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.model import Project, Shape
from contractc.validate.data import validate_data

Validator = Callable[[Project, Shape, Path, bool], list[Diagnostic]]

VALIDATORS: dict[str, Validator] = {
    "data": validate_data,
}


def find_shape(project: Project, shape_id: str) -> Shape:
    """The shape with id ``shape_id``; an unknown id is a ``unknown-shape`` error listing the known ones."""
    shapes = {shape.id: shape for _, shape in project.shapes()}
    if shape_id in shapes:
        return shapes[shape_id]
    qualified = sorted(i for i, s in shapes.items() if getattr(s, "key", None) == shape_id)
    if qualified:
        raise ContractcError(
            Diagnostic(
                shape_id,
                0,
                0,
                "unknown-shape",
                f"shape key {shape_id!r} is used in several stages, so it has no id of its own",
                f"name one: {', '.join(qualified)}",
            )
        )
    known = ", ".join(sorted(shapes)) or "none"
    raise ContractcError(
        Diagnostic(shape_id, 0, 0, "unknown-shape", f"no shape has the id {shape_id!r}", f"known shapes: {known}")
    )


def validate_file(project: Project, shape_id: str, file: Path, artifact: bool = False) -> list[Diagnostic]:
    """Every way ``file`` fails the shape (empty when it passes); bad input raises :class:`ContractcError`."""
    shape = find_shape(project, shape_id)
    validate = VALIDATORS.get(shape.kind)
    if validate is None:
        raise ContractcError(
            Diagnostic(
                shape_id,
                0,
                0,
                "unknown-shape",
                f"{shape_id!r} is a {shape.kind} shape; `validate` cannot check those yet",
            )
        )
    return validate(project, shape, file, artifact)
