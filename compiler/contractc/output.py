"""Stage 4, the output set: what the contracts compile to, compared with or written to disk.

``check`` and ``build`` are the same pipeline with a different sink
(:class:`Mode`).  Writing is all-or-nothing: every new file is staged beside its
target first, then each is moved into place with an atomic ``os.replace``
after a hard link keeps the old file; if anything fails, the files already
replaced are restored from those links, so a failed build leaves every file
as it was and no file is ever torn.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.files import read_bytes


class Mode(enum.Enum):
    CHECK = "check"
    """Compare with disk, report drift, write nothing."""
    BUILD = "build"
    """Write every changed file."""


@dataclass(frozen=True, slots=True)
class Output:
    """One generated file."""

    data: bytes
    kind: str
    """The emitter that produced it (a key of ``EMITTERS``)."""


@dataclass(slots=True)
class OutputSet:
    """Every file the project compiles to, plus the folders the tool owns."""

    files: dict[str, Output] = field(default_factory=dict)
    owned: set[str] = field(default_factory=set)
    """Folders whose every file is generated: a file there that nothing produces is an orphan."""

    def add(self, kind: str, files: dict[str, bytes]) -> None:
        for path, data in files.items():
            self.files[path] = Output(data, kind)


@dataclass(frozen=True, slots=True)
class Change:
    """A difference between the output set and the disk."""

    path: str
    expected: bytes | None
    """None: the file should not exist (an orphan)."""
    actual: bytes | None
    """None: the file does not exist yet."""
    output: Output | None
    expected_path: str | None = None
    """Where the expected bytes are, when not at ``path`` (``scan``: the owning copy in another file)."""


def diff_against_disk(root: Path, outputs: OutputSet, known: Mapping[str, bytes] | None = None) -> list[Change]:
    """Every generated file whose bytes differ from disk, and every orphan, in path order.

    ``known`` holds files this run already read (the loaded target files): their bytes are not read twice.
    """
    known = known or {}
    changes = []
    for path in sorted(outputs.files):
        out = outputs.files[path]
        actual = known.get(path)
        if actual is None:
            try:
                actual = read_bytes(root / path)
            except FileNotFoundError:
                pass
        if actual != out.data:
            changes.append(Change(path, out.data, actual, out))
    for folder in sorted(outputs.owned):
        base = root / folder
        if not base.is_dir():
            continue
        for found in sorted(p for p in base.rglob("*") if p.is_file() or p.is_symlink()):
            rel = found.relative_to(root).as_posix()
            if rel not in outputs.files:
                changes.append(Change(rel, None, found.read_bytes(), None))
    return sorted(changes, key=lambda c: c.path)


def write_changes(root: Path, changes: list[Change]) -> None:
    """Apply ``changes`` all-or-nothing (see the module docstring)."""
    umask = _umask()
    staged: list[_Staged] = []
    try:
        for change in changes:
            target = os.path.join(root, change.path)
            if change.expected is None:
                staged.append(_Staged(target, None))
                continue
            _stage(target, change.expected, umask, staged)
    except OSError as exc:
        _discard(staged)
        raise _write_error(exc) from None
    _commit(staged)


class _Staged(NamedTuple):
    target: str
    tmp: str | None
    """The new bytes, beside the target; None: the target is to be removed (an orphan)."""


def _stage(target: str, data: bytes, umask: int, staged: list[_Staged]) -> None:
    """Write ``data`` to a new file beside ``target`` with the target's mode (a new file: the umask's); add it to ``staged``."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
        os.makedirs(os.path.dirname(target), exist_ok=True)
    # One name per target and process (no mkstemp search): O_EXCL still refuses to write through anything there.
    tmp = _sibling(target, "contractc-tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        fd = os.open(tmp, flags, 0o666 if mode is None else mode)
    except FileExistsError:  # left by a killed run that had this process id
        os.unlink(tmp)
        fd = os.open(tmp, flags, 0o666 if mode is None else mode)
    staged.append(_Staged(target, tmp))  # from here on, a failure discards it
    try:
        if mode is not None and mode & umask:  # os.open applied the umask; the target's mode wins
            os.fchmod(fd, mode)
        view = memoryview(data)
        while view:  # os.write may write less than asked
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _commit(staged: list[_Staged]) -> None:
    backups: list[tuple[str, str | None]] = []  # (target, backup or None when it did not exist)
    try:
        for target, tmp in staged:
            # Whether the target exists is asked now, not when it was staged: a file
            # that appeared in between is backed up and restored like any other.
            backup: str | None = _sibling(target, "contractc-bak")
            try:
                if tmp is None:
                    os.replace(target, backup)  # an orphan: removed for good once every write succeeded
                else:
                    _link(target, backup)
            except FileNotFoundError:
                backup = None
            backups.append((target, backup))
            if tmp is not None:
                os.replace(tmp, target)
    except OSError as exc:
        for target, backup in reversed(backups):
            if backup is not None:
                os.replace(backup, target)
                if os.path.lexists(backup):  # still a hard link of the target: rename(2) did nothing
                    os.unlink(backup)
            elif os.path.exists(target):
                os.unlink(target)
        _discard(staged)
        raise _write_error(exc) from None
    for _, backup in backups:
        if backup is not None:
            try:
                os.unlink(backup)
            except FileNotFoundError:
                pass


def _sibling(target: str, suffix: str) -> str:
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.{os.getpid()}.{suffix}")


def _link(target: str, backup: str) -> None:
    try:
        os.link(target, backup)
    except FileExistsError:  # left by a killed run that had this process id
        os.unlink(backup)
        os.link(target, backup)


def _discard(staged: list[_Staged]) -> None:
    for _, tmp in staged:
        if tmp is not None and os.path.lexists(tmp):
            os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_error(exc: OSError) -> ContractcError:
    return ContractcError(
        Diagnostic(str(exc.filename or "."), 0, 0, "write-failed", f"could not write: {exc.strerror}", "nothing was changed; fix the permissions and run again")
    )
