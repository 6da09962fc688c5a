"""The contract and the ``contractc.yaml`` that ``adopt`` writes, from the shapes ``scan`` found.

The contract has one section per stage (``## Review stage {#review-stage}``);
a stage's data shapes come first, as fenced YAML blocks holding the owning
copies byte for byte, so the stage section is their innermost section and a
key used in several stages gets the id scan gave it (``review-stage.task_brief``).
Each template and JSON envelope follows in a subsection of its own, as a text
shape: ``Produced by`` the agent that returns it, its owning copy as the template,
then the ``Receiver checks:`` list its copies carry, if any (:mod:`contractc.adopt.checks`).
Shapes outside any stage go in a ``Shapes`` section.
"""

from __future__ import annotations

import glob
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from contractc.scan.blocks import Unit
from contractc.scan.shapes import Group

_NO_STAGE = "shapes"


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a group's block sits in the written contract."""

    group: Group
    offset: int
    """Byte offset of the block's opening fence in the contract."""


def render_contract(
    title: str, groups: Iterable[Group], dispatchers: frozenset[str], checks: Mapping[str, str] | None = None
) -> tuple[bytes, list[Placed]]:
    """The contract's bytes and where each group's block went; ``checks`` holds, by group id, the
    ``Receiver checks:`` list a template's copies carry, written after its template."""
    checks = checks or {}
    by_stage: dict[str, list[Group]] = {}
    keys: set[tuple[str, str]] = set()
    for group in groups:
        section = _section_of(group)
        if group.kind == "yaml" and (section, group.key) in keys:
            section = _slug(group.id)  # two shapes with one key in one section: each gets its own
        keys.add((section, group.key))
        by_stage.setdefault(section, []).append(group)
    out: list[str] = [
        f"# {title}\n\n",
        "Adopted by `contractc adopt` from the copies pasted in this plugin's agent, skill and command files:\n"
        "each block is the owning copy, byte for byte. Edit the shapes here, then run `contractc build`.\n",
    ]
    placed: list[Placed] = []

    def at() -> int:
        return len("".join(out).encode())

    for anchor in sorted(by_stage, key=lambda a: (a == _NO_STAGE, a)):
        members = by_stage[anchor]
        out.append(f"\n## {_title(anchor)} {{#{anchor}}}\n")
        for group in (g for g in members if g.kind == "yaml"):
            out.append("\n")
            placed.append(Placed(group, at()))
            out.append(f"```yaml\n{_ends(group.owner.text)}```\n")
        for group in (g for g in members if g.kind != "yaml"):
            producer, consumers = _agents(group, dispatchers)
            out.append(f"\n### {group.id} {{#{group.id}}}\n\n")
            out.append(f"Produced by `{producer}`; consumed by {', '.join(f'`{c}`' for c in consumers)}.\n\n")
            placed.append(Placed(group, at()))
            out.append(fenced(group.owner))
            if group.id in checks:
                out.append(f"\n{checks[group.id]}")
    return "".join(out).encode(), placed


def fenced(unit: Unit) -> str:
    """A template's or JSON block's owning copy with its own fence lines, at column 1."""
    info = unit.block.info
    return f"{unit.block.fence}{info}\n{_ends(unit.text)}{unit.block.fence}\n"


def render_config(
    contract: str,
    targets: list[str],
    allowed: list[tuple[str, str, int, str, str]],
    out: dict[str, str] | None = None,
    recorded: Mapping[str, list[str]] | None = None,
) -> bytes:
    """``contractc.yaml``: the contract, the files holding its copies, the blocks left on purpose, the output
    folders, and the options adopt was given (``scan:``, ``recorded``), so the next run reads the same files."""
    lines = [
        "# Written by `contractc adopt`; every key: `contractc explain config-invalid`.",
        "contracts:",
        f"  - path: {json.dumps(contract)}",
        "targets:",
        *(f"  - {json.dumps(t, ensure_ascii=False)}" for t in targets),  # globs, escaped by the caller
    ]
    from contractc.load.config import DEFAULT_OUT

    if out and out != DEFAULT_OUT:
        lines.append("out:  # folders contractc owns: it removes files there that no contract produces")
        lines += [f"  {kind}: {json.dumps(folder)}" for kind, folder in sorted(out.items())]
    given = {k: v for k, v in (recorded or {}).items() if v}
    if given:
        lines.append("scan:  # the options adopt was given: scan and adopt read them again")
        for key, values in given.items():
            lines.append(f"  {key}: [{', '.join(json.dumps(v, ensure_ascii=False) for v in values)}]")
    if allowed:
        lines.append("allow_restatements:")
        for path, shape, line, why, digest in allowed:
            where = json.dumps(glob.escape(path), ensure_ascii=False)  # a glob: `[old] x.md` must match itself
            # named by its bytes, not its line: prose added around the copy never unpins it (docs/adopt.md)
            lines.append(f"  - {{ path: {where}, shape: {json.dumps(shape)}, sha256: {digest} }}  # line {line} when adopted: {why}")
    return ("\n".join(lines) + "\n").encode()


def _section_of(group: Group) -> str:
    if group.stage:
        return group.stage
    if group.kind == "yaml" and group.id != group.key:  # `key-2`: a key whose shapes have no stage to tell them apart
        return _slug(group.id)
    return _NO_STAGE


def _slug(text: str) -> str:
    from contractc.load.slug import slugify

    return slugify(text.replace(".", "-").replace("_", "-")) or "shape"


def _title(anchor: str) -> str:
    words = anchor.replace("_", " ").replace("-", " ").split()
    return " ".join(words).capitalize() if words else anchor


def _ends(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def agent_name(path: str) -> str:
    """``skills/review/SKILL.md`` -> ``review``; ``agents/fact-checker.md`` -> ``fact-checker``."""
    parts = path.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    return parts[-2] if stem.upper() == "SKILL" and len(parts) > 1 else stem


def _agents(group: Group, dispatchers: frozenset[str]) -> tuple[str, list[str]]:
    """Who produces a returned shape (a specialist holding a copy) and who consumes it (every other holder)."""
    names = list(dict.fromkeys(agent_name(u.block.path) for u in group.copies))
    specialists = [agent_name(u.block.path) for u in group.copies if u.block.path not in dispatchers]
    producer = specialists[0] if specialists else agent_name(group.owner.block.path)
    consumers = [n for n in names if n != producer] or [producer]
    return producer, consumers
