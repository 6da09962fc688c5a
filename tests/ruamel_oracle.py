"""The test oracle: YAML as contractc read it before libyaml, through ruamel.yaml round-trip.

The loader of ``contractc.load.yaml_safe`` must read every text as this did:
the same values, node kinds, positions, comments and quotes.  Kept as it was
(``load_yaml``, ``to_node``, ``plain``), not used by the product.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.load.yaml_safe import _bounded_scanner, _text_dates_constructor  # unchanged by the move to libyaml
from contractc.model.records import Field, Node

MAX_ALIASES = 100
"""Aliases (``*name``) per document."""
MAX_NODES = 100_000
"""Values per document after expanding every alias."""
MAX_DEPTH = 64
"""Nesting levels of mappings and sequences."""
MAX_INT_DIGITS = 100
"""Digits of a plain integer."""

_CORE_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp", "binary")
)
_INTEGER = r"[-+]?(?:0[xob])?[0-9a-fA-F_]+"  # compiled on first use (re's cache): only a long digit run asks


def load_yaml(
    text: str, path: str, code: str, *, first_line: int = 1, col_offset: int = 0, merge_keys: bool = True, hint: str = "", what: str = "YAML"
) -> Any:
    """Parse ``text`` (whose first line is 1-based file line ``first_line``) with ruamel.yaml round-trip.

    Raises :class:`ContractcError` with diagnostic ``code`` at the problem's file
    position for a syntax error and for every limit in the module docstring; its
    message starts with ``what``.
    """
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = _round_trip(merge_keys)
    try:
        return yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + (mark.line if mark else 0)
        col = (mark.column if mark else 0) + 1 + col_offset
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContractcError(Diagnostic(path, line, col, code, f"{what}: {problem}", hint)) from None
    except (YAMLError, ValueError, RecursionError) as exc:  # an unmarked error: the start of the text
        raise ContractcError(Diagnostic(path, first_line, 1 + col_offset, code, f"{what}: {exc}", hint)) from None


def _round_trip(merge_keys: bool) -> Any:
    """ruamel.yaml in round-trip mode, bounded, quotes kept, dates left as the text that was written.

    Quotes matter to the notation (``"8"`` is a string, ``8`` an integer); a date
    stays text because JSON has no date type and ``2025-02-30`` must be a located
    validation error, not a crash in the YAML constructor.
    """
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.Composer = _bounded_composer(merge_keys)
    yaml.Scanner = _bounded_scanner()
    yaml.Constructor = _text_dates_constructor()
    return yaml


@cache
def _bounded_composer(merge_keys: bool) -> type:
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.error import MarkedYAMLError
    from ruamel.yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    class LimitError(MarkedYAMLError):
        pass

    class Bounded(Composer):
        """A composer that counts what it builds and refuses what the module docstring lists."""

        def compose_document(self) -> Any:
            # YAML 1.2 lets a later node take an anchor again (an alias names the latest);
            # ruamel.yaml would say so with a Python warning on stderr, outside every diagnostic.
            self.warn_double_anchors = False
            self._aliases = 0
            self._weight: dict[int, int] = {}
            self._nesting = 0
            return super().compose_document()

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            if isinstance(event, AliasEvent):
                self._aliases += 1
                if self._aliases > MAX_ALIASES:
                    raise LimitError(None, None, f"more than {MAX_ALIASES} aliases in one document", event.start_mark)
                return super().compose_node(parent, index)
            tag = getattr(event, "ctag", None)
            if tag is not None and str(tag) not in ("!", "?") and _expanded(tag) not in _CORE_TAGS:
                raise LimitError(None, None, f"tag {_shown(tag)} is not allowed (only plain YAML data is read)", event.start_mark)
            if isinstance(event, ScalarEvent) and not event.style and len(event.value) > MAX_INT_DIGITS and re.fullmatch(_INTEGER, event.value):
                raise LimitError(None, None, f"integer of {len(event.value)} digits: at most {MAX_INT_DIGITS} are read", event.start_mark)
            nested = isinstance(event, (MappingStartEvent, SequenceStartEvent))
            if nested:
                self._nesting += 1
                if self._nesting > MAX_DEPTH:
                    raise LimitError(None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
            node = super().compose_node(parent, index)
            if nested:
                self._nesting -= 1
            weight = 1
            if isinstance(node, SequenceNode):
                weight += sum(self._weight.get(id(item), 1) for item in node.value)
            elif isinstance(node, MappingNode):
                for key, value in node.value:
                    if not merge_keys and key.tag == "tag:yaml.org,2002:merge":
                        raise LimitError(None, None, "a merge key (<<) has no meaning here; write the keys out", key.start_mark)
                    weight += self._weight.get(id(key), 1) + self._weight.get(id(value), 1)
            if weight > MAX_NODES:
                raise LimitError(
                    None, None, f"more than {MAX_NODES:,} values once its aliases are expanded", node.start_mark
                )
            self._weight[id(node)] = weight
            return node

    return Bounded


def _expanded(tag: Any) -> str:
    text = str(getattr(tag, "value", tag))
    return "tag:yaml.org,2002:" + text[2:] if text.startswith("!!") else text


def _shown(tag: Any) -> str:
    text = _expanded(tag)
    return "!!" + text.removeprefix("tag:yaml.org,2002:") if text.startswith("tag:yaml.org,2002:") else text
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
