"""The one rule for a name that becomes part of an output path, whatever it came from.

A producer or consumer name (``Produced by `x`; consumed by `y`.``), a
data-shape key, a section anchor that names a shape, a contract's file name:
each ends up as a file or folder name under an output folder
(``prompts/<producer>/<shape>.md``, ``schemas/<contract>/<key>.schema.json``,
the site's agent pages).  So each must be a plain name -- ASCII letters, digits,
``.``, ``_`` and ``-``, not ``.`` and without ``..`` -- checked where it is
read, so the error points at the text that holds it.
"""

from __future__ import annotations

import re

from contractc.report.diagnostics import Diagnostic
from contractc.model.records import Span

_PLAIN = re.compile(r"[A-Za-z0-9._-]+")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file name under an output folder, or None when it can."""
    if not _PLAIN.fullmatch(name):
        return "may hold only ASCII letters (a-z, A-Z), digits, '.', '_' and '-'"
    if name == "." or ".." in name:
        return "may not be '.' or contain '..'"
    return None


def check_name(name: str, what: str, where: Span) -> Diagnostic | None:
    """An ``unsafe-name`` error at ``where`` when ``name`` (a ``what``, for the message) breaks the rule."""
    problem = name_problem(name)
    if problem is None:
        return None
    return Diagnostic(
        where.path,
        where.line or 1,
        where.col or 1,
        "unsafe-name",
        f"{what} {name!r} {problem}: it becomes part of an output path",
        f"rename it with ASCII letters, digits, '.', '_' and '-' only{_suggestion(name)}",
    )


def ascii_folded(name: str) -> str:
    """``name`` without its accents (``rédacteur`` -> ``redacteur``), the way a producer's name is written."""
    import unicodedata

    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")


def _suggestion(name: str) -> str:
    """``, such as `redacteur``` for ``rédacteur``: the name with accents dropped and other characters as '-'."""
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_folded(name)).strip("-")
    return f", such as `{plain}`" if plain and plain != name and name_problem(plain) is None else ""


def all_plain(rel: str) -> bool:
    """True when every part of the POSIX path ``rel`` is a plain name (see :func:`name_problem`)."""
    return all(name_problem(part) is None for part in rel.split("/"))
