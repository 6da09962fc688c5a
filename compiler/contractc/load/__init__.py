"""Stage 1, load: ``contractc.yaml`` and ``contracts/*.md`` -> :class:`~contractc.model.Project`."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.load.config import load_config
from contractc.load.contract import parse_contract
from contractc.load.source import read_source
from contractc.model import Contract, DataShape, Project

__all__ = ["load_project", "load_config", "parse_contract", "read_source"]


def load_project(root: Path) -> Project:
    """Read and parse everything; raise one :class:`ContractcError` holding every problem."""
    config = load_config(root)
    problems: list[Diagnostic] = []
    contracts: list[Contract] = []
    for i, entry in enumerate(config.contracts):
        try:
            src = read_source(root, entry.path, referenced_from=entry.span)
            contracts.append(parse_contract(src, entry.shared, config.where(f"$.contracts[{i}].shared")))
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise ContractcError(problems)
    contracts = _qualify_shape_ids(contracts)
    return Project(root_label=".", config=config, contracts=tuple(contracts), root=str(root))


def _qualify_shape_ids(contracts: list[Contract]) -> list[Contract]:
    """A data-shape key used in several sections gets the id ``<section>.<key>``; ids must be unique."""
    places = {(c.path, s.section, s.key) for c in contracts for s in c.data_shapes}
    sections_per_key = Counter(key for _, _, key in places)
    qualified = []
    for contract in contracts:
        shapes = tuple(
            replace(s, id=f"{s.section}.{s.key}") if isinstance(s, DataShape) and sections_per_key[s.key] > 1 else s
            for s in contract.shapes
        )
        qualified.append(replace(contract, shapes=shapes))
    seen: dict[str, tuple[str, int]] = {}
    problems = []
    for contract in qualified:
        for shape in contract.shapes:
            line = shape.span.line if shape.kind == "text" else shape.block.line
            if shape.id in seen:
                path, first = seen[shape.id]
                problems.append(
                    Diagnostic(
                        contract.path,
                        line,
                        1,
                        "duplicate-shape",
                        f"shape id {shape.id!r} is already defined at {path}:{first}",
                        "rename the shape's key or section heading",
                    )
                )
            else:
                seen[shape.id] = (contract.path, line)
    if problems:
        raise ContractcError(problems)
    return qualified
