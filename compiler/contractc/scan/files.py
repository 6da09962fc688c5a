"""Which files ``scan`` reads: the plugin's Markdown, minus what git ignores and what contractc owns.

``.gitignore`` is honoured by asking git itself (``git ls-files --others
--exclude-standard``), so nested ignore files, negations and the global
excludes file behave exactly as they do for the user.  A folder that is not a
git work tree is listed through a throw-away empty repository, with the same
rules.  Without git, every Markdown file is read and the result says so.
"""

from __future__ import annotations

import os
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
    nested: tuple[str, ...] = ()
    """Folders below the root holding a contractc.yaml of their own (``examples/demo/``), sorted: other projects, not read."""


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
    inside: dict[str, bool] = {}
    unnamed = [rel for rel in listed if rel.lower().endswith(MARKDOWN) and not _utf8(rel)]
    if unnamed:  # it could be named in no report (JSON, GitHub annotations) nor written in contractc.yaml
        from contractc.report.diagnostics import ContractcError, Diagnostic

        raise ContractcError(
            [
                Diagnostic(
                    os.fsencode(rel).decode("utf-8", "backslashreplace"),
                    1,
                    1,
                    "unsafe-name",
                    "this file name is not UTF-8: no report or configuration can name it",
                    "rename it to a UTF-8 name (ASCII is safest), then run again",
                )
                for rel in unnamed
            ]
        )
    # a folder below the root with a contractc.yaml of its own is another project (an examples/<plugin>/):
    # read into, adopt would rewrite its contracts and prompts; left out like .git, unless --include names it
    from contractc.load.config import CONFIG_NAME

    nested = sorted({rel[: -len(CONFIG_NAME)] for rel in listed if rel.endswith(f"/{CONFIG_NAME}")})
    for rel in listed:
        if not rel.lower().endswith(MARKDOWN) or rel.startswith(".contractc/"):
            continue
        if any(rel.startswith(folder) for folder in nested) and not any(fnmatchcase(rel, g) for g in include):
            continue
        if any(rel == s or (s.endswith("/") and rel.startswith(s)) for s in skip):
            continue
        if include and not any(fnmatchcase(rel, g) for g in include):
            continue
        if any(fnmatchcase(rel, g) for g in exclude):
            continue
        path = root / rel
        # git lists deleted-but-tracked files too; a symbolic link is skipped: adopt must not write through it.
        # A file that is no link is where its folder really is: one resolve per folder, not per file.
        if path.is_symlink():
            links.append(rel)
        elif path.is_file():
            folder = rel.rpartition("/")[0]
            if folder not in inside:
                inside[folder] = path.parent.resolve().is_relative_to(real_root)
            (paths if inside[folder] else links).append(rel)
    return Listing(tuple(sorted(set(paths))), ignored_by_git, tuple(sorted(set(links))), work_tree, tuple(nested))


def _utf8(rel: str) -> bool:
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes, read by git as surrogates
        return False
    return True


def _git_listing(root: Path) -> tuple[list[str] | None, bool]:
    """(tracked and untracked-but-not-ignored files under ``root``, relative to it, or None without git;
    whether ``root`` is in a git work tree)."""
    from contractc.load.git import run_git

    args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."]
    work_tree = False
    try:  # the folder may be anyone's checkout: run_git runs nothing its configuration names
        inside = run_git(root, "rev-parse", "--is-inside-work-tree")
        work_tree = inside.returncode == 0 and inside.stdout.strip() == b"true"
        if work_tree:
            done = run_git(root, *args)
        else:
            with tempfile.TemporaryDirectory(prefix="contractc-scan-") as git_dir:
                if run_git(root, "init", "-q", "--bare", "--template=", git_dir).returncode:
                    return None, work_tree
                done = run_git(root, *args, extra=(f"--git-dir={git_dir}", f"--work-tree={root}"))
        if done.returncode:
            return None, work_tree
    except OSError:
        return None, work_tree
    return [p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p], work_tree
