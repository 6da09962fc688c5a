"""``check`` does work linear in the number of shapes (issue 13: 2,000 text shapes took minutes).

Not a wall-time assertion: the steps contractc's own code executes (Python line events in
``contractc`` modules, loops included; libraries not counted) are counted for a project of
S and of 4*S shapes.  Linear work grows about 4x; any per-shape scan over every section,
token, shape or region grows up to 16x.  Measured: 3.7x now, 9.8x before the fix.
"""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
from shapes_corpus import write_shapes_corpus  # noqa: E402

PACKAGE = str(REPO / "compiler" / "contractc")


def _steps(run) -> int:
    """How many lines of contractc's code ``run()`` executes (frames of other code are not traced)."""
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(PACKAGE) else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        run()
    finally:
        sys.settrace(previous)
    return count


def _check_steps(tmp_path: Path, shapes: int, run_cli) -> int:
    root = write_shapes_corpus(tmp_path / f"s{shapes}", shapes)
    assert run_cli("build", "--root", str(root)).code == 0
    result = {}

    def check():
        result["run"] = run_cli("check", "--no-cache", "--root", str(root))

    steps = _steps(check)
    run = result["run"]
    # The whole pipeline ran: every output current, the restatement finder weighed the pasted copy.
    assert run.code == 0 and run.out.strip().endswith("all current"), run.out + run.err
    return steps


def test_check_work_grows_linearly_with_the_shape_count(tmp_path, run_cli):
    small = _check_steps(tmp_path, 60, run_cli)
    large = _check_steps(tmp_path, 240, run_cli)
    assert large / small < 5.0, f"{small} steps for 60 shapes, {large} for 240: {large / small:.1f}x for 4x the shapes"


def _site_steps(tmp_path: Path, pages: int) -> tuple[int, int]:
    """Steps of the plugin's work (load the project, the changes since the last release, every page)
    for the benchmark's site of about ``pages`` pages, and the number of shape pages made.

    Each contract has nine shapes, so the pages per shape (the shape's own, a ninth of its
    contract's page and of its Changes page) are the same at every size, while the mix of pages
    is not (four pages are made once): work per shape is the measure that stays flat.
    """
    from site_corpus import write_site

    from contractc.load import load_project
    from contractc.diff.release import since_last_release
    from contractc.emit.site import render_site

    root = write_site(tmp_path, pages)
    result = {}

    def generate():
        project = load_project(root)
        result["files"] = render_site(project, root, since=since_last_release(root, project))

    steps = _steps(generate)
    files = result["files"]
    # every page made, each shape page with its dispatch snippet and its checks
    assert "contracts/index.md" in files and "anchors.json" in files
    shape_page = files["contracts/shapes/return0x0.md"].decode()
    assert "## Dispatch snippet {#shape-snippet}" in shape_page and "## Receiver checks {#shape-checks}" in shape_page
    return steps, sum(1 for path in files if path.startswith("contracts/shapes/"))


def test_site_page_work_per_page_does_not_grow_with_the_page_count(tmp_path):
    """The site's pages at P and 8*P: the steps per shape stay the same (measured: 0.98x; a lookup
    of each page's shape by a scan of the shapes makes it 1.13x)."""
    small, small_shapes = _site_steps(tmp_path / "small", 40)
    large, large_shapes = _site_steps(tmp_path / "large", 320)
    assert large_shapes >= 8 * small_shapes
    per_shape = (large / large_shapes) / (small / small_shapes)
    assert per_shape < 1.08, f"{small / small_shapes:.0f} steps per shape at {small_shapes} shapes, {large / large_shapes:.0f} at {large_shapes}"


def test_a_site_of_a_hundred_contracts_parses_each_contract_once(tmp_path, monkeypatch):
    """The site reads each contract's blocks again (its page, its fences): it reads the tokens the loader
    parsed, so no contract is parsed twice, however many the project holds."""
    from site_corpus import write_site

    from contractc.diff.release import since_last_release
    from contractc.emit.site import render_site
    from contractc.load import load_project
    from contractc.load.blocks import commonmark
    from contractc.site.warnings import unrendered_fences

    parser = commonmark()
    parsed: list[str] = []

    def counted(text, env=None):
        parsed.append(text)
        return type(parser).parse(parser, text, env)

    monkeypatch.setattr(parser, "parse", counted)
    root = write_site(tmp_path, 1000)
    project = load_project(root)
    files = render_site(project, root, since=since_last_release(root, project))
    assert unrendered_fences(project) == []
    assert len(project.contracts) == 100 and sum(1 for path in files if path.startswith("contracts/shapes/")) == 900
    texts = {c.data.decode("utf-8") for c in project.contracts}
    assert sorted(t for t in parsed if t in texts) == sorted(texts)  # each contract parsed once, by the loader
    assert len(parsed) <= len(project.contracts) + 1  # the contracts, and any one check's text