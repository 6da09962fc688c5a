"""Stage 1 of ``scan``: the fenced blocks of one Markdown file, cut into the units that are grouped.

Blocks come from markdown-it-py's fence tokens (their line maps give the byte
span; no fence scanner here).  Three kinds are read:

* a YAML block (info ``yaml``/``yml``, or no info and a ``key:`` first line):
  one unit per top-level key, so a block holding two shapes is two units; a
  fenced front matter (``---`` lines around YAML, then a Markdown body) is one
  ``front-matter`` unit, and its body a template when it is one;
* a JSON block (info ``json``): one unit, an envelope or document;
* a template (a plain, ``text`` or ``markdown`` fence): placeholders in any of
  the common styles (``<x>``, ``{x}``, ``{{x}}``, ``[x]``, ``...``, ``…``; an HTML
  comment is not one) with a status line, headings, ``Label: value`` lines or
  XML-style tags; a heading skeleton (``## ROOT CAUSE FOUND`` and
  ``**Field:** value`` lines); or only ``Label: value`` lines (``Packet ID:``).

Each unit carries its *structure* (:attr:`Unit.paths`: key paths at every
depth, headings, labels, tags) and its *slots* (:attr:`Unit.slots`: the value
written at each of them), which :mod:`.shapes` groups and compares; nested
mappings of three or more keys are offered as units of their own
(:attr:`Unit.within`), so an element pasted elsewhere is found.  A unit also
records the stage heading it sits in (a name, never a reason to split a
group), its variant (the literal value of a discriminating field such as
``status: failed``) and whether it is a worked example (see
:func:`contractc.load.worked.example_reason`, shared with ``check``).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from contractc.load.slug import slugify
from contractc.load.yaml_safe import MAX_DEPTH
from contractc.load.source import SourceFile
from contractc.load.worked import Scalar as _Scalar
from contractc.load.worked import EXAMPLE_WORDS, TooDeep, compose_plain, example_reason
from contractc.load.worked import is_notation as _is_notation
from contractc.report.diagnostics import ContractcError, Diagnostic

Kind = Literal["yaml", "json", "template"]

_YAML_INFO = {"yaml", "yml"}
_MARKUP_INFO = {"xml", "html"}
_TEMPLATE_INFO = {"", "text", "txt", "markdown", "md", "plain", *_MARKUP_INFO}
"""Fences read as templates: plain text, Markdown, and the markup a tag-wrapped template is written in."""
_READ_INFO = _YAML_INFO | _TEMPLATE_INFO | {"json"}
_INNER_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)
_TOP_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)")
_STATUS = re.compile(r"^\s*(?P<label>[A-Za-z_][\w-]*)[ \t]*:")
_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
# Placeholders in every common style; `<!-- comment -->` and `</tag>` are not ones, nor `[ ]`/`[x]` checkboxes
# or `[text](link)`; a lone `<tag>` line is a tag when its `</tag>` follows (see _placeholders).
PLACEHOLDER = re.compile(  # `<a@b.c>` and `<https://…>` are addresses (CommonMark autolinks), not placeholders
    r"\{\{[^{}\n]+\}\}|\{[^{}\n]+\}|<(?![!/])(?![\w.+-]+@[\w-]+\.[\w.-]+>)(?!https?://)[^<>\n]+>|\[(?![ xX]\])[^\[\]\n]+\](?![(\[:])|\.\.\.|…"
)
_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[[ xX]\]\s")
_TAG_LINE = re.compile(r"^\s*</?(?P<tag>[A-Za-z_][\w-]*)>\s*$")
_LABEL_LINE = re.compile(r"^(?P<label>[A-Za-z][\w()/-]*(?: [\w()/-]+)*):(?:[ \t]+(?P<value>.*))?$")
# `**Field:** value`, `- **Field**: value`, `Field: value`: a label written for people, at a line's start
_MD_LABEL = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<label>[^*:\n]{1,60}?)(?::\*\*|\*\*:)(?P<value>.*)$")
_STAGE = re.compile(r"\b(stage|phase)\b", re.IGNORECASE)
# A top-level key whose literal value names the variant of an envelope (status: success / failed).
DISCRIMINATORS = (
    "status", "result", "outcome", "verdict", "state", "event", "type", "kind", "action", "op", "message", "variant",
)
_DISCRIMINATING = frozenset(DISCRIMINATORS)
_WORD = re.compile(r"[\w.-]{1,40}")
NESTED_KEYS = 3
"""A nested mapping with at least this many keys is offered as a unit of its own (an element pasted elsewhere)."""


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
    before: str = ""
    """The nearest non-blank line above the fence (the sentence that introduces it)."""
    heading: str = ""
    """The nearest heading above the fence, as written (a name for a JSON shape, never a reason to group)."""
    indent: str = ""
    """The spaces before the opening fence in a list item (a region there is indented alike); empty at column 1."""

    @property
    def quoted(self) -> bool:
        """Inside a quote (``> ```yaml``): no region can sit there, its marker lines would need the ``>``."""
        return self.col > 1 and not self.indent


@dataclass(frozen=True, slots=True)
class Unit:
    """What is grouped: one shape's copy (a YAML key, a JSON document, a template, a nested mapping)."""

    block: Block
    key: str
    """The YAML key, the JSON envelope's name, the template's title or label."""
    text: str
    """The copy as compared: its lines, dedented (a YAML key: from its line to the next key's)."""
    line: int
    """1-based file line where the copy starts."""
    stage: str | None
    """Slug of the enclosing stage heading (``review-stage``), None outside one: names a shape, never splits one."""
    paths: frozenset[str] = frozenset()
    """The structure: key paths at every depth (``a``, ``a.b``, ``a[].c``), or a template's headings, labels, tags."""
    slots: tuple[tuple[str, str], ...] = ()
    """(path, value as written) for each leaf of the structure, in source order."""
    variant: str = ""
    """``status=failed``: the literal value of a discriminating field, empty when none is written."""
    within: str = ""
    """For a nested mapping: the key path it sits at in its block (``per_reviewer_results[]``); empty for a block's own unit."""


@cache
def _block_parser() -> Any:
    """CommonMark block structure only: fences and headings are all scan needs; inline parsing is a third of the cost.

    HTML blocks are not read either: a fence right under a ``<tag>`` line is a fence, as ``check`` (which finds
    fences in the bytes) reads it, where CommonMark would hide it in the HTML block (prompt files do this often);
    nor are link reference definitions, which hold no fence."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable(["inline", "reference", "html_block"])


def file_units(src: SourceFile) -> list[Unit]:
    """Every unit of one file, in source order; blocks that are none of the three kinds are skipped."""
    fenced = "```" in src.text or "~~~" in src.text
    if not fenced and "\n</" not in src.text:
        return []  # no fence and no closing tag line, no copy: most prose files, decided without parsing
    tokens = _block_parser().parse(src.text)
    headings: list[tuple[int, int, str]] = []  # (line, level, title)
    units: list[Unit] = []
    deep: list[Diagnostic] = []
    fences: list[tuple[int, int]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map:
            headings.append((tok.map[0], int(tok.tag[1]), tokens[i + 1].content.strip()))
        if tok.type != "fence" or tok.map is None:
            continue
        start, end = tok.map
        fences.append((start, end))
        try:
            units.extend(_units(src, tok, start, end, _stage(headings), headings[-1][2] if headings else ""))
        except TooDeep:
            deep.append(
                Diagnostic(
                    src.path, start + 1, 1, "scan-too-deep",
                    f"this fenced block nests deeper than {MAX_DEPTH} levels: scan cannot read it safely, so it read nothing of the plugin",
                    f"leave the file out with --exclude {shlex.quote(src.path)}, or flatten the block",
                )
            )  # fmt: skip
    if deep:
        raise ContractcError(deep)
    if "\n</" in src.text:
        units += _tag_sections(src, fences, headings)
    return units


_SECTION = re.compile(r"^<(?P<tag>[A-Za-z_][\w-]*)>[ \t]*$")
SECTION_LINES = 60
"""An unfenced ``<tag>`` ... ``</tag>`` section is a template only when it closes within this many lines."""


def _tag_sections(src: SourceFile, fences: list[tuple[int, int]], headings: list[tuple[int, int, str]]) -> list[Unit]:
    """Templates pasted without a fence: a ``<tag>`` line, then ``**Label:** [x]`` or checkbox lines, then ``</tag>``,
    outside every fenced block (a section agents paste as it is)."""
    fenced = set()
    for start, end in fences:
        fenced.update(range(start, end))
    units: list[Unit] = []
    n, count = 0, src.line_count
    while n < count:
        opening = _SECTION.match(src.line_text(n)) if n not in fenced else None
        if opening is None:
            n += 1
            continue
        close = f"</{opening['tag']}>"
        last = next((m for m in range(n + 1, min(count, n + SECTION_LINES)) if m in fenced or src.line_text(m).strip() == close), None)
        if last is None or last in fenced:
            n += 1
            continue
        content = "".join(src.line_text(m) + "\n" for m in range(n, last + 1))
        before = _line_before(src, n)
        closing = src.data[src.offset(last) : src.offset(last + 1)]
        newline = closing[len(closing.rstrip(b"\r\n")) :].decode()
        shown = illustration(before, content)
        above = [h for h in headings if h[0] < n]

        def block(kind: Kind, example: str, n: int = n, last: int = last) -> Block:
            return Block(src.path, kind, n + 1, 1, src.offset(n), src.offset(last + 1), "", "", newline, shown or example,
                         before, above[-1][2] if above else "")

        units += _template_units(content, n + 1, _stage(above), before, block, False, tagged=True)
        n = last + 1
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


def _units(src: SourceFile, tok: Any, start: int, end: int, stage: str | None, heading: str) -> list[Unit]:
    info = (tok.info.split() or [""])[0].lower()
    if info not in _READ_INFO:
        return []  # code (```bash, ```python): no shape is pasted there
    content = tok.content
    opening = src.line_text(start)
    col = len(opening) - len(opening.lstrip(" \t>")) + 1
    closed = end - start >= 2 and src.line_text(end - 1).lstrip(" \t>").startswith(tok.markup)
    if not closed or _INNER_FENCE.search(content):
        return []  # an unclosed fence, or a fence line inside: the file's fences are unbalanced, nothing to compare
    before = _line_before(src, start)
    info_example = "example" in tok.info.lower()
    at, stop = src.line_starts[start], src.offset(end)
    closing = src.data[src.line_starts[end - 1] : stop]
    newline = closing[len(closing.rstrip(b"\r\n")) :].decode()

    shown = illustration(before, content)

    def block(kind: Kind, example: str) -> Block:
        return Block(
            src.path, kind, start + 1, col, at, stop, tok.info.strip(), tok.markup, newline,
            shown or example, before, heading, "" if opening[: col - 1].strip(" ") else opening[: col - 1],
        )

    first_line = start + 2
    front = _front_matter(content) if info in _YAML_INFO or info in _TEMPLATE_INFO else None
    if front is not None:
        yaml_text, body_at = front
        units = _front_units(content, yaml_text, first_line, stage, before, block, info_example)
        body = "".join(content.splitlines(keepends=True)[body_at:])
        if body.strip():
            units += _template_units(body, first_line + body_at, stage, before, block, info_example)
        return units
    if info in _TEMPLATE_INFO:
        labelled = _label_lines(content)
        if labelled is not None:
            return [_label_unit(content, labelled, first_line, stage, before, block, info_example)]
    if info in _YAML_INFO:
        return _yaml_units(content, first_line, stage, before, block, info_example)
    if info == "" and _TOP_KEY.match(_first(content)):
        found = _yaml_units(content, first_line, stage, before, block, info_example)
        if found:
            return found  # plain YAML, placeholders inside its strings or not
    if info == "json":
        return _json_units(content, first_line, stage, before, block, info_example)
    if info in _TEMPLATE_INFO:
        return _template_units(content, first_line, stage, before, block, info_example, info in _MARKUP_INFO)
    return []


def _front_matter(content: str) -> tuple[str, int] | None:
    """(the YAML between the ``---`` lines, index of the body's first line) when the block opens with front matter."""
    if content[: content.find("\n")].strip() != "---":
        return None  # decided from the first line: most blocks hold no front matter
    lines = content.splitlines(keepends=True)
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return "".join(lines[1:i]), i + 1
    return None


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


def _label_unit(content: str, labelled, first_line: int, stage, before: str, block, info_example: bool) -> Unit:
    # a `Label: value` template: its labels are its structure, so one changed value is drift or an instance, not another shape
    example = example_reason([_Scalar(value or None) for _, value in labelled], before, info_example)
    paths = frozenset(f"label:{_norm_label(k)}" for k, _ in labelled)
    slots = tuple((f"label:{_norm_label(k)}", v) for k, v in labelled)
    return Unit(
        block("template", example), slugify(labelled[0][0]), content, first_line, stage, paths, slots, _variant(dict((_norm_label(k), v) for k, v in labelled)),
    )


_ILLUSTRATION = re.compile(
    r"(?i)^\W*(good|bad|wrong|right|correct|incorrect|better|worse|avoid|don'?t|do not)\b|[❌✅👍👎]|\b(good|bad) example"
)


def illustration(before: str, content: str) -> str:
    """Why a block is a Good or Bad illustration (``Bad:`` above it, ``❌ WRONG`` as its first line); empty otherwise."""
    first = next((line.strip() for line in content.splitlines() if line.strip()), "")
    if _ILLUSTRATION.search(before) or _ILLUSTRATION.match(first):
        return "a Good/Bad illustration, not the shape itself"
    return ""


def _first(content: str) -> str:
    return next((line for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")), "")


def _line_before(src: SourceFile, line: int) -> str:
    """The nearest non-blank line above 0-based ``line`` (the sentence that introduces a block)."""
    for n in range(line - 1, max(line - 4, -1), -1):
        text = src.line_text(n).strip()
        if text:
            return text
    return ""


def _placeholders(content: str) -> list[str]:
    """The placeholders written in ``content``: a ``<tag>`` whose ``</tag>`` is there too is markup, not a placeholder."""
    found = PLACEHOLDER.findall(content)
    if "</" in content:
        found = [p for p in found if not (p.startswith("<") and f"</{p[1:].split()[0].rstrip('>')}" in content)]
    return found


def _norm_label(label: str) -> str:
    return " ".join(label.strip(" *:_`").lower().split())


def _normal(line: str) -> str:
    """A line with every placeholder alike, so a renamed placeholder is not another structure."""
    return " ".join(PLACEHOLDER.sub("<>", line.strip()).split())


def structure_line(line: str, closed: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """(structure path, value) of a template line that is structure: a heading, a label, a tag, a status line.

    The one reader of a template line's structure: check holds instance regions to it too
    (:mod:`contractc.drift.structure`).

    A ``<word>`` line is a tag only when ``</word>`` closes it somewhere in the block (``closed``); else a placeholder.
    """
    heading = _HEADING.match(line)
    if heading:
        level = len(line.lstrip()) - len(line.lstrip().lstrip("#"))
        return f"h{level}:{_normal(heading['title']).lower()}", ""
    md = _MD_LABEL.match(line)
    if md:
        return f"label:{_norm_label(md['label'])}", md["value"].strip(" *")
    tag = _TAG_LINE.match(line)
    if tag and (line.lstrip().startswith("</") or tag["tag"] in closed):
        return f"tag:{tag['tag'].lower()}", ""
    plain = _LABEL_LINE.match(line.strip()) if not line[:1].isspace() else None
    if plain and len(plain["label"]) <= 40:
        return f"label:{_norm_label(plain['label'])}", (plain["value"] or "").strip()
    return None


def _template_units(
    content: str, first_line: int, stage, before: str, block, info_example: bool, markup: bool = False, tagged: bool = False
) -> list[Unit]:
    """``markup``: an ``xml`` or ``html`` fence, a template only when it holds Markdown labels or headings (a
    ``<reply_form>`` of ``**Label:** [x]`` lines), never for its tags alone (a task in XML is code, filled in);
    ``tagged``: an unfenced ``<tag>`` section, a template when it holds two label lines with placeholders in
    their values, or two checkbox lines."""
    numbered = [(n, line) for n, line in enumerate(content.splitlines()) if line.strip()]
    lines = [line for _, line in numbered]
    if not lines:
        return []
    placeholders = _placeholders(content)
    structure: list[tuple[str, str]] = []
    at: list[int] = []
    """The content line of each structure entry."""
    prose: list[str] = []
    closed = frozenset(re.findall(r"</([A-Za-z_][\w-]*)>", content))
    for n, line in numbered:
        found = structure_line(line, closed)
        if found:
            structure.append(found)
            at.append(n)
        elif structure:
            structure[-1] = (structure[-1][0], (structure[-1][1] + "\n" + line.strip()).strip())
        else:
            prose.append(line.strip())
    headings = sum(1 for p, _ in structure if p.startswith("h"))
    labels = sum(1 for p, _ in structure if p.startswith("label:"))
    tags = sum(1 for p, _ in structure if p.startswith("tag:"))
    skeleton = headings >= 1 and labels >= 2
    status = bool(_STATUS.match(lines[0])) and not lines[0].lstrip().startswith("#")
    lined = bool(placeholders) and len(lines) >= 3  # a box or message with placeholders: its lines are its structure
    if not (tagged or skeleton or lined or (placeholders and (headings or labels >= 2 or tags or status))):
        return []
    if markup and not (headings or labels >= 2):
        return []
    filled_in = sum(1 for p, v in structure if p.startswith("label:") and PLACEHOLDER.search(v))
    if tagged and filled_in < 2 and sum(1 for line in lines if _CHECKBOX.match(line)) < 2:
        return []  # a prompt's own section (`<objective>`, `**Your job:** ...`), not a template pasted as it is
    if len(structure) < 2:
        structure = [(f"line:{_normal(line)}", line.strip()) for line in lines]  # too little structure: every line is
        prose = []
    paths = frozenset(p for p, _ in structure)
    if prose:
        structure.insert(0, ("", "\n".join(prose)))
    values = [_Scalar(v or None) for p, v in structure if p.startswith("label:")]
    example = example_reason(values, before, info_example) if values else ""
    if not example.startswith("the text above"):
        example = ""  # a template's plain field descriptions are its definition; only the text above makes it an example
    if not values and (info_example or re.search(EXAMPLE_WORDS, before)) and len(placeholders) * 2 < len(lines):
        # no fields to weigh (a tag-wrapped or line template): the text above calls it an example, and most of its
        # lines are filled in
        example = f"the text above calls it an example ({before[:60]!r}) and most of its lines are concrete"
    key = _template_label(lines, closed)
    variant = _variant({p[6:]: v for p, v in structure if p.startswith("label:")})
    built = block("template", example)
    unit = Unit(built, key, content, first_line, stage, paths, tuple(structure), variant)
    return [unit, *_sections(unit, content, structure[1:] if prose else structure, at)]


def _sections(unit: Unit, content: str, structure: list[tuple[str, str]], at: list[int]) -> list[Unit]:
    """The heading sections of a template holding :data:`NESTED_KEYS` or more structure lines (a heading and its
    label lines, up to the next heading of its level or higher), each offered as a nested unit: a section pasted
    elsewhere as a template of its own joins that shape. Not the template itself, nor a line template's lines."""
    if len(structure) != len(at) or not any(p[:1] == "h" for p, _ in structure):
        return []
    raw = content.splitlines(keepends=True)
    found = []
    for i, (path, _) in enumerate(structure):
        if path[:1] != "h" or not path[1:2].isdigit():
            continue
        level = int(path[1])
        end = next((j for j in range(i + 1, len(structure)) if structure[j][0][:1] == "h" and int(structure[j][0][1]) <= level), len(structure))
        if end - i < NESTED_KEYS or (i == 0 and end == len(structure)):
            continue
        stop = at[end] if end < len(structure) else len(raw)
        part = structure[i:end]
        name = slugify(PLACEHOLDER.sub("", path.split(":", 1)[1])) or unit.key
        found.append(
            Unit(unit.block, name, "".join(raw[at[i] : stop]).rstrip("\n") + "\n", unit.line + at[i], unit.stage,
                 frozenset(p for p, _ in part), tuple(part), "", f"{unit.key}.{name}")
        )
    return found


def _template_label(lines: list[str], closed: frozenset[str] = frozenset()) -> str:
    """The template's name: its status line's label, its title heading, its first tag or its first label."""
    first = lines[0]
    heading = _HEADING.match(first)
    if heading and slugify(PLACEHOLDER.sub("", heading["title"])):
        return slugify(PLACEHOLDER.sub("", heading["title"]))
    status = _STATUS.match(first)
    if status:
        return status["label"].lower()
    for line in lines:
        found = structure_line(line, closed)
        if found and found[0].startswith(("h", "tag:", "label:")) and slugify(found[0].split(":", 1)[1].replace("<>", "")):
            return slugify(found[0].split(":", 1)[1].replace("<>", ""))
    for line in lines:  # a box or message: its first line with words, in at most five of them
        words = slugify(PLACEHOLDER.sub("", line)).split("-")
        if any(w for w in words):
            return "-".join(w for w in words if w)[:60].rsplit("-", max(0, len([w for w in words if w]) - 5))[0]
    return "template"


def _variant(values: dict[str, str] | tuple[tuple[str, str], ...]) -> str:
    """``status=failed`` from the first discriminating field whose value is a literal word; empty otherwise (``values``:
    field -> value, or the (path, value) slots of a data block, whose top-level fields are the paths without a dot)."""
    found = values if isinstance(values, dict) else {p: v for p, v in values if p in _DISCRIMINATING}
    for key in DISCRIMINATORS:
        value = found.get(key)
        if isinstance(value, str):
            word = value.split("#")[0].strip().strip("\"'`*")
            if word and _WORD.fullmatch(word) and not _is_notation(word):
                return f"{key}={word.lower()}"
    return ""


def _front_units(content: str, yaml_text: str, first_line: int, stage, before: str, block, info_example: bool) -> list[Unit]:
    """A fenced front matter: one ``front-matter`` unit (its keys are the structure)."""
    import yaml

    node = compose_plain(yaml_text)
    if not isinstance(node, yaml.MappingNode) or not node.value:
        return []
    lines = content.splitlines(keepends=True)
    text = "".join(lines[: yaml_text.count("\n") + 2])
    paths, slots = _structure(node, yaml_text.splitlines())
    example = example_reason([v for _, v in node.value], before, info_example)
    return [
        Unit(
            block("yaml", example), "front-matter", text, first_line, stage, paths, slots, _variant(slots),
        )
    ]


def _yaml_units(content: str, first_line: int, stage: str | None, before: str, block, info_example: bool) -> list[Unit]:
    import yaml

    node = compose_plain(content)
    if not isinstance(node, yaml.MappingNode) or not node.value:
        return []
    lines = content.splitlines(keepends=True)
    raw = content.splitlines()
    starts = [k.start_mark.line for k, _ in node.value]
    # A comment or blank line before the first key belongs to it; trailing blanks belong to no key.
    bounds = [0, *starts[1:], len(lines)]
    example = example_reason([v for _, v in node.value], before, info_example)
    built = block("yaml", example)
    def scalar(v: Any) -> bool:
        return isinstance(v, yaml.ScalarNode) or (
            isinstance(v, yaml.SequenceNode) and all(isinstance(i, yaml.ScalarNode) for i in v.value)
        )

    if len(node.value) >= 2 and all(scalar(v) for _, v in node.value):
        # a flat block of scalar keys (`title: <x>` / `type: a | b`) is one shape, not one per key
        paths, slots = _structure(node, raw)
        text = "".join(lines).rstrip("\n") + "\n" if content.strip() else content
        return [
            Unit(built, str(node.value[0][0].value), text, first_line, stage, paths, slots, _variant(slots))
        ]
    units = []
    for i, (key, value) in enumerate(node.value):
        chunk = lines[bounds[i] : bounds[i + 1]]
        while chunk and not chunk[-1].strip():
            chunk.pop()
        paths, slots = _structure(value, raw)
        variant = _variant(slots)
        units.append(
            Unit(
                built, str(key.value), "".join(chunk), first_line + starts[i], stage, paths, slots, variant,
            )
        )
        units += _nested_yaml(value, str(key.value), raw, first_line, built, stage)
    return units


def _structure(node: Any, raw: list[str] | None = None) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """(key paths at every depth, each leaf's (path, value as written)) of a YAML node (``raw``: its lines) or a JSON value."""
    paths: set[str] = set()
    slots: list[tuple[str, str]] = []
    if raw is None:
        _json_walk(node, "", paths, slots)
    else:
        _walk(node, "", raw, paths, slots)
    return frozenset(paths), tuple(slots)


def _walk(node: Any, prefix: str, raw: list[str], paths: set[str], slots: list[tuple[str, str]]) -> None:
    """Every key path under ``node`` into ``paths``; each leaf's value, as written on its line, into ``slots``."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            path = f"{prefix}.{k.value}" if prefix else str(k.value)
            paths.add(path)
            _walk(v, path, raw, paths, slots)
    elif isinstance(node, yaml.SequenceNode):
        items = node.value[:1] if node.value and isinstance(node.value[0], (yaml.MappingNode, yaml.SequenceNode)) else []
        for item in items:
            _walk(item, f"{prefix}[]", raw, paths, slots)
        if not items:
            slots.append((prefix, _as_written(node, raw)))
    else:
        slots.append((prefix, _as_written(node, raw)))


def _as_written(node: Any, raw: list[str]) -> str:
    """A leaf's value with the comment on its line (``string  # UTC``): the notation is both."""
    start, end = node.start_mark, node.end_mark
    if getattr(node, "value", None) == "" and not getattr(node, "style", None):
        return ""  # an empty value (`key:`, `{ a, b }`): nothing written
    if start.line == end.line and start.line < len(raw) and getattr(node, "flow_style", None) is None and raw[start.line][end.column:].strip()[:1] in ("", "#"):
        return raw[start.line][start.column :].strip()
    if isinstance(node.value, str):
        return node.value[:200]
    return ", ".join(str(getattr(item, "value", "")) for item in node.value)[:200]  # a list of scalars if not isinstance(node.value, list) else f"[{len(node.value)}]"


def _nested_yaml(value: Any, key: str, raw: list[str], first_line: int, built: Block, stage) -> list[Unit]:
    """The nested mappings of ``value`` with NESTED_KEYS or more keys, each a candidate copy of a shape pasted elsewhere."""
    import yaml

    found = []

    def visit(node: Any, path: str, depth: int) -> None:
        if isinstance(node, yaml.SequenceNode) and node.value:
            visit(node.value[0], f"{path}[]", depth)
        elif isinstance(node, yaml.MappingNode):
            if depth and len(node.value) >= NESTED_KEYS:
                paths, slots = _structure(node, raw)
                lo, hi = node.start_mark.line, node.end_mark.line + (1 if node.end_mark.column else 0)
                text = _dedent(raw[lo:hi], node.start_mark.column)
                name = path.rsplit(".", 1)[-1].rstrip("[]")
                found.append(
                    Unit(built, name, text, first_line + lo, stage, paths, slots, "", f"{key}.{path}" if path else key)
                )
            for k, v in node.value:
                visit(v, f"{path}.{k.value}" if path else str(k.value), depth + 1)

    visit(value, "", 0)
    return found


def _dedent(lines: list[str], column: int) -> str:
    out = []
    for i, line in enumerate(lines):
        if i == 0:
            line = " " * column + line[column:]
        out.append(line[column:] if len(line) >= column and not line[:column].strip(" -") else line.lstrip())
    return "\n".join(out).rstrip() + "\n"


def _json_units(content: str, first_line: int, stage: str | None, before: str, block, info_example: bool) -> list[Unit]:
    try:
        doc = json.loads(content)
    except RecursionError:
        raise TooDeep from None
    except ValueError:
        if not content.lstrip().startswith('"'):
            return []
        try:  # a fragment of an object (`"planning": {...}, "git": {...}`), as docs often paste one
            doc = json.loads("{" + content.strip().rstrip(",") + "}")
        except RecursionError:
            raise TooDeep from None
        except ValueError:
            return []
    if _depth(doc) > MAX_DEPTH:
        raise TooDeep
    if not isinstance(doc, dict) or not doc:
        return []
    values = [_Scalar(v) for v in _leaves(doc)]
    example = example_reason(values, before, info_example)
    paths, slots = _structure(doc)
    variant = _variant({k: v for k, v in doc.items() if isinstance(v, str)})
    built = block("json", example)
    unit = Unit(built, _json_name(doc, built.heading), content, first_line, stage, paths, slots, variant)
    nested = []

    def visit(value: Any, path: str, depth: int) -> None:
        if isinstance(value, list) and value:
            visit(value[0], f"{path}[]", depth)
        elif isinstance(value, dict):
            if depth and len(value) >= NESTED_KEYS:
                sub_paths, sub_slots = _structure(value)
                name = path.rsplit(".", 1)[-1].rstrip("[]")
                text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
                nested.append(Unit(built, name, text, first_line, stage, sub_paths, sub_slots, "", path))
            for k, v in value.items():
                visit(v, f"{path}.{k}" if path else str(k), depth + 1)

    visit(doc, "", 0)
    return [unit, *nested]


def _json_name(doc: dict, heading: str) -> str:
    """A JSON shape's name: its discriminator (``"event": "dispatch"`` -> ``dispatch-envelope``), its one key, the heading above, its first key."""
    for k in (*DISCRIMINATORS, "name"):
        value = doc.get(k)
        if isinstance(value, str) and not _is_notation(value) and slugify(value):
            return f"{slugify(value)[:40]}-envelope"
    if len(doc) == 1:
        return slugify(next(iter(doc))) or "json"
    title = slugify(PLACEHOLDER.sub("", heading))[:40].strip("-")
    return title or slugify(next(iter(doc))) or "json"


def _json_walk(value: Any, prefix: str, paths: set[str], slots: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            path = f"{prefix}.{k}" if prefix else str(k)
            paths.add(path)
            _json_walk(v, path, paths, slots)
    elif isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        _json_walk(value[0], f"{prefix}[]", paths, slots)
    else:
        slots.append((prefix, json.dumps(value, ensure_ascii=False)))


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _depth(value: Any) -> int:
    """How deeply ``value`` (parsed JSON) nests its lists and objects, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest
