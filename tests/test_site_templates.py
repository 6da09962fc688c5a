"""The shipped site templates are the ordinary files of ``site_templates/`` at the top of the repository,
compiled by jinja2 as a build loads them; a project's override folder replaces one by name."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from conftest import REPO

from contractc.diff.release import since_last_release
from contractc.emit.site import render_site, shipped_templates
from contractc.load import load_project

EXAMPLE = REPO / "examples/review-plugin"  # text and data shapes, role files: every shipped template


def _pages(root: Path) -> dict[str, bytes]:
    project = load_project(root)
    return render_site(project, root, since=since_last_release(root, project))


def test_the_shipped_templates_are_the_files_at_the_top_of_the_repository():
    assert shipped_templates().resolve() == (REPO / "site_templates").resolve()
    assert not (REPO / "compiler" / "contractc" / "site_templates").exists()  # one copy
    assert not (REPO / "compiler" / "contractc" / "site" / "compiled").exists()  # no generated code in the package


def test_an_override_template_is_used_beside_the_shipped_ones(tmp_path):
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root)
    (root / "site-templates").mkdir()
    (root / "site-templates/agent.md").write_text("# Agent {{ agent.name }}, overridden\n", "utf-8")
    config = root / "contractc.yaml"
    config.write_text(config.read_text("utf-8") + "site:\n  templates: site-templates\n", "utf-8")
    files = _pages(root)
    agents = [path for path in files if "/agents/" in path and path.endswith(".md")]
    assert agents and all(files[p].decode().endswith(", overridden\n") for p in agents)
    shape_pages = [path for path in files if "/shapes/" in path]
    assert shape_pages and any(b"## Fields {#shape-fields}" in files[p] for p in shape_pages)
    assert any(b"## Dispatch snippet {#shape-snippet}" in files[p] for p in shape_pages)


def _with_override(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "example"
    if not root.exists():
        shutil.copytree(EXAMPLE, root)
        (root / "site-templates").mkdir()
        config = root / "contractc.yaml"
        config.write_text(config.read_text("utf-8") + "site:\n  templates: site-templates\n", "utf-8")
    (root / "site-templates/agent.md").write_text(text, "utf-8")
    return root


def test_an_edited_override_template_is_compiled_again_not_served_from_the_cache(tmp_path, monkeypatch):
    """jinja2 keeps compiled templates in its cache folder (here in tmp_path): the next build of an edited
    template shows the edit, and the cache is outside the project."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    root = _with_override(tmp_path, "# Agent {{ agent.name }}, first\n")
    agents = [path for path in _pages(root) if "/agents/" in path and path.endswith(".md")]
    assert agents and any((tmp_path / "tmp").rglob("*.cache"))  # compiled templates kept, outside the project
    root = _with_override(tmp_path, "# Agent {{ agent.name }}, second\n")
    files = _pages(root)
    assert all(files[p].decode().endswith(", second\n") for p in agents)
    assert not any(p.suffix == ".cache" for p in root.rglob("*"))


def test_the_site_is_built_when_jinja2_finds_no_safe_cache_folder(tmp_path, monkeypatch):
    """A file where jinja2's cache folder would be (or a folder another user owns): no cache, same pages."""
    import os

    expected = _pages(_with_override(tmp_path, "# Agent {{ agent.name }}\n"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    (tmp_path / "tmp" / f"_jinja2-cache-{os.getuid()}").write_text("not a folder", "utf-8")
    assert _pages(tmp_path / "example") == expected
