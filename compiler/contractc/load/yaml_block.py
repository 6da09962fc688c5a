"""Data-shape blocks: parsed by :func:`contractc.load.yaml_safe.load_yaml` into the model's :class:`Node` tree.

The loader keeps what the notation depends on: the comments attached to keys
(``# ← TRANSIENT``, ``# optional``), quotes, block scalars, and where every
value is.  Lines and columns are converted to file positions here, once.
"""

from __future__ import annotations

from contractc.load.yaml_safe import Yaml, load_yaml
from contractc.model.records import Field, Node


def parse_block(text: str, path: str, first_line: int, col_offset: int = 0) -> Yaml | None:
    """Parse YAML ``text`` whose first line is 1-based file line ``first_line`` (bounded: see :mod:`.yaml_safe`)."""
    return load_yaml(
        text, path, "yaml-syntax", first_line=first_line, col_offset=col_offset, merge_keys=False, hint="fix the block's YAML syntax"
    )


def to_node(value: Yaml, text: str, first_line: int, col_offset: int = 0) -> Node:
    """Convert a parsed block (from ``text``, first line at file line ``first_line``) into a :class:`Node`."""
    return _Converter(text.split("\n"), first_line, col_offset).node(value)


class _Converter:
    def __init__(self, lines: list[str], first_line: int, col_offset: int):
        self.lines, self.first_line, self.col_offset = lines, first_line, col_offset

    def node(self, value: Yaml) -> Node:
        fline, fcol = self.first_line + value.line, value.col + 1 + self.col_offset
        if value.kind == "map":
            return Node("map", fline, fcol, fields=tuple(self.fields(value)))
        if value.kind == "seq":
            return Node("seq", fline, fcol, items=tuple(self.node(item) for item in value.value))
        meaning = value.value
        if meaning is None:
            return Node("scalar", fline, fcol, text="null")
        if isinstance(meaning, bool):
            return Node("scalar", fline, fcol, text="true" if meaning else "false")
        written = isinstance(meaning, str)
        quoted, block = written and value.style in ("'", '"'), written and value.style in ("|", ">")
        return Node("scalar", fline, fcol, text=str(meaning), quoted=quoted, block=block)

    def fields(self, mapping: Yaml):
        for entry in mapping.value:
            key = entry.key
            line, col = self.first_line + key.line, key.col + 1 + self.col_offset
            if entry.value.kind == "scalar" and entry.value.value is None and self.bare(key.line, key.col, entry.name):
                value = Node("absent", line, col)
            elif entry.value.kind == "scalar" and entry.value.value is None:
                value = Node("scalar", line, col, text="null")
            else:
                value = self.node(entry.value)
            yield Field(name=entry.name, value=value, comment=entry.comment, line=line, col=col)

    def bare(self, line: int, col: int, name: str) -> bool:
        """True for a key written without ``:`` (``{ name, summary }``), as opposed to ``key: null``."""
        rest = self.lines[line][col + len(name) :].lstrip() if line < len(self.lines) else ""
        return not rest.startswith(":")
