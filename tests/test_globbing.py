"""``targets:`` patterns: the files they select are ``pathlib.Path.glob``'s, and the journal's recovery, which may not
list folders it must not touch, answers "could this pattern select that file?" from the strings alone
(``load/config.py`` ``may_select``) the way ``Path.glob`` would, on trees with the awkward cases: hidden files and
folders, symbolic links to files and folders (and a broken one), names with glob characters, and files where a
pattern expects a folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contractc.load.config import may_select
from conftest import ECHO_CONFIG, ECHO_CONTRACT, snapshot, write_tree

NAMES = ["a.md", "b.txt", ".hidden.md", "SKILL.md", "x[1].md", "x1.md"]
FOLDERS = ["docs", "skills", ".github", "deep"]
PATTERNS = [
    "*.md", "docs/*.md", "**/*.md", "skills/*/SKILL.md", "**/SKILL.md", "docs/**/*.md", "**", "docs/a.md",
    "docs/*", "*/*.md", "*/*/*.md", ".*/*.md", "**/.hidden.md", "d*/**/*.md", "docs/x[[]1].md", "docs/x[1].md",
    "docs/?.md", "./docs/*.md", "docs//*.md", "docs/", "nothing/*.md", "a.md/*.md", "**/deep/**/a.md", "skills/**",
    "**/**/a.md",
]  # fmt: skip


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


def files_below(root: Path) -> set[str]:
    """Every file of the tree that no symbolic link leads to (pathlib's ``**`` does not enter linked folders)."""
    found = set()
    for folder, dirs, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            if path.is_file() and not path.is_symlink():
                found.add(path.relative_to(root).as_posix())
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=trees())
def test_may_select_answers_what_pathlib_selects(tmp_path_factory, tree):
    root = tmp_path_factory.mktemp("tree")
    make_tree(root, *tree)
    plain = files_below(root)
    for pattern in PATTERNS:
        selected = {m.relative_to(root).as_posix() for m in root.glob(pattern) if m.is_file()}
        assert all(may_select(pattern, rel) for rel in selected), pattern  # never "no" to a file it lists
        assert {rel for rel in plain if may_select(pattern, rel)} == selected & plain, pattern


def test_patterns_pathlib_refuses_select_nothing():
    for pattern in ["", "a**/x.md", "/etc/*.md", "docs/"]:
        assert not may_select(pattern, "docs/a.md"), pattern
        assert not may_select(pattern, "a**/x.md"), pattern


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
