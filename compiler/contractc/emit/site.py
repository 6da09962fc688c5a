"""Site pages on disk: the contract site's pages, stored for engines without mkdocs plugins.

Only when ``out.site`` is configured (or ``contractc build --site-pages DIR``
is given): the mkdocs plugin renders the same pages in memory and needs no
stored copy.  Once stored, they are outputs like any other, so ``check``
reports a stale page as drift.  The pages themselves come from the one page
emitter, :func:`contractc.site.pages.render_site`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from contractc.model import Project


def emit_site_pages(project: Project) -> dict[str, bytes]:
    folder = project.config.out.get("site")
    if not folder:
        return {}
    from contractc.site.pages import render_site

    return {f"{folder}/{path}": data for path, data in render_site(project).items()}


def site_pages_folder(project: Project) -> str | None:
    """The folder the stored pages own (``<out.site>/<prefix>``); ``anchors.json`` sits beside it."""
    from contractc.site.layout import site_prefix

    folder = project.config.out.get("site")
    if not folder:
        return None
    prefix = site_prefix(project)
    return f"{folder}/{prefix}" if prefix else folder


def with_site_pages(root: Path, project: Project, folder: str) -> Project:
    """``project`` with ``out.site`` set to ``folder`` (``--site-pages``), confined to the project."""
    from contractc.load.paths import confined
    from contractc.model import Span

    from contractc.diagnostics import ContractcError
    from contractc.load.out_folders import out_folder_problems

    where = Span("--site-pages", 1, 1, 0, 0)
    out = {**project.config.out, "site": confined(root, folder, where)}
    problems = out_folder_problems(
        root, out, project.config.raw, lambda kind: where if kind == "site" else project.config.where(f"$.out.{kind}")
    )
    if problems:
        raise ContractcError(problems)
    return replace(project, config=replace(project.config, out=out))
