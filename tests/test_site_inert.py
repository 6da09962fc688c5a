"""Contract text on the site is inert: raw HTML in a contract is shown as text, never run."""

from __future__ import annotations

import re

from conftest import ECHO_CONFIG, ECHO_CONTRACT, write_tree

HOSTILE = ECHO_CONTRACT.replace(
    "Read me.",
    "Read me <img src=x onerror=alert(1)>.\n\n<script>alert(document.cookie)</script>\n\nKeep `<code>` and <https://example.com>.",
).replace("## EchoReturn", "## EchoReturn <b onclick=steal()>now</b>")


def test_raw_html_in_a_contract_is_escaped_on_every_page(tmp_path, run_cli):
    root = write_tree(tmp_path, {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": HOSTILE})
    assert run_cli("build", "--root", str(root), "--site-pages", "docs").code == 0
    pages = {p.relative_to(root).as_posix(): p.read_text("utf-8") for p in (root / "docs").rglob("*.md")}
    contract_page = pages["docs/contracts/c.md"]
    assert "&lt;script>alert(document.cookie)&lt;/script>" in contract_page
    assert "&lt;img src=x onerror=alert(1)>" in contract_page
    assert "## EchoReturn &lt;b onclick=steal()>now&lt;/b> {#echoreturn-now}" in contract_page
    assert "`<code>`" in contract_page and "<https://example.com>" in contract_page  # code and autolinks stay
    for path, text in pages.items():
        text = re.sub(r"(?ms)^(`{3,})[^\n]*\n.*?^\1\s*$", "", text)  # code blocks show text as text
        assert "<script" not in text and "<img" not in text and "<b onclick" not in text, path


def test_placeholders_in_a_template_stay_as_written_while_html_after_it_is_escaped(tmp_path, run_cli):
    """A `<` inside a shape's fenced template is code, not HTML; one in the prose below it still is HTML."""
    contract = ECHO_CONTRACT.replace("echo: <text>\n", "echo: <text>\n<div onclick=x()>\n")
    plain = write_tree(tmp_path / "plain", {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": contract})
    hostile = write_tree(
        tmp_path / "hostile",
        {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": contract + "\nAfter the checks <i onmouseover=x()>hi</i>.\n"},
    )
    for root in (plain, hostile):
        assert run_cli("build", "--root", str(root), "--site-pages", "docs").code == 0
    plain_page = (plain / "docs/contracts/c.md").read_text("utf-8")
    hostile_page = (hostile / "docs/contracts/c.md").read_text("utf-8")
    for page in (plain_page, hostile_page):
        assert "echo: <text>\n<div onclick=x()>\n" in page  # the template, byte for byte
    assert "&lt;i onmouseover=x()>hi&lt;/i>" in hostile_page and "<i onmouseover" not in hostile_page


def test_an_unsafe_autolink_inside_an_html_block_is_escaped_once(tmp_path, run_cli):
    """Its `<` is both raw HTML and an unsafe autolink: written `&lt;` once, so the page shows the text as written."""
    contract = ECHO_CONTRACT.replace("Read me.", "Read me.\n\n<div>\n<javascript:alert(1)>\n</div>")
    root = write_tree(tmp_path, {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": contract})
    assert run_cli("build", "--root", str(root), "--site-pages", "docs").code == 0
    page = (root / "docs/contracts/c.md").read_text("utf-8")
    assert "&lt;div>\n&lt;javascript:alert(1)>\n&lt;/div>" in page and "&lt;lt;" not in page
