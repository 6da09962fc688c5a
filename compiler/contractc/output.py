"""Stage 4, the output set: what the contracts compile to, compared with or written to disk.

``check`` and ``build`` are the same pipeline with a different sink
(:class:`Mode`).  Writing is all-or-nothing: every new file is staged beside its
target first, then each is moved into place with an atomic ``os.replace``; if
anything fails, the files already replaced are restored from their backups, so
a failed build leaves every file as it was and no file is ever torn.
"""

from __future__ import annotations

import enum
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from contractc.diagnostics import ContractcError, Diagnostic


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


def diff_against_disk(root: Path, outputs: OutputSet) -> list[Change]:
    """Every generated file whose bytes differ from disk, and every orphan, in path order."""
    changes = []
    for path in sorted(outputs.files):
        out = outputs.files[path]
        try:
            actual = (root / path).read_bytes()
        except FileNotFoundError:
            actual = None
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
    staged: list[tuple[Path, Path | None]] = []
    try:
        for change in changes:
            target = root / change.path
            if change.expected is None:
                staged.append((target, None))
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".contractc-tmp", dir=target.parent)
            with os.fdopen(fd, "wb") as handle:
                handle.write(change.expected)
            if target.exists():
                os.chmod(tmp, target.stat().st_mode & 0o7777)
            else:
                os.chmod(tmp, 0o666 & ~_umask())
            staged.append((target, Path(tmp)))
    except OSError as exc:
        _discard(staged)
        raise _write_error(exc) from None
    _commit(staged)


def _commit(staged: list[tuple[Path, Path | None]]) -> None:
    backups: list[tuple[Path, Path | None]] = []  # (target, backup or None when it did not exist)
    try:
        for target, tmp in staged:
            backup = None
            if target.exists():
                backup = target.with_name(f".{target.name}.{os.getpid()}.contractc-bak")
                backup.unlink(missing_ok=True)
                os.link(target, backup) if tmp is not None else os.replace(target, backup)
            backups.append((target, backup))
            if tmp is not None:
                os.replace(tmp, target)
    except OSError as exc:
        for target, backup in reversed(backups):
            if backup is not None:
                os.replace(backup, target)
            elif target.exists():
                target.unlink()
        _discard(staged)
        raise _write_error(exc) from None
    for _, backup in backups:
        if backup is not None and backup.exists():
            backup.unlink()


def _discard(staged: list[tuple[Path, Path | None]]) -> None:
    for _, tmp in staged:
        if tmp is not None and tmp.exists():
            tmp.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_error(exc: OSError) -> ContractcError:
    return ContractcError(
        Diagnostic(str(exc.filename or "."), 0, 0, "write-failed", f"could not write: {exc.strerror}", "nothing was changed; fix the permissions and run again")
    )
