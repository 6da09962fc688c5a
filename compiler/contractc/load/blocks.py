"""A CommonMark reading of a text: its blocks at once, a block's inline tokens only when asked.

The loader reads the inline tokens of a few blocks only (the headings, a paragraph that
defines a form), and the site those that could hold what it rewrites (a code span with an
edge space, a raw HTML tag); parsing every paragraph's inlines was most of the time spent
in markdown-it-py.  What they read is what the full parser would give, but for the joining
of adjacent text tokens: an escaped or entity character stays a ``text_special`` token.
"""

from __future__ import annotations

from functools import cache, lru_cache


@cache
def commonmark():
    """The one block parser (CommonMark, tables on) of a process, shared by the loader and the site: making
    one compiles its rule chains, which costs more than parsing a contract.

    Its core chain stops after the blocks (see :func:`parse_blocks`); its inline parser is
    run on a block's content by :func:`inline_children`.
    """
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").disable("inline")


@lru_cache(maxsize=512)
def parse_blocks(text: str) -> tuple[list, dict]:
    """The block tokens of ``text`` and the parse's ``env`` (its link reference definitions).

    Each ``inline`` token comes without its inline tokens: :func:`inline_children` parses them.
    Memoised, for the few texts read more than once in a run (the site reads each contract
    the loader read): callers only read the tokens, and fill a block's inline tokens, which
    are the same whoever asks.  Room for every contract of a large project: the site asks for
    them in the order the loader parsed them, so with fewer places than contracts each one
    would be gone by the time it is asked for again, and every contract parsed twice.
    """
    env: dict = {}
    return commonmark().parse(text, env), env


def inline_children(token, env: dict) -> list:
    """The inline tokens of the block parser's ``inline`` ``token`` (``env`` from the same :func:`parse_blocks`).

    The same tokens the full parser makes for that block (it runs this very parse on
    every block, with the same ``env``), but for the joining of adjacent text tokens.
    Callers read them and never change them: a text without link reference definitions
    shares the tokens of each block content it repeats.
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
