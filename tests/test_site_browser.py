"""The contract site as a reader uses it, in headless Chromium (Debian's, never a downloaded one).

Follows a citation to a receiver-check anchor, searches for a shape by name,
and saves screenshots in $CONTRACTC_TEST_ARTIFACTS (default: contractc-test-artifacts/
in the system's temporary folder; tests never write into the source tree).  Skips, saying why, only where
no browser is installed (.ci/run installs Debian's chromium).
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import REPO
from site_helpers import mkdocs_build

ARTIFACTS = Path(os.environ.get("CONTRACTC_TEST_ARTIFACTS") or Path(tempfile.gettempdir()) / "contractc-test-artifacts")
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
def served_site(tmp_path_factory):
    site = mkdocs_build(REPO, tmp_path_factory.mktemp("browser") / "site")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):  # keep the test output to the test
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
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


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def test_a_citation_link_lands_on_the_receiver_check_in_view(served_site, page):
    from playwright.sync_api import expect

    page.goto(served_site)
    citation = page.locator('a[href$="#findingsreturn-check-2"]').first
    expect(citation).to_be_visible()
    citation.click()
    page.wait_for_url("**/contracts/review-returns/#findingsreturn-check-2")
    target = page.locator("#findingsreturn-check-2")
    expect(target).to_have_count(1)
    expect(target).to_contain_text("every bullet begins")
    expect(target).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollTop") > 0  # it scrolled to get there
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site-receiver-check.png"))


def test_search_finds_a_shape_by_name(served_site, page):
    from playwright.sync_api import expect

    page.goto(served_site)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially("SummaryReturn", delay=30)
    result = page.locator('.md-search-result__item a[href*="contracts/shapes/summaryreturn/"]').first
    expect(result).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site-search.png"))
    result.click()
    page.wait_for_url("**/contracts/shapes/summaryreturn/**")
    expect(page.locator("h1#summaryreturn")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "site-shape-page.png"), full_page=True)
