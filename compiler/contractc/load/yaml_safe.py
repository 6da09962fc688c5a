"""The one way contractc loads YAML: ruamel.yaml round-trip (comments, quotes, positions kept), bounded, errors located.

Every YAML text the tool reads -- ``contractc.yaml``, a contract's data-shape
blocks, a role file's front matter, a document given to ``validate``, the
approval file of ``diff --accept`` -- goes through :func:`load_yaml`.  It is
ruamel.yaml's round-trip loader (YAML 1.2; a mapping is a ``CommentedMap``
that keeps each key's line, column and comments), with the limits a hostile
or careless file needs, so that every such file is answered in well under a
second with a located message instead of minutes of work, gigabytes of memory
or a traceback:

- at most :data:`MAX_ALIASES` aliases, and at most :data:`MAX_NODES` values
  once every alias is expanded (a "billion laughs" bomb of a few hundred bytes
  expands to billions);
- nesting at most :data:`MAX_DEPTH` levels (deeper recurses in the composer);
- integers of at most :data:`MAX_INT_DIGITS` digits (Python refuses more than
  4,300 and spends quadratic time below that);
- no explicit tag but the core schema's (``!!python/object/apply`` and every
  application tag are refused, not constructed);
- no merge key (``<<``) where the caller says it has no meaning (data shapes);
- YAML 1.2 only (a ``%YAML 1.1`` directive is refused, not read with 1.1's
  rules) and no mapping or sequence as a key.

An anchor defined again is not an error: as YAML 1.2 says, an alias names the
latest node with that anchor.  A date stays the text that was written: JSON has
no date type, and ``2025-02-30`` must be a located validation error.

Every YAML error, these included, becomes one :class:`Diagnostic` here, at the
file line and column of the problem.  File-size limits and the refusal of
non-regular files live in :func:`contractc.output.files.read_bytes`.
"""

import re
from functools import cache
from typing import Any

from contractc.report.diagnostics import ContractcError, Diagnostic, json_path

MAX_ALIASES = 100
"""Aliases (``*name``) per document."""
MAX_NODES = 100_000
"""Values per document after expanding every alias."""
MAX_DEPTH = 64
"""Nesting levels of mappings and sequences."""
MAX_INT_DIGITS = 100
"""Digits of a plain integer."""

_CORE = "tag:yaml.org,2002:"
_CORE_TAGS = frozenset(_CORE + name for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp", "binary"))
_INTEGER = r"[-+]?(?:0[xob])?[0-9a-fA-F_]+"  # compiled on first use (re's cache): only a long digit run asks


def load_yaml(
    text: str, path: str, code: str, *, first_line: int = 1, col_offset: int = 0, merge_keys: bool = True, hint: str = "", what: str = "YAML"
) -> Any:
    """Parse ``text`` (whose first line is 1-based file line ``first_line``): ruamel.yaml's round-trip value
    (``CommentedMap``, ``CommentedSeq`` or a scalar), None for an empty or null document.

    Raises :class:`ContractcError` with diagnostic ``code`` at the problem's file
    position for a syntax error and for every limit in the module docstring; its
    message starts with ``what``.
    """
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    def located(line: int | None, col: int, problem: str) -> ContractcError:  # None: unmarked, the start of the text
        where = (first_line + line, col + 1 + col_offset) if line is not None else (first_line, 1 + col_offset)
        return ContractcError(Diagnostic(path, *where, code, f"{what}: {problem}", hint))

    yaml = _round_trip(merge_keys)
    try:
        value = yaml.load(text)
        if yaml.composer.key_collection is not None:  # said once ruamel.yaml has read it all, as it says the rest
            raise MarkedYAMLError(None, None, "a mapping or sequence as a key", yaml.composer.key_collection)
        return value
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise located(mark.line if mark else 0, mark.column if mark else 0, problem) from None
    except (YAMLError, ValueError, RecursionError) as exc:  # an unmarked error: the start of the text
        raise located(None, 0, str(exc)) from None
    except Exception as exc:  # noqa: BLE001  ruamel.yaml failing on its own (`!!int` on nothing): no traceback
        raise located(None, 0, str(exc) or "this text cannot be read as YAML") from None


def plain(value: Any) -> Any:
    """The round-trip value as plain JSON types (dicts, lists, scalars): what validators and the typed model read.

    Keys become strings; a date stays the text that was written, and any other
    scalar that is not a JSON type becomes its text.
    """
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if is_bool(value):
        return bool(value)
    if value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


def is_bool(value: Any) -> bool:
    """True for ``true``/``false``, anchored or not (an anchored boolean is ruamel's ``ScalarBoolean``, an int)."""
    from ruamel.yaml.scalarbool import ScalarBoolean

    return isinstance(value, (bool, ScalarBoolean))


def key_at(mapping: Any, key: Any) -> tuple[int, int]:
    """The 0-based line and column of ``key`` in ``mapping``: where it is written, in the merged mapping
    for a key brought in by a merge key (``<<``)."""
    if key in (mapping.lc.data or ()):
        return mapping.lc.key(key)
    for source in getattr(mapping, "merge", ()):
        if key in source:
            return key_at(source, key)
    return mapping.lc.line, mapping.lc.col


def locate(node: Any, key_path: list) -> tuple[int, int]:
    """The 1-based line and column, in the parsed text, of the deepest key of ``key_path`` (keys and list
    indexes, as jsonschema's ``error.absolute_path``) that ``node`` holds; (1, 1) when it holds none."""
    line, col = 0, 0
    for key in key_path:
        if isinstance(node, list) and isinstance(key, int) and key < len(node):
            (line, col), node = node.lc.item(key), node[key]
        elif isinstance(node, dict) and not isinstance(key, int) and (found := _key(node, str(key))) is not None:
            (line, col), node = key_at(node, found), node[found]
        else:
            break
    return line + 1, col + 1


def positions(node: Any, first_line: int = 1) -> dict[str, tuple[int, int]]:
    """Every key path of ``node`` as :func:`~contractc.report.diagnostics.json_path` writes it (``$.contracts[0].path``)
    -> its 1-based file line (the text's first line being file line ``first_line``) and column."""
    found: dict[str, tuple[int, int]] = {}

    def walk(node: Any, path: list) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                line, col = key_at(node, key)
                found[json_path([*path, str(key)])] = (first_line + line, col + 1)
                walk(value, [*path, str(key)])
        elif isinstance(node, list):
            for i, item in enumerate(node):
                line, col = node.lc.item(i)
                found[json_path([*path, i])] = (first_line + line, col + 1)
                walk(item, [*path, i])

    walk(node, [])
    return found


def _key(mapping: dict, name: str) -> Any:
    """The key of ``mapping`` that reads ``name`` (``1.5`` for ``"1.5"``); None when there is none."""
    return next((key for key in mapping if str(key) == name), None)


def compose_yaml(text: str, *, any_tag: bool = False, aliases: bool = True) -> Any:
    """``text`` composed into ruamel.yaml's nodes, never constructed, within the limits of :func:`load_yaml`;
    None when it is not YAML read here.  ``any_tag``: an application tag (mkdocs.yml's
    ``!!python/name:...``) stays on its node instead of being refused; ``aliases=False``: a text holding an
    alias is not read either."""
    yaml = _round_trip(True, any_tag)
    try:
        node = yaml.compose(text)
    except Exception:  # noqa: BLE001  every failure of a file read on the side is "not read", never a traceback
        return None
    return None if not aliases and yaml.composer._aliases else node


def _round_trip(merge_keys: bool, any_tag: bool = False) -> Any:
    """ruamel.yaml in round-trip mode, bounded, quotes kept, dates left as the text that was written."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True  # `"8"` is a string to the notation, `8` an integer
    yaml.Composer = _bounded_composer(merge_keys, any_tag)
    yaml.Scanner = _bounded_scanner()
    yaml.Constructor = _text_dates_constructor()
    return yaml


@cache
def _bounded_composer(merge_keys: bool, any_tag: bool) -> type:
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.error import MarkedYAMLError
    from ruamel.yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    class Bounded(Composer):
        """A composer that counts what it builds and refuses what the module docstring lists."""

        key_collection = None
        """Where the first mapping or sequence used as a key starts."""

        def compose_document(self) -> Any:
            version = self.parser.peek_event().version
            if version not in (None, (1, 2)):  # 1.1 reads `yes`, `010` and `1:20` otherwise
                problem = f"%YAML {version[0]}.{version[1]} is not read here, only YAML 1.2: remove the directive"
                raise MarkedYAMLError(None, None, problem, self.parser.peek_event().start_mark)
            self.warn_double_anchors = False  # YAML 1.2: a later node may take an anchor again
            self._aliases = 0
            self._weight: dict[int, int] = {}
            self._nesting = 0
            return super().compose_document()

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            if isinstance(event, AliasEvent):
                self._aliases += 1
                if self._aliases > MAX_ALIASES:
                    raise MarkedYAMLError(None, None, f"more than {MAX_ALIASES} aliases in one document", event.start_mark)
                return super().compose_node(parent, index)
            tag = _tag(event)
            if tag is not None and tag not in ("!", "?") and tag not in _CORE_TAGS and not any_tag:
                raise MarkedYAMLError(None, None, f"tag {_shown(tag)} is not allowed (only plain YAML data is read)", event.start_mark)
            if isinstance(event, ScalarEvent) and not event.style and len(event.value) > MAX_INT_DIGITS and re.fullmatch(_INTEGER, event.value):
                problem = f"integer of {len(event.value)} digits: at most {MAX_INT_DIGITS} are read"
                raise MarkedYAMLError(None, None, problem, event.start_mark)
            nested = isinstance(event, (MappingStartEvent, SequenceStartEvent))
            if nested:
                self._nesting += 1
                if self._nesting > MAX_DEPTH:
                    raise MarkedYAMLError(None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
            node = super().compose_node(parent, index)
            if nested:
                self._nesting -= 1
            weight = 1
            if isinstance(node, SequenceNode):
                weight += sum(self._weight.get(id(item), 1) for item in node.value)
            elif isinstance(node, MappingNode):
                for key, value in node.value:
                    if not merge_keys and key.tag == _CORE + "merge":
                        raise MarkedYAMLError(None, None, "a merge key (<<) has no meaning here; write the keys out", key.start_mark)
                    if not isinstance(key, ScalarNode) and self.key_collection is None:
                        self.key_collection = key.start_mark
                    weight += self._weight.get(id(key), 1) + self._weight.get(id(value), 1)
            if weight > MAX_NODES:
                raise MarkedYAMLError(None, None, f"more than {MAX_NODES:,} values once its aliases are expanded", node.start_mark)
            self._weight[id(node)] = weight
            return node

    return Bounded


def _tag(event: Any) -> str | None:
    """An event's explicit tag, expanded (``!!str`` is ``tag:yaml.org,2002:str``)."""
    tag = getattr(event, "ctag", None)
    if tag is None or str(tag) == "None":
        return None
    text = str(getattr(tag, "value", tag))
    return _CORE + text[2:] if text.startswith("!!") else text


def _shown(tag: str) -> str:
    return "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else tag


@cache
def _text_dates_constructor() -> type:
    from ruamel.yaml.constructor import RoundTripConstructor

    class TextDates(RoundTripConstructor):
        pass

    TextDates.add_constructor(_CORE + "timestamp", RoundTripConstructor.construct_yaml_str)
    for name, what in (("int", "an integer"), ("float", "a number"), ("bool", "a boolean"), ("binary", "base64")):
        TextDates.add_constructor(_CORE + name, _checked(RoundTripConstructor.yaml_constructors[_CORE + name], what))
    return TextDates


def _checked(construct: Any, what: str) -> Any:
    """A scalar constructor whose failure (``!!int abc``, ``!!int`` on nothing) is a located error."""
    from ruamel.yaml.error import MarkedYAMLError

    def checked(constructor: Any, node: Any) -> Any:
        try:
            return construct(constructor, node)
        except MarkedYAMLError:
            raise
        except Exception:  # noqa: BLE001  ruamel.yaml's own failure has no words a user could act on
            raise MarkedYAMLError(None, None, f"not {what}: {node.value!r}", node.start_mark) from None

    return checked


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
