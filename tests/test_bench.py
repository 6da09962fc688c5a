"""The benchmark harness runs end to end (N = 10, one round); it never asserts a time."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO


@pytest.mark.bench
def test_benchmark_smoke_run_writes_the_results_page(tmp_path):
    out = tmp_path / "performance.md"
    env = {**os.environ, "PYTHONPATH": str(REPO / "compiler")}
    done = subprocess.run(
        [sys.executable, str(REPO / "bench/run.py"), "--smoke", "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    page = out.read_text()
    assert page.startswith("# Performance\n")
    targets = page.split("## Targets", 1)[1].split("\n\n")[2].splitlines()
    assert len(targets) == 2 + 10  # header, rule, one row per target of issue 7, and issue 12's validate row
    row = next(line for line in page.splitlines() if line.startswith("| 10 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "10" and cells[3] != "n/a" and cells[4] != "n/a"  # cog --check and the floor were timed
    validate = next(line for line in targets if "100-line return" in line)
    assert validate.split("|")[3].strip() != "not available"  # the receiver checks were timed
    scan = page.split("## `scan`", 1)[1].split("## Start-up", 1)[0]
    row = next(line for line in scan.splitlines() if line.startswith("| 10 |"))
    assert all(c.strip() not in ("", "n/a") for c in row.strip("|").split("|"))  # scan and its floor were timed
    shapes = page.split("## Many shapes", 1)[1].split("## Start-up", 1)[0]
    row = next(line for line in shapes.splitlines() if line.startswith("| 20 |"))  # the smoke run's S = 20
    assert all(c.strip() not in ("", "n/a") for c in row.strip("|").split("|"))  # check of S shapes was timed, per shape
    estimator = page.split("## Context-budget estimator", 1)[1].split("\n\n")[2].splitlines()
    assert [row.split("|")[1].strip() for row in estimator[2:]] == ["1 KB", "4 KB", "16 KB"]
    assert estimator[2].split("|")[2].strip() == "256"  # 1 KB of snippet is ~256 estimated tokens
    if os.access("/dev/shm", os.W_OK):  # the rewrite is also timed where new files cost no disk work
        assert "| 10 | every region stale, on a RAM disk (tmpfs) |" in page
