"""A document to validate (YAML, JSON, or a Markdown file's front matter), with the line of every key.

Loaded by :func:`contractc.load.yaml_safe.load_yaml` (safe: no objects from
tags; JSON is YAML), which keeps where each key is, so a failure can be reported
on the line of the offending key; the validator sees plain dicts, lists and scalars.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from contractc.report.diagnostics import ContractcError, Diagnostic, json_path

MARKDOWN_SUFFIXES = {".md", ".markdown"}


@dataclass(frozen=True, slots=True)
class Document:
    path: str
    """The path as the user gave it, for messages."""
    value: Any
    """The plain data: front matter for Markdown, the whole file otherwise."""
    front_matter: bool
    positions: dict[str, tuple[int, int]] = field(repr=False, default_factory=dict)
    """1-based (line, column) of every key path (``$.a[0].b``); ``$`` is the first line of the data."""

    def where(self, path: list[Any]) -> tuple[int, int]:
        """The position of the deepest existing key along ``path``."""
        for n in range(len(path), -1, -1):
            found = self.positions.get(json_path(path[:n]))
            if found:
                return found
        return (1, 1)


def load_document(file: Path) -> Document:
    from contractc.load.paths import read_named
    from contractc.load.source import source_from_bytes

    label = file.as_posix()
    text = source_from_bytes(label, read_named(file)).text  # a bad byte is a located not-utf8 error
    first_line, front = 1, file.suffix.lower() in MARKDOWN_SUFFIXES
    if front:
        text, first_line = _front_matter(label, text)
    from contractc.load.yaml_safe import load_yaml, plain, positions

    doc = load_yaml(text, label, "document-syntax", first_line=first_line, what="not valid YAML or JSON")
    if doc is None:  # nothing but blanks and comments: no document to check, whatever the shape
        where = "its front matter is empty" if front else "it holds no YAML or JSON value"
        raise ContractcError(
            Diagnostic(label, first_line, 1, "document-syntax", f"empty document: {where}", "write the document to validate")
        )
    return Document(label, plain(doc), front, {"$": (first_line, 1), **positions(doc, first_line)})


def _front_matter(label: str, text: str) -> tuple[str, int]:
    """The YAML of a Markdown file's front matter (:mod:`contractc.load.front_matter`), and its first line."""
    from contractc.load.front_matter import find_front_matter

    front = find_front_matter(text.splitlines())
    if front is None:
        raise ContractcError(
            Diagnostic(label, 1, 1, "document-syntax", "no front matter: the file does not start with a `---` line")
        )
    if front.closing is None:
        raise ContractcError(Diagnostic(label, 1, 1, "document-syntax", "front matter is never closed with a `---` line"))
    return front.text + "\n", front.first_line
