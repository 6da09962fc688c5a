"""Where outputs may go: the output folders (``out:``, ``--site-pages``) and what they may not touch.

``build`` writes and removes files in these folders, so a folder that is, or
holds, something of the user's would put it at risk: an output folder may not
be the project root, ``.git`` or ``.contractc``, overlap another output folder,
hold a contract, a role file or the site templates, or be where a ``targets``
pattern looks; it may not be an existing file, nor reached through a symbolic
link.  Each rule is an ``unsafe-path`` error at the configuration key that names
the folder (exit 2), before anything is read or written.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath

from typing import TYPE_CHECKING

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.model.records import Span

if TYPE_CHECKING:
    from contractc.model.records import Project

_RESERVED = (".git", ".contractc")
_WILD = set("*?[")


def out_folder_problems(
    root: Path, out: Mapping[str, str], raw: Mapping, where: Callable[[str], Span]
) -> list[Diagnostic]:
    """Every rule of the module docstring that ``out`` (kind -> normalised folder) breaks."""
    problems = []
    theirs = _user_paths(raw)
    owned = {kind: _owned(kind, folder, raw) for kind, folder in out.items()}
    kinds = sorted(out)
    for i, kind in enumerate(kinds):
        folder = out[kind]
        problem = _own_problem(root, folder)
        if problem is None:
            for other in kinds[:i]:
                if _overlap(owned[kind], owned[other]) or folder == out[other]:
                    problem = f"overlaps out.{other} ({out[other]!r}): each output folder must be separate"
                    break
        if problem is None:
            for what, path in theirs:
                if _inside(path, owned[kind]):
                    problem = f"would hold the {what} {path!r}, which is not generated"
                    break
        if problem:
            at = where(kind)
            label = "--site-pages" if at.path == "--site-pages" else f"out.{kind}"
            problems.append(
                Diagnostic(
                    at.path,
                    at.line or 1,
                    at.col or 1,
                    "unsafe-path",
                    f"{label} {folder!r} {problem}",
                    "give each kind of output its own folder that holds nothing else, e.g. prompts/ and schemas/",
                )
            )
    return problems


def _owned(kind: str, folder: str, raw: Mapping) -> str:
    """The folder whose every file is generated: the site's pages sit in ``<out.site>/<site.prefix>``."""
    if kind != "site":
        return folder
    prefix = str((raw.get("site") or {}).get("prefix", "contracts")).strip("/")
    return f"{folder}/{prefix}" if prefix else folder


def _own_problem(root: Path, folder: str) -> str | None:
    parts = PurePosixPath(folder).parts
    if not parts or parts == (".",):
        return "is the project root"
    if parts[0] in _RESERVED:
        return f"is inside {parts[0]}, which contractc never writes to"
    path = root
    for part in parts:
        path = path / part
        if os.path.islink(path):
            return f"goes through the symbolic link {path.relative_to(root).as_posix()!r}"
        if os.path.lexists(path) and not os.path.isdir(path):
            return f"names {path.relative_to(root).as_posix()!r}, which is a file, not a folder"
    return None


def _user_paths(raw: Mapping) -> list[tuple[str, str]]:
    """(what, project-relative path) of every input the configuration names; a pattern by its fixed part."""
    found = [("contract", str(c.get("path", ""))) for c in raw.get("contracts", []) if isinstance(c, dict)]
    found += [("role file", str(p)) for p in (raw.get("agents") or {}).values()]
    templates = (raw.get("site") or {}).get("templates")
    if templates:
        found.append(("site template folder", str(templates)))
    for pattern in raw.get("targets") or []:
        fixed = []
        for part in PurePosixPath(str(pattern)).parts:
            if _WILD & set(part):
                break
            fixed.append(part)
        if fixed:
            found.append(("targets pattern", "/".join(fixed)))
    return [(what, PurePosixPath(p.replace("\\", "/")).as_posix()) for what, p in found if p]


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _overlap(a: str, b: str) -> bool:
    return _inside(a, b) or _inside(b, a)


def with_site_pages(root: Path, project: Project, folder: str) -> Project:
    """``project`` with ``out.site`` set to ``folder`` (``--site-pages``), confined to the project."""
    from contractc.load.paths import confined

    where = Span("--site-pages", 1, 1, 0, 0)
    out = replace(project.config.out, site=confined(root, folder, where))
    problems = out_folder_problems(
        root,
        {"prompts": out.prompts, "schemas": out.schemas, "site": out.site},
        _configured_paths(project),
        lambda kind: where if kind == "site" else project.config.where(f"$.out.{kind}"),
    )
    if problems:
        raise ContractcError(problems)
    return replace(project, config=replace(project.config, out=out))


def _configured_paths(project: Project) -> dict:
    """The keys of the configuration that name the user's files, in the shape the out-folder rules read."""
    config = project.config
    site = {"prefix": config.site.prefix, **({"templates": config.site.templates} if config.site.templates else {})}
    return {
        "contracts": [{"path": c.path} for c in config.contracts],
        "agents": dict(config.agents),
        "targets": list(config.targets),
        "site": site,
    }
