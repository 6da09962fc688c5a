"""Building a contract site in tests: mkdocs in-process with the package's plugin, Zensical as a process."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from contextlib import contextmanager
from html.parser import HTMLParser
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from conftest import REPO

# The markdown setup the generated pages need (docs/site.md shows the same).
MKDOCS_YML = """\
site_name: {name}
site_url: https://example.invalid/
docs_dir: docs
theme:
  name: material
  features: [content.code.copy, navigation.indexes]
plugins:
  - search
  - contractc
markdown_extensions:
  - attr_list
  - tables
  - toc:
      permalink: true
  - pymdownx.highlight
  - pymdownx.superfences
"""


def declared_plugin() -> EntryPoint:
    """The ``mkdocs.plugins`` entry point pyproject.toml declares."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    value = project["entry-points"]["mkdocs.plugins"]["contractc"]
    return EntryPoint(name="contractc", value=value, group="mkdocs.plugins")


@contextmanager
def plugin_registered():
    """Make sure mkdocs finds the ``contractc`` plugin.

    An installed package registers it through its entry point; a source tree
    whose package metadata predates the plugin gets exactly what pyproject.toml
    declares, as ``pip install`` would register it.
    """
    import mkdocs.plugins

    original = mkdocs.plugins.get_plugins
    if "contractc" not in {ep.name for ep in entry_points(group="mkdocs.plugins")}:
        mkdocs.plugins.get_plugins = lambda: {**original(), "contractc": declared_plugin()}
    try:
        yield
    finally:
        mkdocs.plugins.get_plugins = original


def load_site_config(project: Path, **options):
    from mkdocs.config import load_config

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with plugin_registered():
        return load_config(config_file=str(project / "mkdocs.yml"), **options)


def mkdocs_build(project: Path, site_dir: Path) -> Path:
    """``mkdocs build --strict`` of ``project/mkdocs.yml`` in-process; raises on any warning."""
    from mkdocs.commands.build import build

    build(load_site_config(project, strict=True, site_dir=str(site_dir)))
    return site_dir


def zensical_build(project: Path) -> Path:
    """``zensical build --strict`` of ``project/mkdocs.yml``; returns the site folder."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "compiler"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "zensical", "build", "--strict", "--clean"],
        cwd=project,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return project / "site"


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.ids.extend(value for name, value in attrs if name == "id" and value)


def html_ids(path: Path) -> set[str]:
    """Every ``id`` in an HTML file, without the theme's own (``__drawer`` ...)."""
    parser = _Ids()
    parser.feed(path.read_text("utf-8"))
    return {i for i in parser.ids if not i.startswith("__")}
