"""Project paths: every path a user writes is confined to the project root."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.model import Span


def confined(root: Path, rel: str, where: Span) -> str:
    """Return ``rel`` normalised; an absolute path, ``..`` or a symlink escape is ``unsafe-path``."""
    pure = PurePosixPath(rel.replace("\\", "/"))
    problem = None
    if pure.is_absolute() or (pure.parts and pure.parts[0].endswith(":")):
        problem = "is absolute"
    elif ".." in pure.parts:
        problem = "contains '..'"
    else:
        resolved = (root / pure).resolve()
        if not resolved.is_relative_to(root.resolve()):
            problem = "leaves the project root through a symbolic link"
    if problem:
        raise ContractcError(
            Diagnostic(where.path, where.line, where.col, "unsafe-path", f"path {rel!r} {problem}", "use a path inside the project")
        )
    return pure.as_posix()
