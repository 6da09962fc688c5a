"""``targets:`` patterns select exactly the files ``pathlib.Path.glob`` would, on trees with the awkward cases.

The loader matches patterns with its own walk (``load/globbing.py``, several times
faster than ``Path.glob`` on thousands of files); a user must never see a target
appear or vanish because of it.  Trees hold hidden files and folders, symbolic
links to files and folders (and a broken one), names with glob characters, and
files where a pattern expects a folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ECHO_CONFIG, ECHO_CONTRACT, snapshot, write_tree
from contractc.load.globbing import glob_files

NAMES = ["a.md", "b.txt", ".hidden.md", "SKILL.md", "x[1].md"]
FOLDERS = ["docs", "skills", ".github", "deep"]
PATTERNS = [
    "*.md", "docs/*.md", "**/*.md", "skills/*/SKILL.md", "**/SKILL.md", "docs/**/*.md", "**", "docs/a.md",
    "docs/*", "*/*.md", "*/*/*.md", ".*/*.md", "**/.hidden.md", "d*/**/*.md", "docs/x[[]1].md", "docs/?.md",
    "./docs/*.md", "docs//*.md", "docs/", "nothing/*.md", "a.md/*.md", "**/deep/**/a.md", "skills/**",
]  # fmt: skip


def pathlib_files(root: Path, pattern: str) -> set[tuple[str, bool]]:
    return {(m.relative_to(root).as_posix(), m.is_symlink()) for m in root.glob(pattern) if m.is_file()}


@st.composite
def trees(draw):
    files = draw(st.lists(st.tuples(st.lists(st.sampled_from(FOLDERS), max_size=3), st.sampled_from(NAMES)), max_size=12))
    links = draw(st.lists(st.sampled_from(["file", "folder", "broken", "loop"]), max_size=3))
    return files, links


def make_tree(root: Path, files, links) -> None:
    for folders, name in files:
        folder = root.joinpath(*folders)
        if folder.exists() and not folder.is_dir():
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            continue
        if not (folder / name).exists():
            (folder / name).write_text("x", "utf-8")
    (root / "a.md").write_text("x", "utf-8")  # a file where `a.md/*.md` expects a folder
    for i, kind in enumerate(links):
        link = root / "docs" / f"link{i}.md"
        link.parent.mkdir(exist_ok=True)
        target = {"file": root / "a.md", "folder": root / "skills", "broken": root / "missing", "loop": link}[kind]
        if kind == "folder":
            target.mkdir(exist_ok=True)
            link = root / "docs" / f"linked{i}"
        if not os.path.lexists(link):
            link.symlink_to(target)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=trees())
def test_patterns_select_what_pathlib_selects(tmp_path_factory, tree):
    root = tmp_path_factory.mktemp("tree")
    make_tree(root, *tree)
    for pattern in PATTERNS:
        assert set(glob_files(str(root), pattern)) == pathlib_files(root, pattern), pattern


@pytest.mark.parametrize("pattern", ["", "a**/x.md"])
def test_patterns_pathlib_refuses_are_refused(tmp_path, pattern):
    with pytest.raises(ValueError):
        list(glob_files(str(tmp_path), pattern))
    with pytest.raises(ValueError):
        list(tmp_path.glob(pattern))


def test_a_pattern_pathlib_refuses_is_a_located_config_error(tmp_path, run_cli, monkeypatch):
    config = ECHO_CONFIG + "targets:\n  - agents/*.md\n  - a**/x.md\n"
    write_tree(tmp_path, {"contractc.yaml": config, "contracts/c.md": ECHO_CONTRACT, "agents/a.md": "hi\n"})
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    for command in ("check", "build"):
        result = run_cli(command)
        assert result.code == 2, result.err
        assert "contractc.yaml:6:" in result.err and "config-invalid" in result.err and "$.targets[1]" in result.err
        assert "internal error" not in result.err
    assert snapshot(tmp_path) == before
