"""The field table of a data shape, read from the model's raw ``Field``/``Node`` tree.

Each row is one key, with its dotted path (``owners.name``: a list of mappings
is walked into its item), the notation as the author wrote it, and the two
markers the notation reads from comments: transient and optional.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from contractc.model import Contract, DataShape, Field, Node

_OPTIONAL = re.compile(r"\boptional\b|\bomit otherwise\b|\bpresent only when\b|\bONLY\b")


@dataclass(frozen=True, slots=True)
class FieldRow:
    path: str
    """Dotted key path below the shape's top-level key."""
    depth: int
    """0 for a key directly under the shape."""
    name: str
    notation: str
    """The value as written (``feature | fix | chore``), or what it is (``mapping``)."""
    required: bool
    transient: bool
    comment: str
    line: int
    """1-based line in the contract."""


def field_rows(contract: Contract, shape: DataShape) -> list[FieldRow]:
    rows: list[FieldRow] = []
    lines = contract.data.decode("utf-8", "replace").lstrip("\ufeff").splitlines()
    _walk(lines, _members(shape.root.value), "", 0, rows)
    return rows


def _members(node: Node) -> tuple[Field, ...]:
    """The keys below ``node``: its own, or those of the mapping a list holds."""
    if node.kind == "map":
        return node.fields
    if node.kind == "seq" and len(node.items) == 1 and node.items[0].kind == "map" and not node.flow:
        return node.items[0].fields
    return ()


def _walk(lines: list[str], fields: tuple[Field, ...], prefix: str, depth: int, rows: list[FieldRow]) -> None:
    for f in fields:
        path = f"{prefix}{f.name}"
        rows.append(
            FieldRow(
                path=path,
                depth=depth,
                name=f.name,
                notation=_notation(lines, f),
                required=not _OPTIONAL.search(f.comment) and "TRANSIENT" not in f.comment,
                transient="TRANSIENT" in f.comment,
                comment=f.comment,
                line=f.line,
            )
        )
        if not f.value.flow:
            _walk(lines, _members(f.value), f"{path}.", depth + 1, rows)


def _notation(lines: list[str], f: Field) -> str:
    value = f.value
    if value.kind == "absent":
        return "any"
    if value.kind == "map" and not value.flow:
        return "mapping"
    if value.kind == "seq" and not value.flow:
        return "list of mappings" if _members(value) else "list"
    if value.kind == "scalar" and value.block:
        return "|"
    if value.kind == "scalar":
        return f'"{value.text}"' if value.quoted else value.text
    return _written(lines, value)


def _written(lines: list[str], value: Node) -> str:
    """The value's source text on its line, without the trailing comment."""
    text = lines[value.line - 1][value.col - 1 :] if value.line <= len(lines) else ""
    return re.split(r"\s+#", text, maxsplit=1)[0].strip()
