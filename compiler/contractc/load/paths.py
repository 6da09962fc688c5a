"""Project paths: every path a user writes is confined to the project root; a file that cannot be read, named
(``file-unreadable``); and ``contractc hash``, which reads files as the loader does."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.output.files import FileRefused, read_bytes
from contractc.model.records import Span

if TYPE_CHECKING:
    from collections.abc import Iterable

    from contractc.report.format import Outcome


def confined(root: Path, rel: str, where: Span) -> str:
    """Return ``rel`` normalised; an absolute path, ``..`` or a symlink escape is ``unsafe-path``."""
    pure = PurePosixPath(rel.replace("\\", "/"))
    problem = None
    if "\0" in rel:
        problem = "contains a NUL byte"
    elif pure.is_absolute() or (pure.parts and pure.parts[0].endswith(":")):
        problem = "is absolute"
    elif ".." in pure.parts:
        problem = "contains '..'"
    else:
        resolved = (root / pure).resolve()
        if not resolved.is_relative_to(root.resolve()):
            problem = "leaves the project root through a symbolic link"
    if problem:
        raise ContractcError(
            Diagnostic.at(where, "unsafe-path", f"path {rel!r} {problem}", "use a path inside the project")
        )
    return pure.as_posix()


def unreadable(label: str, exc: OSError, where: Span | None = None) -> Diagnostic:
    """The ``file-unreadable`` error for an input that exists but cannot be read (permissions, a FIFO, too large)."""
    label = label.replace("\0", "\\0")
    at = where or Span(label, 1, 1, 0, 0)
    reason = exc.strerror or str(exc)
    return Diagnostic(at.path, at.line or 1, at.col or 1, "file-unreadable", f"{label} {reason}" if isinstance(exc, FileRefused) else f"cannot read {label}: {reason}", "contractc reads only regular files it may open")


def read_named(path: Path) -> bytes:
    """The bytes of a file named on the command line; a missing one is ``file-missing``, an unreadable one
    ``file-unreadable`` (raised)."""
    try:
        return read_bytes(path)
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise ContractcError(Diagnostic(path.as_posix(), 0, 0, "file-missing", f"cannot read: {exc.strerror}")) from None
    except OSError as exc:
        raise ContractcError(unreadable(path.as_posix(), exc)) from None


def hash_files(paths: Iterable[Path]) -> Outcome:
    """``contractc hash``: each file's SHA-256 in sha256sum format; an unreadable one is a diagnostic (exit 2)."""
    import hashlib

    from contractc.report.format import Outcome

    lines, problems = [], []
    for path in paths:
        try:
            lines.append(f"{hashlib.sha256(read_named(path)).hexdigest()}  {path.as_posix()}\n")
        except ContractcError as exc:
            problems += exc.diagnostics
    return Outcome.failed(problems)._replace(out="".join(lines))
