"""Restatements: a shape copied by hand outside any managed region.

A second prose copy is how contracts drift, so ``check`` looks for one in every
target file, outside its regions: a fenced block whose first key is a data
shape's key, or a fenced block whose lines mostly repeat a text shape's
template.  Target files are scanned as bytes for fence lines (spaces, as
many as a list inside a list needs, or quote markers (``> ``), then three or more backticks or tildes, closed
by the same character at least as long); nothing is parsed as Markdown.  A copy in a list item is compared
with the contract less its fence's indent, as an indented region is.

A filled-in example of a data shape is not a restatement when ``scan`` would
call it a worked example (:func:`contractc.load.worked.example_reason`, the one
rule both commands use), unless it is byte-identical to the contract or the
contract's own block would pass that rule (then the rule cannot tell them apart).

An ``allow_restatements`` entry with ``sha256`` matches the copy by its bytes
(:func:`block_digest`), wherever the copy sits; an entry with only ``line``
matches by line (the older form).
"""

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import NamedTuple

from contractc.report.diagnostics import Diagnostic
from contractc.load.source import count_newlines, line_start
from contractc.load.targets import dedented
from contractc.model.records import AllowedRestatement, DataShape, Project, Shape, TargetFile, TextShape
from contractc.output.outputs import Change, Output

# Compiled on first use (through the re module's cache): most prompt files hold no fenced block to look into.
_FENCE = rb"(?P<fence>`{3,}|~{3,})(?P<info>[^\r\n]*)"
_KEY = r"(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)"
_YAML_INFO = {"", "yaml", "yml"}
# A fence inside a quote (``> ```yaml``, a quote in a list item): the quote markers before it, each after at most
# three spaces. A region cannot sit in a quote, so such a copy can only be a restatement, and check must see it.
_QUOTE = re.compile(rb"(?: {0,3}> ?)+ {0,3}")
_PLACEHOLDER = re.compile(r"<[^<>]*>")
# A block restates a template when this share of its lines are template lines and
# it covers this share of the template: tolerant of a renamed placeholder, not of a mention.
_BLOCK_SHARE, _TEMPLATE_SHARE = 0.6, 0.5


class _Block(NamedTuple):
    start: int
    """Offset of the opening fence line."""
    end: int
    """Offset past the closing fence line (the end of the data for an unclosed block)."""
    col: int
    info: str
    lines: tuple[str, ...]
    """The block's non-blank lines, stripped."""
    first: str
    """The first non-blank, non-comment line, unstripped (a top-level key sits at column 1)."""
    body: str = ""
    """The text between the fences."""
    full_info: str = ""
    """The info string as written."""


Shapes = tuple[dict[str, list[tuple[DataShape, set[str]]]], list[tuple[TextShape, set[str]]], dict[str, list[int]]]
"""Data shapes by key with their block's lines, text shapes with their template's lines, and for each
template line the templates (by position) holding it."""


class Restatements:
    """The finder of restatements in one target (called with a target; ``quiet`` asks its bytes first); the
    shapes' keys and template lines are read once."""

    __slots__ = ("_project", "_shapes")

    def __init__(self, project: Project):
        self._project = project
        self._shapes = _shapes(project)

    def __call__(self, target: TargetFile) -> list[Diagnostic]:
        return [d for d, _, left in _found(self._project, target, self._shapes) if left is None]

    @staticmethod
    def quiet(data: bytes, managed: list[tuple[int, int]]) -> bool:
        """True when a target of ``data``, whose regions hold the (start, end) ranges ``managed``, holds no
        restatement: no fence starts outside its regions (:meth:`contractc.drift.TargetFind.quiet`)."""
        return not _fence_outside(data, managed)


def find_restatements(project: Project) -> list[Diagnostic]:
    """Every restatement in the project's targets (a pass of its own; ``check`` uses :class:`Restatements`)."""
    find = Restatements(project)
    problems: list[Diagnostic] = []
    found = [d for target in project.targets.scan(problems) for d in find(target)]
    if problems:
        from contractc.report.diagnostics import ContractcError

        raise ContractcError(problems)
    return found


def restatement_changes(project: Project, diagnostics: list[Diagnostic]) -> dict[Diagnostic, Change]:
    """For each restatement in ``diagnostics`` that differs from the contract, the change its diff shows; and
    for each ``drift-unresolved`` error at such a copy (:func:`contractc.drift.allowances.find_unresolved`), its diff.

    Only the files that hold one are read again (the pass over the targets kept none).
    """
    wanted = {d for d in diagnostics if d.code in ("drift-restatement", "drift-unresolved")}
    if not wanted:
        return {}
    shapes = _shapes(project)
    changes = {}
    for path in sorted({d.path for d in wanted}):
        target = project.target(path)
        for d, c, left in _found(project, target, shapes) if target is not None else ():
            if c is None:
                continue
            if d in wanted:
                changes[d] = c
            if left is not None:
                changes.update((u, c) for u in wanted if u.code == "drift-unresolved" and u.path == path and left[0] <= u.line <= left[1])
    return changes


def unmanaged_copies(project: Project) -> list[tuple[str, str, int, str]]:
    """(path, shape id, line, sha256) of every restatement, allowed or not, worked examples
    included: what an allow_restatements entry may match.

    A pass of its own over the targets, made only for a project with allow_restatements entries.
    """
    shapes = _shapes(project)
    problems: list[Diagnostic] = []  # marker problems: the pipeline's own pass reports them
    return [
        (target.path, shape.id, line, block_digest(target.data, block))
        for target in project.targets.scan(problems)
        for block, shape, line in _candidates(project, target, shapes, examples=True)
    ]


def block_digest(data: bytes, block: _Block) -> str:
    """The SHA-256 an allow_restatements entry names: the bytes from the opening fence line through the closing one."""
    return hashlib.sha256(data[block.start : block.end]).hexdigest()


def _found(project: Project, target: TargetFile, shapes: Shapes) -> list[tuple[Diagnostic, Change | None, tuple[int, int] | None]]:
    """Each restatement not allowed, with its diff, and its (first, last) line when an ``unresolved`` entry
    names a line of it: check reports such a copy there (``drift-unresolved``), not as a restatement."""
    allow = project.config.allow_restatements
    recorded = [e.line for e in project.config.unresolved if e.path == target.path]
    found = []
    for block, shape, line in _candidates(project, target, shapes):
        if not _allowed(allow, target, shape, line, block):
            held = target.data[block.start : block.end]
            source = _source(project, shape)
            last = line + count_newlines(held.rstrip(b"\r\n")) if held else line
            left = (line, last) if any(line <= n <= last for n in recorded) else None
            found.append((*_diagnostic(target, shape, line, last, block.col, source, held), left))
    return found


def _shapes(project: Project) -> Shapes:
    keys: dict[str, list[tuple[DataShape, set[str]]]] = {}
    templates: list[tuple[TextShape, set[str]]] = []
    for contract, shape in project.shapes():
        if isinstance(shape, DataShape):
            keys.setdefault(shape.key, []).append((shape, _lines(contract.slice(shape.body))))
        elif shape.template is not None:
            inner = _lines(contract.slice(shape.template))
            fences = {line for line in inner if line.startswith(("```", "~~~"))}
            if inner - fences:
                templates.append((shape, inner - fences))
    return keys, templates, _line_index(templates)


def _candidates(project: Project, target: TargetFile, shapes: Shapes, examples: bool = False) -> Iterator[tuple[_Block, Shape, int]]:
    """Every fenced block of ``target`` outside its regions that restates a shape, with its line;
    worked examples only when ``examples``."""
    keys, templates, holding = shapes
    managed = sorted((r.content.start, r.content.end) for r in target.regions)
    if not _fence_outside(target.data, managed):
        return
    counted, line = 0, 1  # lines counted on from the last block found, not from the top for each
    for block in _blocks(target.data, managed):
        shape = _data_shape(block, keys) or _text_shape(block, templates, holding)
        if shape is None:
            continue
        if not examples and isinstance(shape, DataShape) and _worked_example(project, target.data, block, shape):
            continue
        line += count_newlines(target.data, counted, block.start)  # both line starts: no CRLF is cut
        counted = block.start
        yield block, shape, line


def _fence_outside(data: bytes, managed: list[tuple[int, int]]) -> bool:
    """Whether a fence run starts outside every managed range; if none does, every block is a managed copy.

    The common case (the only fences are the regions' own), decided by C-speed finds instead of :func:`_blocks`.
    A range starts and ends at line starts, so a block is skipped by :func:`_blocks` exactly when its run is inside.
    """
    low = 0
    for start, end in [*managed, (len(data), len(data))]:
        tick = data.find(b"`", low, start)  # a one-byte search first: a fence needs a backtick
        if tick != -1 and data.find(b"```", tick, start) != -1:
            return True
        tilde = data.find(b"~", low, start)  # rare in prose: a one-byte search first
        if tilde != -1 and data.find(b"~~~", tilde, start) != -1:
            return True
        low = end
    return False


def _lines(data: bytes) -> set[str]:
    return {_normal(line) for line in data.decode("utf-8", "replace").splitlines() if line.strip()}


def _normal(line: str) -> str:
    """A line as compared with a template's: stripped, every ``<placeholder>`` alike."""
    return _PLACEHOLDER.sub("<>", line.strip())


def _fences(data: bytes) -> list[tuple[re.Match, int]]:
    """Fence lines as (match, column): a run of 3+ backticks or tildes after at most three spaces, or after quote markers."""
    fences = []
    fence = re.compile(_FENCE)
    for run in (b"```", b"~~~"):
        at = data.find(run)
        while at != -1:
            found = fence.match(data, at)
            begin = line_start(data, at)
            indent = data[begin:at]
            if begin == 0 and indent.startswith(b"\xef\xbb\xbf"):
                indent = indent[3:]
            # any run of spaces: a fence in a list inside a list sits four or more columns in (an indented code
            # block holding a fence line is rarer than that, and still holds no shape's copy)
            if not indent.strip(b" ") or (b">" in indent and _QUOTE.fullmatch(indent)):
                fences.append((found, len(indent) + 1))
            at = data.find(run, found.end())
    return sorted(fences, key=lambda f: f[0].start())


def _blocks(data: bytes, managed: list[tuple[int, int]] = ()) -> Iterator[_Block]:
    """The fenced blocks of ``data``, but those that start inside a ``managed`` (start, end) range."""
    fences = _fences(data)
    i = 0
    while i < len(fences):
        opening, col = fences[i]
        char, size = opening["fence"][:1], len(opening["fence"])
        if char == b"`" and b"`" in opening["info"]:
            i += 1
            continue  # not a fence: CommonMark forbids a backtick in a backtick fence's info string
        body_start = _line_end(data, opening.end())
        close = next(
            (
                j
                for j in range(i + 1, len(fences))
                if fences[j][0]["fence"][:1] == char
                and len(fences[j][0]["fence"]) >= size
                and not fences[j][0]["info"].strip()
            ),
            None,
        )
        start = opening.start() - (col - 1)
        if any(low <= start < high for low, high in managed):  # a managed copy: skipped before it is decoded
            i = close + 1 if close is not None else len(fences)
            continue
        body_end = fences[close][0].start() - (fences[close][1] - 1) if close is not None else len(data)
        body = data[body_start:body_end].decode("utf-8", "replace")
        prefix = data[start : opening.start()]
        text = _unquote(body, prefix.decode("utf-8", "replace")) if b">" in prefix else _dedent(body, col - 1)
        lines = tuple(_normal(line) for line in text.splitlines() if line.strip())
        first = next((line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")), "")
        info = opening["info"].decode("utf-8", "replace").strip().split(" ")[0].lower()
        end = _line_end(data, fences[close][0].end()) if close is not None else len(data)
        yield _Block(start, end, col, info, lines, first, text, opening["info"].decode("utf-8", "replace").strip())
        i = close + 1 if close is not None else len(fences)


def _unquote(text: str, prefix: str) -> str:
    """A fenced block's content inside a quote: each line's quote prefix (``> `` as the opening fence has it) removed."""
    bare = prefix.rstrip()
    return "".join(
        line[len(prefix) :] if line.startswith(prefix) else line[len(bare) :].lstrip(" ") if line.startswith(bare) else line
        for line in text.splitlines(keepends=True)
    )


def _dedent(text: str, indent: int) -> str:
    """A fenced block's content as CommonMark reads it: up to the opening fence's indentation removed from each line
    (a block in a list item, ``1. Send:`` then ``   ```yaml``, holds its top-level key at column 1)."""
    if not indent:
        return text
    return "".join(line[min(indent, len(line) - len(line.lstrip(" "))) :] for line in text.splitlines(keepends=True))


def _line_end(data: bytes, offset: int) -> int:
    return offset + (2 if data.startswith(b"\r\n", offset) else 1 if data[offset : offset + 1] in (b"\r", b"\n") else 0)


def _data_shape(block: _Block, keys: dict[str, list[tuple[DataShape, set[str]]]]) -> Shape | None:
    key = re.match(_KEY, block.first)
    if block.info not in _YAML_INFO or key is None or key["key"] not in keys:
        return None
    candidates = keys[key["key"]]
    # The same key in several stages: the copy restates the one it shares most lines with.
    return max(candidates, key=lambda c: len(c[1].intersection(block.lines)))[0]


def _line_index(templates: list[tuple[TextShape, set[str]]]) -> dict[str, list[int]]:
    """For each template line, the templates (by position) holding it."""
    holding: dict[str, list[int]] = {}
    for i, (_, template) in enumerate(templates):
        for line in template:
            holding.setdefault(line, []).append(i)
    return holding


def _text_shape(block: _Block, templates: list[tuple[TextShape, set[str]]], holding: dict[str, list[int]]) -> Shape | None:
    if not block.lines:
        return None
    # Only a template sharing a line with the block can qualify (it must cover one), so the block is
    # weighed against those, found through ``holding``, instead of against every template.
    repeated: dict[int, int] = {}
    covered: dict[int, int] = {}
    for line, times in Counter(block.lines).items():
        for i in holding.get(line, ()):
            repeated[i] = repeated.get(i, 0) + times
            covered[i] = covered.get(i, 0) + 1
    best, best_share = None, 0.0
    for i in sorted(covered):
        shape, template = templates[i]
        share = repeated[i] / len(block.lines)
        covered_i = covered[i]
        if (
            covered_i >= min(2, len(template))
            and share >= _BLOCK_SHARE
            and covered_i / len(template) >= _TEMPLATE_SHARE
            and share > best_share
        ):
            best, best_share = shape, share
    return best


def _worked_example(project: Project, data: bytes, block: _Block, shape: DataShape) -> bool:
    """Whether scan's worked-example rule calls the block an example of ``shape`` (see the module docstring)."""
    from contractc.load.worked import yaml_example_reason  # only a target holding a copy of a shape asks

    source = _source(project, shape)
    held = data[block.start : block.end]
    if held == source or held == source + b"\n":
        return False
    if not yaml_example_reason(block.body, _line_before(data, block.start), "example" in block.full_info.lower()):
        return False
    contract = project.contract(shape.block.path)  # a shape's spans name its contract: no search of every shape
    # A contract whose own block reads as an example (no notation at all): the rule cannot tell a copy from an example.
    return not yaml_example_reason(contract.slice(shape.body).decode("utf-8", "replace"), "", False)


def _line_before(data: bytes, offset: int) -> str:
    """The nearest non-blank line among the three above the line at ``offset`` (as scan reads it)."""
    lines = data[max(0, offset - 4096) : offset].decode("utf-8", "replace").splitlines()
    for text in reversed(lines[-3:]):
        if text.strip():
            return text.strip()
    return ""


def _allowed(allow: tuple[AllowedRestatement, ...], target: TargetFile, shape: Shape, line: int, block: _Block) -> bool:
    """Whether an entry covers the copy: path glob and shape, then its bytes (``sha256``) or else its ``line``."""
    digests: list[str] = []

    def digest() -> str:
        if not digests:
            digests.append(block_digest(target.data, block))
        return digests[0]

    return any(entry.allows(target.path, shape.id, line, digest) for entry in allow)


def _source(project: Project, shape: Shape) -> bytes:
    """What a ``shape=`` region of this shape holds: the data shape's block, the text shape's template."""
    span = shape.block if isinstance(shape, DataShape) else shape.template
    # Every span of a shape names the contract it was cut from: no search of every contract's shapes.
    contract = project.contract((shape.block if isinstance(shape, DataShape) else shape.span).path)
    return contract.slice(span) if span is not None else b""


def _glob_literal(path: str) -> str:
    """``path`` as an allow_restatements glob that matches only itself."""
    return re.sub(r"([*?\[])", r"[\1]", path)


def _diagnostic(
    target: TargetFile, shape: Shape, line: int, last: int, col: int, source: bytes, held: bytes
) -> tuple[Diagnostic, Change | None]:
    marker = f"<!-- contractc:begin shape={shape.id} -->"
    indent = held[: col - 1] if col > 1 and not held[: col - 1].strip(b" ") else b""
    bare = dedented(held, indent) if indent else held  # a copy in a list item is its bytes less the item's indent
    same = bare is not None and (bare == source or bare == source + b"\n")
    verdict = "identical to the contract" if same else "different from the contract"
    wrap = f"a line `{marker}` above and a line `<!-- contractc:end -->` below"
    hint = (
        (
            f"wrap lines {line}-{last} in a managed region: {wrap}"
            if col <= 1 or indent
            # a region in a list item is indented like its fence; in a quote its marker lines would need the quote's `>`
            else f"a region cannot sit in a quote: move lines {line}-{last} out of the quote and wrap them in a managed region ({wrap})"
        )
        + (f", each indented {col - 1} spaces like the fence" if indent else "")
        + (
            "; build then stamps it"
            if same
            else "; build then refuses to overwrite its bytes until you carry the difference into the contract (the diff "
            "shows it), or take the contract's bytes with `build --force`, which deletes the lines the diff "
            "shows with `-`; if it differs by design, write `instance=` for `shape=` in the begin marker"
        )
        + "; or, if the copy is on purpose, allow exactly these bytes: add "
        + f"`- {{path: {json.dumps(_glob_literal(target.path))}, shape: {shape.id}, sha256: {hashlib.sha256(held).hexdigest()}}}`"
        + " under allow_restatements in contractc.yaml"
    )
    d = Diagnostic(target.path, line, col, "drift-restatement", f"unmanaged copy of {shape.id}, {verdict}", hint)
    span = shape.block if isinstance(shape, DataShape) else shape.template
    where = f"{span.path}:{span.line}" if span is not None else None
    shown = held if bare is None else bare
    change = None if same else Change(f"{target.path}:{line}", source, shown, Output(b"", "restatement"), expected_path=where)
    return d, change
