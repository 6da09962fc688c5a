"""The site works from the first build: a home page without docs/index.md, one site_url for every published URL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ECHO_CONFIG, ECHO_CONTRACT, write_tree

pytest.importorskip("mkdocs")
pytest.importorskip("material")

from site_helpers import MKDOCS_YML, crawl, load_site_config, mkdocs_build  # noqa: E402

URL = "https://docs.example.org/plugin/"


def project(tmp_path: Path, mkdocs_url: str | None, contractc_url: str | None, index: bool = False) -> Path:
    mkdocs = MKDOCS_YML.format(name="Echo").replace("site_url: https://example.invalid/\n", "")
    if mkdocs_url:
        mkdocs = f"site_url: {mkdocs_url}\n" + mkdocs
    config = (f"site_url: {contractc_url}\n" if contractc_url else "") + ECHO_CONFIG
    files = {"contractc.yaml": config, "contracts/c.md": ECHO_CONTRACT, "mkdocs.yml": mkdocs, "docs/.keep": ""}
    if index:
        files["docs/index.md"] = "# My own home\n"
    return write_tree(tmp_path / "p", files)


def strict_build(root: Path, site: Path) -> Path:
    return mkdocs_build(root, site)


def test_without_docs_index_the_contracts_index_is_the_home_page(tmp_path):
    root = project(tmp_path, None, None)
    site = strict_build(root, tmp_path / "site")
    home = (site / "index.html").read_text("utf-8")
    assert "Contracts" in home and 'href="contracts/c/"' in home and 'href="contracts/agents/echoer/"' in home
    # no page links to a folder without an index.html (a browser would show a directory listing): the
    # crawl names such a link "no such file", the logo's link to the site root among them
    followed, problems = crawl(site)
    assert followed and problems == []


def test_a_docs_index_of_ones_own_stays_the_home_page(tmp_path):
    root = project(tmp_path, None, None, index=True)
    site = strict_build(root, tmp_path / "site")
    assert "My own home" in (site / "index.html").read_text("utf-8")


def test_mkdocs_site_url_is_used_when_contractc_yaml_names_none(tmp_path, run_cli):
    root = project(tmp_path, URL, None)
    assert run_cli("build", "--root", str(root)).code == 0
    site = strict_build(root, tmp_path / "site")  # and no site-url warning: --strict passes
    anchors = json.loads((site / "anchors.json").read_text("utf-8"))
    assert anchors["site_url"] == URL
    assert {a["url"].split("#")[0] for a in anchors["anchors"]} >= {f"{URL}contracts/c/"}
    returned = tmp_path / "r.txt"
    returned.write_text("nope\n")
    failed = run_cli("validate", "--root", str(root), "echoreturn", str(returned))
    assert failed.code == 1 and f"({URL}contracts/c/#echoreturn-check-1)" in failed.out


def test_mkdocs_site_url_names_the_schemas_id(tmp_path, run_cli):
    root = project(tmp_path, URL, None)
    contract = root / "contracts/c.md"
    contract.write_text(contract.read_text() + "\n## Brief\n\n```yaml\nbrief:\n  goal: string\n```\n")
    assert run_cli("build", "--root", str(root)).code == 0
    schema = json.loads((root / "schemas/c/brief.schema.json").read_text())
    assert schema["$id"] == f"{URL}schemas/c/brief.schema.json"


@pytest.mark.parametrize(
    ("mkdocs_url", "contractc_url", "warned"),
    [
        (None, None, False),  # the documented placeholder
        (URL, None, False),  # mkdocs.yml's, read by contractc too
        (None, URL, False),  # contractc's; mkdocs publishes no URL to disagree with
        (URL, URL, False),
        (URL, "https://elsewhere.example.org/", True),
    ],
)
def test_the_site_url_warning_in_every_combination(tmp_path, mkdocs_url, contractc_url, warned):
    from contractc.load import load_project
    from contractc.site.warnings import site_url_mismatch, with_mkdocs_site_url

    root = project(tmp_path, mkdocs_url, contractc_url)
    loaded = with_mkdocs_site_url(load_project(root), mkdocs_url)
    found = site_url_mismatch(loaded, mkdocs_url)
    assert bool(found) == warned
    if warned:
        assert found[0].format(located=True).startswith("contractc.yaml:1:1: warning[site-url]: site_url of contractc.yaml")
    assert loaded.config.site_url == (contractc_url or mkdocs_url or "https://example.invalid/contracts/")


def test_a_site_url_only_the_plugin_sees_warns_that_build_cannot(tmp_path):
    """The plugin's ``root`` option points at a project without an mkdocs.yml: build would not know the URL."""
    from contractc.load import load_project
    from contractc.site.warnings import site_url_mismatch, with_mkdocs_site_url

    root = project(tmp_path, None, None)
    (root / "mkdocs.yml").unlink()
    loaded = with_mkdocs_site_url(load_project(root), URL)
    assert loaded.config.site_url == URL
    (found,) = site_url_mismatch(loaded, URL)
    assert found.code == "site-url" and f"add `site_url: {URL}` to contractc.yaml" == found.hint


def test_build_warns_when_mkdocs_docs_dir_is_missing(tmp_path, run_cli):
    root = project(tmp_path, None, None)
    (root / "docs/.keep").unlink()
    (root / "docs").rmdir()
    run = run_cli("build", "--root", str(root))
    assert run.code == 0
    assert "mkdocs.yml:2:1: warning[site-docs-dir]: docs_dir 'docs' is not a folder" in run.err + run.out
    (root / "docs").mkdir()
    again = run_cli("build", "--root", str(root))
    assert "site-docs-dir" not in again.err + again.out
    load_site_config(root)  # mkdocs now starts
