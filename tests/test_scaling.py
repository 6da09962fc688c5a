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
