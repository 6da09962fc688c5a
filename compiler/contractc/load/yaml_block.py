"""Data-shape blocks: ruamel.yaml round-trip parse into the model's :class:`Node` tree.

Parsing is :func:`contractc.load.yaml_safe.load_yaml` (round-trip, bounded).
Round-trip mode keeps the comments the notation depends on (``# ← TRANSIENT``,
``# optional``) attached to their keys, and constructs no Python objects from
tags.  Lines and columns are converted to file positions here, once.
"""

from __future__ import annotations

from typing import Any

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.model import Field, Node


def parse_block(text: str, path: str, first_line: int, col_offset: int = 0) -> Any:
    """Parse YAML ``text`` whose first line is 1-based file line ``first_line`` (bounded: see :mod:`.yaml_safe`)."""
    from contractc.load.yaml_safe import load_yaml

    return load_yaml(
        text, path, "yaml-syntax", first_line=first_line, col_offset=col_offset, merge_keys=False, hint="fix the block's YAML syntax"
    )


def to_node(value: Any, text: str, first_line: int, col_offset: int = 0) -> Node:
    """Convert a parsed block (from ``text``, first line at file line ``first_line``) into a :class:`Node`."""
    return _Converter(text.split("\n"), first_line, col_offset).node(value, 0, 0)


class _Converter:
    def __init__(self, lines: list[str], first_line: int, col_offset: int):
        self.lines, self.first_line, self.col_offset = lines, first_line, col_offset

    def node(self, value: Any, line: int, col: int) -> Node:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq
        from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString, PlainScalarString, ScalarString

        fline, fcol = self.first_line + line, col + 1 + self.col_offset
        if isinstance(value, CommentedMap):
            return Node("map", fline, fcol, fields=tuple(self.fields(value)))
        if isinstance(value, CommentedSeq):
            items = tuple(self.node(item, *value.lc.item(i)) for i, item in enumerate(value))
            return Node("seq", fline, fcol, items=items)
        if value is None:
            return Node("scalar", fline, fcol, text="null")
        if _is_bool(value):
            return Node("scalar", fline, fcol, text="true" if value else "false")
        block = isinstance(value, (LiteralScalarString, FoldedScalarString))
        quoted = isinstance(value, ScalarString) and not block and not isinstance(value, PlainScalarString)
        return Node("scalar", fline, fcol, text=str(value), quoted=quoted, block=block)

    def fields(self, mapping: Any):
        for key, sub in mapping.items():
            kline, kcol = mapping.lc.key(key)
            if sub is None and self.bare(kline, kcol, key):
                value = Node("absent", self.first_line + kline, kcol + 1 + self.col_offset)
            elif sub is None:
                value = Node("scalar", self.first_line + kline, kcol + 1 + self.col_offset, text="null")
            else:
                value = self.node(sub, *mapping.lc.value(key))
            yield Field(
                name=str(key),
                value=value,
                comment=_comment(mapping.ca.items.get(key), kcol),
                line=self.first_line + kline,
                col=kcol + 1 + self.col_offset,
            )

    def bare(self, line: int, col: int, key: Any) -> bool:
        """True for a key written without ``:`` (``{ name, summary }``), as opposed to ``key: null``."""
        rest = self.lines[line][col + len(str(key)) :].lstrip() if line < len(self.lines) else ""
        return not rest.startswith(":")


def _comment(slots: Any, key_col: int) -> str:
    """The end-of-line comment of a key plus continuation lines indented past the key."""
    if not slots:
        return ""
    token = slots[2] if len(slots) > 2 else None
    if token is None:
        return ""
    lines = token.value.split("\n")
    parts = [lines[0].strip().lstrip("#").strip()]
    for raw in lines[1:]:
        stripped = raw.lstrip()
        if not stripped.startswith("#") or len(raw) - len(stripped) <= key_col:
            break
        parts.append(stripped.lstrip("#").strip())
    return " ".join(p for p in parts if p)


def _is_bool(value: Any) -> bool:
    """True for ``true``/``false``, anchored or not (an anchored boolean is ruamel's ``ScalarBoolean``, an int)."""
    from ruamel.yaml.scalarbool import ScalarBoolean

    return isinstance(value, (bool, ScalarBoolean))


def plain(value: Any) -> Any:
    """ruamel's round-trip types as plain JSON types: what validators and the typed model read.

    Keys become strings; a date stays the text that was written (see ``yaml_safe``)
    and any other scalar that is not a JSON type becomes its text.
    """
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if _is_bool(value):
        return bool(value)
    if value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)
