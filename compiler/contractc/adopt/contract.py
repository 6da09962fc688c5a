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
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

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
    title: str,
    groups: Iterable[Group],
    dispatchers: frozenset[str],
    checks: Mapping[str, str] | None = None,
    data: Mapping[str, bytes] | None = None,
    base: bytes = b"",
    taken: Taken | None = None,
    templated: frozenset[str] = frozenset(),
) -> tuple[bytes, list[Placed], list[str]]:
    """The contract's bytes, where each group's block went, and the titles and anchors renamed (``taken``);
    ``checks`` holds, by group id, the ``Receiver checks:`` list a template's copies carry, written after its
    template; ``data`` the plugin's files by path, whose own headings title the sections and whose mentions
    tell who dispatches a shape.

    With ``base`` (a contract the project has), the sections are appended to it, every byte of it kept; a
    section title, anchor or shape id ``taken`` already is never reused: it gets the first free suffix
    (``Review stage (2)`` ``{#review-stage-2}``), and the renaming is returned for the plan to say.

    A YAML group is a data shape, but those ``templated`` names (by id), which are text shapes whose template
    is their owning copy's fence."""
    checks = checks or {}
    files = data or {}
    taken = taken or Taken()
    renamed: list[str] = []
    groups = list(groups)

    def is_data(group: Group) -> bool:
        return group.kind == "yaml" and group.id not in templated

    by_stage: dict[str, list[Group]] = {}
    keys: set[tuple[str, str]] = set()
    for group in groups:
        section = _section_of(group, is_data(group))
        if is_data(group) and (section, group.key) in keys:
            section = _slug(group.id)  # two shapes with one key in one section: each gets its own
        keys.add((section, group.key))
        by_stage.setdefault(section, []).append(group)
    head = base.decode("utf-8") + ("\n" if base and not base.endswith(b"\n") else "")
    out: list[str] = [head] if base else [
        f"# {title}\n\n",
        "Adopted by `contractc adopt` from the copies pasted in this plugin's agent, skill and command files:\n"
        "each block is the owning copy, byte for byte. Edit the shapes here, then run `contractc build`.\n",
    ]
    placed: list[Placed] = []

    def at() -> int:
        return len("".join(out).encode())

    def free(anchor: str, title: str) -> tuple[str, str]:
        """``anchor`` and ``title``, or both with the first suffix neither has been given yet."""
        n = 1
        while True:
            a, t = (anchor, title) if n == 1 else (f"{anchor}-{n}", f"{title} ({n})")
            if a not in taken.anchors and t.casefold() not in taken.titles:
                break
            n += 1
        if n > 1:
            renamed.append(f"{title} {{#{anchor}}} -> {t} {{#{a}}}")
        taken.anchors.add(a)
        taken.titles.add(t.casefold())
        return a, t

    titles = {anchor: _stage_title(anchor, by_stage[anchor], files) for anchor in by_stage}
    sends = dispatched_to(groups, dispatchers)
    shape_titles = _shape_titles([g for g in groups if not is_data(g)], files)
    for anchor in sorted(by_stage, key=lambda a: (a == _NO_STAGE, natural_key(titles[a]), a)):
        members = by_stage[anchor]
        section, section_title = free(anchor, titles[anchor])
        # appended right after the last byte: a blank line first would change the bytes of the section before,
        # unless that section ends in an HTML block, which only a blank line closes (the heading would join it)
        out.append(f"{'' if base and len(out) == 1 and not _ends_in_html(head) else chr(10)}## {section_title} {{#{section}}}\n")
        for group in (g for g in members if is_data(g)):
            out.append("\n")
            placed.append(Placed(group, at()))
            out.append(f"```yaml\n{ends(group.owner.text)}```\n")
        for group in (g for g in members if not is_data(g)):
            producer, consumers, unsure = infer_direction(group, dispatchers, files, sends)
            shape, shape_title = free(group.id, shape_titles[group.id])
            out.append(f"\n### {shape_title} {{#{shape}}}\n\n")
            out.append(f"Produced by `{producer}`; consumed by {', '.join(f'`{c}`' for c in consumers)}.\n\n")
            if unsure:
                out.append(f"> **Check the line above:** `contractc adopt` was unsure of it: {unsure}.\n\n")
            placed.append(Placed(group, at()))
            out.append(fenced(group.owner))
            if group.id in checks:
                out.append(f"\n{checks[group.id]}")
    return "".join(out).encode(), placed, renamed


@dataclass(slots=True)
class Taken:
    """What a contract of the project already uses: section anchors and shape ids, and titles (casefolded)."""

    anchors: set[str] = field(default_factory=set)
    titles: set[str] = field(default_factory=set)


def fenced(unit: Unit) -> str:
    """A template's or JSON block's owning copy with its own fence lines, at column 1."""
    info = unit.block.info
    return f"{unit.block.fence}{info}\n{ends(unit.text)}{unit.block.fence}\n"


def render_config(
    contract: str,
    targets: list[str],
    allowed: list[tuple[str, str, int, str, str]],
    out: dict[str, str] | None = None,
    recorded: Mapping[str, list[str]] | None = None,
    unresolved: list[tuple[str, int, str, str]] | None = None,
) -> bytes:
    """``contractc.yaml``: the contract, the output folders, the files holding its copies, the blocks left on
    purpose, the options adopt was given (``scan:``, ``recorded``), so the next run reads the same files, and
    the divergent copies it left as they are (``unresolved``), so check reports them."""
    from contractc.load.config import DEFAULT_OUT

    lines = ["# Written by `contractc adopt`; every key: `contractc explain config-invalid`.", "contracts:", f"  - path: {json.dumps(contract)}"]
    if out and out != DEFAULT_OUT:
        lines.append("out:  # folders contractc owns: it removes files there that no contract produces")
        lines += [f"  {kind}: {json.dumps(folder)}" for kind, folder in sorted(out.items())]
    return merge_config(("\n".join(lines) + "\n").encode(), [], targets, allowed, recorded or {}, unresolved or [])


def merge_config(
    old: bytes,
    contracts: list[str],
    targets: list[str],
    allowed: list[tuple[str, str, int, str, str]],
    recorded: Mapping[str, list[str]],
    unresolved: list[tuple[str, int, str, str]] = (),
    settled: frozenset[tuple[str, int]] = frozenset(),
) -> bytes:
    """``old`` (an adopted plugin's ``contractc.yaml``) with the new contract entries, targets, allowed blocks,
    recorded options and unresolved copies added as new lines; every line of ``old`` is kept byte for byte (a one-line flow list,
    ``targets: [a]``, gets the items before its ``]``), but the lines of each ``unresolved`` entry whose copy,
    at (path, line) in ``settled``, adopt now puts in a region. What cannot be merged so is a located refusal."""
    from contractc.load.config import CONFIG_NAME
    from contractc.load.yaml_safe import load_yaml, plain
    from contractc.report.diagnostics import ContractcError, Diagnostic

    text = old.decode("utf-8")
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += nl
    doc = load_yaml(text, CONFIG_NAME, "config-syntax")
    doc = doc if isinstance(doc, dict) else {}
    before = plain(doc) if doc else {}
    edits: list[tuple[int, int, list[str]]] = []  # (line index, lines replaced, new lines)

    def refuse(key: str, line: int) -> ContractcError:
        return ContractcError(
            Diagnostic(
                CONFIG_NAME, line, 1, "adopt-configured",
                f"{key}: written in a form adopt cannot add to without rewriting your lines",
                f"write {key} as a block list (one `- item` per line), then run adopt again",
            )
        )  # fmt: skip

    def end_of(mapping: dict, key: str, limit: int) -> int:
        """The line index past ``key``'s value: before the next key, blank lines and comments above it left out."""
        later = [mapping.lc.key(k)[0] for k in mapping if mapping.lc.key(k)[0] > mapping.lc.key(key)[0]]
        end = min(later, default=limit)
        col = mapping.lc.key(key)[1]
        while end - 1 > mapping.lc.key(key)[0] and (
            not lines[end - 1].strip() or (lines[end - 1].lstrip().startswith("#") and len(lines[end - 1]) - len(lines[end - 1].lstrip()) <= col)
        ):
            end -= 1
        return end

    def add(mapping: dict, key: str, block: list[str], flow: list[str], indent: str, limit: int) -> None:
        if not block:
            return
        if key not in mapping:
            at = end_of(mapping, next(reversed(list(mapping))), limit) if mapping else limit
            edits.append((at, 0, [f"{indent}{key}:{nl}", *(f"{indent}  - {item}{nl}" for item in block)]))
            return
        value, (line, _) = mapping[key], mapping.lc.key(key)
        if value is None:
            edits.append((line + 1, 0, [f"{indent}  - {item}{nl}" for item in block]))
        elif isinstance(value, list) and (not value or value.fa.flow_style()):  # `[]` is always flow
            close = lines[line].rfind("]")
            if close < 0 or "[" not in lines[line]:
                raise refuse(key, line + 1)
            lead = "" if not value else ", "
            edits.append((line, 1, [lines[line][:close] + lead + ", ".join(flow) + lines[line][close:]]))
        elif isinstance(value, list):
            first = lines[value.lc.item(0)[0]]
            dash = first[: len(first) - len(first.lstrip())]
            edits.append((end_of(mapping, key, limit), 0, [f"{dash}- {item}{nl}" for item in block]))
        else:
            raise refuse(key, line + 1)

    add(doc, "contracts", [f"path: {json.dumps(c)}" for c in contracts], [f"{{path: {json.dumps(c)}}}" for c in contracts], "", len(lines))
    targets = [t for t in targets if t not in (before.get("targets") or [])]
    quoted = [json.dumps(t, ensure_ascii=False) for t in targets]
    add(doc, "targets", quoted, quoted, "", len(lines))
    entries = [(_allowed_entry(*a), f"  # line {a[2]} when adopted: {a[3]}") for a in allowed]
    add(doc, "allow_restatements", [e + c for e, c in entries], [e for e, _ in entries], "", len(lines))
    # divergent copies adopt left as they are: check reports each until the copies agree and its entry is deleted
    known = before.get("unresolved") or []
    gone = [i for i, e in enumerate(known) if isinstance(e, dict) and (e.get("path"), e.get("line")) in settled]
    kept = [e for i, e in enumerate(known) if i not in gone]
    at = {(e.get("path"), e.get("line")) for e in kept if isinstance(e, dict)}  # a copy recorded once, whatever its why says now
    read = ((e, plain(load_yaml(e, CONFIG_NAME, "config-syntax"))) for e in (_unresolved_entry(*u) for u in unresolved))
    left = [(e, value) for e, value in read if (value["path"], value["line"]) not in at]
    if gone:
        listed = doc["unresolved"]
        if listed.fa.flow_style():
            raise refuse("unresolved", doc.lc.key("unresolved")[0] + 1)
        end = end_of(doc, "unresolved", len(lines))
        key = doc.lc.key("unresolved")[0]
        if len(gone) == len(known) and not left:  # the last entries: the key goes with them
            edits.append((key, end - key, []))
        for i in gone if len(gone) < len(known) or left else ():  # an item's lines: its dash line up to the next item's
            first = listed.lc.item(i)[0]
            edits.append((first, (listed.lc.item(i + 1)[0] if i + 1 < len(known) else end) - first, []))
    add(doc, "unresolved", [e for e, _ in left], [e for e, _ in left], "", len(lines))
    scan = doc.get("scan") if isinstance(doc.get("scan"), dict) else None
    given = {k: [v for v in values if v not in ((before.get("scan") or {}).get(k) or [])] for k, values in recorded.items()}
    given = {k: v for k, v in given.items() if v}
    if given and scan is None:
        if "scan" in doc:
            raise refuse("scan", doc.lc.key("scan")[0] + 1)
        edits.append((len(lines), 0, ["scan:  # the options adopt was given: scan and adopt read them again" + nl]
                      + [f"  {k}: [{', '.join(json.dumps(v, ensure_ascii=False) for v in vs)}]{nl}" for k, vs in given.items()]))  # fmt: skip
    elif given:
        sub = next(iter(scan))
        indent = lines[scan.lc.key(sub)[0]][: scan.lc.key(sub)[1]]
        limit = end_of(doc, "scan", len(lines))
        for k, vs in given.items():
            quoted = [json.dumps(v, ensure_ascii=False) for v in vs]
            add(scan, k, quoted, quoted, indent, limit)
    for _, (at, count, new) in sorted(enumerate(edits), key=lambda e: (e[1][0], e[0]), reverse=True):
        lines[at : at + count] = new  # from the end, so each index holds; two at one place keep their order
    merged = "".join(lines)
    expected = dict(before)
    for key, items in (("contracts", [{"path": c} for c in contracts]), ("targets", targets)):
        if items:
            expected[key] = [*(expected.get(key) or []), *items]
    if allowed:
        expected["allow_restatements"] = [*(expected.get("allow_restatements") or []), *(plain(load_yaml(e, CONFIG_NAME, "config-syntax")) for e, _ in entries)]
    if left or gone:
        expected["unresolved"] = [*kept, *(value for _, value in left)]
    if not expected.get("unresolved", True):
        del expected["unresolved"]
    if given:
        expected["scan"] = {**(expected.get("scan") or {})}
        for k, vs in given.items():
            expected["scan"][k] = [*(expected["scan"].get(k) or []), *vs]
    if plain(load_yaml(merged, CONFIG_NAME, "config-syntax")) != expected:  # a layout the line edits misread
        raise refuse("contractc.yaml", 1)
    return merged.encode("utf-8")


def _unresolved_entry(path: str, line: int, shape: str, why: str) -> str:
    """One ``unresolved`` entry, a divergent copy adopt left as it is, as a flow mapping."""
    return f"{{ path: {json.dumps(path, ensure_ascii=False)}, line: {line}, shape: {json.dumps(shape)}, why: {json.dumps(why, ensure_ascii=False)} }}"


def _allowed_entry(path: str, shape: str, line: int, why: str, digest: str) -> str:
    """One ``allow_restatements`` entry, by the block's bytes (prose may move it), as a flow mapping."""
    where = json.dumps(glob.escape(path), ensure_ascii=False)  # a glob: `[old] x.md` must match itself
    return f"{{ path: {where}, shape: {json.dumps(shape)}, sha256: {digest} }}"


def _section_of(group: Group, data: bool) -> str:
    """The section a group's shape goes under; ``data``: it is a data shape (by its key, unless its stage says)."""
    if group.stage:
        return group.stage
    if data and group.id != group.key:  # `key-2`: a key whose shapes have no stage to tell them apart
        return _slug(group.id)
    return _NO_STAGE


def _slug(text: str) -> str:
    from contractc.load.slug import slugify

    return slugify(text.replace(".", "-").replace("_", "-")) or "shape"


def _title(anchor: str) -> str:
    words = anchor.replace("_", " ").replace("-", " ").split()
    return " ".join(words).capitalize() if words else anchor


def ends(text: str) -> str:
    """``text`` ending in a newline, as a fenced block's body is written."""
    return text if text.endswith("\n") else text + "\n"


def agent_name(path: str) -> str:
    """``skills/review/SKILL.md`` -> ``review``; ``agents/fact-checker.md`` -> ``fact-checker``."""
    parts = path.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    return parts[-2] if stem.upper() == "SKILL" and len(parts) > 1 else stem


UNKNOWN_CONSUMER = "unknown-consumer"
"""The consumer written when no file that dispatches a shape was found (the contract then says so)."""


def dispatched_to(groups: Iterable[Group], dispatchers: frozenset[str]) -> dict[str, set[str]]:
    """File -> the dispatching files that hold a copy of a shape it holds too: who sends it work."""
    sends: dict[str, set[str]] = {}
    for group in groups:
        holders = {u.block.path for u in group.copies}
        for path in holders - dispatchers:
            sends.setdefault(path, set()).update(holders & dispatchers)
    return sends


def infer_direction(
    group: Group, dispatchers: frozenset[str], data: Mapping[str, bytes], sends: Mapping[str, set[str]] | None = None
) -> tuple[str, list[str], str]:
    """(producer, consumers, why unsure or "") of a returned shape.

    A copy in a file that does not dispatch (a specialist agent) is a copy of what that agent returns: it
    produces the shape.  A copy in a file that dispatches (a skill, a command, an orchestrator) is what
    the dispatcher expects back: it consumes it; so does a dispatching file that sends the producer work
    (``sends``: it holds another shape the producer holds, such as the brief) or names the producer.  The
    producer is never one of its consumers.  When several specialists hold a copy, or only dispatchers
    do, or no dispatcher is found, the guess is said, so the contract tells the maintainer to check it.
    """
    def names(paths) -> list[str]:
        return list(dict.fromkeys(agent_name(p) for p in paths))

    holders = [u.block.path for u in group.copies]
    returners = [p for p in holders if p not in dispatchers]
    senders = [p for p in holders if p in dispatchers]
    doubts = []
    if returners:
        first = group.owner.block.path if group.owner.block.path in returners else returners[0]
        producer = agent_name(first)
        also = [n for n in names(returners) if n != producer]
        if also:
            holds = "holds" if len(also) == 1 else "hold"
            doubts.append(f"{_listed(also)} also {holds} a copy and may return it too (the owning copy's file is named)")
    else:
        producer = agent_name(group.owner.block.path)
        doubts.append("every copy is in a file that dispatches, so which agent returns it is a guess")
    consumers = [n for n in names(senders) if n != producer]
    if not consumers and returners:
        consumers = [n for n in names(sorted((sends or {}).get(first, ()))) if n != producer]
    if not consumers:
        mention = re.compile(rf"(?<![\w-]){re.escape(producer)}(?![\w-])".encode())
        consumers = [n for n in names(sorted(p for p in dispatchers if mention.search(data.get(p, b"")))) if n != producer]
        if consumers and not doubts:
            doubts.append(f"no dispatching file holds a copy; {_listed(consumers)} name {producer}")
    if not consumers:
        consumers = [UNKNOWN_CONSUMER]
        doubts.append(f"no file that dispatches {producer} was found: name its consumer")
    return producer, consumers, "; ".join(doubts)


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def headings(data: bytes) -> list[tuple[int, int, str]]:
    """(0-based line, level, title) of every ATX heading outside fenced blocks."""
    found, fence = [], ""
    for n, line in enumerate(data.decode("utf-8", "replace").splitlines()):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) and not line.strip().strip(fence[0]):
                fence = ""
            continue
        if opening:
            fence = opening.group(1)
            continue
        heading = _HEADING.match(line)
        if heading:
            found.append((n, len(heading.group(1)), heading.group(2)))
    return found


def clean_title(text: str) -> str:
    """A heading as a section title: no anchor, emphasis, code marks, links or trailing colon; blanks collapsed."""
    text = re.sub(r"\{#[^}]*\}", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # [words](link) -> words
    text = re.sub(r"[*_`]+", "", text)
    text = re.sub(r"^[^\w(]+", "", text)  # a leading emoji, bullet or dash
    return " ".join(text.split()).rstrip(" :.-—–").strip()


def natural_key(text: str) -> tuple:
    """Sort key ordering numbers by value: Stage 9 < Stage 9.5 < Stage 10."""
    return tuple((0, float(part), "") if re.fullmatch(r"\d+(?:\.\d+)?", part) else (1, 0.0, part.casefold()) for part in re.split(r"(\d+(?:\.\d+)?)", text) if part)


def _stage_title(anchor: str, groups: list[Group], data: Mapping[str, bytes]) -> str:
    """The plugin's own heading a stage section was named after (cleaned), else words of its anchor."""
    if anchor != _NO_STAGE:
        from contractc.load.slug import slugify

        for group in groups:
            for unit in group.copies:
                for _, _, title in headings(data.get(unit.block.path, b"")):
                    if slugify(title) == anchor and clean_title(title):
                        return clean_title(title)
    return _title(anchor)


def _shape_titles(groups: list[Group], data: Mapping[str, bytes]) -> dict[str, str]:
    """Each template's section title: the heading right above its owning copy in the plugin (cleaned), unless
    that is the file's title (level 1) or the stage heading its section already has; else its id in words.
    A title two templates would share gets the id after it (``Output format (verdict)``)."""
    from contractc.load.slug import slugify

    found = {}
    for group in groups:
        owner = group.owner
        above = [(level, t) for line, level, t in headings(data.get(owner.block.path, b"")) if line < owner.block.line - 1]
        title = clean_title(above[-1][1]) if above and above[-1][0] > 1 else ""
        if not title or slugify(title) == group.stage:
            title = _title(group.id)
        found[group.id] = title
    counts: dict[str, int] = {}
    for title in found.values():
        counts[title.casefold()] = counts.get(title.casefold(), 0) + 1
    return {ident: f"{title} ({ident})" if counts[title.casefold()] > 1 else title for ident, title in found.items()}


def _ends_in_html(text: str) -> bool:
    """Whether ``text`` ends inside an HTML block (``<details>`` ... with no blank line after it), which a heading
    on the next line would be read as part of."""
    from contractc.load.contract import markdown

    last = next((t for t in reversed(markdown().parse(text)) if t.map and t.level == 0), None)
    return last is not None and last.type == "html_block" and last.map[1] >= text.count("\n")
