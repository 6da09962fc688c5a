"""``contractc adopt``: move the copies ``scan`` found under one contract.

The plan is computed in full before anything is written:

1. scan the plugin; every shape with two or more unmanaged copies is adopted;
2. write the contract (:mod:`.contract`): one section per stage, each shape's
   owning copy byte for byte;
3. replace each copy with a managed region naming its shape (:mod:`.rewrite`);
4. compile the result in a scratch folder with the real pipeline: the regions
   are filled and stamped by the regions emitter, and the schemas and dispatch
   snippets ``build`` would write are added, so that right after ``adopt
   --write`` ``check`` is clean and ``build`` writes nothing;
5. a block ``check`` would still call a restatement (a worked example, a copy
   adopt leaves alone) is listed under ``allow_restatements`` with the reason.

``--write`` applies every change through the output writer, all-or-nothing.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path, PurePosixPath

from contractc.adopt.checks import carried_checks
from contractc.adopt.contract import render_config, render_contract
from contractc.adopt.plan import Plan, Rewritten
from contractc.adopt.rewrite import Replacement, block_replacement, replace_blocks
from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.load.config import CONFIG_NAME
from contractc.load.slug import slugify
from contractc.model.records import Span
from contractc.output.outputs import Change, Output, OutputSet, guard_paths
from contractc.report.format import Outcome, Report
from contractc.scan import ScanResult, scan_plugin
from contractc.scan.blocks import Unit
from contractc.scan.shapes import Group

__all__ = ["Plan", "adopt", "plan_adoption"]


def plan_adoption(
    root: Path,
    name: str | None = None,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    owners: tuple[str, ...] = (),
) -> Plan:
    """The whole plan; raises :class:`ContractcError` (exit 2) when the plugin cannot be adopted as it is."""
    result = scan_plugin(root, include, exclude, owners)
    groups = list(result.groups)
    if not groups:
        return Plan("", scan=result)
    if (root / CONFIG_NAME).exists():
        raise ContractcError(
            Diagnostic(
                CONFIG_NAME,
                0,
                0,
                "adopt-configured",
                f"{len(groups)} shapes have unmanaged copies, but the plugin already has a {CONFIG_NAME}",
                "adopt writes a new contract and configuration; put these copies in managed regions by hand "
                "(`contractc check` names each with the region markers to use)",
            )
        )
    slug = _contract_name(root, name)
    contract_path = f"contracts/{slug}.md"
    if os.path.lexists(root / "contracts") and not os.path.islink(root / "contracts") and not (root / "contracts").is_dir():  # a link: guard_adoption
        raise ContractcError(
            Diagnostic(
                "contracts",
                1,
                1,
                "unsafe-path",
                "contracts is not a folder: adopt writes the contract into the contracts/ folder",
                "move it away, then run adopt again",
            )
        )
    if (root / contract_path).exists():
        raise ContractcError(
            Diagnostic(contract_path, 0, 0, "adopt-configured", f"{contract_path} already exists", "choose another name with --name")
        )
    plan = Plan(contract_path, scan=result)
    carried = carried_checks(groups, result.data)
    plan.checks = [(group_id, c) for group_id, found in sorted(carried.items()) for c in found.differing]
    plan.unchecked = [(group_id, unit) for group_id, found in sorted(carried.items()) for unit in found.missing]
    plan.carried = {group_id: found.chosen for group_id, found in carried.items()}
    checks = {group_id: found.chosen.text for group_id, found in carried.items()}
    contract_bytes, placed = render_contract(f"{_title(slug)} hand-offs", groups, result.dispatchers, checks)
    refs = _contract_ids(contract_path, contract_bytes, placed)
    plan.shapes = {g.id: refs[g.id][0] for g in groups}

    adopted: dict[int, tuple[str, bytes]] = {}
    for group in groups:
        ref, region = refs[group.id]
        for unit in group.copies:
            if unit.block.col > 1:
                plan.skipped.append((unit, "indented (inside a list item or quote): a region must start at column 1"))
                continue
            adopted[id(unit)] = (ref, region)
    by_block: dict[tuple[str, int], list[Unit]] = {}
    for unit in result_units(result):
        by_block.setdefault((unit.block.path, unit.block.start), []).append(unit)
    replacements: dict[str, list[Replacement]] = {}
    for (path, _), units in sorted(by_block.items()):
        units.sort(key=lambda u: u.line)
        if any(id(u) in adopted for u in units):
            replacement = block_replacement(units[0].block, units, adopted)
            replacements.setdefault(path, []).append(replacement)
            plan.rewritten += _rewrites(replacement, units, groups, adopted, plan.shapes, result.data[path])
    files = {path: replace_blocks(result.data[path], found) for path, found in replacements.items()}
    plan.replaced = {path: [(r.block.start, r.block.end) for r in found] for path, found in replacements.items()}
    targets, covered = _targets(root, sorted(files), result)
    out = _out_folders(root)
    config = render_config(contract_path, targets, [], out)
    # the other files the target globs reach are compiled too, so what check will find there is found now
    files = {**{p: result.data[p] for p in covered if p not in files}, **files}
    try:
        outputs, found, digests = _compile(root, contract_path, contract_bytes, config, files)
    except ContractcError as exc:
        raise ContractcError([_at_owner(d, contract_path, contract_bytes, placed) for d in exc.diagnostics]) from None
    if found:
        plan.allowed = [_allowance(d, result, digests) for d in found]
        config = render_config(contract_path, targets, plan.allowed, out)
        outputs, found, digests = _compile(root, contract_path, contract_bytes, config, files)
    written = {contract_path: (contract_bytes, "contract"), CONFIG_NAME: (config, "config")}
    written.update({p: (d, k) for p, (d, k) in outputs.items()})
    guard_adoption(root, written)
    for path, (data, kind) in sorted(written.items()):
        old = _read(root / path)
        if old != data:
            plan.changes.append(Change(path, data, old, Output(data, kind)))
    return plan


def adopt(
    root: Path,
    name: str | None = None,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    owners: tuple[str, ...] = (),
    *,
    write: bool = False,
    diff: bool = True,
    fmt: str = "text",
    color: bool = False,
    path_prefix: str = "",
) -> Outcome:
    """``contractc adopt``: the plan, applied all-or-nothing when ``write``; bad input is the diagnostics (exit 2).

    ``fmt`` ``text`` prints the plan (:mod:`contractc.adopt.show`); ``json`` and ``github`` print it
    as a report, as ``scan`` does (:mod:`contractc.adopt.report`), bad input included.
    """
    from contractc.adopt.show import format_plan
    from contractc.output.outputs import write_changes

    try:
        plan = plan_adoption(root, name, include, exclude, owners)
        if write and plan.changes:
            from contractc.report.progress import stage

            stage(f"writing {len(plan.changes)} files")
            # the configuration first: a journal of adopt --write cut short always holds it, on disk or staged
            write_changes(root, sorted(plan.changes, key=lambda c: (c.path != CONFIG_NAME, c.path)))
    except ContractcError as exc:
        if fmt == "text":
            return Outcome.failed(exc.diagnostics)
        return _formatted(Report.of(exc.diagnostics), fmt, diff, color, path_prefix)
    if fmt == "text":
        return Outcome(format_plan(plan, written=write, diff=diff))
    from contractc.adopt.report import adopt_report

    return _formatted(adopt_report(plan, written=write), fmt, diff and not write, color, path_prefix)


def _formatted(report: Report, fmt: str, diff: bool, color: bool, path_prefix: str) -> Outcome:
    from contractc.report.format import FORMATTERS, Options

    text = FORMATTERS[fmt](report, Options(diff=diff, color=color, path_prefix=path_prefix))
    return Outcome(text, exit_code=report.exit_code, color=color)


def guard_adoption(root: Path, written: dict[str, tuple[bytes, str]]) -> None:
    """Every file adopt would write obeys the rule of every output path (:func:`contractc.output.outputs.guard_paths`):
    plain names, nothing through a symbolic link (out of the project or not), checked before any is read.

    The plugin files adopt rewrites into regions are the user's, named as the user likes: as for
    ``build``'s targets, the rule leaves them to how they were found (scan reads nothing through a
    link out of the project, and finds a file by its real path).
    """
    problems: list[Diagnostic] = []
    for rel, (data, kind) in sorted(written.items()):
        # Each file under the project root ("."), located at itself: the configuration is not written yet.
        one = OutputSet({rel: Output(data, kind)}, set(), {".": Span(rel, 1, 1, 0, 0)})
        try:
            guard_paths(root, one)
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise ContractcError(problems)


def result_units(result: ScanResult) -> list[Unit]:
    """Every unit scan kept, shapes and their copies (not examples): what a block may hold."""
    return [u for g in (*result.groups, *result.single) for u in g.copies]


def _rewrites(
    replacement: Replacement,
    units: list[Unit],
    groups: list[Group],
    adopted: dict[int, tuple[str, bytes]],
    ids: dict[str, str],
    original: bytes,
) -> list[Rewritten]:
    """The adopted copies of one block whose bytes the region will not hold unchanged, each with why."""
    block = replacement.block
    found = []
    for unit in replacement.units:
        group = next(g for g in groups if any(u is unit for u in g.copies))
        if unit.text != group.owner.text:
            why = "differs from the owning copy: the owner's bytes replace it"
        elif len(units) > 1:
            why = f"its block holds {len(units)} keys: each adopted key gets a region of its own"
        elif adopted[id(unit)][1] != original[block.start : block.end]:
            why = "its bytes (fence, blank lines or line endings) differ from the owning copy's block, which replaces it"
        else:
            continue
        found.append(Rewritten(unit, ids[group.id], why))
    return found


def _contract_ids(path: str, data: bytes, placed) -> dict[str, tuple[str, bytes]]:
    """Each group's id in the written contract and the bytes its regions hold, asked of the contract loader."""
    from contractc.load import parse_contract, qualify_shape_ids
    from contractc.load.source import source_from_bytes
    from contractc.model.records import DataShape

    (contract,) = qualify_shape_ids([parse_contract(source_from_bytes(path, data))])
    starts = {}
    for shape in contract.shapes:
        span = shape.block if isinstance(shape, DataShape) else shape.template
        if span is not None:
            starts[span.start] = (shape.id, contract.slice(span))
    return {p.group.id: starts[p.offset] for p in placed}


def _targets(root: Path, rewritten: list[str], result: ScanResult) -> tuple[list[str], set[str]]:
    """The ``targets:`` globs, and every file they reach.

    Each rewritten file's folder is a glob (``agents/*.md``, ``skills/*/SKILL.md``), so a copy
    pasted into an agent added later fails ``check`` as a restatement.  A folder where the glob
    would also reach a file scan did not read (git-ignored, a link) is listed file by file:
    ``check`` must not depend on files a CI checkout does not have.
    """
    read = set(result.files)
    patterns: set[str] = set()
    covered: set[str] = set()
    for path in rewritten:
        parts = PurePosixPath(path).parts
        if parts[-1] == "SKILL.md" and len(parts) >= 3:
            pattern = "/".join([*map(glob.escape, parts[:-2]), "*", "SKILL.md"])
        elif len(parts) >= 2:
            pattern = "/".join([*map(glob.escape, parts[:-1]), "*" + PurePosixPath(path).suffix])
        else:
            pattern = ""
        reached = {m.relative_to(root).as_posix() for m in root.glob(pattern)} if pattern else set()
        if pattern and reached <= read:
            patterns.add(pattern)
            covered |= reached
        else:
            patterns.add(glob.escape(path))
            covered.add(path)
    return sorted(patterns), covered


def _compile(root: Path, contract_path: str, contract: bytes, config: bytes, files: dict[str, bytes]):
    """Compile the adopted plugin in a scratch folder: every output ``build`` would write, and what check would still find."""
    from contractc.drift.restatements import find_restatements, unmanaged_copies
    from contractc.pipeline import compile_project
    from contractc.report.progress import stage

    stage(f"compiling the plan ({len(files)} files)")

    from contractc.output.journal import scratch

    with scratch(root) as folder:
        base = Path(folder)
        for rel, data in {contract_path: contract, CONFIG_NAME: config, **files}.items():
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_bytes(data)
        project, outputs = compile_project(base)
        found = find_restatements(project)
        digests = {(path, line): digest for path, _, line, digest in unmanaged_copies(project)} if found else {}
        rendered = {p: (o.data, o.kind) for p, o in outputs.files.items()}
        for rel, data in files.items():
            rendered.setdefault(rel, (data, "regions"))
        return rendered, found, digests


def _at_owner(d: Diagnostic, contract_path: str, contract: bytes, placed) -> Diagnostic:
    """A problem found in the contract-to-be, located at the owning copy it came from (the contract is not on disk yet)."""
    if d.path != contract_path:
        return d
    for p in placed:
        fence_line = contract.count(b"\n", 0, p.offset) + 1
        length = p.group.owner.text.count("\n") + 1
        if fence_line < d.line <= fence_line + length:
            owner = p.group.owner
            line = owner.line + d.line - fence_line - 1
            col = d.col + (owner.block.col - 1)
            return d._replace(path=owner.block.path, line=line, col=col, message=f"{d.message} (in the owning copy of {p.group.id})")
    return d


def _allowance(d: Diagnostic, result: ScanResult, digests: dict[tuple[str, int], str]) -> tuple[str, str, int, str, str]:
    shape = d.message.removeprefix("unmanaged copy of ").split(",", 1)[0]
    example = next((u for u in result.examples if u.block.path == d.path), None)
    why = "a worked example, not a copy" if example is not None else "left as it is by adopt: make it a region or delete it"
    return d.path, shape, d.line, why, digests[(d.path, d.line)]


def _out_folders(root: Path) -> dict[str, str]:
    """Where the schemas and dispatch snippets go: folders contractc will own (and clean), so never the user's.

    The defaults (``prompts/``, ``schemas/``) when the plugin has no such folder, else ``contractc/<kind>``.
    """
    from contractc.load.config import DEFAULT_OUT

    out = {}
    for kind, folder in DEFAULT_OUT.items():
        for candidate in (folder, f"contractc/{kind}"):
            if not (root / candidate).exists():
                out[kind] = candidate
                break
        else:
            raise ContractcError(
                Diagnostic(
                    f"contractc/{kind}",
                    0,
                    0,
                    "adopt-configured",
                    f"both {folder}/ and contractc/{kind}/ exist; contractc needs a folder of its own for its {kind}",
                    "move one of them, then run adopt again",
                )
            )
    return out


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


MAX_NAME = 100
"""The longest contract name (``--name``): a file name, far below any file system's limit."""


def _contract_name(root: Path, name: str | None) -> str:
    """The contract's file name from ``--name`` (or the plugin folder's name), slugified.

    A name that is a path (``../../escape``), or whose slug is empty or longer than :data:`MAX_NAME`,
    is refused with a located ``unsafe-name`` at ``--name`` rather than silently changed into another.
    """
    from contractc.model.names import name_problem

    given = name if name is not None else root.resolve().name
    slug = slugify(given) or ("handoffs" if name is None else "")
    problem = None
    if name is not None and (any(ch in name for ch in "/\\\0") or ".." in name):
        problem = "is a path, not a name: the contract is always contracts/NAME.md"
    elif not slug:
        problem = "has no letter or digit to name a file with"
    elif len(slug) > MAX_NAME:
        problem = f"is {len(slug)} characters long as a file name; at most {MAX_NAME}"
    elif name_problem(slug):
        problem = name_problem(slug)
    if problem:
        raise ContractcError(
            Diagnostic(
                "--name",
                1,
                1,
                "unsafe-name",
                f"{'--name ' + repr(name) if name is not None else 'the plugin folder name ' + repr(given)} {problem}",
                "give a short name of letters, digits and '-' with --name (it becomes contracts/NAME.md)",
            )
        )
    return slug


def _title(slug: str) -> str:
    return slug.replace("-", " ").replace("_", " ").capitalize()

