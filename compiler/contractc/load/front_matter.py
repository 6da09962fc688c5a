"""YAML front matter: the block between a first line ``---`` and the next ``---`` (or ``...``) line.

The one reader of front matter, for role files (``agents:``, whose body follows
it) and for documents given to ``validate`` (whose front matter is checked).
Both are then loaded by :func:`contractc.load.yaml_safe.load_yaml` (bounded,
no object ever constructed from a tag), which also turns a YAML error into a
located diagnostic.
"""

from collections.abc import Sequence
from typing import NamedTuple

OPENING = "---"
CLOSING = ("---", "...")


class FrontMatter(NamedTuple):
    """Where a file's front matter is, by lines."""

    text: str
    """The YAML between the two lines, lines joined by ``\\n`` (no final newline)."""
    first_line: int
    """1-based file line of the YAML's first line (the line after the opening ``---``)."""
    closing: int | None
    """0-based index of the closing line; None when the front matter is never closed."""


def find_front_matter(lines: Sequence[str]) -> FrontMatter | None:
    """The front matter of a file given as its lines (without newlines); None when the first line is not ``---``."""
    if not lines or lines[0].rstrip() != OPENING:
        return None
    closing = next((n for n in range(1, len(lines)) if lines[n].rstrip() in CLOSING), None)
    body = lines[1:closing] if closing is not None else lines[1:]
    return FrontMatter("\n".join(body), 2, closing)
