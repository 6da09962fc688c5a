"""The shipped site templates are loaded as code jinja2 compiled ahead (``contractc.site.compiled``):
the same pages, byte for byte, as compiling them in the build, and never stale."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2

from conftest import REPO

from contractc.load import load_project
from contractc.diff.release import since_last_release
from contractc.site import compiled
from contractc.emit.site import compile_shipped_templates, render_site

EXAMPLE = REPO / "examples/review-plugin"  # text and data shapes, role files: every shipped template


def test_the_compiled_templates_are_the_shipped_templates_compiled_now():
    folder = Path(compiled.__file__).parent
    shipped = {path.name: path.read_bytes() for path in folder.glob("*.py")}
    assert shipped == compile_shipped_templates(), (
        "a shipped template changed: run `python scripts/compile_site_templates.py` and commit contractc/site/compiled/"
    )
    assert len(shipped) == 1 + len(list((REPO / "compiler/contractc/site_templates").iterdir()))


def _pages(root: Path, monkeypatch, *, version: str) -> tuple[dict[str, bytes], int]:
    """Every file of the site, and how many templates jinja2 compiled while making them."""
    compiles = []
    real_compile = jinja2.Environment.compile

    def counting_compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiles.append(name)
        return real_compile(self, source, name, filename, raw, defer_init)

    with monkeypatch.context() as patch:
        patch.setattr(compiled, "JINJA2_VERSION", version)
        patch.setattr(jinja2.Environment, "compile", counting_compile)
        project = load_project(root)
        files = render_site(project, root, since=since_last_release(root, project))
    return files, len(compiles)


def test_pages_from_the_compiled_templates_are_those_compiled_in_the_build(tmp_path, monkeypatch):
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root)
    ahead, compiled_in_build = _pages(root, monkeypatch, version=jinja2.__version__)
    assert compiled_in_build == 0  # every shipped template came compiled
    # code made by another jinja2 version is not used: every template is compiled from its source
    from_source, compiled_then = _pages(root, monkeypatch, version="0.0-another")
    assert compiled_then >= 5
    assert ahead == from_source
    shape_pages = [path for path in ahead if "/shapes/" in path]
    assert shape_pages and any(b"## Fields {#shape-fields}" in ahead[p] for p in shape_pages)
    assert any(b"## Dispatch snippet {#shape-snippet}" in ahead[p] for p in shape_pages)


def test_an_override_template_is_compiled_and_used_beside_the_compiled_ones(tmp_path, monkeypatch):
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root)
    (root / "site-templates").mkdir()
    (root / "site-templates/agent.md").write_text("# Agent {{ agent.name }}, overridden\n", "utf-8")
    config = root / "contractc.yaml"
    config.write_text(config.read_text("utf-8") + "site:\n  templates: site-templates\n", "utf-8")
    files, compiled_in_build = _pages(root, monkeypatch, version=jinja2.__version__)
    assert compiled_in_build == 1  # the override only
    agents = [path for path in files if "/agents/" in path and path.endswith(".md")]
    assert agents and all(files[p].decode().endswith(", overridden\n") for p in agents)
    assert any(b"## Dispatch snippet {#shape-snippet}" in files[p] for p in files if "/shapes/" in p)

