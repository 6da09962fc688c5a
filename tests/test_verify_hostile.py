"""Hostile state probed end to end through the CLI, as a pull request's author could set it up:
each test asserts the exit code, the message and that the tree (and a canary) is as it was."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REPO

EXAMPLE = REPO / "examples" / "review-plugin"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=root, check=True, capture_output=True)


def _tree(root: Path) -> str:
    """A digest of every file outside .git and .contractc (the journal included): what a run must not change."""
    digest = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and not p.is_symlink() and not rel.startswith(".git/") and (rel == ".contractc/journal.json" or not rel.startswith(".contractc/")):
            digest.update(rel.encode() + b"\0" + p.read_bytes())
    return digest.hexdigest()


@pytest.fixture
def plugin(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "plugin"
    shutil.copytree(EXAMPLE, root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "init")
    return root


def test_a_journal_nested_100000_deep_is_a_located_exit_2_that_touches_nothing(plugin, run_cli):
    (plugin / ".contractc").mkdir()
    (plugin / ".contractc" / "journal.json").write_text("[" * 100_000)
    before = _tree(plugin)
    for command in ("check", "build"):
        result = run_cli(command, "--root", str(plugin))
        assert result.code == 2, result.err
        assert ".contractc/journal.json:1:1: error[file-unreadable]" in result.err
        assert "internal error" not in result.err
        assert _tree(plugin) == before


def test_a_cache_git_tracks_is_never_used_by_check(plugin, run_cli):
    assert run_cli("check", "--root", str(plugin)).code == 0  # writes the cache
    cache = plugin / ".contractc" / "check.sha256"
    target = plugin / "agents" / "code-reviewer.md"
    old = hashlib.sha256(target.read_bytes()).hexdigest()
    lines = target.read_text().splitlines(keepends=True)
    begin = next(i for i, line in enumerate(lines) if "contractc:begin" in line)
    lines[begin + 2] = lines[begin + 2].rstrip("\n") + " STALE\n"  # a stale managed region
    target.write_text("".join(lines))
    new = hashlib.sha256(target.read_bytes()).hexdigest()
    cache.write_text(cache.read_text().replace(old, new))  # the forged cache vouches for the stale file
    _git(plugin, "add", "-f", ".contractc/check.sha256", "agents/code-reviewer.md")
    _git(plugin, "commit", "-qm", "a pull request")
    forged = cache.read_bytes()
    result = run_cli("check", "--root", str(plugin))
    assert result.code == 1, result.out + result.err
    assert "agents/code-reviewer.md" in result.out + result.err
    assert "all current" not in result.out + result.err
    assert cache.read_bytes() == forged  # the committed file is left as the pull request has it


@pytest.mark.parametrize(("state", "command"), [("check.sha256", "check"), ("outputs.json", "build")])
def test_local_state_nested_100000_deep_is_ignored_not_a_crash(plugin, run_cli, state, command):
    (plugin / ".contractc").mkdir()
    (plugin / ".contractc" / state).write_text('{"a":' * 100_000)
    before = _tree(plugin)
    result = run_cli(command, "--root", str(plugin))
    assert result.code == 0, result.out + result.err
    assert "internal error" not in result.out + result.err
    assert _tree(plugin) == before


def test_a_lock_that_is_a_fifo_is_a_located_exit_2_not_a_crash(plugin, run_cli):
    import os

    (plugin / ".contractc").mkdir()
    os.mkfifo(plugin / ".contractc" / "lock")
    with (plugin / "contracts" / "review.md").open("a") as handle:
        handle.write("\nOne more paragraph.\n")  # so build has something to write
    before = _tree(plugin)
    result = run_cli("build", "--root", str(plugin))
    assert result.code == 2, result.out + result.err
    assert ".contractc/lock:1:1: error[write-failed]: cannot open the run lock: not a regular file" in result.err
    assert _tree(plugin) == before


ESCAPE = "\x1b]0;PWNED\x07\x1b[31m"


def test_an_escape_sequence_in_a_configured_path_is_escaped_in_the_message(tmp_path, run_cli):
    # YAML's own escapes (\e is ESC, \a is BEL) put the raw bytes into the path
    (tmp_path / "contractc.yaml").write_text('contracts:\n  - path: "contracts/x\\e]0;PWNED\\a\\e[31m/c.md"\n', encoding="utf-8")
    result = run_cli("check", "--root", str(tmp_path))
    assert result.code == 2
    assert "\x1b" not in result.out + result.err and "\x07" not in result.out + result.err
    assert "contracts/x\\x1b]0;PWNED\\x07\\x1b[31m/c.md does not exist" in result.err
    github = run_cli("check", "--root", str(tmp_path), "--format", "github")
    assert "\x1b" not in github.out + github.err and "\x07" not in github.out + github.err


def test_an_escape_sequence_in_a_drifted_file_is_escaped_in_the_diff(plugin, run_cli):
    target = plugin / "agents" / "code-reviewer.md"
    lines = target.read_text().splitlines(keepends=True)
    begin = next(i for i, line in enumerate(lines) if "contractc:begin" in line)
    lines[begin + 2] = lines[begin + 2].rstrip("\n") + ESCAPE + "\n"
    target.write_text("".join(lines))
    for args in (("check",), ("build", "--dry-run"), ("check", "--format", "github")):
        result = run_cli(*args, "--root", str(plugin))
        assert "\x1b" not in result.out + result.err and "\x07" not in result.out + result.err, args
    assert "\\x1b]0;PWNED\\x07" in run_cli("check", "--root", str(plugin)).out


def test_a_javascript_link_or_raw_html_in_a_receiver_check_is_inert_on_its_shape_page(tmp_path, run_cli):
    import re

    check = "1. Line 1 is `STATUS: ok` or `STATUS: fail`. See [c1](javascript:alert(1)) and <a href=\"javascript:alert(2)\">h</a>.\n"
    contract = (
        "# C\n\nIntro.\n\n## Ret\n\nProduced by `w`; consumed by `b`.\n\n```\nSTATUS: ok\n```\n\n"
        f"Receiver checks:\n\n{check}"
    )
    root = tmp_path
    (root / "contracts").mkdir()
    (root / "contractc.yaml").write_text("contracts:\n  - path: contracts/c.md\n")
    (root / "contracts" / "c.md").write_text(contract)
    assert run_cli("build", "--root", str(root), "--site-pages", "docs").code == 0
    pages = {p.relative_to(root).as_posix(): p.read_text("utf-8") for p in (root / "docs").rglob("*.md")}
    shape_pages = [path for path, text in pages.items() if "[c1]" in text and "/shapes/" in path]
    assert shape_pages, sorted(pages)
    for path, text in pages.items():
        text = re.sub(r"(?ms)^(`{3,})[^\n]*\n.*?^\1\s*$", "", text)  # a code block shows text as text
        text = re.sub(r"data-[a-z-]+=\"[^\"]*\"", "", text)  # the copy button's attribute holds the text, inert
        text = re.sub(r"(?s)<pre>.*?</pre>", "", text)  # so does the snippet, shown as code
        assert "](javascript:" not in text, path
        assert '<a href="javascript:' not in text, path


def test_an_escape_sequence_in_a_file_name_is_escaped_by_build_and_adopt(tmp_path, run_cli):
    import sys

    sys.path.insert(0, str(REPO / "tests"))
    from adopt_plugin import write_plugin

    plugin = write_plugin(tmp_path / "plugin")
    (plugin / "agents" / "style-critic.md").rename(plugin / "agents" / f"style{ESCAPE}critic.md")
    adopt = run_cli("adopt", str(plugin))
    assert adopt.code == 0, adopt.err
    assert "\x1b" not in adopt.out + adopt.err and "\x07" not in adopt.out + adopt.err
    assert "would write agents/style\\x1b]0;PWNED\\x07\\x1b[31mcritic.md" in adopt.out
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    contract = next((plugin / "contracts").glob("*.md"))
    lines = contract.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("revision_request:")) + 1
    lines[at] = lines[at].rstrip("\n") + "  # one more word\n"  # the critic's region holds this shape
    contract.write_text("".join(lines))
    build = run_cli("build", "--root", str(plugin))
    assert build.code == 0, build.err
    assert "\x1b" not in build.out + build.err and "\x07" not in build.out + build.err
    assert "wrote agents/style\\x1b]0;PWNED\\x07\\x1b[31mcritic.md" in build.out
