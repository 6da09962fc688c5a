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


def zensical_build_of_repo(dest: Path) -> Path:
    """This repository's site built by Zensical: the pages stored by ``contractc build --site-pages docs`` first."""
    import shutil

    from contractc.cli import main

    for name in ("contracts", "docs"):
        shutil.copytree(REPO / name, dest / name)
    for name in ("contractc.yaml", "mkdocs.yml"):
        shutil.copy(REPO / name, dest / name)
    assert main(["build", "--root", str(dest), "--site-pages", "docs"]) == 0
    return zensical_build(dest)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = {"a": "href", "link": "href", "script": "src", "img": "src"}
        for name, value in attrs:
            if name == names.get(tag) and value is not None:
                self.links.append(value)


def crawl(site: Path) -> tuple[int, list[str]]:
    """Follow every internal link and fragment of every HTML page of a built site.

    Returns (links followed, problems): a target file that does not exist, or a
    ``#fragment`` that is no id of the target page.
    """
    from urllib.parse import unquote, urldefrag, urlsplit

    ids: dict[Path, set[str]] = {}

    def ids_of(page: Path) -> set[str]:
        if page not in ids:
            parser = _Ids()
            parser.feed(page.read_text("utf-8"))
            ids[page] = set(parser.ids)
        return ids[page]

    followed, problems = 0, []
    for page in sorted(site.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text("utf-8"))
        for link in parser.links:
            if urlsplit(link).scheme or link.startswith("//"):
                continue  # another host: not ours to follow (the browser test blocks and counts them)
            address, fragment = urldefrag(link)
            if address.startswith("/"):  # root-relative (the 404 page): the site is served at its root
                target = (site / unquote(address).lstrip("/")).resolve()
            else:
                target = (page.parent / unquote(address)).resolve() if address else page
            if target.is_dir():
                target = target / "index.html"
            followed += 1
            where = f"{page.relative_to(site)}: {link}"
            if not target.is_file():
                problems.append(f"{where}: no such file")
            elif fragment and target.suffix == ".html" and unquote(fragment) not in ids_of(target):
                problems.append(f"{where}: no id {fragment!r} on {target.relative_to(site)}")
    return followed, problems
