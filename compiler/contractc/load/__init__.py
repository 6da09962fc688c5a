"""Stages 1 and 2, load: ``contractc.yaml``, ``contracts/*.md`` and target files -> :class:`~contractc.model.records.Project`.

The project comes back complete: the configuration typed, every data shape
carrying its interpreted notation (:mod:`contractc.model.notation`), so no later stage
reads raw input again; the site's pages and anchors are laid out from it by the
stages that need them (:func:`contractc.model.layout.site_layout`).
"""

from __future__ import annotations

from dataclasses import replace
import json
from collections import Counter
from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.load.config import load_config
from contractc.load.contract import parse_contract
from contractc.load.explicit import read_sidecar
from contractc.load.roles import load_roles
from contractc.load.source import read_source
from contractc.load.targets import load_targets
from contractc.model.records import Config, Contract, DataShape, PinRecord, Project, RoleFile, Targets
from contractc.model.notation import interpret

__all__ = ["load_config", "load_project", "parse_contract", "parse_contracts", "qualify_shape_ids", "read_source"]


def load_project(root: Path) -> Project:
    """Read and parse everything; raise one :class:`ContractcError` holding every problem."""
    config = load_config(root)
    contracts = parse_contracts(root, config)
    problems: list[Diagnostic] = []
    # Targets and role files are read after the contracts, whose anchors and shapes they name;
    # their problems are collected together so one run reports them all.
    loaded: dict[str, tuple] = {}
    for name, stage in (("targets", load_targets), ("roles", load_roles), ("budgets", _check_budget_names)):
        try:
            loaded[name] = stage(root, config, contracts)
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
    if not problems:
        problems = _regions_in_front_matter(loaded["targets"], loaded["roles"])
    if problems:
        raise ContractcError(problems)
    contracts, specs = interpret(contracts)
    return Project(
        config=config,
        contracts=tuple(contracts),
        targets=loaded["targets"],
        roles=loaded["roles"],
        pins=_pin_records(root, config),
        root=str(root),
        specs=specs,
    )


def _regions_in_front_matter(targets: Targets, roles: tuple[RoleFile, ...]) -> list[Diagnostic]:
    """A region inside a role file's front matter (the role files that are also targets, read here)."""
    problems: list[Diagnostic] = []
    for role in roles:
        try:
            target = targets.get(role.path) if role.body_start else None
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
            continue
        problems.extend(
            Diagnostic(target.path, r.marker.line, r.marker.col, "marker-syntax", f"region {r.label} sits in the role file's front matter", "move the region below the closing --- line")
            for r in (target.regions if target else ())
            if r.marker.start < role.body_start
        )
    return problems


def _check_budget_names(root: Path, config: Config, contracts: list[Contract]) -> None:
    """``unknown-agent`` / ``unknown-shape`` at each ``budgets:`` key that names no producer / no text shape: a
    typo there must not pass as a budget that holds, which ``check`` would never compare anything with."""
    producers = sorted({s.producer for c in contracts for s in c.text_shapes})
    text_shapes = sorted({s.id for c in contracts for s in c.text_shapes})
    problems = []
    for kind, names, known, code, what in (
        ("agents", config.budgets.agents, producers, "unknown-agent", "agent {!r} produces no shape in the contracts"),
        ("shapes", config.budgets.shapes, text_shapes, "unknown-shape", "{!r} is no text shape of the contracts (only a text shape has a dispatch snippet)"),
    ):
        for name, _ in names:
            if name not in known:
                where = config.where(f"$.budgets.{kind}.{name}")
                problems.append(
                    Diagnostic.at(
                        where, code, f"budget for {what.format(name)}: it would limit nothing", f"budgets.{kind} takes one of: {', '.join(known) or 'none'}"
                    )
                )
    if problems:
        raise ContractcError(problems)


def _pin_records(root: Path, config: Config) -> dict[str, PinRecord]:
    """The section hashes build recorded for pinned contracts (see drift/pins.py); {} when none."""
    if not any(entry.sha256 for entry in config.contracts):
        return {}
    from contractc.output.files import read_generated

    data = read_generated(root, f"{config.out.prompts}/manifest.json")  # never through a symbolic link
    try:
        recorded = json.loads(data).get("pins", {}) if data is not None else {}
        return {path: PinRecord(r["sha256"], dict(r["sections"])) for path, r in recorded.items()}
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return {}  # no record (or a damaged one, which check reports as drift of the manifest)


def parse_contracts(root: Path, config: Config) -> list[Contract]:
    """Every contract ``config`` lists, parsed, its shape ids qualified; raise every problem at once."""
    problems: list[Diagnostic] = []
    contracts: list[Contract] = []
    for i, entry in enumerate(config.contracts):
        try:
            src = read_source(root, entry.path, referenced_from=entry.span)
            sidecar = read_sidecar(root, entry.path)
            contracts.append(parse_contract(src, entry.shared, config.where(f"$.contracts[{i}].shared"), sidecar))
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise ContractcError(problems)
    return qualify_shape_ids(contracts)


def qualify_shape_ids(contracts: list[Contract]) -> list[Contract]:
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
                        "rename the shape's key or section heading; if this block is a worked example, not a shape, open its fence with ```{.yaml .example}",
                    )
                )
            else:
                seen[shape.id] = (contract.path, line)
    if problems:
        raise ContractcError(problems)
    return qualified
