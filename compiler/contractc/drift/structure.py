"""The structure of a block, what an instance region is held to (docs/regions.md, "Instance regions").

An instance keeps its shape's structure and fills in values of its own, so
only the structure is compared, never a value:

* a data shape (a fenced YAML block): its key paths at every depth
  (``$.outcome.checks[*].name``), read against the shape's interpreted notation,
  so an optional key may be absent and an open object (``{ id, ... }``, ``{}``)
  or a placeholder (``{ ...anything... }``) may hold any keys;
* a JSON template: its key paths, read leniently (placeholders such as
  ``<string>`` or ``"a" | "b"`` stand where a value goes);
* any other template: its headings, label lines (``**Root cause:** ...``,
  ``Verdict: ...``) and tag lines, read by scan's own reader of template structure
  (:func:`contractc.scan.blocks.structure_line`), so scan and check agree on what a
  template's structure is; a heading holding a placeholder (``## <title>``) stands for
  any heading of its level.

:func:`compare` returns what the instance lacks and what it holds that the shape
does not, each with the instance's line, and both structures as lines for a diff.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from contractc.model.records import DataShape, Node, Spec, TextShape

_FENCE = re.compile(r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")


class Item(NamedTuple):
    """One piece of structure: a key path, a heading (``## Findings``) or a label line (``Verdict:``)."""

    name: str
    line: int
    """1-based line in the text it was read from (0 when it has none)."""

    @property
    def shown(self) -> str:
        """The entry as a person writes it: ``$.a.b``, ``## findings``, ``verdict:``, ``<report>``."""
        kind, _, rest = self.name.partition(":")
        if kind.startswith("h") and kind[1:].isdigit():
            return f"{'#' * int(kind[1:])} {rest}"
        return {"label": f"{rest}:", "tag": f"<{rest}>"}.get(kind, self.name) if rest else self.name


class Compared(NamedTuple):
    missing: tuple[Item, ...]
    """What the shape has and the instance lacks (lines are the shape's)."""
    foreign: tuple[Item, ...]
    """What the instance holds and the shape does not have (lines are the instance's)."""
    shape: tuple[str, ...]
    """The shape's structure, one entry per line, for a diff."""
    instance: tuple[str, ...]
    """The instance's structure, the same way."""
    unreadable: str = ""
    """Why the instance's structure could not be read (then nothing else is said)."""
    retyped: str = ""
    """How the instance changes the types or enum members the shape writes (``its enum of status drops partial``),
    by scan's rule (:func:`contractc.scan.shapes.changed_notation`); "" when it keeps them."""


def fenced(text: str) -> tuple[str, str, int]:
    """(info string, body, 0-based line of the body's first line) of the first fenced block in ``text``;
    the whole text (info empty) when it holds no fence."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        opening = _FENCE.match(line)
        if opening is None:
            continue
        fence = opening["fence"]
        for j in range(i + 1, len(lines)):
            if lines[j].strip().startswith(fence[0] * len(fence)) and not lines[j].strip().strip(fence[0]):
                return opening["info"].strip(), "\n".join(lines[i + 1 : j]) + "\n", i + 1
        return opening["info"].strip(), "\n".join(lines[i + 1 :]), i + 1
    return "", text, 0


def compare(shape: DataShape | TextShape, shape_text: str, held: str, path: str, first_line: int) -> Compared:
    """The instance ``held`` (a region's text, its first line at file line ``first_line``) against ``shape``,
    whose block is ``shape_text`` (fences included)."""
    info, body, at = fenced(held)
    if isinstance(shape, DataShape):
        found = _compare_data(shape, body, path, first_line + at)
    else:
        shape_info, shape_body, shape_at = fenced(shape_text)
        if shape_info.split()[:1] == ["json"]:
            theirs, ours = json_paths(shape_body, shape_at + 1), json_paths(body, first_line + at)
            found = _compare_items(theirs, ours, containers=True)
        else:
            found = _compare_items(template_items(shape_body, shape_at + 1), template_items(body, first_line + at), containers=False)
    return found if found.unreadable else found._replace(retyped=_retyped(shape_text, held, path))


def _retyped(shape_text: str, held: str, path: str) -> str:
    """Scan's verdict on the instance's types and enum members against the shape's block: each read as scan
    reads a block (:func:`contractc.scan.blocks.file_units`), the instance located in its file ``path`` (a
    definition file with values of its own defines its own)."""
    import dataclasses

    from contractc.load.source import source_from_bytes
    from contractc.scan.blocks import file_units
    from contractc.scan.shapes import changed_notation

    def unit(text: str):
        units = [u for u in file_units(source_from_bytes("block.md", text.encode("utf-8"))) if not u.within]
        return units[0] if len(units) == 1 else None

    mine, theirs = unit(held), unit(shape_text)
    if mine is None or theirs is None:
        return ""
    return changed_notation(dataclasses.replace(mine, block=dataclasses.replace(mine.block, path=path)), theirs)


def json_paths(text: str, first_line: int = 1) -> list[Item]:
    """Every key path of a JSON(-like) text, with its line: ``$.a``, ``$.a[*]`` (an object in a list), ``$.a[*].b``."""
    found: list[Item] = []
    stack: list[str] = []  # the path of each open container
    kinds: list[str] = []  # "{" or "["
    line, i, size = first_line, 0, len(text)
    key = ""
    while i < size:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == '"':
            j = i + 1
            while j < size and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            word = text[i + 1 : j]
            k = j + 1
            while k < size and text[k] in " \t":
                k += 1
            if (not kinds or kinds[-1] == "{") and k < size and text[k] == ":":
                # outside any container: a member written on its own (`"reset": {...}`), as scan reads it
                key = f"{stack[-1] if kinds else '$'}.{word}"
                found.append(Item(key, line))
            i = j
        elif ch in "{[":
            if not kinds:
                parent = key or "$"
            elif kinds[-1] == "[":
                parent = f"{stack[-1]}[*]"
                if ch == "{":
                    found.append(Item(parent, line))
            else:
                parent = key or stack[-1]
            stack.append(parent)
            kinds.append(ch)
            key = ""
        elif ch in "}]":
            if kinds:
                stack.pop()
                kinds.pop()
            key = ""
        elif ch == ",":
            key = ""
        i += 1
    return list({item.name: item for item in reversed(found)}.values())[::-1]


def template_items(text: str, first_line: int = 1) -> list[Item]:
    """The headings (``h2:findings``), label lines (``label:verdict``) and tag lines of a template, each once,
    with its line."""
    from contractc.scan.blocks import structure_line

    found: dict[str, Item] = {}
    for n, line in enumerate(text.split("\n")):
        read = structure_line(line)
        if read is not None:
            found.setdefault(read[0], Item(read[0], first_line + n))
    return list(found.values())


def _compare_items(theirs: list[Item], ours: list[Item], containers: bool) -> Compared:
    have = {i.name for i in ours}
    want = {i.name for i in theirs}
    wildcards = {i.name.split(":", 1)[0] for i in theirs if i.name.startswith("h") and "<>" in i.name}

    def parent(name: str) -> str:
        return name[: max(name.rfind("."), name.rfind("[*]"))] if containers else ""

    missing = tuple(
        i
        for i in theirs
        if i.name not in have
        and not i.name.endswith("[*]")
        and "<>" not in i.name
        and (not containers or parent(i.name) in ("$", "") or parent(i.name) in have)
    )
    foreign = tuple(i for i in ours if i.name not in want and i.name.split(":", 1)[0] not in wildcards)
    return Compared(missing, foreign, tuple(i.shown for i in theirs), tuple(i.shown for i in ours))


def _compare_data(shape: DataShape, body: str, path: str, first_line: int) -> Compared:
    from contractc.report.diagnostics import ContractcError
    from contractc.load.yaml_block import parse_block, to_node

    try:
        parsed = parse_block(body, path, first_line)
    except ContractcError as exc:
        return Compared((), (), (), (), f"its YAML does not parse: {exc.diagnostics[0].message}")
    node = to_node(parsed, body, first_line) if parsed is not None else None
    if node is None or node.kind != "map" or [f.name for f in node.fields] != [shape.key]:
        return Compared((), (), (), (), f"it must hold one fenced YAML block whose only top-level key is {shape.key}")
    missing: list[Item] = []
    foreign: list[Item] = []
    assert shape.spec is not None
    _walk(shape.spec, node.fields[0].value, f"$.{shape.key}", missing, foreign)
    held = tuple(_node_paths(node.fields[0].value, f"$.{shape.key}"))
    # the shape's side of the diff: its key paths, but an optional one the instance leaves out
    wanted = tuple(p for p, prop in _spec_paths(shape.spec, f"$.{shape.key}") if not prop.optional or p in held)
    return Compared(tuple(missing), tuple(foreign), wanted, held)


def _walk(spec: Spec, node: Node, path: str, missing: list[Item], foreign: list[Item]) -> None:
    if spec.kind == "object" and node.kind == "map":
        names = {f.name: f for f in node.fields}
        for prop in spec.props:
            field = names.get(prop.name)
            if field is None:
                if not prop.optional:
                    missing.append(Item(f"{path}.{prop.name}", prop.line))
            else:
                _walk(prop.spec, field.value, f"{path}.{prop.name}", missing, foreign)
        if not spec.open:
            known = {p.name for p in spec.props}
            foreign.extend(Item(f"{path}.{f.name}", f.line) for f in node.fields if f.name not in known)
    elif spec.kind == "array" and node.kind == "seq" and spec.items:
        for item in node.items:
            trials = []
            for variant in spec.items:
                lost: list[Item] = []
                extra: list[Item] = []
                _walk(variant, item, f"{path}[*]", lost, extra)
                trials.append((len(lost) + len(extra), lost, extra))
            _, lost, extra = min(trials, key=lambda t: t[0])
            missing.extend(i for i in lost if i.name not in {m.name for m in missing})
            foreign.extend(extra)
    # any other pairing: a value (or a value of another type) where the shape has one; values are the instance's own


def _spec_paths(spec: Spec, path: str):
    if spec.kind == "object":
        for prop in spec.props:
            yield f"{path}.{prop.name}", prop
            yield from _spec_paths(prop.spec, f"{path}.{prop.name}")
    for item in spec.items[:1]:
        yield from _spec_paths(item, f"{path}[*]")


def _node_paths(node: Node, path: str):
    if node.kind == "map":
        for f in node.fields:
            if f.value.kind == "absent" and f.name.startswith("..."):
                continue  # `{ ...x... }`, `{ id, ... }`: a placeholder, not a key
            yield f"{path}.{f.name}"
            yield from _node_paths(f.value, f"{path}.{f.name}")
    elif node.kind == "seq":
        seen: set[str] = set()
        for item in node.items:
            for p in _node_paths(item, f"{path}[*]"):
                if p not in seen:
                    seen.add(p)
                    yield p
