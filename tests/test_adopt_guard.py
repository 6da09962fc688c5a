"""`adopt --write` obeys the rule of every output path: nothing through a symbolic link, nothing outside the project.

Each case links one folder or file of the realistic plugin of tests/adopt_plugin.py, with a
canary folder *beside* the project.  ``adopt`` (dry run and ``--write``) must exit 2 with a
located ``unsafe-path`` message, before it reads or writes anything through the link: the
project tree (files, folders, links) and the canary folder stay byte-identical.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from adopt_plugin import write_plugin


def _tree(root: Path) -> dict[str, tuple[str, str]]:
    """Every file (its SHA-256), folder and symbolic link (its target) under ``root``, links not followed."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                found[rel] = ("folder", "")
            else:
                found[rel] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    return found


@pytest.fixture
def layout(tmp_path):
    plugin = write_plugin(tmp_path / "docs-pipeline")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "canary.md").write_text("# canary: nothing may touch this folder\n", "utf-8")
    return plugin, outside


def _contracts_out(plugin: Path, outside: Path) -> None:
    (plugin / "contracts").symlink_to(outside, target_is_directory=True)


def _prompts_dangling(plugin: Path, outside: Path) -> None:
    (plugin / "prompts").symlink_to(outside / "new-prompts", target_is_directory=True)


def _own_folder_out(plugin: Path, outside: Path) -> None:
    # prompts/ is the user's, so adopt puts its snippets under contractc/prompts: a link out of the project.
    (plugin / "prompts").mkdir()
    (plugin / "prompts" / "house-style.md").write_text("# House style\n", "utf-8")
    (plugin / "contractc").symlink_to(outside, target_is_directory=True)


CASES = {
    "contracts folder links out of the project": (_contracts_out, "contracts/docs-pipeline.md", "'contracts'"),
    "prompts folder is a dangling link out of the project": (_prompts_dangling, "prompts/", "'prompts'"),
    "contractc folder links out of the project": (_own_folder_out, "contractc/prompts/", "'contractc'"),
}


@pytest.mark.parametrize("write", [True, False], ids=["write", "dry-run"])
@pytest.mark.parametrize("name", list(CASES))
def test_adopt_refuses_to_write_through_a_link(layout, run_cli, name, write):
    plugin, outside = layout
    setup, where, link = CASES[name]
    setup(plugin, outside)
    before, canary = _tree(plugin), _tree(outside)
    run = run_cli("adopt", str(plugin), *(["--write"] if write else []))
    assert run.code == 2, run.out + run.err
    assert "Traceback" not in run.err
    # Located at the file adopt would write, naming the link it would pass through.
    line = next(x for x in run.err.splitlines() if "error[unsafe-path]" in x)
    assert line.startswith(where) and ":1:1: error[unsafe-path]" in line, run.err
    assert f"symbolic link {link}" in line, line
    assert _tree(plugin) == before, "the project changed"
    assert _tree(outside) == canary, "something was written outside the project"
    assert not (outside / "new-prompts").exists() and not (outside / "docs-pipeline.md").exists()


def test_adopt_write_without_links_still_applies(layout, run_cli):
    plugin, _ = layout
    assert run_cli("adopt", str(plugin), "--write").code == 0
    assert (plugin / "contracts" / "docs-pipeline.md").is_file()
