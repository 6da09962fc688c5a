"""What a region's begin marker names, resolved to contract byte spans.

``shape=ID`` is a data shape's fenced block or a text shape's template;
``section=A[,B...]`` are sections (a bare anchor when one contract has it,
``contracts/x.md#anchor`` otherwise); ``bundle=ID`` is the shape's dispatch
bundle.  A reference that does not resolve comes back as ``(None, why)``: the
caller decides whether that is a typo (exit 2) or an orphan (drift).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from contractc.model.records import Contract, DataShape, Project, Region, Shape, Span, TextShape


def copied_bytes(kind: str, ref: str, spans: tuple[Span, ...], contract: Callable[[str], Contract]) -> bytes:
    """The bytes a resolved reference copies: the spans' slices in order, or the shape's dispatch bundle."""
    if kind == "bundle":
        owner = contract(spans[0].path)
        return owner.bundle(owner.shape(ref))
    return b"".join(contract(s.path).slice(s) for s in spans)


def region_bytes(project: Project, region: Region) -> bytes | None:
    """What a region must hold today, or None when its reference no longer resolves (an orphan) and for an
    instance region, whose bytes are the user's (``check`` holds them to the shape's structure instead)."""
    if region.sources is None or region.kind == "instance":
        return None
    data = copied_bytes(region.kind, region.ref, region.sources, project.contract)
    # The end marker must start a line of its own; a contract without a final newline gets one here.
    return data if not data or data.endswith((b"\n", b"\r")) else data + b"\n"


class References:
    """The configured contracts indexed once (shapes by id, contracts by path, who holds each anchor),
    so that resolving every region of every target costs a few dict lookups per reference, not a
    scan of the contracts."""

    def __init__(self, contracts: Sequence[Contract]):
        self.contracts = tuple(contracts)
        self.shapes: dict[str, Shape] = {}
        self.owners: dict[int, Contract] = {}
        self.by_path: dict[str, Contract] = {}
        self.holders: dict[str, list[Contract]] = {}
        for c in self.contracts:
            self.by_path.setdefault(c.path, c)  # the first of a path, as a search finds
            for s in c.shapes:
                self.shapes[s.id] = s  # the last of an id, as a dict built in order keeps
                self.owners[id(s)] = c
            for anchor in dict.fromkeys(s.anchor for s in c.sections):
                self.holders.setdefault(anchor, []).append(c)

    def contract(self, path: str) -> Contract:
        return self.by_path[path]


def resolve(kind: str, ref: str, contracts: References | Sequence[Contract]) -> tuple[tuple[Span, ...] | None, str]:
    """The contract spans a reference names (for a bundle, the shape's section), or ``(None, why)``."""
    index = contracts if isinstance(contracts, References) else References(contracts)
    if kind == "section":
        spans = []
        for item in ref.split(","):
            span, why = _section(item, index)
            if span is None:
                return None, why
            spans.append(span)
        return tuple(spans), ""
    shapes = index.shapes
    shape = shapes.get(ref)
    if shape is None:
        qualified = sorted(i for i, s in shapes.items() if isinstance(s, DataShape) and s.key == ref)
        if qualified:
            return None, f"shape key {ref!r} is used in several sections; name one: {', '.join(qualified)}"
        named = sorted(i for i, s in shapes.items() if isinstance(s, TextShape) and s.name.casefold() == ref.casefold())
        if named:  # the heading's title, as validate accepts it; a marker names the id
            return None, f"no shape id {ref!r}; the shape titled {ref!r} has the id {named[0]}: write {kind}={named[0]}"
        return None, f"no shape {ref!r} in the contracts (shapes: {_listed(sorted(shapes))})"
    contract = index.owners[id(shape)]
    if kind == "bundle":
        return (contract.section(shape.section).span,), ""
    if isinstance(shape, DataShape):
        return (shape.block,), ""
    assert isinstance(shape, TextShape)
    if shape.template is None:
        return None, f"text shape {ref!r} has no template block to copy; use bundle={ref} or section={shape.section}"
    return (shape.template,), ""


def _section(item: str, index: References) -> tuple[Span | None, str]:
    contracts = index.contracts
    if "#" in item:
        path, anchor = item.split("#", 1)
        contract = index.by_path.get(path)
        if contract is None:
            return None, f"{path!r} is not a configured contract (contracts: {_listed([c.path for c in contracts])})"
        if not contract.has_section(anchor):
            return None, f"no section {anchor!r} in {path} (anchors: {_listed([s.anchor for s in contract.sections])})"
        return contract.section(anchor).span, ""
    holders = index.holders.get(item, [])
    if not holders:
        return (
            None,
            f"no section {item!r} in any contract (anchors: {_listed([s.anchor for c in contracts for s in c.sections])})",
        )
    if len(holders) > 1:
        where = ", ".join(f"{c.path}#{item}" for c in holders)
        return None, f"section {item!r} is in several contracts; name one: {where}"
    return holders[0].section(item).span, ""


def _listed(names: list[str], limit: int = 12) -> str:
    shown = ", ".join(dict.fromkeys(names[:limit])) or "none"
    return shown + (f", ... ({len(names) - limit} more)" if len(names) > limit else "")
