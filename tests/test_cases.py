"""Golden cases as data: ``tests/cases/<name>/`` holds a project and what a command makes of it.

Each case has ``input/`` (the project tree), ``args`` (the command line, one
argument per line, without ``--root``), and the expectations: ``expected/``
(the whole tree after the command), ``expected.out`` (stdout then stderr) and
``expected.code``.  Set ``CONTRACTC_REGEN=1`` to rewrite the expectations from
what the current code does, then review the diff before committing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import snapshot

CASES = Path(__file__).parent / "cases"
REGEN = os.environ.get("CONTRACTC_REGEN") == "1"


def case_names() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if (p / "args").is_file()) if CASES.is_dir() else []


@pytest.mark.parametrize("name", case_names())
def test_case(name, tmp_path, run_cli):
    case = CASES / name
    root = tmp_path / "project"
    shutil.copytree(case / "input", root)
    args = [a for a in (case / "args").read_text().splitlines() if a]
    result = run_cli(*args, "--root", str(root))
    output = (result.out + result.err).replace(str(root), "<root>")
    if REGEN:
        shutil.rmtree(case / "expected", ignore_errors=True)
        shutil.copytree(root, case / "expected")
        (case / "expected.out").write_bytes(output.encode("utf-8"))
        (case / "expected.code").write_text(f"{result.code}\n")
    assert result.code == int((case / "expected.code").read_text())
    assert output == (case / "expected.out").read_bytes().decode("utf-8")  # CR kept
    assert snapshot(root) == snapshot(case / "expected")
