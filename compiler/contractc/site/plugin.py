"""The mkdocs plugin: a thin shell that puts :func:`~contractc.site.pages.render_site` into a build.

Registered as ``contractc`` (entry point ``mkdocs.plugins``).  Pages are made in
memory on every build, so there is no stored copy to drift, and ``mkdocs
serve`` watches the contracts, ``contractc.yaml`` and the template override
folder so an edit rebuilds the site.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.load.config import CONFIG_NAME

REQUIRED_EXTENSIONS = ("attr_list", "pymdownx.superfences")
"""Beyond mkdocs' defaults (toc, tables): ids on headings and list items, and the mermaid fence."""


class ContractSiteOptions(Config):
    root = config_options.Optional(config_options.Dir(exists=True))
    """The project root holding contractc.yaml; default: the folder of mkdocs.yml."""


class ContractSitePlugin(BasePlugin[ContractSiteOptions]):
    def __init__(self) -> None:
        self.watched: list[Path] = []

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
        return config

    def on_files(self, files: Files, *, config) -> Files:
        from contractc.load import load_project
        from contractc.site.pages import render_site

        root = self._root(config)
        try:
            project = load_project(root)
            pages = render_site(project, root, directory_urls=config.use_directory_urls)
        except ContractcError as exc:
            raise PluginError(
                "contractc could not build the contract pages:\n" + "\n".join(d.format() for d in exc.diagnostics)
            ) from None
        for path, data in pages.items():
            # Pages stored on disk by `contractc build --site-pages` are the same bytes; the
            # in-memory ones win so a stale stored copy never reaches the site.
            stale = files.get_file_from_path(path)
            if stale is not None:
                files.remove(stale)
            files.append(File.generated(config, path, content=data))
        templates = project.config.raw.get("site", {}).get("templates")
        self.watched = [root / CONFIG_NAME, *(root / c.path for c in project.contracts)]
        if templates:
            self.watched.append(root / templates)
        return files

    def on_serve(self, server, *, config, builder):
        for path in self.watched:
            server.watch(str(path))
        return server

    def _root(self, config) -> Path:
        if self.config.root:
            return Path(self.config.root)
        return Path(config.config_file_path).resolve().parent
