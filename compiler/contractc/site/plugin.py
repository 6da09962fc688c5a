"""The mkdocs plugin: a thin shell that puts :func:`~contractc.emit.site.render_site` into a build.

Registered as ``contractc`` (entry point ``mkdocs.plugins``).  Pages are made in
memory on every build, so there is no stored copy to drift, and ``mkdocs
serve`` watches the contracts, ``contractc.yaml`` and the template override
folder so an edit rebuilds the site.

Beyond adding the pages, the plugin

* places them in an explicit ``nav:`` (at an entry whose value is
  ``contractc``, else as a last section), so they are reachable from it;
* writes the links inside the pages' raw HTML (the graph, the field tables)
  as docs-relative ``.md`` paths, the way Zensical resolves them, and turns
  them into page URLs here, since mkdocs leaves raw HTML alone;
* turns off mkdocs-material's web fonts unless ``mkdocs.yml`` names a font,
  so no page fetches from another host unless the user asked for it;
* gives the site a home page, the contracts index, when ``docs/`` has none (else
  the logo and the site's root would lead to a directory listing);
* publishes at mkdocs.yml's ``site_url`` when contractc.yaml names none.
"""

from __future__ import annotations

import copy
import logging
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.load.config import CONFIG_NAME

REQUIRED_EXTENSIONS = ("attr_list", "pymdownx.superfences")
"""Beyond mkdocs' defaults (toc, tables): ids on headings and list items, and fences inside list items."""

NAV_PLACEHOLDER = "contractc"
"""A ``nav:`` entry with this value (``- Contracts: contractc``) is where the generated pages go."""
LOG = logging.getLogger("mkdocs.plugins.contractc")
"""Under ``mkdocs``: each warning counts for ``mkdocs build --strict``."""
_HTML_MD_LINK = re.compile(r'(href=")([^":#?/][^":#?]*\.md)(#[^"]*)?(")')


class ContractSiteOptions(Config):
    root = config_options.Optional(config_options.Dir(exists=True))
    """The project root holding contractc.yaml; default: the folder of mkdocs.yml."""


class ContractSitePlugin(BasePlugin[ContractSiteOptions]):
    def __init__(self) -> None:
        self.watched: list[Path] = []
        self.generated: set[str] = set()
        self.user_nav: list | None = None

    def on_config(self, config):
        missing = [name for name in REQUIRED_EXTENSIONS if name not in config.markdown_extensions]
        if missing:
            problem = Diagnostic(
                "mkdocs.yml",
                0,
                0,
                "site-config",
                f"mkdocs.yml must enable the markdown extensions {', '.join(missing)}: "
                "the generated pages carry their anchors as attr_list ids",
                f"add {', '.join(missing)} under markdown_extensions:",
            )
            raise PluginError("contractc: " + problem.format())
        if getattr(config.theme, "name", None) == "material" and "font" not in _user_theme(config):
            config.theme["font"] = False  # the theme's default fetches Google Fonts
        # The nav as the user wrote it: each build places the pages in it afresh (serve rebuilds).
        self.user_nav = copy.deepcopy(config.nav)
        return config

    def on_files(self, files: Files, *, config) -> Files:
        from contractc.load import load_project
        from contractc.diff.release import since_last_release
        from contractc.emit.site import render_site
        from contractc.model.layout import site_layout

        from contractc.site.warnings import site_url_mismatch, unrendered_fences, with_mkdocs_site_url

        root = self._root(config)
        # mkdocs treats a README.md as the home page when there is no index.md
        home = not any(files.get_file_from_path(name) for name in ("index.md", "README.md"))
        try:
            project = with_mkdocs_site_url(load_project(root), config.site_url)
            since = since_last_release(root, project)
            layout = site_layout(project, holdings=True)
            pages = render_site(
                project, root, since=since, directory_urls=config.use_directory_urls, home=home, layout=layout
            )
        except ContractcError as exc:
            raise PluginError(
                "contractc could not build the contract pages:\n" + "\n".join(d.format() for d in exc.diagnostics)
            ) from None

        for problem in unrendered_fences(project) + site_url_mismatch(project, config.site_url):
            LOG.warning("contractc: %s", problem.format())
        self.generated = {path for path in pages if path.endswith(".md")}
        if self.user_nav:
            config.nav = place_in_nav(self.user_nav, layout.pages)
        for path, data in pages.items():
            # Pages stored on disk by `contractc build --site-pages` are the same bytes; the
            # in-memory ones win so a stale stored copy never reaches the site.
            stale = files.get_file_from_path(path)
            if stale is not None:
                files.remove(stale)
            files.append(File.generated(config, path, content=data))
        templates = project.config.site.templates
        self.watched = [root / CONFIG_NAME, *(root / c.path for c in project.contracts)]
        if templates:
            self.watched.append(root / templates)
        return files

    def on_page_content(self, html: str, *, page, config, files: Files) -> str:
        """Links in the generated pages' raw HTML: docs-relative ``.md`` paths -> this page's relative URL."""
        if page.file.src_uri not in self.generated:
            return html

        def url(match: re.Match) -> str:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), match.group(2)))
            found = files.get_file_from_path(target)
            if found is None:
                return match.group(0)
            return f"{match.group(1)}{found.url_relative_to(page.file)}{match.group(3) or ''}{match.group(4)}"

        return _HTML_MD_LINK.sub(url, html)

    def on_serve(self, server, *, config, builder):
        for path in self.watched:
            server.watch(str(path))
        return server

    def _root(self, config) -> Path:
        if self.config.root:
            return Path(self.config.root)
        return Path(config.config_file_path).resolve().parent


def place_in_nav(nav: list, pages) -> list:
    """``nav`` with the generated pages at the ``contractc`` entry, else appended as a last section.

    Pages the user's nav already names keep their place and are not listed twice.
    """
    named = set(_nav_paths(nav))
    section = _generated_section([p for p in pages if p.path not in named])
    placed = False

    def replace(items: list) -> list:
        nonlocal placed
        out = []
        for item in items:
            if item == NAV_PLACEHOLDER:
                out.append({"Contracts": section})
                placed = True
            elif isinstance(item, dict) and len(item) == 1:
                (title, value), = item.items()
                if value == NAV_PLACEHOLDER:
                    out.append({title: section})
                    placed = True
                elif isinstance(value, list):
                    out.append({title: replace(value)})
                else:
                    out.append(item)
            else:
                out.append(item)
        return out

    result = replace(list(nav))
    if not placed and section:
        result.append({"Contracts": section})
    return result


def _generated_section(pages) -> list:
    """The generated pages as nav entries: the index, then each contract, then Shapes and Agents sections."""
    out: list = [p.path for p in pages if p.kind == "index"]
    out += [{p.title: p.path} for p in pages if p.kind == "contract"]
    for kind, title in (("shape", "Shapes"), ("agent", "Agents")):
        group = [{p.title: p.path} for p in pages if p.kind == kind]
        if group:
            out.append({title: group})
    return out


def _nav_paths(items) -> Iterator[str]:
    for item in items if isinstance(items, list) else [items]:
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            for value in item.values():
                yield from _nav_paths(value)


def _user_theme(config) -> dict:
    """The ``theme:`` mapping as written in mkdocs.yml (empty when it names the theme only)."""
    from mkdocs.utils.yaml import yaml_load

    try:
        with open(config.config_file_path, "rb") as file:
            written = yaml_load(file) or {}
    except (OSError, TypeError, ValueError):
        return {}
    theme = written.get("theme") if isinstance(written, dict) else None
    return theme if isinstance(theme, dict) else {}
