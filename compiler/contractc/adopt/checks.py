"""The receiver checks a template's copies carry, carried into the adopted contract.

A copy carries checks when a ``Receiver checks:`` paragraph and a numbered list
follow its block, before the next heading or fenced block (prose may come
between, as in the seed contracts).  The contract's text shape gets the first
copy's list (path and line order) verbatim; a copy whose list says something
else (rewrapping aside) is reported, as a divergent copy is, and so is a copy
that carries no list while others do (the contract's checks will apply to it too).
"""

from __future__ import annotations

from dataclasses import dataclass

from contractc.load.contract import CHECKS_INTRO
from contractc.scan.blocks import Unit
from contractc.scan.shapes import Group


@dataclass(frozen=True, slots=True)
class CheckList:
    """A copy's ``Receiver checks:`` paragraph and numbered list, as written."""

    unit: Unit
    line: int
    """1-based file line of the ``Receiver checks:`` paragraph."""
    text: str
    """From that line through the list's last item, each line with its line break."""

    def words(self) -> list[str]:
        return self.text.split()


@dataclass(frozen=True, slots=True)
class CarriedChecks:
    """The list the contract holds for one text shape, and the copies whose lists differ from it."""

    chosen: CheckList
    differing: tuple[CheckList, ...]
    missing: tuple[Unit, ...] = ()
    """Copies followed by no ``Receiver checks:`` list at all, in path and line order."""


def carried_checks(groups: list[Group], data: dict[str, bytes]) -> dict[str, CarriedChecks]:
    """Group id -> the checks its template carries into the contract (text shapes with a list only)."""
    found = {}
    for group in groups:
        if group.kind == "yaml":
            continue
        each = [(unit, check_list(unit, data[unit.block.path])) for unit in group.copies]
        lists = [c for _, c in each if c is not None]
        if lists:
            first = lists[0]
            differing = tuple(c for c in lists[1:] if c.words() != first.words())
            found[group.id] = CarriedChecks(first, differing, tuple(unit for unit, c in each if c is None))
    return found


def check_list(unit: Unit, data: bytes) -> CheckList | None:
    """The ``Receiver checks:`` list that follows ``unit``'s block, or None."""
    from markdown_it import MarkdownIt

    after = data[unit.block.end :].decode("utf-8", "replace")
    tokens = MarkdownIt("commonmark").parse(after)
    for i, tok in enumerate(tokens):
        if tok.level != 0:
            continue
        if tok.type in ("heading_open", "fence", "code_block", "hr"):
            return None
        if tok.type == "paragraph_open" and CHECKS_INTRO.match(tokens[i + 1].content.strip()):
            following = next((t for t in tokens[i + 3 :] if t.level == 0), None)
            if following is None or following.type != "ordered_list_open" or tok.map is None or following.map is None:
                return None
            lines = after.splitlines(keepends=True)
            end = following.map[1]
            while end > tok.map[0] and not lines[end - 1].strip():
                end -= 1
            text = "".join(line.rstrip("\r\n") + "\n" for line in lines[tok.map[0] : end])  # the contract's line breaks
            before = data[: unit.block.end].count(b"\n")
            return CheckList(unit, before + tok.map[0] + 1, text)
    return None
