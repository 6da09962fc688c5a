"""Parse one contract: markdown-it-py tokens with line maps -> sections, shapes, checks.

Lines come from ``Token.map`` (0-based, end-exclusive) and become byte spans
through :class:`~contractc.load.source.SourceFile`; there is no hand-written
fence scanner.  Every problem found is collected; the caller raises them all.
"""

import re
from bisect import bisect_left, bisect_right
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.model.names import check_name
from contractc.load.slug import slugify, split_explicit
from contractc.load.source import SourceFile
from contractc.load.yaml_block import parse_block, to_node
from contractc.model.records import Check, Contract, DataShape, Section, Span, TextShape

if TYPE_CHECKING:
    from contractc.model.checks.explicit import Sidecar

_PRODUCED = re.compile(
    r"^Produced by `(?P<producer>[^`]+)`(?P<qualifier>[^;]*);\s*consumed by (?P<consumers>.+?)\.?\s*$",
    re.DOTALL,
)
_BACKTICKED = re.compile(r"`([^`]+)`")
CHECKS_INTRO = re.compile(r"^Receiver checks:?\s*$")
"""The paragraph that introduces a text shape's numbered receiver checks (adopt finds copies' lists by it too)."""
_YAML_INFO = {"yaml", "yml"}


@cache
def markdown():
    """One parser per process: building one compiles its rule chains, which costs more than parsing a contract."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


class _Heading(NamedTuple):
    line: int
    end: int
    level: int
    title: str
    anchor: str | None
    col: int


def parse_contract(
    src: SourceFile, shared: tuple[str, ...] = (), shared_at: Span | None = None, sidecar: "Sidecar | None" = None
) -> Contract:
    """Parse ``src`` (with ``sidecar``, its explicit check rules); raise :class:`ContractcError` with every problem found."""
    tokens, env = _parse(src.text)
    problems: list[Diagnostic] = []
    _check_fences(src, tokens, problems)
    sections = _sections(src, tokens, problems)
    by_anchor = {s.anchor: s for s in sections}
    for anchor in shared:
        if anchor not in by_anchor:
            where = shared_at or Span(src.path, 0, 0, 0, 0)
            known = ", ".join(s.anchor for s in sections if s.level > 1) or "none"
            problems.append(
                Diagnostic.at(where, "unknown-section", f"shared section {anchor!r} is not an anchor of {src.path}", f"known anchors: {known}")
            )
    layout = _Layout(src, tokens, sections)
    texts = _text_shapes(src, tokens, layout, problems)
    templates = {t.template.start for t in texts if t.template is not None}
    shapes = [*texts, *_data_shapes(src, tokens, layout, problems, templates)]
    if problems:
        raise ContractcError(problems)
    title = next((s.title for s in sections if s.level == 1), src.path.rsplit("/", 1)[-1])
    ordered_shared = tuple(s.anchor for s in sections if s.anchor in set(shared))
    contract = Contract(
        path=src.path,
        sha256=src.sha256,
        title=title,
        sections=tuple(sections),
        shapes=tuple(sorted(shapes, key=lambda s: s.span.start if isinstance(s, TextShape) else s.block.start)),
        shared=ordered_shared,
        data=src.data,
        blocks=(tokens, env),
    )
    if sidecar is None and not any(shape.checks for shape in contract.text_shapes):
        return contract  # the rule vocabulary is imported only for a contract with receiver checks
    from contractc.model.checks.compile import compile_checks

    return compile_checks(contract, tokens, sidecar)


def _parse(text: str) -> tuple[list, dict]:
    """The contract's tokens and their ``env``: every block, with the inline tokens of what the loader
    reads inside a block (the top-level headings' titles, a paragraph that may define a form: ``**Name form.**``).

    The other blocks' inline content (most of a contract's prose) is not parsed: only
    block contents are read there.
    """
    from contractc.load.blocks import inline_children, parse_blocks

    tokens, env = parse_blocks(text)
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.level == 0:
            inline_children(tokens[i + 1], env)
        elif tok.type == "inline" and tok.content.startswith("**"):
            inline_children(tok, env)
    return tokens, env


def _inline_text(inline) -> str:
    """Rendered text of an inline token, the way Python-Markdown's toc sees a heading."""
    parts = []
    for child in inline.children or ():
        if child.type in ("text", "text_special", "code_inline"):  # text_special: an escaped or entity character
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def _check_fences(src: SourceFile, tokens, problems: list[Diagnostic]) -> None:
    for tok in tokens:
        if tok.type != "fence" or tok.map is None:
            continue
        start, end = tok.map
        closing = src.line_text(end - 1).lstrip(" \t>") if end - 1 > start else ""
        char = tok.markup[0]
        if not (closing.rstrip().startswith(tok.markup) and set(closing.rstrip()) == {char}):
            problems.append(
                Diagnostic(
                    src.path,
                    start + 1,
                    1,
                    "unclosed-fence",
                    f"fenced block opened with {tok.markup} is never closed",
                    f"add a closing {tok.markup} line",
                )
            )


def _sections(src: SourceFile, tokens, problems: list[Diagnostic]) -> list[Section]:
    heads: list[_Heading] = []
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open" or tok.level != 0 or tok.map is None:
            continue
        inline = tokens[i + 1]
        raw, explicit = split_explicit(inline.content)
        if explicit:
            inline = markdown().parseInline(raw)[0]
        title = _inline_text(inline).strip()
        line_text = src.line_text(tok.map[0])
        heads.append(
            _Heading(tok.map[0], tok.map[1], int(tok.tag[1]), title, explicit, len(line_text) - len(line_text.lstrip()) + 1)
        )
    sections: list[Section] = []
    seen: dict[str, _Heading] = {}
    stack: list[tuple[int, str]] = []
    ends = _section_ends(heads, src.line_count)
    for h, end in zip(heads, ends):
        anchor = h.anchor or slugify(h.title)
        if not anchor or anchor in seen:
            if anchor:
                message, hint = f"anchor {anchor!r} is already used by the heading on line {seen[anchor].line + 1}", "give one of the headings an explicit {#id}"
            else:
                message = f"heading {h.title!r} has no ASCII letter or digit to derive an anchor from (the slug rule drops the others, so it would be empty)"
                hint = f"add an explicit anchor after the heading: `{h.title} {{#an-ascii-id}}`"
            problems.append(Diagnostic(src.path, h.line + 1, h.col, "duplicate-anchor", message, hint))
            continue
        seen[anchor] = h
        while stack and stack[-1][0] >= h.level:
            stack.pop()
        sections.append(
            Section(
                anchor=anchor,
                title=h.title,
                level=h.level,
                span=src.span(h.line, end, h.col),
                heading=src.span(h.line, h.end, h.col),
                explicit=h.anchor is not None,
                parent=stack[-1][1] if stack else None,
            )
        )
        stack.append((h.level, anchor))
    return sections


def _section_ends(heads: list[_Heading], line_count: int) -> list[int]:
    """Where each heading's section ends: the line of the next heading at its level or above (one pass
    from the end with a stack of the headings still open, instead of a scan of the rest per heading)."""
    ends, after = [line_count] * len(heads), []
    for i in range(len(heads) - 1, -1, -1):
        while after and after[-1].level > heads[i].level:
            after.pop()
        if after:
            ends[i] = after[-1].line
        after.append(heads[i])
    return ends


class _Layout:
    """Sections and tokens indexed by byte offset, built once per contract, so that finding the section
    holding a line and the tokens inside a section cost a bisection, not a scan of the whole document."""

    def __init__(self, src: SourceFile, tokens, sections: list[Section]):
        self.sections = sorted(sections, key=lambda s: s.span.start)
        self.starts = [s.span.start for s in self.sections]
        # Heading sections nest (one ends at the next heading of its level or above), so the sections
        # holding an offset are a chain: the last one starting before it and what encloses that one.
        self.enclosing: list[int | None] = []
        open_: list[int] = []
        for i, s in enumerate(self.sections):
            while open_ and self.sections[open_[-1]].span.end <= s.span.start:
                open_.pop()
            self.enclosing.append(open_[-1] if open_ else None)
            open_.append(i)
        placed = sorted((src.offset(t.map[0]), i) for i, t in enumerate(tokens) if t.map)
        self.token_offsets = [offset for offset, _ in placed]
        self.token_order = [i for _, i in placed]
        self.tokens = tokens

    def innermost(self, offset: int) -> Section | None:
        """The deepest section holding ``offset``."""
        i = bisect_right(self.starts, offset) - 1
        while i is not None and i >= 0:
            if offset < self.sections[i].span.end:
                return self.sections[i]
            i = self.enclosing[i]
        return None

    def inside(self, section: Section) -> list:
        """The tokens whose first line lies in ``section``, in document order."""
        lo = bisect_left(self.token_offsets, section.span.start)
        hi = bisect_left(self.token_offsets, section.span.end)
        return [self.tokens[i] for i in sorted(self.token_order[lo:hi])]


def _text_shapes(src: SourceFile, tokens, layout: _Layout, problems: list[Diagnostic]) -> list[TextShape]:
    shapes = []
    for i, tok in enumerate(tokens):
        if tok.type != "inline" or tok.level != 1 or tok.map is None:
            continue
        m = _PRODUCED.match(" ".join(tok.content.split()))
        if not m:
            continue
        span = src.span(*tok.map)
        section = layout.innermost(span.start)
        if section is None:
            problems.append(
                Diagnostic(src.path, span.line, 1, "bad-shape", "a 'Produced by' line must sit under a heading that names the shape")
            )
            continue
        consumers = tuple(_BACKTICKED.findall(m.group("consumers")))
        if not consumers:
            problems.append(
                Diagnostic(src.path, span.line, 1, "bad-shape", "the consumers of a shape must be written in backticks", "write: consumed by `skill-name`.")
            )
            continue
        producer = m.group("producer").strip()
        bad = [
            d
            for what, name in (("producer", producer), ("shape id", section.anchor), *(("consumer", c) for c in consumers))
            if (d := check_name(name, what, _find(src, tok.map, name, span))) is not None
        ]
        if bad:
            problems.extend(bad)
            continue
        inside = layout.inside(section)
        fence = next((t for t in inside if t.type == "fence" and t.level == 0), None)
        shapes.append(
            TextShape(
                id=section.anchor,
                name=section.title,
                section=section.anchor,
                producer=producer,
                qualifier=" ".join(m.group("qualifier").split()),
                consumers=consumers,
                template=src.span(*fence.map) if fence else None,
                checks=_checks(src, inside, section.anchor),
                span=span,
            )
        )
    return shapes


def _find(src: SourceFile, lines: list[int], name: str, fallback: Span) -> Span:
    """Where `` `name` `` is written within the 0-based lines ``lines`` (a token map)."""
    for n in range(*lines):
        col = src.line_text(n).find(f"`{name}`")
        if col >= 0:
            return Span(src.path, n + 1, col + 2, 0, 0)
    return fallback


def _checks(src: SourceFile, tokens, anchor: str) -> tuple[Check, ...]:
    """The items of the ordered list that follows a ``Receiver checks:`` paragraph."""
    for i, tok in enumerate(tokens):
        if tok.type == "inline" and tok.level == 1 and CHECKS_INTRO.match(tok.content.strip()):
            break
    else:
        return ()
    lists = [t for t in tokens[i:] if t.type == "ordered_list_open" and t.level == 0]
    if not lists:
        return ()
    outer = lists[0]
    items = [t for t in tokens if t.type == "list_item_open" and t.map and outer.map[0] <= t.map[0] < outer.map[1] and t.level == 1]
    checks = []
    for item in items:
        start, end = item.map
        while end - 1 > start and not src.line_text(end - 1).strip():
            end -= 1
        lines = [src.line_text(n) for n in range(start, end)]
        first = lines[0].lstrip()
        marker = f"{item.info}{item.markup}"
        lines[0] = first[len(marker) :].lstrip() if first.startswith(marker) else first
        number = int(item.info) if item.info.isdigit() else len(checks) + 1
        checks.append(
            Check(
                number=number,
                text="\n".join(line.strip() for line in lines),
                span=src.span(start, end),
                anchor=f"{anchor}-check-{number}",
            )
        )
    return tuple(checks)


def _data_shapes(src: SourceFile, tokens, layout: _Layout, problems: list[Diagnostic], templates: set[int]) -> list[DataShape]:
    """The data shapes: each ```yaml fence but a text shape's template (``templates``: the byte offsets of their
    fences), which is the text its copies hold, not notation (a record of several keys, `<placeholder>` values)."""
    shapes = []
    for tok in tokens:
        if tok.type != "fence" or tok.map is None or (tok.info.split() or [""])[0] not in _YAML_INFO:
            continue
        if src.span(*tok.map).start in templates:
            continue
        start, end = tok.map
        first_line = start + 2  # 1-based line of the first YAML line
        indent = len(src.line_text(start)) - len(src.line_text(start).lstrip())
        try:
            doc = parse_block(tok.content, src.path, first_line, indent)
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
            continue
        if not isinstance(doc, dict) or not doc:
            continue  # a list or a scalar: an example, not a shape
        if len(doc) > 1:
            if "example" not in tok.info.split()[1:]:
                line, col = doc.lc.key(list(doc)[1])
                keys = ", ".join(str(name) for name in doc)
                problems.append(
                    Diagnostic(
                        src.path,
                        first_line + line,
                        col + 1 + indent,
                        "bad-shape",
                        f"a yaml block holds {len(doc)} top-level keys ({keys}); a data shape is one key per block",
                        "give each shape a fenced block of its own, or open the fence with ```{.yaml .example} if the block is an example, not a shape",
                    )
                )
            continue
        key = str(next(iter(doc)))
        section = layout.innermost(src.offset(start))
        if section is None:
            problems.append(Diagnostic(src.path, start + 1, 1, "bad-shape", f"data shape {key!r} must sit under a heading"))
            continue
        root = to_node(doc, tok.content, first_line, indent).fields[0]
        bad = [d for what, name in (("data-shape key", str(key)), ("section anchor", section.anchor)) if (d := check_name(name, what, Span(src.path, root.line, root.col, 0, 0)))]
        if bad:
            problems.extend(bad)
            continue
        shapes.append(
            DataShape(
                id=str(key),
                key=str(key),
                section=section.anchor,
                block=src.span(start, end),
                body=src.span(start + 1, end - 1),
                root=root,
            )
        )
    return shapes
