"""Forms a contract defines once (``**Citation form.**``) and the patterns that find them in a return.

A form is defined by a paragraph that opens with ``**<Name> form.**``: its
template is the first code span in that paragraph holding a ``<placeholder>``,
or else the first fenced block after it in the same section.  Tokens come from
the contract's one markdown-it-py parse (no second parse, no fence scanner).
"""

from __future__ import annotations

import re
from functools import lru_cache

from contractc.model.checks.rules import Form

_FORM_LEAD = re.compile(r"^\*\*(?P<name>[^*\n]+?) form\.?\*\*")
_PLACEHOLDER = re.compile(r"<([^<>\n]+)>")
_WILDCARD = r"[^\s`<>()\[\]]+?"
"""What a placeholder matches: one run of text without whitespace, brackets, parentheses or backticks."""


def find_forms(tokens) -> dict[str, Form]:
    """Form name (lower case) -> its definition; the first definition of a name wins."""
    forms: dict[str, Form] = {}
    for i, tok in enumerate(tokens):
        if tok.type != "inline" or tok.map is None:
            continue
        lead = _FORM_LEAD.match(tok.content)
        if not lead or lead.group("name").lower() in forms:
            continue
        name = lead.group("name").lower()
        spans = [c.content for c in tok.children or () if c.type == "code_inline" and _PLACEHOLDER.search(c.content)]
        if spans:
            forms[name] = Form(name, spans[0], tok.map[0] + 1)
            continue
        for later in tokens[i + 1 :]:
            if later.type == "heading_open":
                break
            if later.type == "fence" and later.map is not None:
                forms[name] = Form(name, later.content.rstrip("\n"), later.map[0] + 2)
                break
    return forms


@lru_cache(maxsize=64)
def form_pattern(template: str) -> re.Pattern[str]:
    """The template with each ``<placeholder>`` a wildcard; a placeholder used twice matches the same text."""
    parts, groups, pos = [], {}, 0
    for m in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[pos : m.start()]))
        name = m.group(1)
        if name in groups:
            parts.append(f"(?P={groups[name]})")
        else:
            groups[name] = f"p{len(groups)}"
            parts.append(f"(?P<{groups[name]}>{_WILDCARD})")
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts))
