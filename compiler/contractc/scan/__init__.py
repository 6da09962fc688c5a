"""``contractc scan``: the copies of each shape an existing plugin already has, and where they disagree.

Beside the compiler pipeline, on the same pieces: read the plugin's Markdown
(:mod:`.files`), cut each file's fenced blocks into units (:mod:`.blocks`),
group the units into shapes and judge each copy against its owning copy
(:mod:`.shapes`).  No configuration is needed; blocks inside managed regions
and files contractc wrote (contracts, prompts, schemas) are left out, so a
plugin already adopted scans clean.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.output.files import read_bytes
from contractc.load.source import source_from_bytes
from contractc.scan.blocks import Unit, file_units
from contractc.scan.files import plugin_files
from contractc.scan.shapes import Group, History, NearCopy, group_units, is_dispatcher

__all__ = ["ScanResult", "scan_plugin"]


@dataclass(frozen=True, slots=True)
class ScanResult:
    root: Path
    files: tuple[str, ...]
    """Every file read, in path order."""
    data: dict[str, bytes]
    """Their bytes, by path (adopt rewrites from them)."""
    groups: tuple[Group, ...]
    """Shapes with two or more unmanaged copies, in id order."""
    single: tuple[Group, ...]
    """Shapes stated once: nothing to compare, nothing to adopt."""
    near: tuple[NearCopy, ...]
    examples: tuple[Unit, ...]
    """Worked examples: reported, never scored."""
    dispatchers: frozenset[str]
    gitignore: bool
    """Whether .gitignore was honoured (git was found)."""
    links: tuple[str, ...] = ()
    """Markdown files not read because they are symbolic links (adopt must not write through them)."""
    nested: tuple[str, ...] = ()
    """Folders below the root holding a contractc.yaml of their own: other projects, not read (unless --include names them)."""
    unread: tuple[Diagnostic, ...] = ()
    """A ``scan-unread`` note at each block whose info string names data or a template that scan could not read."""

    @property
    def divergent(self) -> int:
        return sum(len(g.divergent) for g in self.groups)


def scan_plugin(
    root: Path,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    owners: tuple[str, ...] = (),
    defined: tuple[Unit, ...] = (),
) -> ScanResult:
    """Scan the plugin at ``root``; raise :class:`ContractcError` (exit 2) for input that cannot be read.

    ``defined`` (adopt on an adopted plugin): the contract's own shape blocks, grouped with the plugin's and
    always the owner of their group, so a copy pasted since is judged against the contract."""
    if not root.is_dir():
        raise ContractcError(
            Diagnostic(root.as_posix(), 0, 0, "file-missing", f"{root.as_posix()} is not a folder", "pass the plugin's root folder")
        )
    listing = plugin_files(root, include, exclude, _owned_by_contractc(root))
    from fnmatch import fnmatchcase

    unmatched = [g for g in owners if not any(fnmatchcase(p, g) for p in listing.paths)]
    if unmatched:
        raise ContractcError(
            Diagnostic(
                "",
                0,
                0,
                "file-missing",
                f"--owner {unmatched[0]} matches no file scan reads",
                "give a project-relative glob such as agents/*-orchestrator.md",
            )
        )
    units: list[Unit] = []
    in_regions: list[Unit] = []
    """The units inside managed regions: contractc's copies, never members of a group."""
    data: dict[str, bytes] = {}
    dispatchers = set()
    problems = []
    unread: list[Diagnostic] = []
    from contractc.report.progress import counted

    for path in counted(listing.paths, "reading files", len(listing.paths)):  # none leads outside (plugin_files)
        try:
            raw = read_bytes(root / path)
        except OSError as exc:
            from contractc.load.paths import unreadable

            problems.append(unreadable(path, exc))
            continue
        try:
            src = source_from_bytes(path, raw)
        except ContractcError as exc:
            # one legacy file must not block day one: say how to leave it out
            skip = f"save the file as UTF-8, or leave it out with --exclude {shlex.quote(path)}"
            problems.extend(d._replace(hint=skip) if d.code == "not-utf8" else d for d in exc.diagnostics)
            continue
        try:
            found = file_units(src, unread)
        except ContractcError as exc:  # a block too deep to read: say where, and how to leave it out
            problems.extend(exc.diagnostics)
            continue
        data[path] = raw
        managed = _managed(path, raw)
        for u in found:
            (in_regions if any(lo <= u.block.start < hi for lo, hi in managed) else units).append(u)
        if is_dispatcher(path, raw):
            dispatchers.add(path)
    if problems:
        raise ContractcError(problems)
    history = History(root) if listing.work_tree else None
    # on an adopted plugin (adopt again), the regions' copies are grouped too, so that a shape's copies outside
    # them are judged as the first adoption judged them (never members: they are contractc's)
    regions = frozenset((u.block.path, u.block.start) for u in in_regions) if defined else frozenset()
    grouped = [*units, *(in_regions if defined else ()), *defined]
    groups, single, near = group_units(grouped, dispatchers, owners, history, frozenset(u.block.path for u in defined), in_regions=regions)
    return ScanResult(
        root,
        listing.paths,
        data,
        tuple(groups),
        tuple(single),
        tuple(near),
        tuple(u for u in units if u.block.example and not u.within),
        frozenset(dispatchers),
        listing.ignored_by_git,
        listing.links,
        listing.nested,
        tuple(unread),
    )


def _managed(path: str, data: bytes) -> list[tuple[int, int]]:
    """The (begin marker line, end marker line) byte ranges of the file's managed regions."""
    if b"contractc:" not in data:
        return []
    from contractc.load.targets import scan_regions

    try:
        regions = scan_regions(path, data, None)
    except ContractcError:
        return []  # broken markers are check's to report; scan compares what it can
    return [(r.content.start, r.content.end) for r in regions]


def _owned_by_contractc(root: Path) -> tuple[str, ...]:
    """Contracts and output folders named by an existing contractc.yaml: contractc's copies, not the user's."""
    from contractc.load.config import CONFIG_NAME, load_config

    if not (root / CONFIG_NAME).is_file():
        return ()
    try:
        config = load_config(root)
    except ContractcError:
        return ()
    return (*(c.path for c in config.contracts), *(f"{folder.rstrip('/')}/" for folder in config.out.folders()))
