"""Which files ``scan`` reads: the plugin's Markdown, minus what git ignores and what contractc owns.

``.gitignore`` is honoured by asking git itself (``git ls-files --others
--exclude-standard``), so nested ignore files, negations and the global
excludes file behave exactly as they do for the user.  A folder that is not a
git work tree is listed through a throw-away empty repository, with the same
rules.  Without git, every Markdown file is read and the result says so.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

MARKDOWN = (".md", ".markdown")


@dataclass(frozen=True, slots=True)
class Listing:
    paths: tuple[str, ...]
    """Project-relative POSIX paths, sorted."""
    ignored_by_git: bool
    """False when git was not available, so .gitignore could not be honoured."""
    links: tuple[str, ...] = ()
    """Markdown files left out because they are symbolic links (or lead outside the folder), sorted."""
    work_tree: bool = False
    """True when ``root`` is inside a git work tree (so history can name the newest copy)."""


def plugin_files(root: Path, include: tuple[str, ...] = (), exclude: tuple[str, ...] = (), skip: tuple[str, ...] = ()) -> Listing:
    """The Markdown files under ``root`` that ``scan`` reads, in path order.

    ``include``/``exclude`` are globs matched against the project-relative path
    (``*`` crosses folders, as in fnmatch); ``skip`` are paths or folder prefixes
    (``contracts/x.md``, ``prompts/``) that contractc itself wrote.
    """
    listed, work_tree = _git_listing(root.resolve())
    ignored_by_git = listed is not None
    if listed is None:
        listed = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    real_root = root.resolve()
    paths, links = [], []
    for rel in listed:
        if not rel.lower().endswith(MARKDOWN) or rel.startswith(".contractc/"):
            continue
        if any(rel == s or (s.endswith("/") and rel.startswith(s)) for s in skip):
            continue
        if include and not any(fnmatchcase(rel, g) for g in include):
            continue
        if any(fnmatchcase(rel, g) for g in exclude):
            continue
        path = root / rel
        # git lists deleted-but-tracked files too; a symbolic link is skipped: adopt must not write through it
        if path.is_file() and not path.is_symlink() and path.resolve().is_relative_to(real_root):
            paths.append(rel)
        elif path.is_symlink() or (path.is_file() and not path.resolve().is_relative_to(real_root)):
            links.append(rel)
    return Listing(tuple(sorted(set(paths))), ignored_by_git, tuple(sorted(set(links))), work_tree)


def _git_listing(root: Path) -> tuple[list[str] | None, bool]:
    """(tracked and untracked-but-not-ignored files under ``root``, relative to it, or None without git; whether ``root`` is in a work tree).

    git runs with :data:`~contractc.scan.shapes.GIT_SAFE`: no hook or file-system monitor of the scanned repository runs.
    """
    from contractc.scan.shapes import GIT_SAFE, git_env

    args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."]
    env = git_env()
    work_tree = False
    try:
        inside = subprocess.run(
            ["git", *GIT_SAFE, "-C", str(root), "rev-parse", "--is-inside-work-tree"], capture_output=True, env=env, check=False
        )
        work_tree = inside.returncode == 0 and inside.stdout.strip() == b"true"
        if work_tree:
            done = subprocess.run(["git", *GIT_SAFE, "-C", str(root), *args], capture_output=True, env=env, check=True)
        else:
            with tempfile.TemporaryDirectory(prefix="contractc-scan-") as git_dir:
                subprocess.run(["git", *GIT_SAFE, "init", "-q", "--bare", "--template=", git_dir], capture_output=True, env=env, check=True)
                done = subprocess.run(
                    ["git", *GIT_SAFE, f"--git-dir={git_dir}", f"--work-tree={root}", "-C", str(root), *args],
                    capture_output=True,
                    env=env,
                    check=True,
                )
    except (OSError, subprocess.CalledProcessError):
        return None, work_tree
    return [p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p], work_tree
