"""The ``site`` output kind: the contract site's pages, stored for engines without mkdocs plugins.

Only when ``out.site`` is configured (or ``contractc build --site-pages DIR``
is given): the mkdocs plugin renders the same pages in memory and needs no
stored copy.  Once stored, they are outputs like any other, so ``check``
reports a stale page as drift.  The pages themselves come from the one page
emitter, :func:`contractc.site.pages.render_site`, with the changes since the
last release the pipeline hands over (:mod:`contractc.release`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from contractc.model import Project
from contractc.site.changes import Since


def emit_site_pages(project: Project, since: Since) -> dict[str, bytes]:
    folder = project.config.out.site
    if not folder:
        return {}
    from contractc.site.pages import render_site

    return {f"{folder}/{path}": data for path, data in render_site(project, since=since).items()}


def site_pages_folder(project: Project) -> str | None:
    """The folder the stored pages own (``<out.site>/<prefix>``); ``anchors.json`` sits beside it."""
    folder = project.config.out.site
    if not folder:
        return None
    prefix = project.config.site.prefix
    return f"{folder}/{prefix}" if prefix else folder


def with_site_pages(root: Path, project: Project, folder: str) -> Project:
    """``project`` with ``out.site`` set to ``folder`` (``--site-pages``), confined to the project."""
    from contractc.load.paths import confined
    from contractc.model import Span

    from contractc.diagnostics import ContractcError
    from contractc.load.out_folders import out_folder_problems

    where = Span("--site-pages", 1, 1, 0, 0)
    out = replace(project.config.out, site=confined(root, folder, where))
    problems = out_folder_problems(
        root,
        {"prompts": out.prompts, "schemas": out.schemas, "site": out.site},
        _user_paths(project),
        lambda kind: where if kind == "site" else project.config.where(f"$.out.{kind}"),
    )
    if problems:
        raise ContractcError(problems)
    return replace(project, config=replace(project.config, out=out))


def _user_paths(project: Project) -> dict:
    """The keys of the configuration that name the user's files, in the shape the out-folder rules read."""
    config = project.config
    site = {"prefix": config.site.prefix, **({"templates": config.site.templates} if config.site.templates else {})}
    return {
        "contracts": [{"path": c.path} for c in config.contracts],
        "agents": dict(config.agents),
        "targets": list(config.targets),
        "site": site,
    }
