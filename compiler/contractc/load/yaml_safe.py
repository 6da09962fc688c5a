"""The one way contractc loads YAML: a light tree (positions, quotes, comments kept), bounded, errors located.

Every YAML text the tool reads -- ``contractc.yaml``, a contract's data-shape
blocks, a role file's front matter, a document given to ``validate`` -- goes
through :func:`load_yaml`.  Its events come from libyaml's C parser (PyYAML);
one small composer here builds a :class:`Yaml` tree from them, resolves
scalars by YAML 1.2's core schema (dates stay text, quoted stays a string) and
adds the limits a hostile or careless file needs, so that every such file is
answered in well under a second with a located message instead of minutes of
work, gigabytes of memory or a traceback:

- at most :data:`MAX_ALIASES` aliases, and at most :data:`MAX_NODES` values
  once every alias is expanded (a "billion laughs" bomb of a few hundred bytes
  expands to billions);
- nesting at most :data:`MAX_DEPTH` levels;
- integers of at most :data:`MAX_INT_DIGITS` digits (Python refuses more than
  4,300 and spends quadratic time below that);
- no explicit tag but the core schema's (``!!python/object/apply`` and every
  application tag are refused, not constructed);
- no merge key (``<<``) where the caller says it has no meaning (data shapes);
- YAML 1.2 only (a ``%YAML 1.1`` directive is refused, not read with 1.1's
  rules) and no mapping or sequence as a key.

An anchor defined again is not an error: as YAML 1.2 says, an alias names the
latest node with that anchor.

A text libyaml rejects, one that breaks a limit, one the composer cannot
answer alone (a duplicate key, an undefined alias, a second document) and one
holding what the two parsers read differently (:data:`_RUAMEL_ONLY`) is read
again by ruamel.yaml, the YAML 1.2 parser, imported only then, its events going
through the same composer: so every message and position is the one contractc
always gave.  The comments a key carries are those ruamel.yaml's round-trip
loader attached to it (see :meth:`_Composer.comment`).  Every YAML
error, the limits included, becomes one :class:`Diagnostic` here, at the file
line and column of the problem.  File-size limits and the refusal of
non-regular files live in :func:`contractc.output.files.read_regular`.
"""

import re
from functools import cache
from typing import Any, NamedTuple

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
_RUAMEL_ONLY = re.compile(r"[\t\x85\u2028\u2029]|(?:^|[\s\[{,])[&*][\w-]+[^\s\w\-,\[\]{}]|[|>][-+0-9]*#", re.ASCII)
"""What libyaml and ruamel.yaml read differently: line breaks to YAML 1.1 that are text to 1.2, a
tab or a ``#`` right after ``|`` that libyaml lets pass, an anchor name (``&a:b``) 1.2 reads further.
A text holding one is read by ruamel.yaml."""


class Yaml(NamedTuple):
    """One value of a YAML document as written."""

    kind: str
    """``map``, ``seq`` or ``scalar``."""
    line: int
    """0-based line in the parsed text (of its anchor or tag when it has one)."""
    col: int
    """0-based column, in characters."""
    value: Any
    """A scalar's meaning (None, bool, int, float or str); a sequence's items; a mapping's :class:`Entry` tuple."""
    style: str = ""
    """A scalar's: ``""`` plain, ``'`` or ``"`` quoted, ``|`` or ``>`` block; a collection's: ``flow`` or ``""``."""


class Entry(NamedTuple):
    """One key of a mapping, in source order (keys brought in by a merge key ``<<`` last)."""

    name: str
    """The key as text (``str`` of its value: ``1.50`` is ``1.5``, ``true`` is ``True``)."""
    key: Yaml
    value: Yaml
    comment: str
    """The end-of-line comment after the value (after the key for a block collection; for a block scalar,
    as ruamel.yaml has it, a comment line right after its text) and the comment lines below it indented
    past the key, without ``#``, joined by a space."""


def load_yaml(
    text: str, path: str, code: str, *, first_line: int = 1, col_offset: int = 0, merge_keys: bool = True, hint: str = "", what: str = "YAML"
) -> Yaml | None:
    """Parse ``text`` (whose first line is 1-based file line ``first_line``); None for an empty or null document.

    Raises :class:`ContractcError` with diagnostic ``code`` at the problem's file
    position for a syntax error and for every limit in the module docstring; its
    message starts with ``what``.
    """

    def located(line: int | None, col: int, problem: str) -> ContractcError:  # None: unmarked, the start of the text
        where = (first_line + line, col + 1 + col_offset) if line is not None else (first_line, 1 + col_offset)
        return ContractcError(Diagnostic(path, *where, code, f"{what}: {problem}", hint))

    import yaml

    try:
        if hasattr(yaml, "CSafeLoader") and not _RUAMEL_ONLY.search(text):
            return _Composer(text, merge_keys).document(yaml.parse(text, Loader=yaml.CSafeLoader))
    except (_Limit, yaml.YAMLError, RecursionError):  # said as ruamel.yaml's events say it, as contractc always has
        pass
    try:
        return _ruamel_load(text, merge_keys)
    except _Limit as limit:  # also what the composer could not answer alone and ruamel.yaml accepted
        raise located(limit.line, limit.col, limit.problem) from None
    except _RuamelError as exc:
        raise located(exc.line, exc.col, exc.problem) from None


def plain(node: Yaml | None) -> Any:
    """The tree as plain JSON types (dicts, lists, scalars): what validators and the typed model read."""
    if node is None:
        return None
    if node.kind == "map":
        return {entry.name: plain(entry.value) for entry in node.value}
    if node.kind == "seq":
        return [plain(item) for item in node.value]
    return node.value


def entry(node: Yaml | None, name: str) -> Entry | None:
    """The entry of mapping ``node`` whose key reads ``name``; None when there is none (or ``node`` is no mapping)."""
    if node is not None and node.kind == "map":
        for found in node.value:
            if found.name == name:
                return found
    return None


def locate(node: Yaml | None, key_path: list) -> tuple[int, int]:
    """The 1-based line and column, in the parsed text, of the deepest key of ``key_path`` (keys and list
    indexes, as jsonschema's ``error.absolute_path``) that ``node`` holds; (1, 1) when it holds none."""
    line, col = 1, 1
    for key in key_path:
        if node is not None and node.kind == "seq" and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line, col = node.line + 1, node.col + 1
        elif not isinstance(key, int) and (found := entry(node, str(key))) is not None:
            node = found.value
            line, col = found.key.line + 1, found.key.col + 1
        else:
            break
    return line, col


def positions(node: Yaml | None, first_line: int = 1) -> dict[str, tuple[int, int]]:
    """Every key path of ``node`` as :func:`~contractc.report.diagnostics.json_path` writes it (``$.contracts[0].path``)
    -> its 1-based file line (the text's first line being file line ``first_line``) and column."""
    found: dict[str, tuple[int, int]] = {}

    def walk(node: Yaml, path: list) -> None:
        if node.kind == "map":
            for e in node.value:
                found[json_path([*path, e.name])] = (first_line + e.key.line, e.key.col + 1)
                walk(e.value, [*path, e.name])
        elif node.kind == "seq":
            for i, item in enumerate(node.value):
                found[json_path([*path, i])] = (first_line + item.line, item.col + 1)
                walk(item, [*path, i])

    if node is not None:
        walk(node, [])
    return found


class _Limit(Exception):
    """A limit of the module docstring, at a 0-based position of the text."""

    def __init__(self, problem: str, mark: Any):
        super().__init__(problem)
        self.problem, self.line, self.col = problem, mark.line, mark.column


class _Unsure(_Limit):
    """Something ruamel.yaml rejects in its own words (duplicate key, undefined alias, ...): ask it."""


class _Composer:
    """Builds the :class:`Yaml` tree from a parser's events and refuses what the module docstring lists."""

    def __init__(self, text: str, merge_keys: bool):
        self.lines = text.split("\n")
        self.merge_keys = merge_keys
        self.anchors: dict[str, tuple[Yaml, int]] = {}
        self.anchor_comments: dict[str, Any] = {}
        self.aliases = 0
        self.depth = 0
        self.duplicate: _Unsure | None = None

    def document(self, events: Any) -> Yaml | None:
        events = iter(events)
        root: tuple[Yaml, int, Any] | None = None
        for event in events:
            name = type(event).__name__
            if name == "DocumentStartEvent":
                if root is not None:
                    raise _Unsure("a second document", event.start_mark)
                version = getattr(event, "version", None)
                if version not in (None, (1, 2)):  # 1.1 reads `yes`, `010` and `1:20` otherwise
                    problem = f"%YAML {version[0]}.{version[1]} is not read here, only YAML 1.2: remove the directive"
                    raise _Limit(problem, event.start_mark)
                root = self.node(next(events), events)
        if self.duplicate is not None:
            raise self.duplicate
        if root is None or (root[0].kind == "scalar" and root[0].value is None):
            return None
        return root[0]

    def node(self, event: Any, events: Any) -> tuple[Yaml, int, Any]:
        """The node that ``event`` starts, its weight (values once aliases are expanded) and its end mark."""
        kind = type(event).__name__
        if kind == "AliasEvent":
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _Limit(f"more than {MAX_ALIASES} aliases in one document", event.start_mark)
            if event.anchor not in self.anchors:
                raise _Unsure(f"found undefined alias {event.anchor!r}", event.start_mark)
            return (*self.anchors[event.anchor], event.end_mark)
        tag = _tag(event)
        if tag is not None and tag not in ("!", "?") and tag not in _CORE_TAGS:
            raise _Limit(f"tag {_shown(tag)} is not allowed (only plain YAML data is read)", event.start_mark)
        if kind == "ScalarEvent":
            if not event.style and len(event.value) > MAX_INT_DIGITS and re.fullmatch(_INTEGER, event.value):
                raise _Limit(f"integer of {len(event.value)} digits: at most {MAX_INT_DIGITS} are read", event.start_mark)
            text = event.value.replace("\a", "") if event.style == ">" else event.value  # ruamel.yaml marks folds with BEL
            meaning = _resolve(text, event.style, tag, event.start_mark)
            built = Yaml("scalar", event.start_mark.line, event.start_mark.column, meaning, event.style or "")
            weight, end = 1, event.end_mark
        else:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise _Limit(f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
            if tag in (_CORE + "seq", _CORE + "map") and tag != _CORE + ("map" if kind == "MappingStartEvent" else "seq"):
                raise _Unsure(f"a collection tagged {_shown(tag)}", event.start_mark)
            built, weight, end = (self.mapping if kind == "MappingStartEvent" else self.sequence)(event, events)
            self.depth -= 1
            if weight > MAX_NODES:
                raise _Limit(f"more than {MAX_NODES:,} values once its aliases are expanded", event.start_mark)
        if event.anchor is not None:
            self.anchors[event.anchor] = (built, weight)
            self.anchor_comments[event.anchor] = None
        return built, weight, end

    def sequence(self, start: Any, events: Any) -> tuple[Yaml, int, Any]:
        items, weight = [], 1
        for event in events:
            if type(event).__name__ == "SequenceEndEvent":
                return _collection("seq", start, items), weight, event.end_mark
            item, item_weight, _ = self.node(event, events)
            items.append(item)
            weight += item_weight
        raise _Unsure("the event stream ended inside a sequence", start.start_mark)

    def mapping(self, start: Any, events: Any) -> tuple[Yaml, int, Any]:
        entries: list[Entry] = []
        merges: list[tuple[Yaml, Any]] = []
        seen: set = set()
        weight, refused = 1, None
        for event in events:
            if type(event).__name__ == "MappingEndEvent":
                break
            key, key_weight, key_end = self.node(event, events)
            value_event = next(events)
            value, value_weight, value_end = self.node(value_event, events)
            weight += key_weight + value_weight
            if key.kind == "scalar" and key.style == "" and key.value == "<<" and _tag(event) in (None, _CORE + "merge"):
                if not self.merge_keys and refused is None:  # said once the mapping is read, as ruamel.yaml's composer did
                    refused = _Limit("a merge key (<<) has no meaning here; write the keys out", event.start_mark)
                merges.append((value, value_event.start_mark))
                continue
            if key.kind != "scalar":
                raise _Unsure("a mapping or sequence as a key", event.start_mark)
            if key.value in seen and self.duplicate is None:  # ruamel.yaml's constructor refuses it once all is read
                self.duplicate = _Unsure(f"found duplicate key {key.value!r}", event.start_mark)
            seen.add(key.value)
            if start.flow_style:
                token = None
            elif type(value_event).__name__ == "AliasEvent":  # as ruamel.yaml has it: the comment at the anchor
                token = self.anchor_comments.get(value_event.anchor)
            else:
                token = self.comment(key_end, value, value_end)
                if value_event.anchor is not None:
                    self.anchor_comments[value_event.anchor] = token
            comment = _attached(token, key.col)
            entries.append(Entry(str(key.value), key, value, comment))
        else:
            raise _Unsure("the event stream ended inside a mapping", start.start_mark)
        if refused is not None:
            raise refused
        for source, mark in merges:
            for merged in source.value if source.kind == "seq" else (source,):
                if merged.kind != "map":
                    raise _Unsure("expected a mapping or list of mappings for merging", mark)
                for inherited in merged.value:
                    if inherited.key.value not in seen:
                        seen.add(inherited.key.value)
                        entries.append(inherited)
        return _collection("map", start, entries), weight, event.end_mark

    def comment(self, key_end: Any, value: Yaml, value_end: Any) -> tuple[str, tuple[tuple[int, str], ...]] | None:
        """The comment after a key's value as ruamel.yaml gathers it: the end-of-line comment after
        the value on its last line (after the key for a block collection; for a block scalar, the
        comment line right after its text) and the comment lines below it with their indents.
        None when there is none: more YAML on that line, or an empty or flow value without one.
        """
        block = value.kind != "scalar" and value.style != "flow" and (value.line, value.col) > (key_end.line, key_end.column)
        line, col = (key_end.line, key_end.column) if block else (value_end.line, value_end.column)
        if value.style in ("|", ">") and "+" not in _block_header(self.lines[value.line][value.col :]):
            line, col = value_end.line + (value_end.column > 0), 0  # > 0: the text ends without a line break
            while line > value.line + 1 and not self.lines[line - 1].strip():
                line -= 1  # the blank lines a clipped or stripped block scalar ends with are not its text
        if line >= len(self.lines):
            return None
        rest = self.lines[line][col:].strip()
        if block:
            rest = rest[1:].strip() if rest.startswith(":") else rest
        empty = value.kind == "scalar" and (value.line, value.col) == (value_end.line, value_end.column)
        if not rest.startswith("#") and (rest or empty or block or value.style == "flow"):
            return None
        below = []
        for raw in self.lines[line + 1 :]:
            stripped = raw.lstrip()
            if not stripped.startswith("#"):
                break
            below.append((len(raw) - len(stripped), stripped.lstrip("#").strip()))
        return rest.lstrip("#").strip(), tuple(below)


def _collection(kind: str, start: Any, content: list) -> Yaml:
    return Yaml(kind, start.start_mark.line, start.start_mark.column, tuple(content), "flow" if start.flow_style else "")


def _attached(token: tuple[str, tuple[tuple[int, str], ...]] | None, key_col: int) -> str:
    """A comment as a field carries it: the first line and the lines below indented past the key, joined."""
    if token is None:
        return ""
    parts = [token[0]]
    for indent, text in token[1]:
        if indent <= key_col:
            break
        parts.append(text)
    return " ".join(p for p in parts if p)


def _block_header(text: str) -> str:
    """A block scalar's indicators (``|+``, ``>2-``) from the text its node starts with (anchor and tag first)."""
    found = re.search(r"[|>][-+0-9]*", text)
    return found.group(0) if found else ""


def _tag(event: Any) -> str | None:
    """An event's explicit tag, expanded (``!!str`` is ``tag:yaml.org,2002:str``)."""
    ctag = getattr(event, "ctag", None)  # ruamel.yaml's events
    tag = str(ctag) if ctag is not None else getattr(event, "tag", None)
    if tag is None or tag == "None":
        return None
    return _CORE + tag[2:] if tag.startswith("!!") else tag


def _shown(tag: str) -> str:
    return "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else tag


# --------------------------------------------------------------------------------- YAML 1.2 core scalars

_FLOAT = re.compile(
    r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)"
    r"|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_INT = re.compile(r"[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+")
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS_BY_TAG = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def _resolve(text: str, style: str | None, tag: str | None, mark: Any) -> Any:
    """A scalar's meaning: YAML 1.2 core for a plain scalar without a tag, as ruamel.yaml reads it
    (``0o17``, ``0x1F``, ``1_000`` are integers; ``yes`` and dates are text); text when quoted."""
    if tag is None or tag == "!":  # ruamel.yaml resolves the non-specific tag `!` as if plain
        if style and tag is None:
            return text
        first = text[:1]
        if first in "tTfF" and text in _BOOLS:
            return _BOOLS[text]
        if first in "-+0123456789.":
            if _FLOAT.fullmatch(text):
                return _float(text, mark)
            if first != "." and _INT.fullmatch(text):
                return _int(text, mark)
        return None if text in _NULLS else text
    name = tag.removeprefix(_CORE)
    if name == "null":
        return None
    if name == "bool" and text.lower() in _BOOLS_BY_TAG:
        return _BOOLS_BY_TAG[text.lower()]
    if name == "int":
        return _int(text, mark)
    if name == "float":
        return _float(text, mark)
    if name == "binary":
        import base64
        import binascii

        try:
            return str(base64.decodebytes(text.encode("ascii")))  # as ruamel.yaml's bytes became text
        except (binascii.Error, UnicodeEncodeError):
            raise _Unsure(f"not base64: {text!r}", mark) from None
    if name in ("str", "timestamp"):  # a date stays text
        return text
    raise _Unsure(f"a scalar tagged {_shown(tag)}", mark)


def _int(text: str, mark: Any) -> int:
    digits = text.replace("_", "")
    sign = -1 if digits[:1] == "-" else 1
    digits = digits.lstrip("+-")
    base = {"0b": 2, "0x": 16, "0o": 8}.get(digits[:2], 10)
    try:
        return sign * int(digits[2:] if base != 10 else digits, base)
    except ValueError:
        raise _Unsure(f"not an integer: {text!r}", mark) from None


def _float(text: str, mark: Any) -> float:
    digits = text.replace("_", "").lower()
    try:
        return float(digits.replace(".inf", "inf").replace(".nan", "nan"))
    except ValueError:
        raise _Unsure(f"not a number: {text!r}", mark) from None


# ------------------------------------------------------------------------------------ ruamel.yaml fallback


class _RuamelError(Exception):
    def __init__(self, problem: str, line: int | None, col: int):
        super().__init__(problem)
        self.problem, self.line, self.col = problem, line, col


def _ruamel_load(text: str, merge_keys: bool) -> Yaml | None:
    """ruamel.yaml's answer for a text libyaml rejects: its events through the same composer, or its error."""
    import warnings

    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        try:
            return _Composer(text, merge_keys).document(_round_trip().parse(text))
        except _Unsure:  # every limit held up to here: ruamel.yaml says what it refuses, in its words
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an anchor defined again is no mistake (module docstring)
                try:
                    _round_trip().load(text)
                except (MarkedYAMLError, YAMLError, ValueError, RecursionError):
                    raise
                except Exception:  # ruamel.yaml fails without a message of its own (`!!int` on nothing): ours
                    pass
            raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise _RuamelError(problem, mark.line if mark else 0, mark.column if mark else 0) from None
    except (YAMLError, ValueError, RecursionError) as exc:  # an unmarked error: the start of the text
        raise _RuamelError(str(exc), None, 0) from None
    except _Limit:
        raise
    except Exception as exc:  # noqa: BLE001  ruamel.yaml failing on its own (an assertion on odd comments): no traceback
        raise _RuamelError(str(exc) or "this text cannot be read as YAML", None, 0) from None


def _round_trip() -> Any:
    """ruamel.yaml in round-trip mode, its flow nesting bounded, dates left as the text that was written."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
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
