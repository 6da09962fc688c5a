"""Each adopted copy replaced by a managed region; every other byte of the file copied through.

A block is replaced as a whole (opening fence line to closing fence line).  A
YAML block holding several keys becomes one region per adopted key; keys that
are not adopted stay in a fenced block of their own, with the block's fence
and info string, in their place.  An instance is wrapped as it is in an instance
region (:func:`instance_replacement`): its block's bytes stay byte for byte.  The begin markers are written without a hash:
the regions emitter fills and stamps them, exactly as ``build`` would.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from contractc.load.targets import indented
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


def block_replacement(block: Block, units: list[Unit], adopted: dict[int, tuple[str, bytes]]) -> Replacement:
    """What replaces ``block``: ``adopted`` maps ``id(unit)`` to (region reference, bytes the region holds)."""
    nl = block.newline or "\n"
    out: list[str] = []
    kept: list[str] = []

    def flush() -> None:
        if kept:
            out.append(f"{block.fence}{block.info}{nl}{''.join(kept)}{block.fence}{nl}")
            kept.clear()

    for unit in units:
        if id(unit) in adopted:
            flush()
            ref, region = adopted[id(unit)]
            out.append(f"<!-- contractc:begin shape={ref} -->{nl}{region.decode()}<!-- contractc:end -->{nl}")
        else:
            kept.append(unit.text if unit.text.endswith("\n") else unit.text + "\n")
    flush()
    text = indented("".join(out).encode(), block.indent.encode()).decode()  # in a list item: the item's indent kept
    if not block.newline:  # the block ended the file without a line break: so does its replacement
        text = text[: -len(nl)]
    return Replacement(block, text.encode(), tuple(u for u in units if id(u) in adopted))


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
