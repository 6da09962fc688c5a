"""The contract site as a reader uses it, offline, in headless Chromium (Debian's, never a downloaded one).

This repository's site is built twice, by mkdocs (with the plugin) and by
Zensical (from the stored pages), and each is served on 127.0.0.1 and opened
with every request to another host blocked and recorded.  One browser for the
module.  Screenshots go to ``$CONTRACTC_TEST_ARTIFACTS`` when set, else to a
temporary folder, never into the source tree.  Skips, saying why, only where
no browser is installed (.ci/run installs Debian's chromium).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import REPO
from site_helpers import mkdocs_build, zensical_build_of_repo

ENGINES = ("mkdocs", "zensical")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def system_chromium() -> str:
    for candidate in (
        os.environ.get("CONTRACTC_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.skip(
        "no Chromium installed (apt-get install chromium, or set CONTRACTC_CHROMIUM); the site was not opened in a browser"
    )


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> Path:
    wanted = os.environ.get("CONTRACTC_TEST_ARTIFACTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    assert not folder.resolve().is_relative_to(REPO / "compiler") and folder.resolve() != REPO
    return folder


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("browser")
    return {
        "mkdocs": mkdocs_build(REPO, base / "mkdocs-site"),
        "zensical": zensical_build_of_repo(base / "zensical"),
    }


@pytest.fixture(scope="module")
def served(sites):
    """Each engine's site on its own 127.0.0.1 port: engine -> base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):  # keep the test output to the test
            pass

    servers, urls = [], {}
    for engine, site in sites.items():
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        urls[engine] = f"http://127.0.0.1:{server.server_address[1]}/"
    yield urls
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the test extra) is not installed")
    executable = system_chromium()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


class Offline:
    """A browser context that lets requests reach ``base`` only; every other one is aborted and kept."""

    def __init__(self, browser, base: str, viewport=DESKTOP):
        self.base = base
        self.elsewhere: list[str] = []
        self.context = browser.new_context(viewport=viewport)
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)

    def _route(self, route):
        if route.request.url.startswith(self.base):
            route.continue_()
        else:
            self.elsewhere.append(route.request.url)
            route.abort()

    def close(self):
        self.context.close()


@pytest.fixture
def offline(browser, served):
    opened: list[Offline] = []

    def open_(engine: str, viewport=DESKTOP) -> Offline:
        opened.append(Offline(browser, served[engine], viewport))
        return opened[-1]

    yield open_
    for context in opened:
        context.close()


# The whole anchor list of a page checked in one round trip: jump to each id, see that it is in view.
SCROLL_TO_EACH = """(ids) => ids.filter((id) => {
    location.hash = encodeURIComponent(id);
    const el = document.getElementById(id);
    if (!el) return true;
    const box = el.getBoundingClientRect();
    return !(box.bottom > 0 && box.top < window.innerHeight && box.height > 0);
})"""


@pytest.mark.parametrize("engine", ENGINES)
def test_every_page_loads_offline_and_every_anchor_scrolls_into_view(engine, sites, offline):
    site = sites[engine]
    anchors: dict[str, list[str]] = {}
    entries = json.loads((site / "anchors.json").read_text("utf-8"))["anchors"]
    for entry in entries:
        anchors.setdefault(entry["page"], []).append(entry["anchor"])
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
    assert {f"{url}index.html" for url in anchors} <= set(pages)
    tab = offline(engine)
    missed = {}
    for path in pages:
        response = tab.page.goto(tab.base + path, wait_until="load")
        assert response is not None and response.ok, path
        url = path.removesuffix("index.html")
        if url in anchors:
            out_of_view = tab.page.evaluate(SCROLL_TO_EACH, anchors[url])
            if out_of_view:
                missed[url] = out_of_view
    assert len(pages) >= 20
    assert not missed, missed
    assert sum(map(len, anchors.values())) == len(entries) > 50  # every anchor of anchors.json was tried
    assert tab.elsewhere == [], f"{engine} pages asked another host for: {sorted(set(tab.elsewhere))}"


@pytest.mark.parametrize("engine", ENGINES)
def test_the_graph_renders_offline_with_a_link_per_node(engine, offline):
    from playwright.sync_api import expect

    tab = offline(engine)
    tab.page.goto(tab.base + "contracts/", wait_until="load")
    graph = tab.page.locator(".contractc-graph svg")
    expect(graph).to_be_visible()
    box = graph.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 40
    from contractc.load import load_project

    shapes = [s.name if s.kind == "text" else s.id for _, s in load_project(REPO).shapes()]
    nodes = tab.page.locator(".contractc-graph a.cc-node")
    assert nodes.count() == 4 + len(shapes)  # 4 agents and skills, and every shape: text and data
    labels = sorted(nodes.nth(i).locator("text").text_content() for i in range(nodes.count()))
    assert labels == sorted(["change-summarizer", "code-reviewer", "reviewing-changes", "writing-release-notes", *shapes])
    assert tab.page.locator(".contractc-graph .cc-mode").first.text_content() == "for release notes"
    tab.page.locator('.contractc-graph a[data-node="agent:code-reviewer"]').click()
    tab.page.wait_for_url("**/contracts/agents/code-reviewer/")
    assert tab.page.locator("h1").first.text_content().startswith("code-reviewer")
    assert "flowchart" not in tab.page.content()
    assert tab.elsewhere == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_copied_snippet_hashes_to_the_manifests_sha256(engine, browser, served):
    manifest = json.loads((REPO / "prompts/manifest.json").read_text("utf-8"))
    entry = next(e for e in manifest["snippets"] if e["shape"] == "findingsreturn")
    tab = Offline(browser, served[engine])
    try:
        tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served[engine].rstrip("/"))
        tab.page.goto(tab.base + "contracts/shapes/findingsreturn/", wait_until="load")
        tab.page.locator(".contractc-snippet button[data-clipboard-text]").click()
        copied = tab.page.evaluate("navigator.clipboard.readText()")
        assert copied.endswith("\n")  # the final newline the theme's own button would trim
        assert hashlib.sha256(copied.encode("utf-8")).hexdigest() == entry["sha256"]
        # the raw file the page links beside it holds the same bytes, and its .sha256 says so
        raw = tab.page.request.get(tab.base + "contracts/snippets/code-reviewer/findingsreturn.md.txt").body()
        assert raw == (REPO / entry["path"]).read_bytes()
        listed = tab.page.request.get(tab.base + "contracts/snippets/code-reviewer/findingsreturn.md.txt.sha256").text()
        assert listed == f"{entry['sha256']}  findingsreturn.md.txt\n"
        assert tab.elsewhere == []
    finally:
        tab.close()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_trailing_space_in_a_code_span_is_kept_and_seen(engine, offline):
    tab = offline(engine)
    for path in ("contracts/review-returns/", "contracts/shapes/findingsreturn/"):
        tab.page.goto(tab.base + path, wait_until="load")
        code = tab.page.locator("#findingsreturn-check-1 code").first
        assert code.text_content() == "verdict: "
        space = code.locator(".contractc-space")
        box = space.bounding_box()
        assert box and box["width"] > 2  # the space takes room and is underlined where it stands
        assert space.evaluate("el => getComputedStyle(el).borderBottomStyle") == "dotted"


@pytest.mark.parametrize("engine", ENGINES)
def test_checks_have_visible_permalinks_and_a_shape_pages_checks_link_to_themselves(engine, offline):
    tab = offline(engine)
    tab.page.goto(tab.base + "contracts/review-returns/", wait_until="load")
    permalink = tab.page.locator('#findingsreturn-check-2 a[href="#findingsreturn-check-2"]')
    assert permalink.is_visible() and permalink.text_content() == "§"
    heading = tab.page.locator("h2#findingsreturn > a.headerlink")  # the section's, seen without hovering
    assert float(heading.evaluate("el => getComputedStyle(el).opacity")) >= 0.4 and heading.is_visible()
    note = tab.page.locator("h2#findingsreturn + p")
    assert note.locator('a[href$="shapes/findingsreturn/"]').count() == 1
    assert note.locator('a[href$="agents/code-reviewer/"]').count() == 1
    tab.page.goto(tab.base + "contracts/shapes/findingsreturn/", wait_until="load")
    own = tab.page.locator('#findingsreturn-check-2 a[href="#findingsreturn-check-2"]')
    assert own.is_visible() and own.text_content() == "§"
    tab.page.goto(tab.base + "contracts/shapes/building-stage.task_brief/", wait_until="load")
    field = tab.page.locator('[id="building-stage.task_brief-plan"] a[href="#building-stage.task_brief-plan"]')
    assert field.is_visible() and field.text_content() == "§"


def test_a_citation_link_lands_on_the_receiver_check_in_view(offline):
    from playwright.sync_api import expect

    tab = offline("mkdocs")
    tab.page.goto(tab.base)
    citation = tab.page.locator('a[href$="#findingsreturn-check-2"]').first
    expect(citation).to_be_visible()
    citation.click()
    tab.page.wait_for_url("**/contracts/review-returns/#findingsreturn-check-2")
    target = tab.page.locator("#findingsreturn-check-2")
    expect(target).to_have_count(1)
    expect(target).to_contain_text("every bullet begins")
    expect(target).to_be_in_viewport()
    assert tab.page.evaluate("document.documentElement.scrollTop") > 0  # it scrolled to get there


def test_search_finds_a_shape_by_name(offline):
    from playwright.sync_api import expect

    tab = offline("mkdocs")
    tab.page.goto(tab.base)
    tab.page.locator("label.md-search__icon, .md-search__input").first.click()
    tab.page.locator("input.md-search__input").press_sequentially("SummaryReturn", delay=30)
    result = tab.page.locator('.md-search-result__item a[href*="contracts/shapes/summaryreturn/"]').first
    expect(result).to_be_visible()
    result.click()
    tab.page.wait_for_url("**/contracts/shapes/summaryreturn/**")
    expect(tab.page.locator("h1#summaryreturn")).to_be_visible()


@pytest.mark.parametrize("engine", ENGINES)
def test_screenshots_of_index_contract_and_shape_pages_at_desktop_and_phone_width(engine, offline, artifacts):
    written = []
    for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        tab = offline(engine, viewport)
        for name, path in (
            ("index", "contracts/"),
            ("contract", "contracts/review-returns/"),
            ("shape", "contracts/shapes/findingsreturn/"),
        ):
            tab.page.goto(tab.base + path, wait_until="load")
            shot = artifacts / f"{engine}-{name}-{width}.png"
            tab.page.screenshot(path=str(shot), full_page=True)
            written.append(shot)
            if width == "phone" and name != "contract":  # the contract's own tables are the author's
                assert tab.page.evaluate(WIDE_TABLES) == [], path  # the generated tables fit the phone
        if width == "phone":  # the page fits the phone: nothing wider than the screen but the scrolling graph
            overflow = tab.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1
        assert tab.elsewhere == []
    assert all(shot.stat().st_size > 10_000 for shot in written)
    assert len(written) == 6


# --- a project made by `contractc init` and nothing else ----------------------------------------------------------

GRAPH_FONT_SIZES = """() => [...document.querySelectorAll('.contractc-graph svg text')].map((el) => {
    const scale = el.getScreenCTM().a;  // the SVG's user unit in CSS px, as drawn
    return {text: el.textContent, px: parseFloat(getComputedStyle(el).fontSize) * scale};
})"""
# Every inline code span of one word (no space) that the browser wrapped onto more than one line.
BROKEN_CODE = """() => [...document.querySelectorAll('.md-typeset :not(pre) > code')]
    .filter((el) => !/\\s/.test(el.textContent) && el.textContent.length <= 24 && el.getClientRects().length > 1)
    .map((el) => el.textContent)"""
# Every table that reaches past the right edge of the page's text (it would scroll sideways in its box).
WIDE_TABLES = """() => {
    const right = document.querySelector('.md-content__inner').getBoundingClientRect().right;
    return [...document.querySelectorAll('.md-typeset table')]
        .filter((t) => t.getBoundingClientRect().right > right + 1)
        .map((t) => `${t.querySelector('th, td').textContent} ${t.getBoundingClientRect().right} > ${right}`);
}"""


@pytest.fixture(scope="module")
def starter_served(tmp_path_factory):
    """The site of a project that `contractc init` made, built by mkdocs, served on 127.0.0.1."""
    from contractc.cli import main

    base = tmp_path_factory.mktemp("starter")
    root = base / "my-plugin"
    assert main(["init", str(root)]) == 0
    site = mkdocs_build(root, base / "site")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", site
    server.shutdown()
    server.server_close()


def test_the_init_sites_home_page_is_there_and_no_link_leads_to_a_directory_listing(browser, starter_served):
    base, site = starter_served
    tab = Offline(browser, base)
    try:
        response = tab.page.goto(base, wait_until="load")
        assert response is not None and response.ok
        assert tab.page.locator("h1").first.text_content().startswith("my-plugin")
        assert tab.page.locator('a[href$="contracts/"]').count() >= 1
        pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
        assert len(pages) >= 8  # home, index, contract, changes, two shapes, two agents
        seen: set[str] = set()
        for path in pages:
            tab.page.goto(base + path, wait_until="load")
            hrefs = tab.page.eval_on_selector_all(  # the graph's SVG links too (their href is no string)
                "a[href]", "els => els.map((a) => new URL(a.getAttribute('href'), location.href).href)"
            )
            seen.update(h.split("#")[0] for h in hrefs if h.startswith(base))
        listings = []
        for url in sorted(seen):
            body = tab.page.request.get(url)
            assert body.ok, url
            if "Directory listing for" in body.text():
                listings.append(url)
        assert listings == []
        assert base in seen  # the logo's link, among others: the home page
        assert tab.elsewhere == []
    finally:
        tab.close()


def test_the_init_site_at_phone_width_has_legible_graph_text_and_tables_and_code_that_fit(browser, starter_served, artifacts):
    base, _ = starter_served
    tab = Offline(browser, base, PHONE)
    written = []
    try:
        for name, path in (
            ("home", ""),
            ("index", "contracts/"),
            ("shape", "contracts/shapes/task_brief/"),
            ("text-shape", "contracts/shapes/workreturn/"),
            ("agent", "contracts/agents/lead/"),
        ):
            tab.page.goto(base + path, wait_until="load")
            shot = artifacts / f"init-{name}-phone.png"
            tab.page.screenshot(path=str(shot), full_page=True)
            written.append(shot)
            sizes = tab.page.evaluate(GRAPH_FONT_SIZES)
            if path == "contracts/":
                assert sizes, "no graph on the index"
                small = [s for s in sizes if s["px"] < 11]
                assert small == [], small  # every label drawn at 11 px or more
            overflow = tab.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, path  # nothing wider than the phone but the graph, which scrolls in its box
            assert tab.page.evaluate(WIDE_TABLES) == [], path
            assert tab.page.evaluate(BROKEN_CODE) == [], path
        assert tab.elsewhere == []
    finally:
        tab.close()
    assert all(shot.stat().st_size > 10_000 for shot in written)
