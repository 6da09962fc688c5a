"""The anchor rule: Python-Markdown's ``toc`` slugify, so the site's own heading ids agree.

A heading ``{#id}`` written by the author always wins over the derived slug.
"""

from __future__ import annotations

import re

from contractc.model.names import ascii_folded

_EXPLICIT = re.compile(r"\s*\{:?\s*#([A-Za-z_][\w.:-]*)\s*\}\s*$")
_NOT_WORD = re.compile(r"[^\w\s-]")
_SPACES = re.compile(r"[-\s]+")


def slugify(title: str) -> str:
    """``Return shapes — the skill↔agent contract`` -> ``return-shapes-the-skillagent-contract``."""
    return _SPACES.sub("-", _NOT_WORD.sub("", ascii_folded(title)).strip().lower())


def split_explicit(raw: str) -> tuple[str, str | None]:
    """Split ``Title {#id}`` into ``("Title", "id")``; ``(raw, None)`` when there is no id."""
    m = _EXPLICIT.search(raw)
    if not m:
        return raw, None
    return raw[: m.start()], m.group(1)
