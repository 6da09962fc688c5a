"""``targets:`` patterns matched the way :meth:`pathlib.Path.glob` matches them, on strings and ``os.scandir``.

``Path.glob`` builds a ``Path`` per directory entry, and each ``is_file`` or
``relative_to`` on the results costs more again: for 5,000 targets that is
several times what reading them costs.  This walks the same selectors as
pathlib 3.11 (a literal part, a wildcard part, ``**`` for this folder and every
folder below it that is not a symbolic link, hidden names included), but keeps
paths as strings and answers "is it a file?" from the directory entry.
``tests/test_globbing.py`` holds it to ``Path.glob`` on generated trees.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
from collections.abc import Callable, Iterator
from functools import cache

_IGNORED = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def glob_files(root: str, pattern: str) -> Iterator[tuple[str, bool]]:
    """``(path relative to root, is a symbolic link)`` of every file ``Path(root).glob(pattern)`` yields."""
    parts = _parts(pattern)
    if not os.path.isdir(root):
        return
    for rel, entry in _select(root, "", parts):
        try:
            if entry is not None:  # answered from the directory entry: no system call for most files
                if entry.is_file():
                    yield rel, entry.is_symlink()
            elif os.path.isfile(full := os.path.join(root, rel)):
                yield rel, os.path.islink(full)
        except OSError as exc:
            if exc.errno not in _IGNORED:
                raise


def _parts(pattern: str) -> tuple[str, ...]:
    """The pattern's parts as pathlib parses them: empty and ``.`` parts dropped, a trailing ``/`` kept as ``''``."""
    if not pattern:
        raise ValueError(f"Unacceptable pattern: {pattern!r}")
    if pattern.startswith("/"):
        raise NotImplementedError("Non-relative patterns are unsupported")
    parts = [p for p in pattern.split("/") if p and p != "."]
    if pattern.endswith("/"):
        parts.append("")
    for part in parts:
        if part != "**" and "**" in part:
            raise ValueError("Invalid pattern: '**' can only be an entire path component")
    return tuple(parts)


@cache
def _matcher(part: str) -> Callable[[str], object]:
    return re.compile(fnmatch.translate(part)).fullmatch


def _wild(part: str) -> bool:
    return "*" in part or "?" in part or "[" in part


def _join(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def _select(root: str, rel: str, parts: tuple[str, ...]) -> Iterator[tuple[str, os.DirEntry | None]]:
    """Every path selected below ``rel`` by ``parts``, with its directory entry when a scan found it."""
    if not parts or not parts[0]:
        yield rel, None
        return
    part, rest = parts[0], parts[1:]
    folder = os.path.join(root, rel) if rel else root
    try:
        if part == "**":
            seen: set[str] = set()
            for start in _folders(root, rel):
                for found in _select(root, start, rest):
                    if found[0] not in seen:
                        seen.add(found[0])
                        yield found
        elif _wild(part):
            match = _matcher(part)
            with os.scandir(folder) as scan:
                entries = list(scan)
            for entry in entries:
                if rest and not _is_dir(entry):
                    continue
                if match(entry.name):
                    child = _join(rel, entry.name)
                    if rest:
                        yield from _select(root, child, rest)
                    else:
                        yield child, entry
        else:
            child = _join(rel, part)
            full = os.path.join(root, child)
            if os.path.isdir(full) if rest else os.path.exists(full):
                yield from _select(root, child, rest)
    except PermissionError:
        return


def _folders(root: str, rel: str) -> Iterator[str]:
    """``rel`` and every folder below it, not entering symbolic links (pathlib's ``**``)."""
    yield rel
    try:
        with os.scandir(os.path.join(root, rel) if rel else root) as scan:
            entries = list(scan)
        for entry in entries:
            if _is_dir(entry) and not entry.is_symlink():
                yield from _folders(root, _join(rel, entry.name))
    except PermissionError:
        return


def _is_dir(entry: os.DirEntry) -> bool:
    """``entry.is_dir()`` (a link to a folder counts), False where pathlib ignores the error."""
    try:
        return entry.is_dir()
    except OSError as exc:
        if exc.errno not in _IGNORED:
            raise
        return False


def matches(pattern: str, rel: str) -> bool:
    """Whether ``glob_files(root, pattern)`` could yield the file ``rel``, asked of the strings alone
    (the journal's recovery asks it of paths it must not list): the same parts, ``**`` any run of folders."""
    try:
        parts = _parts(pattern)
    except (ValueError, NotImplementedError):
        return False
    return _matches(parts, tuple(rel.split("/")))


def _matches(parts: tuple[str, ...], names: tuple[str, ...]) -> bool:
    if not parts:
        return not names
    part, rest = parts[0], parts[1:]
    if part == "**":  # a pattern ending in ** yields folders, never a file
        return bool(rest) and any(_matches(rest, names[n:]) for n in range(len(names) + 1))
    if not names or not part:
        return False
    if not (_matcher(part)(names[0]) if _wild(part) else part == names[0]):
        return False
    return _matches(rest, names[1:])
