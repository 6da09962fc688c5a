"""The site's CommonMark reading of a text: its blocks at once, a block's inline tokens only when asked.

The site looks inside a few blocks only (those whose raw content could hold what it
rewrites: a code span with an edge space, a raw HTML tag), so it parses the inline
content of those alone; parsing every paragraph's inlines was most of the time the
site spent in markdown-it-py.  What it reads is what the full parser would give.
"""

from __future__ import annotations

from functools import cache, lru_cache


@cache
def commonmark():
    """The site's one CommonMark parser (tables on), shared by every page of a run: making one compiles its
    rule chains, which costs more than parsing a contract.

    Its core chain stops after the blocks (see :func:`parse_blocks`): the site reads the inline
    content of a few blocks only, and parsing every paragraph's inlines was most of its time.
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
    """The inline tokens of the block parser's ``inline`` ``token`` (``env`` from the same :func:`parse_blocks`).

    The same tokens the full parser makes for that block (it runs this very parse on
    every block, with the same ``env``), but for the joining of adjacent text tokens,
    which no caller reads.  Callers read them and never change them: a text without
    link reference definitions shares the tokens of each block content it repeats.
    """
    if env.get("references"):  # a reference link's meaning depends on the document's definitions
        md = commonmark()
        token.children = []
        md.inline.parse(token.content, md, env, token.children)
    else:
        token.children = list(_inline_alone(token.content))
    return token.children


@lru_cache(maxsize=4096)
def _inline_alone(content: str) -> tuple:
    """The inline tokens of ``content`` in a document without link reference definitions.

    Memoised: what the site reads is a function of the content then, and contracts
    repeat their lines (each shape's "Produced by ...; consumed by ..." and checks).
    """
    md = commonmark()
    children: list = []
    md.inline.parse(content, md, {}, children)
    return tuple(children)
