"""The producer/consumer graph, drawn at build time as inline SVG.

No script and no CDN: the picture is in the page, so it looks the same in every
engine, offline and in print.  Nodes are the agents (and skills) and the
shapes; an arrow runs from a producer to the text shape it produces (labelled
with its mode, ``in audit mode``) and from the shape to each consumer, and a
dashed one from a data shape to each agent whose file holds a copy of it.  Each node
links to its page with a docs-relative ``.md`` path, the form both engines
resolve (see :mod:`contractc.site.plugin`).

The layout is layered: a node's column is the longest path to it from a node
nothing points at, with the edges that close a cycle (an orchestrator that
both dispatches and receives) left out of the ranking; within a column, nodes
are ordered by the mean row of their neighbours in the column before.
"""

from collections.abc import Callable
from graphlib import TopologicalSorter
from html import escape
from itertools import accumulate
from typing import NamedTuple

from contractc.model.records import Shape, TextShape
from contractc.model.layout import Layout

CHAR_WIDTH = 7.4
"""Width of one character of the 13px label font, in px (a generous mean, so labels fit)."""
MODE_CHAR = CHAR_WIDTH * 11 / 13
"""Width of one character of the 11px mode labels."""
ROW = 46
GAP = 70
PAD = 12


class _Node(NamedTuple):
    key: str
    kind: str  # "agent" | "shape" (a text shape) | "data" (a data shape)
    label: str
    page: str


def graph_svg(layout: Layout, shapes: list[Shape], link: Callable[[str], str]) -> str:
    """The graph of ``shapes`` as one ``<div>`` holding an ``<svg>``; ``link(page)`` is a page's docs-relative path.

    On a wide screen the picture is fitted to the column; on a phone it is drawn at its full size
    and scrolls sideways in its box: shrunk to 390 px, a wide pipeline's labels would be too small
    to read.
    """
    nodes, edges, held = _graph(layout, shapes)
    if not nodes:
        return ""
    columns = _columns(nodes, edges)
    widths = [max(len(nodes[k].label) for k in col) * CHAR_WIDTH + 2 * PAD for col in columns]
    # The gap before a column: room for the longest mode label on an edge into it, and a bend before it.
    column_of = {key: i for i, col in enumerate(columns) for key in col}
    gaps = [GAP] * len(columns)
    for _, target, mode in edges:
        if mode:
            gaps[column_of[target]] = max(gaps[column_of[target]], len(mode) * MODE_CHAR + 64)
    xs = list(accumulate((widths[i - 1] + gaps[i] for i in range(1, len(columns))), initial=1.0))
    height = max(len(col) for col in columns) * ROW
    where: dict[str, tuple[float, float, float]] = {}  # key -> (x, centre y, width)
    for i, col in enumerate(columns):
        top = (height - len(col) * ROW) / 2
        for j, key in enumerate(col):
            where[key] = (xs[i], top + j * ROW + ROW / 2, widths[i])
    width = xs[-1] + widths[-1] + 1
    # An edge back to an earlier column (one per cycle) runs below every node, in a lane of its own.
    backward = [(s, t) for s, t, _ in edges if where[t][0] <= where[s][0]]
    lanes: dict[tuple[str, str], int] = {}  # a pair's first place among them: a dict, not a search per edge
    for n, pair in enumerate(backward):
        lanes.setdefault(pair, n)
    lane = height + 6
    height += 14 * len(backward) + (6 if backward else 0)
    out = [
        '<div class="contractc-graph" style="overflow-x:auto;max-width:100%">',
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" style="font:13px sans-serif">',
        "<title>Who hands what to whom: agents and the shapes they produce and receive</title>",
        "<style>"
        # Shrunk to the column on a wide screen; on a phone (the theme's breakpoint) drawn at full size,
        # scrolling in its box, so no label is drawn smaller than the 11 px it is written in.
        ".contractc-graph svg{max-width:100%;height:auto}"
        "@media screen and (max-width:44.9375em){.contractc-graph svg{max-width:none}}"
        ".cc-edge{fill:none;stroke:currentColor;stroke-opacity:.55;stroke-width:1.2}"
        ".cc-node rect{stroke:currentColor;stroke-width:1.2;fill:var(--md-default-bg-color,#fff)}"
        ".cc-shape rect,.cc-data rect{fill:var(--md-code-bg-color,#f2f2f2)}"
        ".cc-data rect{stroke-dasharray:4 3}"
        ".cc-held{stroke-dasharray:5 4}"
        ".cc-node text{fill:currentColor;dominant-baseline:central;text-anchor:middle}"
        ".cc-mode{fill:currentColor;font-size:11px;font-style:italic;text-anchor:end;paint-order:stroke;"
        "stroke:var(--md-default-bg-color,#fff);stroke-width:4px;stroke-linejoin:round}"
        "a:hover rect{stroke-width:2.4}"
        "</style>",
        '<defs><marker id="cc-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="currentColor"/></marker></defs>',
    ]
    labels: list[str] = []
    for source, target, mode in edges:
        (x1, y1, w1), (x2, y2, _) = where[source], where[target]
        start, end = x1 + w1, x2
        if end <= start:  # back to an earlier column: down from the source, along its lane, up into the target
            dip = lane + 14 * lanes[source, target]
            sx, tx = x1 + w1 / 2, x2 + 20
            d = f"M{sx:.1f},{y1 + 14:.1f} L{sx:.1f},{dip:.1f} L{tx:.1f},{dip:.1f} L{tx:.1f},{y2 + 15:.1f}"
        else:
            # A mode's edge bends first and runs level under its label for the label's length.
            knee = end - len(mode) * MODE_CHAR - 12 if mode else end
            bend = (knee - start) / 2
            d = f"M{start:.1f},{y1:.1f} C{start + bend:.1f},{y1:.1f} {knee - bend:.1f},{y2:.1f} {knee:.1f},{y2:.1f}"
            if mode:
                d += f" L{end:.1f},{y2:.1f}"
        style = "cc-edge cc-held" if (source, target) in held else "cc-edge"
        out.append(f'<path class="{style}" d="{d}" marker-end="url(#cc-arrow)"/>')
        if mode:
            labels.append(f'<text class="cc-mode" x="{end - 6:.1f}" y="{y2 - 5:.1f}">{escape(mode)}</text>')
    # A mode label sits just above the level run its own edge ends with, right-aligned on the shape's box:
    # only that edge runs there (a shape has one producer), so no edge crosses it and none is taken for its.
    out += labels  # above every edge, each on a halo of the page's colour
    for key, (x, y, w) in where.items():
        node = nodes[key]
        kind = {"agent": "cc-agent", "shape": "cc-shape", "data": "cc-data"}[node.kind]
        radius = 14 if node.kind == "agent" else 3
        out.append(
            f'<a href="{escape(link(node.page))}" class="cc-node {kind}" data-node="{escape(key)}">'
            f"<title>{escape(node.kind)} {escape(node.label)}</title>"
            f'<rect x="{x:.1f}" y="{y - 14:.1f}" width="{w:.1f}" height="28" rx="{radius}"/>'
            f'<text x="{x + w / 2:.1f}" y="{y:.1f}">{escape(node.label)}</text></a>'
        )
    out += ["</svg>", "</div>"]
    return "\n".join(out) + "\n"


def _graph(
    layout: Layout, shapes: list[Shape]
) -> tuple[dict[str, _Node], list[tuple[str, str, str]], set[tuple[str, str]]]:
    """Nodes by key (``agent:<name>``, ``shape:<id>``), the edges (source, target, mode label), and the
    edges from a data shape to an agent whose file holds a copy of it (drawn dashed)."""
    pages = {(p.kind, p.key): p for p in layout.pages}
    nodes: dict[str, _Node] = {}
    edges: list[tuple[str, str, str]] = []
    held: set[tuple[str, str]] = set()
    for agent in layout.agents:
        nodes[f"agent:{agent.name}"] = _Node(f"agent:{agent.name}", "agent", agent.name, pages["agent", agent.name].path)
    for shape in shapes:
        shape_id = shape.id
        key = f"shape:{shape_id}"
        page = pages["shape", shape_id]
        if isinstance(shape, TextShape):
            nodes[key] = _Node(key, "shape", page.title, page.path)
            edges.append((f"agent:{shape.producer}", key, shape.qualifier))
            edges.extend((key, f"agent:{consumer}", "") for consumer in shape.consumers)
            continue
        nodes[key] = _Node(key, "data", page.title, page.path)
        for agent in dict.fromkeys(a.name for a, _ in layout.holders(shape_id)):
            edges.append((key, f"agent:{agent}", ""))
            held.add((key, f"agent:{agent}"))
    return nodes, edges, held


def _columns(nodes: dict[str, _Node], edges: list[tuple[str, str, str]]) -> list[list[str]]:
    """Nodes grouped into columns, left to right, each column ordered to keep arrows short."""
    succ: dict[str, list[str]] = {k: [] for k in nodes}
    for source, target, _ in edges:
        succ[source].append(target)
    # Drop the edges that close a cycle (found by a depth-first walk in a fixed order), then rank.
    state: dict[str, int] = {}
    forward: dict[str, list[str]] = {k: [] for k in nodes}

    def visit(root: str) -> None:
        # A walk with its own stack (no recursion): a pipeline of thousands of stages is no RecursionError.
        state[root] = 1
        stack = [(root, iter(succ[root]))]
        while stack:
            key, rest = stack[-1]
            for nxt in rest:
                if state.get(nxt) == 1:
                    continue  # a back edge: it still gets drawn, it only does not rank
                forward[key].append(nxt)
                if nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, iter(succ[nxt])))
                    break
            else:
                state[key] = 2
                stack.pop()

    pointed_at = {t for _, t, _ in edges}
    for key in [k for k in nodes if k not in pointed_at] + list(nodes):
        if key not in state:
            visit(key)
    preds: dict[str, list[str]] = {k: [] for k in nodes}
    for source, targets in forward.items():
        for target in targets:
            preds[target].append(source)
    rank = {k: 0 for k in nodes}
    for key in TopologicalSorter(preds).static_order():  # the longest path to each node: any order will do
        for nxt in forward[key]:
            rank[nxt] = max(rank[nxt], rank[key] + 1)
    columns: list[list[str]] = [[] for _ in range(max(rank.values()) + 1)]
    for key in nodes:
        columns[rank[key]].append(key)
    for i in range(1, len(columns)):
        row = {k: j for j, k in enumerate(columns[i - 1])}
        columns[i].sort(key=lambda k: sum(row.get(p, 0) for p in preds[k]) / max(1, len(preds[k])))
    return columns
