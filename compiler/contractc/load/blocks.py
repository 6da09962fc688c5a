"""A CommonMark reading of a text: its blocks at once, a block's inline tokens only when asked.

The loader parses each contract once (:attr:`contractc.model.records.Contract.blocks` keeps
what it parsed) and reads the inline tokens of a few blocks only (the headings, a paragraph
that defines a form); the site reads the same tokens, and the inline tokens of the blocks
that could hold what it rewrites (a code span with an edge space, a raw HTML tag).  Parsing
every paragraph's inlines was most of the time spent in markdown-it-py.  What they read is
what the full parser would give, but for the joining of adjacent text tokens: an escaped or
entity character stays a ``text_special`` token.
"""

from __future__ import annotations

from functools import cache


@cache
def commonmark():
    """The one block parser (CommonMark, tables on) of a process, shared by the loader and the site: making
    one compiles its rule chains, which costs more than parsing a contract.

    Its core chain stops after the blocks (see :func:`parse_blocks`); its inline parser is
    run on a block's content by :func:`inline_children`.
    """
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").disable("inline")


def parse_blocks(text: str) -> tuple[list, dict]:
    """The block tokens of ``text`` and the parse's ``env`` (its link reference definitions).

    Each ``inline`` token comes without its inline tokens: :func:`inline_children` parses them.
    """
    env: dict = {}
    return commonmark().parse(text, env), env


def inline_children(token, env: dict) -> list:
    """The inline tokens of the block parser's ``inline`` ``token`` (``env`` from the same :func:`parse_blocks`),
    kept as its children: the same tokens the full parser makes for that block (it runs this very
    parse on every block, with the same ``env``), but for the joining of adjacent text tokens."""
    md = commonmark()
    token.children = []
    md.inline.parse(token.content, md, env, token.children)
    return token.children
