"""The contract site as built by mkdocs (strict) and by Zensical, from the same page emitter."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, write_tree
from site_helpers import MKDOCS_YML, html_ids, load_site_config, mkdocs_build, zensical_build

SEED_CONFIG = "contracts:\n  - path: contracts/return-shapes.md\n    shared: [shared-forms, traversal-rules]\n"


def site_anchors(site: Path) -> dict[str, set[str]]:
    """anchors.json as page URL -> anchors."""
    pages: dict[str, set[str]] = {}
    for entry in json.loads((site / "anchors.json").read_text("utf-8"))["anchors"]:
        pages.setdefault(entry["page"], set()).add(entry["anchor"])
    return pages


def test_this_repository_site_builds_strict_with_every_anchor_in_place(tmp_path):
    site = mkdocs_build(REPO, tmp_path / "site")
    anchors = site_anchors(site)
    assert "contracts/review-returns/" in anchors and "contracts/shapes/findingsreturn/" in anchors
    for page, expected in anchors.items():
        assert expected <= html_ids(site / page / "index.html"), page
    # the nav is mkdocs' own, from docs/ plus the generated pages: every docs page is built and reachable
    home = (site / "index.html").read_text("utf-8")
    for doc in sorted((REPO / "docs").glob("*.md")):
        url = "" if doc.stem == "index" else f"{doc.stem}/"
        assert (site / url / "index.html").is_file(), doc.name
        assert f'href="{url or "."}"' in home or f'href="./{url}"' in home or f'href="{url}"' in home, doc.name
    assert 'href="contracts/agents/code-reviewer/"' in home
    # search indexes the generated pages
    index = json.loads((site / "search/search_index.json").read_text("utf-8"))
    assert any(doc["location"] == "contracts/shapes/findingsreturn/" for doc in index["docs"])
    # the producer/consumer graph is handed to the theme's mermaid
    assert '<pre class="mermaid"><code>flowchart LR' in (site / "contracts/index.html").read_text("utf-8")


def test_seed_site_builds_strict_and_each_sections_anchor_equals_the_manifest(seeds, tmp_path, run_cli):
    root = write_tree(
        tmp_path / "project",
        {
            "contractc.yaml": SEED_CONFIG,
            "contracts/return-shapes.md": (seeds / "return-shapes.md").read_bytes(),
            "mkdocs.yml": MKDOCS_YML.format(name="seed"),
            "docs/index.md": "# Seed\n",
        },
    )
    assert run_cli("build", "--root", str(root)).code == 0
    site = mkdocs_build(root, tmp_path / "site")
    ids = html_ids(site / "contracts/return-shapes/index.html")
    manifest = json.loads((root / "prompts/manifest.json").read_text("utf-8"))
    sections = {anchor for entry in manifest["snippets"] for anchor in entry["sections"]}
    assert sections == {"shared-forms", "traversal-rules", "consultationreturn", "auditreturn", "editplanreturn"}
    assert sections <= ids
    from contractc.load import load_project

    (contract,) = load_project(root).contracts
    assert {s.anchor for s in contract.sections} | {c.anchor for s in contract.text_shapes for c in s.checks} <= ids
    assert {
        f"{shape}-check-{n}" for shape in ("consultationreturn", "auditreturn", "editplanreturn") for n in range(1, 6)
    } <= ids


def test_zensical_builds_the_same_anchors_from_the_stored_pages(tmp_path, run_cli):
    # Zensical runs no mkdocs plugins: `contractc build --site-pages docs` stores the very pages the plugin makes.
    for name in ("contracts", "docs"):
        shutil.copytree(REPO / name, tmp_path / "zensical" / name)
    for name in ("contractc.yaml", "mkdocs.yml"):
        shutil.copy(REPO / name, tmp_path / "zensical" / name)
    zroot = tmp_path / "zensical"
    assert run_cli("build", "--root", str(zroot), "--site-pages", "docs").code == 0
    zsite = zensical_build(zroot)
    msite = mkdocs_build(REPO, tmp_path / "mkdocs-site")

    assert (zsite / "anchors.json").read_bytes() == (msite / "anchors.json").read_bytes()
    pages = site_anchors(msite)
    for page, anchors in pages.items():
        z_ids, m_ids = html_ids(zsite / page / "index.html"), html_ids(msite / page / "index.html")
        assert anchors <= m_ids, page
        assert z_ids == m_ids, page  # every id of a generated page, not only the listed anchors
    assert {p for p in pages} == {p for p in site_anchors(zsite)}


def test_each_build_reads_the_contracts_again_and_serve_watches_them(tmp_path):
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files

    root = write_tree(
        tmp_path / "p",
        {
            "contractc.yaml": SEED_CONFIG.replace("    shared: [shared-forms, traversal-rules]\n", "")
            + "site:\n  templates: overrides\n",
            "contracts/return-shapes.md": "# Shapes\n\n## First\n",
            "overrides/.keep": "",
            "mkdocs.yml": MKDOCS_YML.format(name="live"),
            "docs/index.md": "# Live\n",
        },
    )
    assert "first" in html_ids(mkdocs_build(root, tmp_path / "s1") / "contracts/return-shapes/index.html")
    (root / "contracts/return-shapes.md").write_text("# Shapes\n\n## Renamed\n")
    assert "renamed" in html_ids(mkdocs_build(root, tmp_path / "s2") / "contracts/return-shapes/index.html")

    config = load_site_config(root)
    config.plugins.on_config(config)
    config.plugins.on_files(Files([]), config=config)
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    config.plugins.on_serve(server, config=config, builder=lambda: None)
    assert set(server._watched_paths) == {
        str(root / "contractc.yaml"),
        str(root / "contracts/return-shapes.md"),
        str(root / "overrides"),
    }


def test_the_plugin_names_the_markdown_extensions_it_needs(tmp_path, caplog):
    from mkdocs.exceptions import Abort

    root = write_tree(
        tmp_path,
        {
            "contractc.yaml": SEED_CONFIG.replace("    shared: [shared-forms, traversal-rules]\n", ""),
            "contracts/return-shapes.md": "# Shapes\n",
            "mkdocs.yml": "site_name: x\nplugins: [contractc]\nmarkdown_extensions: [tables]\n",
            "docs/index.md": "# x\n",
        },
    )
    with pytest.raises(Abort):
        mkdocs_build(root, tmp_path / "site")
    assert "contractc: mkdocs.yml must enable the markdown extensions attr_list, pymdownx.superfences;" in caplog.text


def test_a_contract_error_stops_the_site_build_with_the_located_message(tmp_path, caplog):
    from mkdocs.exceptions import Abort

    root = write_tree(
        tmp_path,
        {
            "contractc.yaml": SEED_CONFIG.replace("    shared: [shared-forms, traversal-rules]\n", ""),
            "contracts/return-shapes.md": "# Shapes\n\n## A\n\n## A\n",
            "mkdocs.yml": MKDOCS_YML.format(name="x"),
            "docs/index.md": "# x\n",
        },
    )
    with pytest.raises(Abort):
        mkdocs_build(root, tmp_path / "site")
    assert (
        "contracts/return-shapes.md:5:1: error[duplicate-anchor]: anchor 'a' is already used by the heading on line 3"
        in caplog.text
    )


def test_a_wheel_installed_elsewhere_renders_the_same_site(tmp_path):
    setuptools = pytest.importorskip(
        "setuptools", reason="building the wheel offline needs setuptools (the test extra installs it)"
    )
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip(
            f"setuptools {setuptools.__version__} cannot build this project offline (needs >= 77, as the test extra pins)"
        )
    # Built from a copy: setuptools writes build/ and *.egg-info beside the sources it builds.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "compiler", source / "compiler", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("contractc-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "installed")
    shipped = sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("contractc/site_templates/"))
    assert shipped == sorted(p.name for p in (REPO / "site_templates").iterdir())
    assert any(n.endswith("entry_points.txt") for n in names)

    script = (
        "import json, sys; from pathlib import Path; import contractc;"
        "from contractc.load import load_project; from contractc.site.pages import render_site;"
        "root = Path(sys.argv[1]); files = render_site(load_project(root), root);"
        "print(json.dumps({'module': contractc.__file__, 'files': {k: v.decode() for k, v in files.items()}}))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(tmp_path / "installed")}
    done = subprocess.run(
        [sys.executable, "-c", script, str(REPO)],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["module"].startswith(str(tmp_path / "installed"))
    from contractc.load import load_project
    from contractc.site.pages import render_site

    here = {k: v.decode() for k, v in render_site(load_project(REPO), REPO).items()}
    assert result["files"] == here
