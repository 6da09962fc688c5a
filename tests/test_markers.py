"""The malformed-marker corpus: every file in tests/cases/markers/ is exit 2, located, and writes nothing.

Each case file says on an ``expect: line N code`` line where its first error is;
the whole expected stderr is the golden ``<case>.err`` beside it
(``CONTRACTC_REGEN=1`` rewrites the goldens).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import snapshot, write_tree
from region_project import project_files

CASES = Path(__file__).parent / "cases" / "markers"
REGEN = os.environ.get("CONTRACTC_REGEN") == "1"
_EXPECT = re.compile(rb"expect: line (\d+) ([a-z-]+)")


def test_the_corpus_has_at_least_15_cases():
    assert len(list(CASES.glob("*.md"))) >= 15


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.glob("*.md")))
def test_malformed_marker_exits_2_at_its_line_and_writes_nothing(tmp_path, run_cli, case):
    data = (CASES / case).read_bytes()
    line, code = _EXPECT.search(data).groups()
    root = write_tree(tmp_path, project_files(**{"agents/case.md": data}))
    os.chmod(root / "agents/case.md", 0o640)
    before = snapshot(root)
    for command in ("check", "build", "build --force"):
        result = run_cli(*command.split(), "--root", str(root))
        assert result.code == 2, result.out + result.err
        first = result.err.splitlines()[0]
        assert first.startswith(f"agents/case.md:{line.decode()}:"), result.err
        assert f"error[{code.decode()}]" in first, result.err
        assert result.out == "" and "Traceback" not in result.err
        golden = CASES / case.replace(".md", ".err")
        if REGEN and command == "check":
            golden.write_text(result.err)
        assert result.err == golden.read_text(), result.err
        assert snapshot(root) == before
        assert (root / "agents/case.md").stat().st_mode & 0o777 == 0o640


def test_every_marker_problem_of_every_file_is_reported_in_one_run(tmp_path, run_cli):
    files = {f"agents/{p.stem}.md": p.read_bytes() for p in sorted(CASES.glob("*.md"))}
    root = write_tree(tmp_path, project_files(**files))
    result = run_cli("check", "--root", str(root))
    assert result.code == 2
    for path in files:
        assert f"\n{path}:" in "\n" + result.err, path
