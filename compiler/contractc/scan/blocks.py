"""Stage 1 of ``scan``: the fenced blocks of one Markdown file, cut into the units that are grouped.

Blocks come from markdown-it-py's fence tokens (their line maps give the byte
span; no fence scanner here).  Three kinds are read:

* a YAML block (info ``yaml``/``yml``, or no info and a ``key:`` first line):
  one unit per top-level key, so a block holding two shapes is two units;
* a JSON block (info ``json``): one unit, an envelope or document, named by
  its discriminator (``"event": "dispatch"`` -> ``dispatch-envelope``) or by its
  top-level keys;
* a template (a plain, ``text`` or ``markdown`` fence holding ``<placeholders>``
  and a status line or headings, or only ``Label: value`` lines such as ``Packet ID:``):
  one unit named by its status line, first heading or first label.

Each unit records the stage it sits in (the nearest heading above it whose
title says *stage* or *phase*) and whether it is a worked example (see
:func:`contractc.load.worked.example_reason`, shared with ``check``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from contractc.load.slug import slugify
from contractc.load.source import SourceFile
from contractc.load.worked import Scalar as _Scalar
from contractc.load.worked import example_reason
from contractc.load.worked import is_notation as _is_notation

Kind = Literal["yaml", "json", "template"]

_YAML_INFO = {"yaml", "yml"}
_TEMPLATE_INFO = {"", "text", "txt", "markdown", "md", "plain"}
_TOP_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)")
_STATUS = re.compile(r"^\s*(?P<label>[A-Za-z_][\w-]*)[ \t]*:")
_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_PLACEHOLDER = re.compile(r"<[^<>\n]+>")
_LABEL_LINE = re.compile(r"^(?P<label>[A-Za-z][\w()/-]*(?: [\w()/-]+)*):(?:[ \t]+(?P<value>.*))?$")
_STAGE = re.compile(r"\b(stage|phase)\b", re.IGNORECASE)
# A top-level JSON key whose literal value names the variant of an envelope.
DISCRIMINATORS = ("event", "type", "kind", "action", "op", "message", "variant", "name")


@dataclass(frozen=True, slots=True)
class Block:
    """One fenced block as found in a file."""

    path: str
    kind: Kind
    line: int
    """1-based line of the opening fence."""
    col: int
    """1-based column of the opening fence (> 1 inside a list item or quote)."""
    start: int
    """Byte offset of the opening fence line."""
    end: int
    """Byte offset past the closing fence line."""
    info: str
    """The info string as written (``yaml``, ``json title="x"``)."""
    fence: str
    """The opening fence's backticks or tildes."""
    newline: str
    """The closing fence line's line break (empty at the end of a file without one)."""
    example: str
    """Why the block is a worked example, or empty when it is a shape's copy."""


@dataclass(frozen=True, slots=True)
class Unit:
    """What is grouped: one shape's copy (a YAML key, a JSON document, a template)."""

    block: Block
    key: str
    """The YAML key, the JSON envelope's name, the template's label."""
    text: str
    """The copy as compared: its lines, dedented (a YAML key: from its line to the next key's)."""
    line: int
    """1-based file line where the copy starts."""
    fields: frozenset[str]
    """Top-level field names (YAML: the key's fields; JSON: its keys; template: its normalised lines)."""
    stage: str | None
    """Slug of the enclosing stage heading (``review-stage``), None outside one."""


@cache
def _block_parser() -> Any:
    """CommonMark block structure only: fences and headings are all scan needs; inline parsing is a third of the cost."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable("inline")


def file_units(src: SourceFile) -> list[Unit]:
    """Every unit of one file, in source order; blocks that are none of the three kinds are skipped."""
    if "```" not in src.text and "~~~" not in src.text:
        return []  # no fence, no copy: most prose files, decided without parsing
    tokens = _block_parser().parse(src.text)
    headings: list[tuple[int, int, str]] = []  # (line, level, title)
    units: list[Unit] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map:
            headings.append((tok.map[0], int(tok.tag[1]), tokens[i + 1].content.strip()))
        if tok.type != "fence" or tok.map is None:
            continue
        start, end = tok.map
        units.extend(_units(src, tok, start, end, _stage(headings)))
    return units


def _stage(headings: list[tuple[int, int, str]]) -> str | None:
    """The stage heading enclosing the current position: walk outwards through the open headings."""
    level = 7
    for _, lvl, title in reversed(headings):
        if lvl < level:
            if _STAGE.search(title):
                return slugify(title)
            level = lvl
    return None


def _units(src: SourceFile, tok: Any, start: int, end: int, stage: str | None) -> list[Unit]:
    info = (tok.info.split() or [""])[0].lower()
    content = tok.content
    opening = src.line_text(start)
    col = len(opening) - len(opening.lstrip(" \t>")) + 1
    closed = end - start >= 2 and src.line_text(end - 1).lstrip(" \t>").startswith(tok.markup)
    if not closed:
        return []  # an unclosed fence runs to the end of the file: nothing to compare
    before = _line_before(src, start)
    kind: Kind | None = None
    labelled = _label_lines(content) if info in _TEMPLATE_INFO else None
    if labelled is not None:
        kind = "template"
    elif info in _YAML_INFO or (info == "" and _TOP_KEY.match(_first(content)) and not _PLACEHOLDER.search(content)):
        kind = "yaml"
    elif info == "json":
        kind = "json"
    elif info in _TEMPLATE_INFO and _is_template(content):
        kind = "template"
    if kind is None:
        return []

    closing = src.data[src.offset(end - 1) : src.offset(end)]
    newline = closing[len(closing.rstrip(b"\r\n")) :].decode()

    def block(example: str) -> Block:
        return Block(
            src.path, kind, start + 1, col, src.offset(start), src.offset(end), tok.info.strip(), tok.markup, newline, example
        )

    if kind == "yaml":
        return _yaml_units(content, start + 2, stage, before, block, "example" in tok.info.lower())
    if kind == "json":
        return _json_units(content, start + 2, stage, before, block, "example" in tok.info.lower())
    if labelled is not None:
        # a `Label: value` template: its labels are its fields, so one changed value is drift, not another shape
        example = example_reason([_Scalar(value or None) for _, value in labelled], before, "example" in tok.info.lower())
        return [Unit(block(example), slugify(labelled[0][0]), content, start + 2, frozenset(k for k, _ in labelled), stage)]
    lines = [_normal(line) for line in content.splitlines() if line.strip()]
    return [Unit(block(""), _template_label(content), content, start + 2, frozenset(lines), stage)]


def _label_lines(content: str) -> list[tuple[str, str]] | None:
    """The ``(label, value)`` lines of a report or hand-off template written as ``Packet ID:`` / ``Status: A | B``.

    Every non-blank line is ``Label:`` or ``Label: value`` at column 1, and some label is
    written for people (a capital or a space), which YAML shapes' snake_case keys are not.
    None for anything else: such a block is a YAML shape or a template of another kind.
    """
    pairs = []
    for line in content.splitlines():
        if not line.strip():
            continue
        m = _LABEL_LINE.match(line)
        if m is None:
            return None
        pairs.append((m["label"], (m["value"] or "").strip()))
    if len(pairs) < 2 or not any(" " in label or label[0].isupper() for label, _ in pairs):
        return None
    return pairs


def _first(content: str) -> str:
    return next((line for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")), "")


def _line_before(src: SourceFile, line: int) -> str:
    """The nearest non-blank line above 0-based ``line`` (the sentence that introduces a block)."""
    for n in range(line - 1, max(line - 4, -1), -1):
        text = src.line_text(n).strip()
        if text:
            return text
    return ""


def _is_template(content: str) -> bool:
    if not _PLACEHOLDER.search(content):
        return False
    first = _first(content)
    return bool(_STATUS.match(first) or any(_HEADING.match(line) for line in content.splitlines()))


def _template_label(content: str) -> str:
    first = next((line for line in content.splitlines() if line.strip()), "")
    status = _STATUS.match(first)
    if status and not first.lstrip().startswith("#"):
        return status["label"].lower()
    heading = _HEADING.match(first)
    return slugify(heading["title"]) if heading else slugify(first)[:40] or "template"


def _normal(line: str) -> str:
    return _PLACEHOLDER.sub("<>", line.strip())


def _yaml_units(content: str, first_line: int, stage: str | None, before: str, block, info_example: bool) -> list[Unit]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if not _plain_enough(content, loader):
            return []  # aliases or deep nesting: not a pasted shape, and unbounded to walk
        node = yaml.compose(content, Loader=loader)
    except (yaml.YAMLError, RecursionError):
        return []
    if not isinstance(node, yaml.MappingNode) or not node.value:
        return []
    lines = content.splitlines(keepends=True)
    starts = [k.start_mark.line for k, _ in node.value]
    # A comment or blank line before the first key belongs to it; trailing blanks belong to no key.
    bounds = [0, *starts[1:], len(lines)]
    example = example_reason([v for _, v in node.value], before, info_example)
    built = block(example)
    units = []
    for i, (key, value) in enumerate(node.value):
        chunk = lines[bounds[i] : bounds[i + 1]]
        while chunk and not chunk[-1].strip():
            chunk.pop()
        units.append(
            Unit(built, str(key.value), "".join(chunk), first_line + starts[i], frozenset(_fields(value)), stage)
        )
    return units


def _plain_enough(content: str, loader: Any) -> bool:
    """False for a block with an alias or nested more than MAX_DEPTH levels (see load/yaml_safe.py),
    decided from the event stream before any node is built: an alias bomb walked as a tree never ends."""
    import yaml

    from contractc.load.yaml_safe import MAX_DEPTH

    if len(content) > 1 << 20:
        return False
    depth = 0
    for event in yaml.parse(content, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            return False
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return True


def _fields(value: Any) -> list[str]:
    import yaml

    if isinstance(value, yaml.SequenceNode) and value.value:
        value = value.value[0]
    if isinstance(value, yaml.MappingNode):
        return [str(k.value) for k, _ in value.value]
    return []


def _json_units(content: str, first_line: int, stage: str | None, before: str, block, info_example: bool) -> list[Unit]:
    try:
        doc = json.loads(content)
    except (ValueError, RecursionError):  # too deep to parse (100,000 brackets): no pasted shape, as for YAML
        return []
    if not isinstance(doc, dict) or not doc:
        return []
    values = [_Scalar(v) for v in _leaves(doc)]
    example = example_reason(values, before, info_example)
    name = next(
        (f"{slugify(doc[k])}-envelope" for k in DISCRIMINATORS if isinstance(doc.get(k), str) and not _is_notation(doc[k])),
        None,
    )
    if name is None or not name.strip("-envelope"):
        name = slugify("-".join(sorted(doc)))[:60] or "json"
    return [Unit(block(example), name, content, first_line, frozenset(doc), stage)]


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]
