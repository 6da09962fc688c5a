"""Data-shape blocks: parsed by :func:`contractc.load.yaml_safe.load_yaml` into the model's :class:`Node` tree.

The loader keeps what the notation depends on: the comments ruamel.yaml attached
to keys (``# ← TRANSIENT``, ``# optional``), quotes, block scalars, and where every
value is.  Lines and columns are converted to file positions here, once.
"""

from __future__ import annotations

from typing import Any

from contractc.load.yaml_safe import is_bool, load_yaml
from contractc.model.records import Field, Node


def parse_block(text: str, path: str, first_line: int, col_offset: int = 0) -> Any:
    """Parse YAML ``text`` whose first line is 1-based file line ``first_line`` (bounded: see :mod:`.yaml_safe`)."""
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
        from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString, PlainScalarString, ScalarString

        fline, fcol = self.first_line + line, col + 1 + self.col_offset
        if isinstance(value, dict):
            return Node("map", fline, fcol, fields=tuple(self.fields(value)))
        if isinstance(value, list):
            return Node("seq", fline, fcol, items=tuple(self.node(item, *value.lc.item(i)) for i, item in enumerate(value)))
        if value is None:
            return Node("scalar", fline, fcol, text="null")
        if is_bool(value):
            return Node("scalar", fline, fcol, text="true" if value else "false")
        block = isinstance(value, (LiteralScalarString, FoldedScalarString))
        quoted = isinstance(value, ScalarString) and not block and not isinstance(value, PlainScalarString)
        return Node("scalar", fline, fcol, text=str(value), quoted=quoted, block=block)

    def fields(self, mapping: Any):
        for key, sub in mapping.items():
            kline, kcol = mapping.lc.key(key)
            line, col = self.first_line + kline, kcol + 1 + self.col_offset
            if sub is None and self.bare(kline, kcol, str(key)):
                value = Node("absent", line, col)
            elif sub is None:
                value = Node("scalar", line, col, text="null")
            else:
                value = self.node(sub, *mapping.lc.value(key))
            yield Field(name=str(key), value=value, comment=_comment(mapping.ca.items.get(key), kcol), line=line, col=col)

    def bare(self, line: int, col: int, name: str) -> bool:
        """True for a key written without ``:`` (``{ name, summary }``), as opposed to ``key: null``."""
        rest = self.lines[line][col + len(name) :].lstrip() if line < len(self.lines) else ""
        return not rest.startswith(":")


def _comment(slots: Any, key_col: int) -> str:
    """The end-of-line comment ruamel.yaml attached to a key, and the comment lines below it indented past
    the key, without ``#``, joined by a space."""
    token = slots[2] if slots and len(slots) > 2 else None
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
