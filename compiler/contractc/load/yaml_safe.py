"""The one way contractc loads YAML: round-trip (comments, quotes, lines kept), bounded, errors located.

Every YAML text the tool reads -- ``contractc.yaml``, a contract's data-shape
blocks, a role file's front matter, a document given to ``validate`` -- goes
through :func:`load_yaml`.  It adds to ruamel.yaml's round-trip loader the
limits a hostile or careless file needs, so that every such file is answered
in well under a second with a located message instead of minutes of work, gigabytes of
memory or a traceback:

- at most :data:`MAX_ALIASES` aliases, and at most :data:`MAX_NODES` values
  once every alias is expanded (a "billion laughs" bomb of a few hundred bytes
  expands to billions);
- nesting at most :data:`MAX_DEPTH` levels (deeper recurses in the composer);
- integers of at most :data:`MAX_INT_DIGITS` digits (Python refuses more than
  4,300 and spends quadratic time below that);
- no explicit tag but the core schema's (``!!python/object/apply`` and every
  application tag are refused, not constructed);
- no merge key (``<<``) where the caller says it has no meaning (data shapes).

An anchor defined again is not an error: as YAML 1.2 says, an alias names the
latest node with that anchor.

Every YAML error, these included, becomes one :class:`Diagnostic` here, at
the file line and column of the problem.  File-size limits and the refusal
of non-regular files live in :func:`contractc.files.read_regular`.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from contractc.diagnostics import ContractcError, Diagnostic

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
def _text_dates_constructor() -> type:
    from ruamel.yaml.constructor import RoundTripConstructor

    class TextDates(RoundTripConstructor):
        pass

    TextDates.add_constructor("tag:yaml.org,2002:timestamp", RoundTripConstructor.construct_yaml_str)
    return TextDates


@cache
def _bounded_scanner() -> type:
    """The round-trip scanner, stopped at the first flow collection (``[``, ``{``) nested too deep:
    its cost grows with the square of the nesting, before the composer sees any of it."""
    from ruamel.yaml.error import MarkedYAMLError
    from ruamel.yaml.scanner import RoundTripScanner

    class Bounded(RoundTripScanner):
        def fetch_flow_collection_start(self, TokenClass: Any, to_push: Any) -> None:  # noqa: N803  (ruamel's name)
            if len(self.flow_context) >= MAX_DEPTH:
                problem = f"nested more than {MAX_DEPTH} levels deep"
                raise MarkedYAMLError(None, None, problem, self.reader.get_mark())
            super().fetch_flow_collection_start(TokenClass, to_push)

    return Bounded


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
