"""``over-budget``: each dispatch snippet over its agent's or its own budget (``budgets:`` in contractc.yaml).

Sizes and the token estimate are the model's (:mod:`contractc.model.budget`); the finder reads
the section sizes the last build recorded in ``prompts/manifest.json`` to say which section grew.
"""

from __future__ import annotations

from contractc.model.budget import snippet_size
from contractc.model.records import Contract, Project, TextShape
from contractc.report.diagnostics import Diagnostic


def find_over_budget(project: Project) -> list[Diagnostic]:
    """An ``over-budget`` diagnostic for every dispatch snippet over its agent's or its own budget.

    Located at the section of the snippet that grew the most since the last
    build (by the section sizes ``prompts/manifest.json`` recorded), else at
    the shape's own section.
    """
    by_agent, by_shape = dict(project.config.budgets.agents), dict(project.config.budgets.shapes)
    if not by_agent and not by_shape:
        return []
    problems = []
    recorded: dict[str, dict[str, int]] | None = None  # the manifest on disk, read once when a snippet is over
    for contract in project.contracts:
        for shape in contract.text_shapes:
            limits = [(by_shape[shape.id], f"$.budgets.shapes.{shape.id}")] if shape.id in by_shape else []
            if shape.producer in by_agent:
                limits.append((by_agent[shape.producer], f"$.budgets.agents.{shape.producer}"))
            if not limits:
                continue
            size = snippet_size(contract.bundle(shape))
            limit, key = min(limits)
            if size.tokens <= limit:
                continue
            if recorded is None:
                recorded = _recorded_sizes(project)
            section = _grown_section(contract, shape, recorded.get(project.snippet_path(shape), {}))
            where = project.config.where(key)
            problems.append(
                Diagnostic(
                    contract.path,
                    section.span.line,
                    1,
                    "over-budget",
                    f"the dispatch snippet of {shape.id} for {shape.producer} is ~{size.tokens} tokens "
                    f"({size.bytes} bytes), over its budget of {limit} ({key}, {where.path}:{where.line}); "
                    f"section {section.anchor!r} grew the most",
                    "shorten the sections it carries, move detail out of the shared sections, or raise the budget",
                )
            )
    return problems


def _grown_section(contract: Contract, shape: TextShape, recorded: dict[str, int]):
    """The snippet's section with the largest growth over the sizes ``recorded`` by the last build."""
    if recorded:
        carried = contract.sections_of(shape)
        now = {s.anchor: s.span.end - s.span.start for s in carried}  # as section_sizes, for these only
        grown = max(carried, key=lambda s: now[s.anchor] - recorded.get(s.anchor, 0))
        if now[grown.anchor] > recorded.get(grown.anchor, 0):
            return grown
    return contract.section(shape.section)


def _recorded_sizes(project: Project) -> dict[str, dict[str, int]]:
    """Snippet path -> the section sizes the manifest on disk recorded for it (empty when none)."""
    import json

    from contractc.output.files import read_generated

    # Read here rather than by the loader: only a project with budgets needs it, and only when one is exceeded.
    data = read_generated(project.root, f"{project.config.out.prompts}/manifest.json")
    try:
        entries = json.loads(data)["snippets"] if data is not None else []
    except (ValueError, KeyError, TypeError):
        return {}
    recorded: dict[str, dict[str, int]] = {}
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("section_bytes"), dict):
            path = entry.get("path")
            if isinstance(path, str) and path not in recorded:  # the first entry of a path, as a search finds
                recorded[path] = {k: v for k, v in entry["section_bytes"].items() if isinstance(v, int)}
    return recorded
