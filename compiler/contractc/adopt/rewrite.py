"""Each adopted copy replaced by a managed region; every other byte of the file copied through.

A block is replaced as a whole (opening fence line to closing fence line) by
one region of its one key (a block holding several keys is one record, never cut
into fences: adopt leaves it as it is).  An instance is wrapped as it is in an instance
region (:func:`instance_replacement`): its block's bytes stay byte for byte.  The begin markers are written without a hash:
the regions emitter fills and stamps them, exactly as ``build`` would.

A block is replaced only when the units scan found in it hold every line of it
(:func:`stray_line`): a region never covers a line that is no copy's (a fenced
front matter above a template, another key's lines), whatever the labels say.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from contractc.load.targets import dedented, indented
from contractc.scan.blocks import Block, Unit


@dataclass(frozen=True, slots=True)
class Replacement:
    """One block of a file and what takes its place."""

    block: Block
    data: bytes
    units: tuple[Unit, ...]
    """The adopted copies the block held."""


def replace_blocks(data: bytes, replacements: Iterable[Replacement]) -> bytes:
    parts, done = [], 0
    for r in sorted(replacements, key=lambda r: r.block.start):
        parts += [data[done : r.block.start], r.data]
        done = r.block.end
    parts.append(data[done:])
    return b"".join(parts)


def block_replacement(block: Block, unit: Unit, ref: str, region: bytes) -> Replacement:
    """``block``, whose one key is ``unit``, replaced by a managed region of shape ``ref`` holding ``region``."""
    nl = block.newline or "\n"
    text = f"<!-- contractc:begin shape={ref} -->{nl}{region.decode()}<!-- contractc:end -->{nl}"
    text = indented(text.encode(), block.indent.encode()).decode()  # in a list item: the item's indent kept
    if not block.newline:  # the block ended the file without a line break: so does its replacement
        text = text[: -len(nl)]
    return Replacement(block, text.encode(), (unit,))


def instance_replacement(block: Block, ref: str, data: bytes) -> Replacement:
    """``block`` wrapped, byte for byte, in an instance region of shape ``ref``."""
    nl = block.newline or "\n"
    held = data[block.start : block.end]
    end = b"" if block.newline else nl.encode()  # a block that ended the file without a line break gets one before the end marker
    indent = block.indent  # in a list item: the markers take the fence's indent; the block's bytes stay as they are
    text = f"{indent}<!-- contractc:begin instance={ref} -->{nl}".encode() + held + end + f"{indent}<!-- contractc:end -->{nl}".encode()
    if not block.newline:
        text = text[: -len(nl)]
    return Replacement(block, text, ())


def stray_line(block: Block, units: Iterable[Unit], data: bytes) -> tuple[int, str] | None:
    """Why replacing ``block`` by regions of ``units`` (every unit scan found in it) would change what it
    says, at which 1-based file line; None when it would not.  adopt refuses to write such a region.

    Two ways: a line between the fence lines that is not blank and that no unit holds as it is written
    (the region would delete it); or units of two kinds, a front matter and the template of its body
    (the fence would be cut in two, its front matter put in a fence of its own)."""
    units = [u for u in units if not u.within]  # a nested part is no text of the block (its lines are its block's unit's)
    held_bytes = data[block.start : block.end]
    # a block in a list item: its units hold its lines less the item's indent
    lines = _lines((dedented(held_bytes, block.indent.encode()) or held_bytes).decode("utf-8", "replace"))
    body = lines[1 : len(lines) - (2 if lines[-1] == "" else 1)]
    held: dict[int, str] = {}
    for unit in units:
        held.update((unit.line + i, line) for i, line in enumerate(_lines(unit.text)))
    for i, line in enumerate(body):
        number = block.line + 1 + i
        if line.strip() and held.get(number) != line:
            return number, f"this line is no part of the copies it adopts ({line.strip()[:60]!r}): the region would delete it"
    if len({u.block.kind for u in units}) > 1:
        first = min(units, key=lambda u: u.line)
        return first.line, (
            f"the block holds a {first.block.kind} block and a {max(units, key=lambda u: u.line).block.kind} after it "
            "(a front matter and its body): a region of one would cut the fence in two"
        )
    return None


def _lines(text: str) -> list[str]:
    """``text``'s lines as the Markdown parser reads them: CRLF, CR and LF line breaks, NUL as U+FFFD."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd").split("\n")
