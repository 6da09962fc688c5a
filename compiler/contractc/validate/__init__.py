"""``contractc validate SHAPE [FILE|-]``: check a document against a shape, dispatched by the shape's kind.

A data shape's document is checked against its JSON Schema (:mod:`.data`); a text
shape's return against its compiled receiver checks (:mod:`.text`, printed by
:mod:`.render`; the Python API is :class:`.receiver.Receiver`).  :mod:`.command`
decides which, from the shape :func:`find_shape` finds.
"""

from __future__ import annotations

import sys

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.output.files import read_bytes
from contractc.model.records import Project, Shape

STDIN = "-"
STDIN_LABEL = "<stdin>"


def find_shape(project: Project, shape_id: str, mode: str | None = None) -> Shape:
    """The shape ``shape_id`` names: any shape's id, or a text shape's name or producer (``mode`` picks
    among a producer's shapes).  An unknown name is an ``unknown-shape`` error listing the known ones."""
    from contractc.validate.receiver import find_text_shape, text_candidates

    shapes = {shape.id: shape for _, shape in project.shapes()}
    if mode is None and shape_id in shapes:
        return shapes[shape_id]
    found = text_candidates(project, shape_id, mode)
    if len(found) == 1:
        return found[0][1]
    if found or mode is not None:
        return find_text_shape(project, shape_id, mode)[1]  # raises, naming the producer's modes
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
    producers = {s.producer for _, s in project.shapes() if s.kind == "text"}
    known = ", ".join(sorted(shapes)) or "none"
    also = f"; producers: {', '.join(sorted(producers))}" if producers else ""
    raise ContractcError(
        Diagnostic(shape_id, 0, 0, "unknown-shape", f"no shape has the id {shape_id!r}", f"known shapes: {known}{also}")
    )


def read_return(file: str) -> tuple[str, str]:
    """``(label, text)`` of a return: a file's UTF-8 text, or standard input for ``-``; unreadable is bad input."""
    label = STDIN_LABEL if file == STDIN else file
    try:
        data = sys.stdin.buffer.read() if file == STDIN else read_bytes(file)
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise ContractcError(Diagnostic(label, 0, 0, "file-missing", f"cannot read: {exc.strerror}")) from None
    except OSError as exc:  # a named pipe, a folder, too large, no permission
        from contractc.load.paths import unreadable

        raise ContractcError(unreadable(label, exc)) from None
    try:
        return label, data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContractcError(
            Diagnostic(label, 0, 0, "not-utf8", f"byte 0x{data[exc.start]:02x} is not valid UTF-8", "send the return as UTF-8")
        ) from None
