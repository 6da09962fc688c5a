"""The context budget: how much of an agent's context each dispatch snippet takes, and the limits on it.

A snippet's size is its exact bytes and an estimate of its tokens.  The
estimate is ``ceil(UTF-8 bytes / 4)``: the rule of thumb the model vendors
publish for English text (about four characters a token).  It needs no
tokenizer, is the same on every machine, and errs high for plain prose; text
dense in code, numbers or non-Latin scripts may take more real tokens.  A
budget is a ceiling on that estimate, per agent (every snippet dispatched to
it) or per snippet (by shape id), set under ``budgets:`` in contractc.yaml;
``check`` reports each snippet over its ceiling as ``over-budget`` (exit 1,
:mod:`contractc.drift.budgets`).
"""

from typing import NamedTuple

from contractc.model.records import Contract

BYTES_PER_TOKEN = 4


def estimate_tokens(data: bytes) -> int:
    """Estimated tokens of ``data``: ``ceil(len / 4)`` (see the module docstring)."""
    return -(-len(data) // BYTES_PER_TOKEN)


class Size(NamedTuple):
    bytes: int
    tokens: int
    """Estimated (:func:`estimate_tokens`)."""


def snippet_size(data: bytes) -> Size:
    return Size(len(data), estimate_tokens(data))


def section_sizes(contract: Contract) -> dict[str, int]:
    """Anchor -> bytes of each section as a snippet carries it (heading to the next heading of its level)."""
    return {s.anchor: s.span.end - s.span.start for s in contract.sections}
