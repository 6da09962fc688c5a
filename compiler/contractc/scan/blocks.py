"""Stage 1 of ``scan``: the blocks of one Markdown file, cut into the units that are grouped.

Fenced blocks come from markdown-it-py's fence tokens (their line maps give the
byte span; no fence scanner here).  Three kinds are read:

* a YAML block (info ``yaml``/``yml``, or no info and a ``key:`` first line):
  one unit per top-level key, so a block holding two shapes is two units; a
  fenced front matter (``---`` lines around YAML, then a Markdown body) is one
  ``front-matter`` unit, and its body a template when it is one;
* a JSON block (info ``json``): one unit, an envelope or document;
* a template (a plain, ``text`` or ``markdown`` fence): placeholders in any of
  the common styles (``<x>``, ``{x}``, ``{{x}}``, ``[x]``, ``...``, ``…``; an HTML
  comment is not one) with a status line, headings, ``Label: value`` lines or
  XML-style tags; a heading skeleton (``## ROOT CAUSE FOUND`` and
  ``**Field:** value`` lines); only ``Label: value`` lines (``Packet ID:``); or a form
  filled in, no placeholder left (:func:`_filled_form`);
* a fence of labelled parts (``Spec:`` and its ``key: value`` lines, or a small template, twice or more;
  :func:`_parts`): one unit per part;
* a display sample in a plain fence (the output a command prints: rule lines,
  ``Label:   value`` rows, CAPITALISED section titles; :func:`_display`), whose
  rows and titles are its structure and whose values are a sample's own.

Beside them: a ``yaml`` fence holding Markdown label lines and an ``xml``/``html``
fence holding a Markdown form are read as templates, a ``json`` block written in
notation (``{TOTAL}``, ``[...]``, ``a|b``) as JSON once its notation is quoted;
and two templates written without a fence are units too (:func:`_unfenced_units`):
a whole file in a ``templates/`` folder and a ``<tag>`` section holding a form.
:attr:`Block.left` says why adopt leaves such a unit as it is.  A data or markup
block that is none of these is reported (``scan-unread``), never dropped without
a word.

Each unit carries its *structure* (:attr:`Unit.paths`: key paths at every
depth, headings, labels, tags) and its *slots* (:attr:`Unit.slots`: the value
written at each of them), which :mod:`.shapes` groups and compares; nested
mappings of three or more keys are offered as units of their own
(:attr:`Unit.within`), so an element pasted elsewhere is found; so is a one-line JSON
entry under a label line inside a template's fence (:func:`_inline_json`).  A unit also
records the stage heading it sits in (a name, never a reason to split a
group), its variant (the literal value of a discriminating field such as
``status: failed``) and whether it is a worked example (see
:func:`contractc.load.worked.example_reason`, shared with ``check``).
"""

from __future__ import annotations

import json
import re
import shlex
import textwrap
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from contractc.load.slug import slugify
from contractc.load.yaml_safe import MAX_DEPTH
from contractc.load.source import SourceFile
from contractc.load.worked import Scalar as _Scalar
from contractc.load.worked import EXAMPLE_WORDS, SHELL_PLACEHOLDER, example_reason
from contractc.load.worked import is_notation as _is_notation
from contractc.report.diagnostics import ContractcError, Diagnostic, Severity

Kind = Literal["yaml", "json", "template"]

_YAML_INFO = {"yaml", "yml"}
_TEMPLATE_INFO = {"", "text", "txt", "markdown", "md", "plain"}
_MARKUP_INFO = {"xml", "html", "htm", "xhtml"}
"""Markup fences: read as a template when their body is one (a tag-wrapped form with placeholders), never as data."""
_TOP_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)")
_STATUS = re.compile(r"^\s*(?P<label>[A-Za-z_][\w-]*)[ \t]*:")
_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
# Placeholders in every common style; `<!-- comment -->` and `</tag>` are not ones, nor `[ ]`/`[x]` checkboxes
# or `[text](link)`; a lone `<tag>` line is a tag when its `</tag>` follows (see _placeholders).
PLACEHOLDER = re.compile(  # `<a@b.c>` and `<https://…>` are addresses (CommonMark autolinks), not placeholders
    r"\{\{[^{}\n]+\}\}|\$?\{[^{}\n]+\}|<(?![!/])(?![\w.+-]+@[\w-]+\.[\w.-]+>)(?!https?://)[^<>\n]+>|\[(?![ xX]\])[^\[\]\n]+\](?![(\[:])|\.\.\.|…"
    rf"|{SHELL_PLACEHOLDER}"  # a shell-style `$FEATURE_NAME`
)
_TAG_LINE = re.compile(r"^\s*</?(?P<tag>[A-Za-z_][\w-]*)>\s*$")
_LABEL_LINE = re.compile(r"^(?P<label>[A-Za-z][\w()/-]*(?: [\w()/-]+)*):(?:[ \t]+(?P<value>.*))?$")
# `**Field:** value`, `- **Field**: value`, `Field: value`: a label written for people, at a line's start
_MD_LABEL = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<label>[^*:\n]{1,60}?)(?::\*\*|\*\*:)(?P<value>.*)$")
_STAGE = re.compile(r"\b(stage|phase)\b", re.IGNORECASE)
# A top-level key whose literal value names the variant of an envelope (status: success / failed).
DISCRIMINATORS = (
    "status", "result", "outcome", "verdict", "state", "event", "type", "kind", "action", "op", "message", "variant",
)
NESTED_KEYS = 3
"""A nested mapping with at least this many keys is offered as a unit of its own (an element pasted elsewhere)."""
FORM_LABELS = 2
"""A block of at least this many label lines, and little else, is a form whether or not a placeholder is left (:func:`_filled_form`)."""


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
    left: str = ""
    """Why adopt must leave this block as it is (an unfenced section, JSON in notation, Markdown under a
    ```yaml fence); empty when adopt may write a region for it."""
    indent: str = ""
    """The spaces before the opening fence in a list item (a region there is indented alike); empty at column 1."""
    display: bool = False
    """A display sample (the output a command prints): its values are a sample's, only its rows and titles are compared."""

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
    fields: frozenset[str]
    """Top-level field names (YAML: the key's fields; JSON: its keys; template: its structural lines)."""
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
    twice: tuple[str, ...] = ()
    """The key paths a JSON object of the copy holds more than once (a parser keeps the last one without a word)."""


@cache
def _block_parser() -> Any:
    """CommonMark block structure only: fences and headings are all scan needs; inline parsing is a third of the cost.

    HTML blocks are not read either: a fence right under a ``<tag>`` line is a fence, as ``check`` (which finds
    fences in the bytes) reads it, where CommonMark would hide it in the HTML block (prompt files do this often);
    nor are link reference definitions, which hold no fence."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable(["inline", "reference", "html_block"])


def file_units(src: SourceFile, unread: list[Diagnostic] | None = None) -> list[Unit]:
    """Every unit of one file, in source order.

    Fenced blocks first; then what a plugin pastes without a fence (:func:`_unfenced_units`): a
    template file that is its own skeleton, and ``<tag>`` sections holding a form.  A block whose
    info string says it is data (``yaml``, ``json``) or markup that scan cannot read as any unit is
    not dropped without a word: a ``scan-unread`` note is appended to ``unread`` with the reason.
    Blocks of other languages (``bash``, ``python``) are no candidates.
    """
    text = src.text
    fenced = "```" in text or "~~~" in text
    whole = _whole_file_template(src.path)
    if not fenced and not whole and "</" not in text:
        return []  # no fence, no section, no template file: most prose files, decided without parsing
    units: list[Unit] = []
    code: list[tuple[int, int]] = []  # (first line, line past) of every fenced or indented code block
    if fenced:
        tokens = _block_parser().parse(text)
        headings: list[tuple[int, int, str]] = []  # (line, level, title)
        deep: list[Diagnostic] = []
        for i, tok in enumerate(tokens):
            if tok.type == "heading_open" and tok.map:
                headings.append((tok.map[0], int(tok.tag[1]), tokens[i + 1].content.strip()))
            if tok.type == "code_block" and tok.map:
                code.append((tok.map[0], tok.map[1]))
            if tok.type != "fence" or tok.map is None:
                continue
            start, end = tok.map
            code.append((start, end))
            try:
                found = _units(src, tok, start, end, _stage(headings), headings[-1][2] if headings else "")
            except _TooDeep:
                deep.append(
                    Diagnostic(
                        src.path, start + 1, 1, "scan-too-deep",
                        f"this fenced block nests deeper than {MAX_DEPTH} levels: scan cannot read it safely, so it read nothing of the plugin",
                        f"leave the file out with --exclude {shlex.quote(src.path)}, or flatten the block",
                    )
                )  # fmt: skip
                continue
            if isinstance(found, str):
                if found and unread is not None:
                    unread.append(_unread(src, start, tok, found))
                if found in ("", HOLDS_BLOCKS):  # a Markdown fence holding fenced blocks of its own
                    units.extend(_nested_fences(src, tok, start, _stage(headings), headings[-1][2] if headings else ""))
                continue
            units.extend(found)
        if deep:
            raise ContractcError(deep)
    unfenced = _unfenced_units(src, code, whole and not code)
    return sorted([*units, *unfenced], key=lambda u: u.line) if unfenced else units


_MARKDOWN_INFO = {"", "markdown", "md"}
HOLDS_BLOCKS = "it holds fenced blocks of its own: each is read as a block of the file, the text around them is not"
NESTED = "a block inside a longer fence (a ````markdown file template holding ```yaml): a region's marker lines cannot sit there"


def _nested_fences(src: SourceFile, tok: Any, start: int, stage: str | None, heading: str) -> list[Unit]:
    """The units of the fenced blocks inside a closed Markdown fence (no info string, ``markdown``, ``md``) of four
    or more backticks or tildes at the start of its line, which :func:`_units` tells by :data:`HOLDS_BLOCKS` (a file
    template holding its own ```yaml blocks, as CommonMark allows; in a ````yaml or ````bash fence they are its
    text, inside an indented or quoted one they are not the file's lines, and a fence never closed holds the rest
    of the file as its text): each read as a block of the file, compared with its copies, and never written by
    adopt (:data:`NESTED`); the text around them is not read."""
    from dataclasses import replace

    found = []
    for inner in _block_parser().parse(tok.content):
        if inner.type != "fence" or inner.map is None:
            continue
        lo, hi = inner.map[0] + start + 1, inner.map[1] + start + 1
        got = _units(src, inner, lo, hi, stage, heading)
        found += [replace(u, block=replace(u.block, left=NESTED)) for u in got] if isinstance(got, list) else []
    return found


WHOLE_FILE = "a whole template file, not a fenced block: adopt writes regions around fenced blocks only"
SECTION = "an unfenced <tag> section: adopt writes regions around fenced blocks only"
_WHOLE_FILE_LINES = 300
"""A template file longer than this many lines is a document, not a skeleton pasted elsewhere."""
_SECTION_LINES = 80
_TAG_ALONE = re.compile(r"^[ \t]*<(?P<close>/?)(?P<tag>[A-Za-z_][\w-]*)>[ \t]*\r?$", re.M)
_CHECKBOX = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]\s+\S")


def _whole_file_template(path: str) -> bool:
    """A file directly in a ``templates/`` folder: when it has no fence, its body may be the template itself."""
    parts = path.split("/")
    return len(parts) >= 2 and parts[-2].lower() == "templates"


def _unfenced_units(src: SourceFile, code: list[tuple[int, int]], whole: bool) -> list[Unit]:
    """Templates written without a fence, each a unit of kind ``template`` whose :attr:`Block.left` says why adopt
    leaves it (a region needs a fence):

    * a whole file directly in a ``templates/`` folder, with no fence and at most 300 lines, whose body
      (after its front matter) reads as a template: its own skeleton, with headings and placeholders;
    * a ``<tag>`` … ``</tag>`` section (each tag line alone on its line, outside code) of at most 80
      lines whose lines are mostly a form: two or more ``**Label:** value`` lines or checkbox lines,
      at least half of its lines (the innermost such section, when they nest).
    """
    text = src.text
    if whole:
        lines = text.split("\n")  # lines as SourceFile counts them, so offsets and line numbers agree
        body_at = 0
        if lines[0].strip() == "---":
            body_at = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        body = "\n".join(lines[body_at:])
        if body.strip() and len(lines) - body_at <= _WHOLE_FILE_LINES:
            block = _unfenced_block(src, body_at, src.line_count, WHOLE_FILE)
            found = _template_units(body, body_at + 1, None, "", lambda kind, example: block, False)
            if found:
                return found
    if "</" not in text:
        return []
    inside = [range(lo, hi) for lo, hi in code]
    sections: list[tuple[int, int]] = []
    opened: dict[str, int] = {}  # tag -> line of its latest opening line
    line, at = 0, 0
    lines: list[str] = []
    for m in _TAG_ALONE.finditer(text):
        line += text.count("\n", at, m.start())  # line numbers counted once over the file, not per tag
        at = m.start()
        if any(line in r for r in inside):
            continue
        if not m["close"]:
            opened[m["tag"]] = line
            continue
        lo = opened.pop(m["tag"], None)
        if lo is None or line - lo > _SECTION_LINES or any(lo < a < line for a, _ in code):
            continue
        lines = lines or text.split("\n")
        inner = [t for t in lines[lo + 1 : line] if t.strip()]
        form = sum(1 for t in inner if _MD_LABEL.match(t) or _CHECKBOX.match(t))
        if form >= 2 and 2 * form >= len(inner):
            sections.append((lo, line))
    units = []
    for lo, hi in sections:
        if any(lo < a and b < hi for a, b in sections):
            continue  # the innermost section is the form; its container holds it and more
        body = textwrap.dedent("".join(src.line_text(n) + "\n" for n in range(lo, hi + 1)))
        block = _unfenced_block(src, lo, hi + 1, SECTION)
        units += _template_units(body, lo + 1, None, _line_before(src, lo), lambda kind, example: block, False)
    return units


def _unfenced_block(src: SourceFile, lo: int, hi: int, left: str) -> Block:
    """The Block of unfenced lines ``[lo, hi)``: no fence (``fence`` empty), and left as they are by adopt."""
    last = src.data[src.offset(hi - 1) : src.offset(hi)]
    newline = last[len(last.rstrip(b"\r\n")) :].decode()
    opening = src.line_text(lo)
    col = len(opening) - len(opening.lstrip(" \t")) + 1
    before = _line_before(src, lo)
    shown = illustration(before, "\n".join(src.line_text(n) for n in range(lo, min(hi, lo + 2))))
    return Block(src.path, "template", lo + 1, col, src.offset(lo), src.offset(hi), "", "", newline, shown, before, "", left)


def _unread(src: SourceFile, start: int, tok: Any, reason: str) -> Diagnostic:
    info = (tok.info.split() or [""])[0]
    opening = src.line_text(start)
    col = len(opening) - len(opening.lstrip(" \t>")) + 1
    return Diagnostic(
        src.path, start + 1, col, "scan-unread", f"this {tok.markup}{info} block is not read: {reason}; no copy of it is compared",
        _UNREAD_HINT.get(info.lower(), "if it is a shape, make it plain YAML, JSON or a Markdown template"), Severity.NOTE,
    )  # fmt: skip


_UNREAD_HINT = {
    "json": "if it is a shape, write it as JSON (quote a placeholder: \"{TOTAL}\"); if it is no shape, nothing to do",
    "yaml": "if it is a shape, make it a YAML mapping, or give a Markdown template the info string `markdown`",
    "yml": "if it is a shape, make it a YAML mapping, or give a Markdown template the info string `markdown`",
}


class _TooDeep(Exception):
    """A block nested deeper than MAX_DEPTH: no pasted shape is, and walking it is unbounded."""


def _stage(headings: list[tuple[int, int, str]]) -> str | None:
    """The stage heading enclosing the current position: walk outwards through the open headings."""
    level = 7
    for _, lvl, title in reversed(headings):
        if lvl < level:
            if _STAGE.search(title):
                return slugify(title)
            level = lvl
    return None


_CANDIDATE_INFO = _YAML_INFO | _MARKUP_INFO | {"json", "jsonc", "json5", "markdown", "md"}
"""Info strings that say a block is data or a template: one scan cannot read is reported (``scan-unread``)."""
_DISPLAY_INFO = {"output", "console", "terminal"}
"""Info strings of printed output: such a fence is read only as a display sample (:func:`_display`)."""
_READ_INFO = _CANDIDATE_INFO | _TEMPLATE_INFO | _DISPLAY_INFO
_INNER_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)


def _units(src: SourceFile, tok: Any, start: int, end: int, stage: str | None, heading: str) -> list[Unit] | str:
    """The block's units, or why a block whose info string names data or a template yields none."""
    info = (tok.info.split() or [""])[0].lower()
    if info not in _READ_INFO:
        return []  # code (```bash, ```python): no shape is pasted there
    content = tok.content
    candidate = info in _CANDIDATE_INFO and bool(content.strip())
    opening = src.line_text(start)
    col = len(opening) - len(opening.lstrip(" \t>")) + 1
    closed = end - start >= 2 and src.line_text(end - 1).lstrip(" \t>").startswith(tok.markup)
    if not closed:
        return "its fence is never closed" if candidate else []
    if any(len(m.group()) - len(m.group().lstrip(" \t")) < 4 for m in _INNER_FENCE.finditer(content)):
        # a fence line inside: a nested code block, or the file's fences do not balance; nothing to compare (one
        # indented four spaces or more is the block's own text, as in CommonMark: a sample inside a display)
        if len(tok.markup) >= 4 and col == 1 and info in _MARKDOWN_INFO:  # its inner blocks are read (_nested_fences)
            return HOLDS_BLOCKS if candidate else ""
        return "it holds a fence line (a nested code block, or fences that do not balance)" if candidate else []
    before = _line_before(src, start)
    info_example = "example" in tok.info.lower()
    at, stop = src.line_starts[start], src.offset(end)
    closing = src.data[src.line_starts[end - 1] : stop]
    newline = closing[len(closing.rstrip(b"\r\n")) :].decode()

    shown = illustration(before, content)
    left = ""
    indent = "" if opening[: col - 1].strip(" ") else opening[: col - 1]

    def block(kind: Kind, example: str) -> Block:
        return Block(
            src.path, kind, start + 1, col, at, stop, tok.info.strip(), tok.markup, newline,
            shown or example, before, heading, left, indent, left == DISPLAY,
        )

    first_line = start + 2
    front = _front_matter(content) if info in _YAML_INFO or info in _TEMPLATE_INFO else None
    if front is not None:
        yaml_text, body_at = front
        units = _front_units(content, yaml_text, first_line, stage, before, block, info_example)
        body = "".join(content.splitlines(keepends=True)[body_at:])
        if body.strip():
            units += _template_units(body, first_line + body_at, stage, before, block, info_example)
        return units or ("its front matter (`---` lines) is no YAML mapping, and no template follows it" if candidate else [])
    if info in _PLAIN_INFO and content.lstrip()[:1] == "{":
        doc, why = _json_doc(content)  # a JSON document in a plain fence (`{"command": ..., "args": [...]}`)
        if isinstance(doc, dict) and doc:
            left = PLAIN_JSON
            return _json_units(doc, content, first_line, stage, before, block, info_example)
    if info in _TEMPLATE_INFO:
        parts = _parts(content)
        if parts is not None:
            left = PART
            return [_part_unit(part, first_line + at, stage, before, block, info_example) for at, part in parts]
        labelled = _label_lines(content)
        if labelled is not None:
            return [_label_unit(content, labelled, first_line, stage, before, block, info_example)]
    if info in _YAML_INFO:
        found = _yaml_units(content, first_line, stage, before, block, info_example)
        if found or not content.strip():
            return found
        # not a YAML mapping: Markdown label lines under a ```yaml fence (`- **Status:** {x}`) are a template
        left = f"a {tok.markup}{info} fence holding a Markdown template, not YAML: a contract would read it as YAML"
        labelled = _label_lines(content)
        if labelled is not None:
            return [_label_unit(content, labelled, first_line, stage, before, block, info_example)]
        if _compose(content) is not None and not any(_MD_LABEL.match(line) for line in content.splitlines()):
            return _not_yaml(content)  # YAML, just no mapping (a list): no Markdown to read either
        return _template_units(content, first_line, stage, before, block, info_example) or _not_yaml(content)
    plain_yaml: list[Unit] = []
    if info == "" and _TOP_KEY.match(_first(content)):
        plain_yaml = _yaml_units(content, first_line, stage, before, block, info_example)
        if plain_yaml and not any(_for_people(u.key) for u in plain_yaml if not u.within):
            return plain_yaml  # plain YAML, placeholders inside its strings or not
    if info in ("json", "jsonc", "json5"):
        doc, why = _json_doc(content)
        if doc is None:
            return why if candidate else []
        if why:
            left = why  # JSON in notation: a contract's ```json block must be JSON, so adopt leaves it
        return _json_units(doc, content, first_line, stage, before, block, info_example) or (
            "it is no JSON object (a list or a single value): scan compares objects" if candidate else []
        )
    if info in _MARKUP_INFO:
        # a tag-wrapped form with placeholders (```xml <reply_form> **Label:** [x] </reply_form>) is a template
        # (markup proper, elements with attributes and children, is XML scan does not compare: it is reported unread)
        if sum(1 for line in content.splitlines() if _MD_LABEL.match(line) or _HEADING.match(line)) < 2:
            return "markup (elements, not a Markdown template of headings or **Label:** lines): scan does not compare it"
        left = f"a {tok.markup}{info} fence: adopt writes regions for YAML, JSON and Markdown blocks only"
        return _template_units(content, first_line, stage, before, block, info_example) or (
            "a Markdown form in markup, but without placeholders: no template"
        )
    if info in _TEMPLATE_INFO or info in _DISPLAY_INFO:
        shown_rows = _display(content) if info in _PLAIN_INFO or info in _DISPLAY_INFO else None
        if shown_rows is not None:
            left = DISPLAY
            return [_display_unit(content, shown_rows, first_line, stage, block)]
        if info in _DISPLAY_INFO:
            return []  # printed output that is no display: shell output, a log
        found = _template_units(content, first_line, stage, before, block, info_example)
        if plain_yaml and not found:
            return plain_yaml  # keys written for people, but no template either: the YAML it is
        # prose or a filled-in document: no template, nothing unread; a one-line JSON entry after a label line is read
        return found + _inline_json(content, first_line, stage, block, info_example) if ":\n{" in content else found
    return []


def _for_people(label: str) -> bool:
    """A key written for people (a capital or a space: ``Tool``, ``Packet ID``), as a label line's is; a data
    shape's keys are snake_case. A plain fence whose YAML keys are such labels is read as the template it is, so
    ``Parameters: {`` and ``Parameters:`` with the ``{`` on the next line (no YAML) are read alike."""
    return " " in label or label[:1].isupper()


def _inline_json(content: str, first_line: int, stage, block, info_example: bool) -> list[Unit]:
    """Each one-line JSON object of :data:`NESTED_KEYS` or more keys written right under a label line that gives no
    value (``MANIFEST ENTRY FORMAT:`` then ``{"id": ..., ...}``) inside a template's fence: a nested unit
    (:attr:`Unit.within` names the label), so the entry joins a JSON shape pasted elsewhere and is compared with it,
    while the template stays one block (a part of it never owns a shape, nor becomes a region)."""
    from dataclasses import replace

    lines = content.splitlines()
    found = []
    for i, line in enumerate(lines[1:], 1):
        label = _LABEL_LINE.match(lines[i - 1].rstrip())
        text = line.strip()
        if not (label and not label["value"] and text[:1] == "{" and text[-1:] == "}" and '"' in text):
            continue
        doc, _ = _json_doc(text)
        if not isinstance(doc, dict) or len(doc) < NESTED_KEYS or _depth(doc) > MAX_DEPTH:
            continue
        unit = _json_units(doc, text + "\n", first_line + i, stage, lines[i - 1].strip(), block, info_example)[0]
        found.append(replace(unit, within=slugify(label["label"]) or "entry"))
    return found


PLAIN_JSON = "JSON in a fence without the `json` info string: adopt writes regions around ```json blocks only"
DISPLAY = "a display sample (a title, rule lines, `Label:   value` rows): its values are a sample's, so adopt writes no region for it"
_PLAIN_INFO = {"", "text", "txt", "plain"}
_RULE = re.compile(r"^[ \t]*[\u2500\u2501\u2504\u2505\u2508\u2509\u254c\u254d\u2550=_~*+-]{3,}(?:[ \t]+[\u2500\u2501\u2550=_~*+-]{3,})*[ \t]*$")
"""A rule line of a display (``────``, ``====``, ``----  ------``); a box's corners (``┌──┐``) make no rule."""
_BOX = re.compile(r"[\u2502\u2503\u2551\u250c-\u254b\u2552-\u256c|]")
"""A box-drawing frame (``│ USER │``, ``└──┬──┘``) or a table's ``|``: a diagram's line, never a row or a title."""
_SYMBOL = re.compile(r"^[^\w\s]{1,3}[ \t]+")
"""An emoji or check mark opening a display line (``📊 ``, ``✓ ``)."""
_CHECK_LINE = re.compile(r"^\s*(?:[-*]\s+)?(?:[✓✔✗✘⚠❌✅☐☑]|\[[ xX✓]\])")
"""A check line under a display's section title (``✓ Index valid``, ``⚠ 14 expired``, ``- [x] done``)."""
_LOG_LEVEL = re.compile(r"^(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)$")
_SENTENCE = re.compile(r"^\S+(?:\s+\S+){2,}[.!?]$")
"""A value of three words or more ending a sentence: prose after a colon, not a display's value."""
_COUNT = re.compile(r"\s*\(\d[^()]*\)")
"""A count in a display's row label (``Failed Projects (2):``): a sample's value, not the row's name."""
_FRAMED = re.compile(r"^[\u2502\u2503\u2551|][ \t]*(?P<title>[^ \t].{0,58}?)[ \t]*[\u2502\u2503\u2551|][ \t]*$")
"""A title framed in a one-line box (``║  CHECKPOINT: Decision Required  ║``)."""
_CAPS_TITLE = re.compile(r"^[A-Z][A-Z0-9&/()' -]*[A-Z0-9)]$")
"""A CAPITALISED section title (``CACHE HEALTH``), the part of its line before a status column."""
_ALIGNED = re.compile(r"^[^\s:][^:]{0,39}:[ \t]{2,}\S")
"""A row whose value is padded into a column (``Cache Size:     45 MB``): printed output lines its values up."""
DISPLAY_ROWS = 2
DISPLAY_STRUCTURE = 3
"""A display has at least DISPLAY_ROWS label rows and DISPLAY_STRUCTURE rows and titles in all."""
RULE_LINES = "────"
"""The one structure entry a display's rule lines make (``show:────``)."""


def _display(content: str) -> list[tuple[str, str]] | None:
    """The structure of a display sample, the output a command or skill prints, as ``(label, value)`` pairs: its
    label rows (``Cache Size:     45 MB``) and section titles (``CACHE HEALTH      ✅ PASS``, or a line underlined
    by a rule line), each at the block's left margin (an indented row is the detail of the one above it, a check
    line under a title a value). None unless it is one: a rule line, a framed title (``║ GATE ║``), two section
    titles or two rows whose values are padded into a column mark it, and it holds
    :data:`DISPLAY_ROWS` label rows (or two titles over check lines), :data:`DISPLAY_STRUCTURE` rows and titles in
    all; shell output, a log or
    prose (no rule line, no titles, or too few rows) and a template whose rows mostly hold placeholders are not."""
    lines = textwrap.dedent(content).splitlines()
    if (
        not any(_RULE.match(line) or _framed(line) for line in lines)
        and sum(1 for line in lines if _caps_title(line)) < 2
        and sum(1 for line in lines if _ALIGNED.match(line)) < DISPLAY_ROWS
    ):
        return None  # decided cheaply for most plain fences: no rule line, no framed or capitalised titles, no column
    written = [line for line in lines if line.strip()]
    if any(_HEADING.match(line) or _MD_LABEL.match(line) for line in written):
        return None  # Markdown headings or `**Label:**` lines: a Markdown template or document, no printed output
    if sum(1 for line in written if PLACEHOLDER.search(line)) * 4 >= len(written):
        return None  # placeholders on a quarter of its lines: a template of a display, read as a template
    found: list[tuple[str, str]] = []
    rows: list[str] = []
    titles: list[str] = []
    checked = 0  # titles whose first line below is a check line (`✓ cache reachable`)
    for i, line in enumerate(lines):
        if not line.strip() or line[:1].isspace() or _RULE.match(line):
            continue
        framed = _framed(line)
        if framed:
            title = " ".join(re.sub(r"[^\w&/()' -]", " ", framed).split())  # `║  CHECKPOINT: Decision  ║`
            found.append((title, ""))
            titles.append(_norm_label(title))
            continue
        if _BOX.search(line):
            continue  # a diagram's line (`│ USER │`, `Wave 2:   │`) or a table's: no row
        label = _LABEL_LINE.match(_SYMBOL.sub("", line.rstrip()))  # `🎯 STARTING: x`, `✓ Index: valid`: a row
        if label and (_LOG_LEVEL.match(label["label"]) or _SENTENCE.match(label["value"] or "")):
            continue  # `INFO: starting`, `Note: keep it short.`: a log's line or prose, no row
        if label and len(label["label"]) <= 40:
            name = _COUNT.sub("", label["label"]).strip() or label["label"]  # `Fresh Entries (38):`: the count is a value
            found.append((name, (label["value"] or "").strip()))
            rows.append(_norm_label(name))
            continue
        after = next((n for n in lines[i + 1 :] if n.strip()), "")
        title = _caps_title(line)
        if _RULE.match(after):
            words = " ".join(re.sub(r"[^\w&/()' -]", " ", line).split())
            title = title or (words if len(line.strip()) <= 60 and _SYMBOL.sub("", line)[:1].isalpha() else "")
        elif _caps_title(after) or not after:
            title = ""  # `PASS  <check>` / `FAIL  <check>` lines: records of one kind, no title heading a section
        if title:
            status = line.strip()[len(title) :].strip() if line.strip().startswith(title) else ""
            if len(status.split()) > 3:
                continue  # a status word opening a line of text (`WARN  cache is stale, clear it`), no title
            found.append((title, status))
            titles.append(_norm_label(title))
            below = next((n for n in lines[i + 1 :] if n.strip() and not _RULE.match(n)), "")
            checked += bool(_CHECK_LINE.match(below))
    rows, titles = len(set(rows)), len(set(titles))  # `FILE: a` … `FILE: b`: one row, a record repeated
    if (rows < DISPLAY_ROWS and checked < 2) or rows + titles < DISPLAY_STRUCTURE:
        return None  # titles alone (`NAME` / `SYNOPSIS`: a man page) make none; titles over check lines do
    if any(_RULE.match(line) for line in lines):
        found.append((RULE_LINES, ""))  # its rule lines, whatever their width: part of how it is laid out
    return found


def _framed(line: str) -> str:
    """The title a one-line box frames (``║  GATE: Review  ║``), or empty (a diagram's cell row, a table row)."""
    m = _FRAMED.match(line)
    return m["title"] if m and not _BOX.search(m["title"]) and m["title"][:1].isalpha() else ""


def _caps_title(line: str) -> str:
    """The CAPITALISED title a display line opens with (before a status column of two or more spaces), or empty."""
    if line[:1].isspace():
        return ""
    head = re.split(r"\s{2,}|\t", line.strip(), maxsplit=1)[0]
    return head if len(head) <= 60 and _CAPS_TITLE.match(head) and sum(c.isalpha() for c in head) >= 3 else ""


def _display_unit(content: str, found: list[tuple[str, str]], first_line: int, stage, block) -> Unit:
    """A display sample's unit: its rows and titles are its structure (``show:cache size``); their values are free."""
    slots = tuple((f"show:{_norm_label(label)}", value) for label, value in found)
    paths = frozenset(p for p, _ in slots)
    key = slugify(found[0][0])[:60] or "display"
    variant = _variant({p[5:]: v for p, v in slots})  # `Status: failed` under one title: another outcome's display
    return Unit(block("template", ""), key, content, first_line, paths, stage, paths, slots, variant)


def _not_yaml(content: str) -> str:
    """Why a ```yaml block is no unit: its YAML error, or the kind of document it is."""
    import yaml

    try:
        node = yaml.compose(content, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        return f"not YAML ({where}{getattr(exc, 'problem', None) or 'unreadable'}) nor a Markdown template"
    except RecursionError:
        return "not YAML scan can read safely"
    kind = "a list" if isinstance(node, yaml.SequenceNode) else "a single value" if node is not None else "empty"
    return f"its YAML is {kind}, not a mapping of keys, and it is no Markdown template"


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
    if len(pairs) < 2 or not any(_for_people(label) for label, _ in pairs):
        return None
    return pairs


def _label_unit(content: str, labelled, first_line: int, stage, before: str, block, info_example: bool) -> Unit:
    # a `Label: value` template: its labels are its structure, so one changed value is drift or an instance, not another shape
    example = example_reason([_Scalar(value or None) for _, value in labelled], before, info_example)
    paths = frozenset(f"label:{_norm_label(k)}" for k, _ in labelled)
    slots = tuple((f"label:{_norm_label(k)}", v) for k, v in labelled)
    return Unit(
        block("template", example), slugify(labelled[0][0]), content, first_line, frozenset(k for k, _ in labelled),
        stage, paths, slots, _variant(dict((_norm_label(k), v) for k, v in labelled)),
    )


PART = "one of the labelled parts of a fenced block: adopt writes regions around whole blocks only"
_ALTERNATIVE = re.compile(r"(?i)^(?:or|and|either|otherwise)$")
"""An ``or`` line between two alternatives of one part (``prd_path: [x]`` / ``or`` / ``requirements: [x]``)."""


def _parts(content: str) -> list[tuple[int, list[str]]] | None:
    """The labelled parts of a block that holds several, each as (its first line's index, its lines), or None.

    A part is a paragraph (blank lines around it) of two or more :func:`_part_line` lines (``key: value``,
    ``**Label:** value``, a heading: a small template; list items under a label are its value), introduced by
    a line that ends with ``:`` and gives no value (``UI Spec:``, ``For either reader, pass one source:``), with
    ``or`` lines between alternatives; the block's first paragraph may have no introduction. A block is cut into
    its parts when every paragraph is one and at least two are introduced, so a part restated elsewhere on its own
    is compared with that part, not with the whole block."""
    if "\n\n" not in content or ":\n" not in content:
        return None  # decided cheaply: no paragraph ends a line with a bare colon
    lines = content.splitlines()
    parts: list[tuple[int, list[str]]] = []
    introduced = 0
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].strip():
            j += 1
        para = lines[i:j]
        head = para[0].rstrip()
        intro = head.endswith(":") and not _HEADING.match(head) and not _MD_LABEL.match(head) and (
            (m := _LABEL_LINE.match(head)) is None or not m["value"]
        ) and any(_part_line(line) for line in para[1:2])
        body = para[1:] if intro else para
        labels = [line for line in body if _part_line(line)]
        others = [line for line in body if not _part_line(line) and not _ALTERNATIVE.match(line.strip())]
        if len(labels) < 2 or any(not _ITEM.match(line) for line in others) or (others and not intro):
            return None  # a paragraph of prose, code or anything else: no block of parts
        if not intro and parts:
            return None  # only the first part may go without an introduction
        if intro and _ILLUSTRATION.search(head):
            return None  # `GOOD:` / `BAD (skipping numbers):`: one illustration of right and wrong, not a block of parts
        introduced += intro
        parts.append((i, para))
        i = j
    return parts if introduced >= 2 and len(parts) >= 2 else None


def _part_line(line: str) -> tuple[str, str] | None:
    """A part's structure line: a ``key: value`` or ``**Label:** value`` line that gives a value, or a heading."""
    found = _structure_line(line)
    return found if found and not found[0].startswith("tag:") and (found[1] or found[0][:1] == "h") else None


def _part_unit(part: list[str], first_line: int, stage, before: str, block, info_example: bool) -> Unit:
    """One part of a block of parts: its ``key: value`` lines are its structure and its text (an ``or`` line joins the
    value above); its introduction names it (``ui-spec``) when it is short, else its first key does, and is neither
    structure nor compared text, as the sentence above a block is not."""
    head = part[0].rstrip()
    intro = _part_line(head) is None
    pairs: list[tuple[str, str]] = []
    for line in part[1:] if intro else part:
        found = _part_line(line)
        if found:
            pairs.append(found)
        else:  # an `or` line, or a list item under a label: the value above goes on
            pairs[-1] = (pairs[-1][0], f"{pairs[-1][1]}\n{line.strip()}")
    name = head.rstrip(":").strip() if intro and len(head) <= 40 else pairs[0][0].split(":", 1)[1]
    labelled = [v for p, v in pairs if p.startswith("label:")]
    example = example_reason([_Scalar(value or None) for value in labelled], before, info_example)
    slots = tuple(pairs)
    paths = frozenset(p for p, _ in slots)
    text = "\n".join(part[1:] if intro else part) + "\n"  # its introduction is not compared, as the text above a block is not
    return Unit(
        block("template", example), slugify(name) or "part", text, first_line + intro, frozenset(p.split(":", 1)[1] for p in paths),
        stage, paths, slots, _variant({p[6:]: v for p, v in pairs if p.startswith("label:")}),
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


def _structure_line(line: str, closed: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """(structure path, value) of a template line that is structure: a heading, a label, a tag, a status line.

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


structure_line = _structure_line
"""The one reader of a template line's structure, public: check holds instance regions to it too
(:mod:`contractc.drift.structure`)."""


def _template_units(content: str, first_line: int, stage, before: str, block, info_example: bool) -> list[Unit]:
    numbered = [(n, line) for n, line in enumerate(content.splitlines()) if line.strip()]
    lines = [line for _, line in numbered]
    if not lines:
        return []
    placeholders = _placeholders(content)
    structure: list[tuple[str, str]] = []
    at: list[int] = []
    """The content line of each structure entry (for the heading sections offered as nested units)."""
    prose: list[str] = []
    closed = frozenset(re.findall(r"</([A-Za-z_][\w-]*)>", content))
    # a checklist in one tag section (`<criteria>`, two or more `- [ ] item` lines, no heading, no **Label:** line):
    # each item is its structure, so two agents' own checklists under one tag are not one shape
    wrapped = _TAG_LINE.match(lines[0]) and lines[-1].strip() == f"</{lines[0].strip()[1:]}"
    checklist = bool(wrapped) and sum(1 for line in lines if _CHECKBOX.match(line)) >= 2 and not any(
        _HEADING.match(line) or _MD_LABEL.match(line) for line in lines
    )
    for n, line in numbered:
        found = _structure_line(line, closed)
        if checklist and found is None and _CHECKBOX.match(line):
            found = (f"check:{_normal(line.split(']', 1)[1]).lower()}", "")
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
    form = not placeholders and _filled_form(lines, structure, at, numbered)
    if not (skeleton or form or lined or (placeholders and (headings or labels >= 2 or tags or status)) or (checklist and tags)):
        return []
    if len(structure) < 2:
        structure = [(f"line:{_normal(line)}", line.strip()) for line in lines]  # too little structure: every line is
        prose = []
    paths = frozenset(p for p, _ in structure)
    if prose:
        structure.insert(0, ("", "\n".join(prose)))
    values = [_Scalar(v or None) for p, v in structure if p.startswith("label:")]
    example = example_reason(values, before, info_example) if values else ""
    if example and (info_example or re.search(EXAMPLE_WORDS, before)) and not example.startswith("the text above"):
        example = f"the text above calls it an example ({before[:60]!r}) and none of its values is notation"
    if not example.startswith("the text above"):
        example = ""  # a template's plain field descriptions are its definition; only the text above makes it an example
    if not values and (info_example or re.search(EXAMPLE_WORDS, before)) and len(placeholders) * 2 < len(lines):
        # no fields to weigh (a tag-wrapped or line template): the text above calls it an example, and most of its
        # lines are filled in
        example = f"the text above calls it an example ({before[:60]!r}) and most of its lines are concrete"
    key = _template_label(lines, closed)
    variant = _variant({p[6:]: v for p, v in structure if p.startswith("label:")})
    slots, inner = _json_values(structure)
    paths |= inner
    unit = Unit(block("template", example), key, content, first_line, paths, stage, paths, slots, variant)
    return [unit, *_sections(unit, content, structure[1:] if prose else structure, at)]


_ITEM = re.compile(r"^(?:\s+\S|[-*+]\s|\d+[.)]\s)")
"""A list item or an indented line: a field's items or the rest of its value, under a form's label line."""


def _filled_form(lines: list[str], structure: list[tuple[str, str]], at: list[int], numbered: list[tuple[int, str]]) -> bool:
    """Whether a block without placeholders is a form filled in (a sample of a template): :data:`FORM_LABELS` or more
    label lines, at least half of its lines, every other line a list item or indented under one, and under half of its
    values sentences (``Note: keep it short.``: prose after a colon, a description, not a sample's value)."""
    labelled = [(p, v) for p, v in structure if p.startswith("label:")]
    if len(labelled) < FORM_LABELS or 2 * len(labelled) < len(lines) or len(labelled) != len(structure):
        return False
    opened = set(at)
    if numbered[0][0] not in opened or any(n not in opened and not _ITEM.match(line) for n, line in numbered):
        return False  # a line of prose between the labels (or above them): a note, a usage list, no form
    return 2 * sum(1 for _, v in labelled if _SENTENCE.match(v.split("\n")[0])) < len(labelled)


def _json_values(structure: list[tuple[str, str]]) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """A template's slots, with each label whose value is a JSON document (``Parameters: {`` … ``}``, on the label's
    line or the lines after it alike) read as JSON: its key paths under the label (``label:parameters.args``) join the
    structure and each leaf is a slot of its own, so one call's own argument is its own value, not a changed notation
    of the whole document. (slots, the paths added)."""
    slots: list[tuple[str, str]] = []
    added: set[str] = set()
    for path, value in structure:
        doc = None
        # a quoted key or string: a JSON document, not a `[placeholder]` or `{N}` standing for a value
        if path.startswith("label:") and value[:1] in "{[" and value[-1:] in "}]" and '"' in value and len(value) <= _NOTATION_SIZE:
            try:
                doc, _ = _json_doc(value)
            except _TooDeep:
                doc = None
        if not isinstance(doc, (dict, list)) or not doc or _depth(doc) > MAX_DEPTH:
            slots.append((path, value))
            continue
        inner: set[str] = set()
        leaves: list[tuple[str, str]] = []
        _json_walk(doc, "", inner, leaves)
        slots.append((path, ""))
        slots += [(f"{path}.{p}" if p else path, v) for p, v in leaves]
        added.update(f"{path}.{p}" for p in inner)
    return tuple(slots), frozenset(added)


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
        paths = frozenset(p for p, _ in part)
        found.append(
            Unit(unit.block, name, "".join(raw[at[i] : stop]).rstrip("\n") + "\n", unit.line + at[i], paths, unit.stage,
                 paths, tuple(part), "", f"{unit.key}.{name}")
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
        found = _structure_line(line, closed)  # a `<tag>` line is a tag when its `</tag>` is in the block
        if found and found[0].startswith(("h", "tag:", "label:")) and slugify(found[0].split(":", 1)[1].replace("<>", "")):
            return slugify(found[0].split(":", 1)[1].replace("<>", ""))
    for line in lines:  # a box or message: its first line with words, in at most five of them
        words = slugify(PLACEHOLDER.sub("", line)).split("-")
        if any(w for w in words):
            return "-".join(w for w in words if w)[:60].rsplit("-", max(0, len([w for w in words if w]) - 5))[0]
    return "template"


MODES = ("direction", "mode")
"""Fields whose literal value names a mode or a direction (``direction: to-cache``): a variant beside the status."""


def _variant(values: dict[str, str]) -> str:
    """``status=failed`` from the first discriminating field whose value is a literal word, with the mode or
    direction it names after it (``status=success,direction=to-cache``); empty otherwise."""
    found = []
    for keys in (DISCRIMINATORS, MODES):
        for key in keys:
            value = values.get(key)
            if isinstance(value, str):
                word = value.split("#")[0].strip().strip("\"'`*")
                if word and re.fullmatch(r"[\w.-]{1,40}", word) and not _is_notation(word):
                    found.append(f"{key}={word.lower()}")
                    break
    return ",".join(found)


def _compose(content: str) -> Any:
    """The YAML node of ``content``, or None when it is not plain, safe YAML."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if _may_nest(content) and not _plain_enough(content, loader):
            return None  # aliases (a bomb, walked as a tree, never ends): not a pasted shape
        return yaml.compose(content, Loader=loader)
    except RecursionError:
        raise _TooDeep from None
    except yaml.YAMLError:
        return None


def _front_units(content: str, yaml_text: str, first_line: int, stage, before: str, block, info_example: bool) -> list[Unit]:
    """A fenced front matter: one ``front-matter`` unit (its keys are the structure)."""
    import yaml

    node = _compose(yaml_text)
    if not isinstance(node, yaml.MappingNode) or not node.value:
        return []
    lines = content.splitlines(keepends=True)
    text = "".join(lines[: yaml_text.count("\n") + 2])
    slots: list[tuple[str, str]] = []
    paths: set[str] = set()
    _walk(node, "", yaml_text.splitlines(), paths, slots)
    example = example_reason([v for _, v in node.value], before, info_example)
    return [
        Unit(
            block("yaml", example), "front-matter", text, first_line, frozenset(str(k.value) for k, _ in node.value),
            stage, frozenset(paths), tuple(slots), _variant({p: v for p, v in slots if "." not in p and "[" not in p}),
        )
    ]


def _yaml_units(content: str, first_line: int, stage: str | None, before: str, block, info_example: bool) -> list[Unit]:
    import yaml

    node = _compose(content)
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

    if len(node.value) >= 2 and any(scalar(v) for _, v in node.value):
        # a record with a field of its own at the top (`session_id: <x>`, `status: a | b`, then `steps:` ...) is one
        # shape, not one per key; its nested mappings are candidate copies of shapes pasted elsewhere, as a JSON
        # document's are. A block whose every key holds a mapping is that many shapes side by side (one per key).
        paths: set[str] = set()
        slots: list[tuple[str, str]] = []
        _walk(node, "", raw, paths, slots)
        text = "".join(lines).rstrip("\n") + "\n" if content.strip() else content
        top = {p: v for p, v in slots if "." not in p and "[" not in p}
        record = Unit(built, str(node.value[0][0].value), text, first_line, frozenset(str(k.value) for k, _ in node.value),
                      stage, frozenset(paths), tuple(slots), _variant(top))
        return [record, *_nested_yaml(node, "", raw, first_line, built, stage)]
    units = []
    for i, (key, value) in enumerate(node.value):
        chunk = lines[bounds[i] : bounds[i + 1]]
        while chunk and not chunk[-1].strip():
            chunk.pop()
        paths: set[str] = set()
        slots: list[tuple[str, str]] = []
        _walk(value, "", raw, paths, slots)
        variant = _variant({p: v for p, v in slots if "." not in p and "[" not in p})
        units.append(
            Unit(
                built, str(key.value), "".join(chunk), first_line + starts[i], frozenset(_fields(value)), stage,
                frozenset(paths), tuple(slots), variant,
            )
        )
        units += _nested_yaml(value, str(key.value), raw, first_line, built, stage)
    return units


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
    # a list of scalars (`[a, b]` or `- a` lines): written as a JSON block's list is, so the two are read alike
    return json.dumps([str(getattr(item, "value", "")) for item in node.value], ensure_ascii=False)


def _nested_yaml(value: Any, key: str, raw: list[str], first_line: int, built: Block, stage) -> list[Unit]:
    """The nested mappings of ``value`` with NESTED_KEYS or more keys, each a candidate copy of a shape pasted elsewhere."""
    import yaml

    found = []

    def visit(node: Any, path: str, depth: int) -> None:
        if isinstance(node, yaml.SequenceNode) and node.value:
            visit(node.value[0], f"{path}[]", depth)
        elif isinstance(node, yaml.MappingNode):
            if depth and len(node.value) >= NESTED_KEYS:
                paths: set[str] = set()
                slots: list[tuple[str, str]] = []
                _walk(node, "", raw, paths, slots)
                lo, hi = node.start_mark.line, node.end_mark.line + (1 if node.end_mark.column else 0)
                text = _dedent(raw[lo:hi], node.start_mark.column)
                name = path.rsplit(".", 1)[-1].rstrip("[]")
                found.append(
                    Unit(built, name, text, first_line + lo, frozenset(str(k.value) for k, _ in node.value), stage,
                         frozenset(paths), tuple(slots), "", f"{key}.{path}".strip(".") if path else key)
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


def _may_nest(content: str) -> bool:
    """Whether ``content`` could hold an alias or nest past MAX_DEPTH: only then is its event stream read first."""
    if "&" in content or "*" in content or len(content) > 1 << 16:
        return True
    if content.count("[") + content.count("{") > MAX_DEPTH:
        return True
    return max((len(line) - len(line.lstrip(" -")) for line in content.splitlines()), default=0) > MAX_DEPTH


def _plain_enough(content: str, loader: Any) -> bool:
    """False for a block with an alias, decided from the event stream before any node is built (an
    alias bomb walked as a tree never ends); :class:`_TooDeep` for one nested more than MAX_DEPTH
    levels (see load/yaml_safe.py)."""
    import yaml

    if len(content) > 1 << 20:
        return False
    depth = 0
    try:
        for event in yaml.parse(content, Loader=loader):
            if isinstance(event, yaml.AliasEvent):
                return False
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _TooDeep
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:  # libyaml's scanner stops past its own limit before the events get deep
        if "maximum nesting depth" in str(exc):
            raise _TooDeep from None
        raise
    return True


def _fields(value: Any) -> list[str]:
    import yaml

    if isinstance(value, yaml.SequenceNode) and value.value:
        value = value.value[0]
    if isinstance(value, yaml.MappingNode):
        return [str(k.value) for k, _ in value.value]
    return []


def _json_units(doc: Any, content: str, first_line: int, stage: str | None, before: str, block, info_example: bool) -> list[Unit]:
    if _depth(doc) > MAX_DEPTH:
        raise _TooDeep
    if not isinstance(doc, dict) or not doc:
        return []
    values = [_Scalar(v) for v in _leaves(doc)]
    example = example_reason(values, before, info_example)
    paths: set[str] = set()
    slots: list[tuple[str, str]] = []
    _json_walk(doc, "", paths, slots)
    variant = _variant({k: v for k, v in doc.items() if isinstance(v, str)})
    built = block("json", example)
    unit = Unit(built, _json_name(doc, built.heading), content, first_line, frozenset(doc), stage,
                frozenset(paths), tuple(slots), variant, twice=tuple(dict.fromkeys(_twice(doc))))
    nested = []

    def visit(value: Any, path: str, depth: int) -> None:
        if isinstance(value, list) and value:
            visit(value[0], f"{path}[]", depth)
        elif isinstance(value, dict):
            if depth and len(value) >= NESTED_KEYS:
                sub_paths: set[str] = set()
                sub_slots: list[tuple[str, str]] = []
                _json_walk(value, "", sub_paths, sub_slots)
                name = path.rsplit(".", 1)[-1].rstrip("[]")
                text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
                nested.append(Unit(built, name, text, first_line, frozenset(value), stage, frozenset(sub_paths),
                                   tuple(sub_slots), "", path))
            for k, v in value.items():
                visit(v, f"{path}.{k}" if path else str(k), depth + 1)

    visit(doc, "", 0)
    return [unit, *nested]


NOTATION_JSON = "JSON written in notation (an unquoted placeholder, `[...]`, `a|b`): a contract's JSON block must be strict JSON"
"""Why adopt leaves a ```json block that only parses once its notation is quoted."""

_NOTATION_SIZE = 1 << 16
"""A JSON block larger than this is read as strict JSON only: no pasted shape written in notation is."""
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_JSON_WORDS = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")
_JSON_JOIN = re.compile(r'"((?:[^"\\\n]|\\.)*)"\s*\|\s*(?:"((?:[^"\\\n]|\\.)*)"|([^\s,:\[\]{}"]+))')
_JSON_NOTATION = re.compile(
    r"//[^\n]*|/\*.*?\*/"  # a comment
    r"|\{\{ *[A-Za-z_][\w.|-]*(?: +[\w.|-]+)* *\}\}|\{ *[A-Za-z_][\w.|-]*(?: +[\w.|-]+)* *\}"  # {PLACEHOLDER}, {{x}}
    r"|\[\s*(?:\.\.\.|…)\s*\]"  # an elided list
    r"|<[^<>\n\"]+>(?:\s*\|\s*[^\s,:\[\]{}\"]+)*"  # an <angle placeholder>, spaces and all
    r"|[^\s,:\[\]{}\"]+(?:\s*\|\s*[^\s,:\[\]{}\"]+)*",  # a bare word or enum: true|false, number, <x>, ...
    re.S,
)


class _Object(dict):
    """A JSON object as parsed, with the names it holds more than once (``json`` keeps the last one silently)."""

    __slots__ = ("twice",)


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    found = _Object(pairs)
    found.twice = tuple(sorted(name for name, n in Counter(name for name, _ in pairs).items() if n > 1))
    return found


def _twice(value: Any, path: str = "") -> list[str]:
    """The key paths of ``value`` that one of its objects holds more than once (``task.type``)."""
    if isinstance(value, list):
        return [t for item in value for t in _twice(item, f"{path}[]")]
    if not isinstance(value, dict):
        return []
    inner = [t for k, v in value.items() for t in _twice(v, f"{path}.{k}" if path else str(k))]
    return [f"{path}.{k}" if path else k for k in getattr(value, "twice", ())] + inner


def _json_doc(content: str) -> tuple[Any, str]:
    """(the parsed document, "" or NOTATION_JSON when it parsed only as notation), or (None, why it is not JSON)."""
    texts = [content]
    if content.lstrip().startswith('"'):  # a fragment of an object (`"planning": {...}, "git": {...}`), as docs paste one
        texts.append("{" + content.strip().rstrip(",") + "}")
    first: ValueError | None = None
    for strict in (True, False) if len(content) <= _NOTATION_SIZE else (True,):
        for text in texts:
            try:
                return json.loads(text if strict else _quoted_notation(text), object_pairs_hook=_object), "" if strict else NOTATION_JSON
            except RecursionError:
                raise _TooDeep from None
            except ValueError as exc:
                first = first or exc
    assert isinstance(first, json.JSONDecodeError)
    return None, f"not JSON, even with its notation quoted (line {first.lineno}, column {first.colno}: {first.msg})"


def _quoted_notation(text: str) -> str:
    """``text`` with the notation docs write inside JSON made strict: a bare ``{TOTAL}``, ``<x>``, ``a|b``, ``...``
    or type word quoted, ``"a" | "b"`` joined into one string, ``[...]`` a list of one ``"..."``, ``// comments``,
    an elided ``...`` member and trailing commas removed.  Strings are kept as written."""
    while True:  # "a" | "b" | null -> "a|b|null"
        joined = _JSON_JOIN.sub(_join, text)
        if joined == text:
            break
        text = joined
    parts: list[str] = []
    pos = 0
    for m in _JSON_STRING.finditer(text):
        parts += [_JSON_NOTATION.sub(_quote_notation, text[pos : m.start()]), m.group()]
        pos = m.end()
    parts.append(_JSON_NOTATION.sub(_quote_notation, text[pos:]))
    out = "".join(parts)
    # an elided member (`"a": 1, ... }`, `{ ..., "b": 2`, a `...` line between two members)
    out = re.sub(r'(?<=[,{])\s*"(?:\.\.\.|…)"\s*(?:,|(?=[}"]))', "", out)
    return re.sub(r",(\s*[}\]])", r"\1", out)


def _join(m: re.Match[str]) -> str:
    return '"' + m[1] + "|" + (m[2] if m[2] is not None else m[3].replace('"', '\\"')) + '"'


def _quote_notation(m: re.Match[str]) -> str:
    word = m.group()
    if word.startswith(("//", "/*")):
        return ""
    if word.startswith("[") and word.endswith("]"):
        return '["..."]'
    if _JSON_WORDS.fullmatch(word):
        return word
    return json.dumps(re.sub(r"\s*\|\s*", "|", " ".join(word.split())))


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


def opens_with_front_matter(content: str) -> bool:
    """Whether a fence's text opens with front matter (``---`` lines around YAML), whatever that YAML holds:
    adopt leaves such a fence as it is (docs/adopt.md, "What adopt leaves out")."""
    return _front_matter(content) is not None
