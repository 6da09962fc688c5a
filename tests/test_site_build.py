"""The contract site as built by mkdocs (strict) and by Zensical, from the same page emitter."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, write_tree
from site_helpers import MKDOCS_YML, crawl, html_ids, load_site_config, mkdocs_build, zensical_build_of_repo

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
    # the site's name heads the nav once: the home page's own entry does not repeat it
    nav = home[home.index('<nav class="md-nav md-nav--primary"') :]
    entries = [" ".join(t.split()) for t in re.findall(r'<span class="md-ellipsis">(.*?)</span>', nav, re.S)]
    assert entries[0] == "Overview" and "contractc" not in entries
    # search indexes the generated pages
    index = json.loads((site / "search/search_index.json").read_text("utf-8"))
    assert any(doc["location"] == "contracts/shapes/findingsreturn/" for doc in index["docs"])
    # the producer/consumer graph is drawn at build time: inline SVG, its node links turned into page URLs
    index_page = (site / "contracts/index.html").read_text("utf-8")
    assert '<div class="contractc-graph"' in index_page and "mermaid" not in index_page
    assert '<a href="agents/code-reviewer/" class="cc-node cc-agent"' in index_page
    assert '<a href="shapes/findingsreturn/" class="cc-node cc-shape"' in index_page


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


def test_zensical_builds_the_same_anchors_from_the_stored_pages_and_both_builds_link_exactly(tmp_path):
    # Zensical runs no mkdocs plugins: `contractc build --site-pages docs` stores the very pages the plugin makes.
    zsite = zensical_build_of_repo(tmp_path / "zensical")
    msite = mkdocs_build(REPO, tmp_path / "mkdocs-site")

    assert (zsite / "anchors.json").read_bytes() == (msite / "anchors.json").read_bytes()
    pages = site_anchors(msite)
    for page, anchors in pages.items():
        z_ids, m_ids = html_ids(zsite / page / "index.html"), html_ids(msite / page / "index.html")
        assert anchors <= m_ids, page
        assert z_ids == m_ids, page  # every id of a generated page, not only the listed anchors
    assert {p for p in pages} == {p for p in site_anchors(zsite)}
    # every internal link and fragment of every page of both builds resolves
    for site in (msite, zsite):
        followed, problems = crawl(site)
        assert followed > 1000 and problems == [], problems
    # the field table's link to another shape (raw HTML) reaches the same page in both
    for site in (msite, zsite):
        page = (site / "contracts/shapes/building-stage.task_brief/index.html").read_text("utf-8")
        assert '<a href="../draft_plan/">draft_plan (shape)</a>' in page
    # every $id and $ref the data-shape schemas name is a file both sites publish
    named = set()
    for schema in sorted((msite / "schemas/handoffs").glob("*.schema.json")):
        document = json.loads(schema.read_text("utf-8"))
        named.add(document["$id"])
        named.update(re.findall(r'"\$ref": "(https?://[^"#]+)', schema.read_text("utf-8")))
    assert len(named) >= 7
    for url in sorted(named):
        assert url.startswith("https://contractc.dev/"), url
        for site in (msite, zsite):
            assert (site / url.removeprefix("https://contractc.dev/")).is_file(), (site.name, url)
    # the raw files are published by both, byte for byte
    for site in (msite, zsite):
        raw = site / "contracts/snippets/code-reviewer/findingsreturn.md.txt"
        assert raw.read_bytes() == (REPO / "prompts/code-reviewer/findingsreturn.md").read_bytes()
        assert (site / "schemas/check-report.schema.json").read_bytes() == (
            REPO / "compiler/contractc/data/check-report.schema.json"
        ).read_bytes()


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
    assert (
        "contractc: mkdocs.yml: error[site-config]: mkdocs.yml must enable the markdown extensions "
        "attr_list, pymdownx.superfences: the generated pages carry their anchors as attr_list ids\n"
        "  hint: add attr_list, pymdownx.superfences under markdown_extensions:; more: `contractc explain site-config`"
    ) in caplog.text
    assert "docs/site.md" not in caplog.text  # a path in this repository means nothing to an installed package


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


def test_pyproject_lists_every_package_and_the_shipped_templates():
    """A package left out of pyproject's list would be missing from the wheel (the editable install still finds it)."""
    import tomllib

    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(REPO / "compiler").parts) for p in (REPO / "compiler" / "contractc").rglob("__init__.py")}
    assert set(setuptools["packages"]) == on_disk | {"contractc.site_templates"}
    assert setuptools["package-dir"]["contractc.site_templates"] == "site_templates"


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
    shutil.copytree(REPO / "site_templates", source / "site_templates")
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
    # every module of the source is in the wheel (pyproject lists the packages, site_templates among them)
    sources = {p.relative_to(REPO / "compiler").as_posix() for p in (REPO / "compiler" / "contractc").rglob("*.py")}
    assert sources - set(names) == set()
    assert any(n.endswith("entry_points.txt") for n in names)
    # `contractc explain` reads the drift-codes page from the package: the wheel holds the page itself
    assert archive_page(tmp_path / "installed") == (REPO / "docs/drift-codes.md").read_bytes()

    script = (
        "import json, sys; from pathlib import Path; import contractc;"
        "from contractc.load import load_project; from contractc.emit.site import render_site;"
        "from contractc.diff.release import since_last_release;"
        "root = Path(sys.argv[1]); files = render_site(load_project(root), root, since=since_last_release(root));"
        "from contractc.report.explain import explain;"
        "print(json.dumps({'module': contractc.__file__, 'explain': explain('drift-link'),"
        " 'files': {k: v.decode() for k, v in files.items()}}))"
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
    assert result["explain"].startswith("drift-link: ") and "**Fix:** edit the link" in result["explain"]
    from contractc.load import load_project
    from contractc.diff.release import since_last_release
    from contractc.emit.site import render_site

    here = {k: v.decode() for k, v in render_site(load_project(REPO), REPO, since=since_last_release(REPO)).items()}
    assert result["files"] == here


def archive_page(installed: Path) -> bytes:
    page = installed / "contractc" / "data" / "drift-codes.md"
    assert page.is_file() and not page.is_symlink(), "the wheel must hold the page's bytes, not a link"
    return page.read_bytes()


def _nav_links(site: Path, page: str = "index.html") -> list[str]:
    """The hrefs of the primary navigation of a built page, in order."""
    html = (site / page).read_text("utf-8")
    nav = html[html.index('<nav class="md-nav md-nav--primary"') :]
    nav = nav[: nav.index("</nav>\n</div>")] if "</nav>\n</div>" in nav else nav
    return re.findall(r'<a href="([^"]+)" class="md-nav__link', nav)


@pytest.mark.parametrize(
    ("nav", "where"),
    [
        ("nav:\n  - Home: index.md\n  - Reference: contractc\n  - About: about.md\n", "at the placeholder"),
        ("nav:\n  - Home: index.md\n  - About: about.md\n", "as the last section"),
    ],
)
def test_an_explicit_nav_gets_the_generated_pages(seeds, tmp_path, nav, where):
    root = write_tree(
        tmp_path / "project",
        {
            "contractc.yaml": SEED_CONFIG,
            "contracts/return-shapes.md": (seeds / "return-shapes.md").read_bytes(),
            "mkdocs.yml": MKDOCS_YML.format(name="nav") + nav,
            "docs/index.md": "# Seed\n",
            "docs/about.md": "# About\n",
        },
    )
    site = mkdocs_build(root, tmp_path / "site")
    links = _nav_links(site)
    generated = [i for i, href in enumerate(links) if href.startswith("contracts/")]
    expected = {
        "contracts/",
        "contracts/return-shapes/",
        "contracts/shapes/auditreturn/",
        "contracts/shapes/consultationreturn/",
        "contracts/shapes/editplanreturn/",
        "contracts/agents/design-auditor/",
        "contracts/agents/pattern-librarian/",
    }
    assert expected <= {links[i] for i in generated}, links
    about = links.index("about/")
    if where == "at the placeholder":
        assert max(generated) < about  # between Home and About, where the user wrote `contractc`
        assert "Reference" in (site / "index.html").read_text("utf-8")
    else:
        assert min(generated) > about  # after the user's own entries
    assert "contractc" not in links


def test_the_plugin_turns_off_web_fonts_unless_mkdocs_yml_names_one(tmp_path):
    files = {
        "contractc.yaml": SEED_CONFIG.replace("    shared: [shared-forms, traversal-rules]\n", ""),
        "contracts/return-shapes.md": "# Shapes\n",
        "docs/index.md": "# x\n",
    }
    root = write_tree(tmp_path / "a", {**files, "mkdocs.yml": MKDOCS_YML.format(name="x")})
    home = (mkdocs_build(root, tmp_path / "a-site") / "index.html").read_text("utf-8")
    assert "fonts.googleapis.com" not in home and "fonts.gstatic.com" not in home
    asked = MKDOCS_YML.format(name="x").replace("  name: material\n", "  name: material\n  font:\n    text: Roboto\n")
    root = write_tree(tmp_path / "b", {**files, "mkdocs.yml": asked})
    home = (mkdocs_build(root, tmp_path / "b-site") / "index.html").read_text("utf-8")
    assert "fonts.googleapis.com" in home  # the user's own mkdocs.yml asked for it
