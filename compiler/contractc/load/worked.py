"""Worked examples: the one rule that tells a filled-in example of a shape from a copy of the shape.

``scan`` (scan/blocks.py) and ``check``'s restatement finder
(drift/restatements.py) both call :func:`example_reason`, so the two commands
agree on what an example is.  The rule (docs/adopt.md, "Worked examples"): a
shape is written in the notation, so a block none of whose values is notation
(a type word, an ``a | b`` enum, a ``<placeholder>``, ``...``, ``YYYY-MM-DD``,
``null``) is an example; so is a block the sentence above it (or its info
string) calls an example, unless at least half of its values are notation.
"""

import re
from typing import Any, NamedTuple

# Kept as source and compiled on first use, through re's cache (``re.search(EXAMPLE_WORDS, text)``): only a
# target with a fenced block outside its regions asks, and every run pays for this module's import.
EXAMPLE_WORDS = r"(?i)\b(examples?|e\.g\.|for instance|sample|filled[- ]in|worked)\b"
SHELL_PLACEHOLDER = r"\$\{?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b"
"""A shell-style placeholder, ``$FEATURE_NAME`` or ``${SCOPE}`` (capitals only: ``$x`` is a value)."""
# What counts as notation in a value (docs/notation.md); anything else is a concrete value.
_NOTATION = rf"(?i)^(string|integer|number|boolean|null|text|YYYY-MM-DD.*)$|<[^<>]+>|\.\.\.|…|^\{{.*\}}$|^\[.*\]$|(?-i:{SHELL_PLACEHOLDER})"
# An enum is alternatives of plain words (`a | b`, `"low" | "high"`); `a || b` and a regex's `^(a|b)$` are not.
_ENUM_PART = r"^\s*[\w\"'`.:/ -]+\s*$"
_NEUTRAL = r"(?i)^([-+]?\d+(\.\d+)?|true|false)$"


class Scalar(NamedTuple):
    """A JSON leaf or a label's value, shaped like a YAML scalar node for :func:`example_reason`."""

    value: Any


def is_notation(text: str) -> bool:
    text = text.strip()
    if re.search(_NOTATION, text):
        return True
    parts = text.split("#", 1)[0].split("|")
    return len(parts) > 1 and "||" not in text and all(re.match(_ENUM_PART, p) for p in parts)


def example_reason(values: list[Any], before: str, info_example: bool) -> str:
    """Why a block is a worked example rather than a shape's copy; empty when it is a copy.

    ``values`` are the block's top-level values (YAML nodes or :class:`Scalar`);
    ``before`` is the nearest non-blank line above the opening fence.
    """
    leaves = [leaf for v in values for leaf in _scalars(v)]
    # Numbers and booleans are neutral: a shape writes `start: 1` as readily as an example does.
    strings = [str(leaf) for leaf in leaves if leaf is None or (isinstance(leaf, str) and not re.match(_NEUTRAL, leaf))]
    notation = sum(1 for s in strings if s == "None" or is_notation(s))
    labelled = info_example or bool(re.search(EXAMPLE_WORDS, before))
    if strings and notation == 0:
        return "none of its values is notation (types, enums, <placeholders>)"
    if labelled and strings and notation * 2 < len(strings):
        return f"the text above calls it an example ({before[:60]!r}) and most of its values are concrete"
    return ""


def yaml_example_reason(content: str, before: str, info_example: bool) -> str:
    """:func:`example_reason` of a YAML block's text; empty when it is not a plain YAML mapping."""
    from ruamel.yaml.nodes import MappingNode

    from contractc.load.yaml_safe import compose_yaml

    if len(content) > 1 << 20:
        return ""
    node = compose_yaml(content, any_tag=True, aliases=False)  # bounded depth, no alias
    if not isinstance(node, MappingNode) or not node.value:
        return ""
    return example_reason([v for _, v in node.value], before, info_example)


def _scalars(node: Any) -> list[Any]:
    if isinstance(node, Scalar):
        return [node.value]
    kind = getattr(node, "id", None)  # a YAML node's kind, as ruamel.yaml and PyYAML both name it
    if kind == "scalar":
        if node.style in ("|", ">"):
            return []  # a block of prose says nothing about notation
        if node.value == "" and not node.style:
            return []  # an empty key (`owner:`) is a value not written yet, not a null
        return [node.value]
    if kind == "mapping":
        return [s for _, v in node.value for s in _scalars(v)]
    if kind == "sequence":
        return [s for v in node.value for s in _scalars(v)]
    return []
