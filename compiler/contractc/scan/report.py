"""``scan``'s findings as a :class:`~contractc.report.format.Report`, so every ``--format`` prints them.

One diagnostic per finding, located at the copy:

* ``scan-divergent`` (error, exit 1) at each drifted copy and each instance that breaks the
  shape's structure, with its label's reason and the diff against the owning copy;
* ``scan-uncertain`` (warning) at each member whose structure differs from the owner's where nothing
  decides between a drifted copy and an instance by design, with its diff (counted apart; exit 0); one of a
  shape of one key (:func:`~contractc.scan.shapes.small`), or the bytes of one listed, only with ``verbose``;
* ``scan-near-copy`` (warning) at a lone block that is nearly a shape's copy under another key;
* with ``verbose`` (``-v``, and always in the JSON report, so every copy is located there):
  ``scan-shape`` (note) at each shape's owning copy, ``scan-member`` (note) at every other
  member with its label and reason, ``scan-example`` (note) at each worked example, and
  ``scan-unread`` (note) at each YAML, JSON or template block scan could not read, with the reason.

The last line counts the members of each kind.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic, Severity
from contractc.output.outputs import Change, Output
from contractc.report.format import Report
from contractc.scan import ScanResult, scan_plugin
from contractc.scan.blocks import Unit
from contractc.scan.shapes import Group, Member, small

LABELS = ("this copy", "owning copy")
_PLURAL = {"copy": "copies", "drifted": "drifted", "instance": "instances", "example": "examples"}


def scan_command(
    path: Path,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    owners: tuple[str, ...] = (),
    quiet: bool = False,
    verbose: bool = False,
) -> Report:
    """``contractc scan``: what scan finds in ``path`` as a report (bad input: its diagnostics).

    ``verbose`` adds a note at every member (owners, copies, instances, examples); ``quiet`` drops every note.
    """
    try:
        found = scan_report(scan_plugin(path, include, exclude, owners), verbose)
    except ContractcError as exc:
        return Report.of(exc.diagnostics)
    if quiet:
        found = found._replace(diagnostics=tuple(d for d in found.diagnostics if d.severity is not Severity.NOTE))
    return found


def scan_report(result: ScanResult, verbose: bool = False) -> Report:
    diagnostics: list[Diagnostic] = []
    attached: dict[Diagnostic, Change] = {}
    kinds: Counter[str] = Counter()
    listed: set[tuple[int, str]] = set()  # the uncertain members listed so far, by text
    for group in result.groups:
        owner = group.owner
        counted = Counter(m.label for m in group.members)
        kinds.update(counted)
        state = ", ".join(f"{_n(n, k, _PLURAL[k])}" for k, n in sorted(counted.items()))
        if verbose:
            diagnostics.append(
                _at(
                    owner,
                    "scan-shape",
                    f"shape {group.id}: {_n(len(group.members), 'member', 'members')} ({state}); "
                    f"this copy owns it because {group.owner_reason}",
                    "run `contractc adopt` to move every copy under a contract",
                    Severity.NOTE,
                )
            )
        for member in group.members:
            unit = member.unit
            if member.divergent:
                what = {"drifted": "drifted copy", "example": "filled-in copy"}.get(member.label, "instance")
                against, side = group.held_against(member)
                d = _at(
                    unit,
                    "scan-divergent",
                    f"{what} of {group.id} ({member.reason}) against {side} at {_where(against)}",
                    f"make it agree with {side.removesuffix(', first')}, or run `contractc adopt` (`--owner GLOB` picks another owner)",
                )
                diagnostics.append(d)
                attached[d] = _change(unit, against, side.removeprefix("its ").removesuffix(", first"))
            elif member.uncertain and (verbose or not _hidden(member, group, listed)):
                listed.add((id(group), unit.text))
                d = _at(
                    unit,
                    "scan-uncertain",
                    f"{member.label} of {group.id} by design, or a copy that drifted? ({member.reason}) against its owning copy at {_where(owner)}",
                    "if it should be the owner's shape, make it agree (`--owner GLOB` names the owner); if it differs by design, nothing to do",
                    Severity.WARNING,
                )
                diagnostics.append(d)
                attached[d] = _change(unit, owner)
            elif verbose and unit is not owner and member.label != "example":
                diagnostics.append(
                    _at(unit, "scan-member", f"{member.label} of {group.id}: {member.reason}", "", Severity.NOTE)
                )
    for near in result.near:
        d = _at(
            near.unit,
            "scan-near-copy",
            f"block {near.unit.key} is {'a copy' if near.ratio >= 1 else f'nearly a copy ({near.ratio:.0%} alike)'} "
            f"of {near.group.id} under another key",
            f"if it is {near.group.id}, give it that key; otherwise ignore this warning",
            Severity.WARNING,
        )
        diagnostics.append(d)
        attached[d] = _change(near.unit, near.group.owner)
    uncertain = sum(1 for group in result.groups for m in group.members if m.uncertain)
    hidden = 0 if verbose else uncertain - len(listed)
    examples = {id(m.unit): group.id for group in result.groups for m in group.labelled("example")}
    for unit in result.examples if verbose else ():
        shape = f" of {examples[id(unit)]}" if id(unit) in examples else f" of {unit.key}"
        diagnostics.append(
            _at(unit, "scan-example", f"worked example{shape}, not scored as a copy: {unit.block.example}", "", Severity.NOTE)
        )
    if verbose:
        diagnostics.extend(result.unread)
    counts = ", ".join(_n(kinds[k], k, _PLURAL[k]) for k in ("copy", "drifted", "instance")) + ", " + _n(
        len({(u.block.path, u.line) for u in result.examples} | {(m.unit.block.path, m.unit.line) for g in result.groups for m in g.labelled("example")}),
        "example",
        "examples",
    )
    headline = (
        f"contractc: {_n(len(result.files), 'file', 'files')}, {_n(len(result.groups), 'shape', 'shapes')} "
        f"stated more than once: {_n(result.divergent, 'divergent')}{f', {uncertain} uncertain' if uncertain else ''}"
        f"{f' ({hidden} of them in shapes of one key or the bytes of one listed: -v lists them)' if hidden else ''} ({counts}), "
        f"{_n(len(result.near), 'near-copy', 'near-copies')}"
    )
    if result.nested:
        shown = ", ".join(result.nested[:3]) + (", ..." if len(result.nested) > 3 else "")
        glob = f"--include '{result.nested[0]}**'"
        headline += f" ({_n(len(result.nested), 'nested project', 'nested projects')} not read, each with its own contractc.yaml: {shown}; {glob} reads one)"
    if result.unread:
        headline += f", {_n(len(result.unread), 'block', 'blocks')} not read ({'listed above' if verbose else '-v lists them'})"
    if not result.files:
        headline = "contractc: no Markdown file to scan in this folder (agents/, skills/*/SKILL.md, commands/, docs/ ...); is it the plugin's root?"
    if not result.gitignore:
        headline += " (git not found: .gitignore was not honoured)"
    if result.divergent:
        headline += "; run `contractc adopt` to see the plan that makes them one"
    if result.links:
        shown = ", ".join(result.links[:3]) + (", ..." if len(result.links) > 3 else "")
        headline += f" ({_n(len(result.links), 'symbolic link', 'symbolic links')} not read: {shown}; adopt never writes through a link)"
    report = Report.of(diagnostics, checked=len(result.files))
    return report._replace(attached=attached, labels=LABELS, headline=headline)


def _hidden(member: Member, group: Group, listed: set[tuple[int, str]]) -> bool:
    """Whether an uncertain member is left out of the default output: one of a shape of one key (too little to
    weigh), or the same bytes as an uncertain member of its shape already listed (a mirrored tree's copy)."""
    return small(member.unit, group.owner) or (id(group), member.unit.text) in listed


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 or many is None else many}"


def _at(unit: Unit, code: str, message: str, hint: str, severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(unit.block.path, unit.line, unit.block.col, code, message, hint, severity)


def _where(unit: Unit) -> str:
    return f"{unit.block.path}:{unit.line}"


def _change(copy: Unit, owner: Unit, label: str = "") -> Change:
    """The diff from ``copy`` to the copy it is held against (``label``: what that is, when not its owner)."""
    return Change(_where(copy), owner.text.encode(), copy.text.encode(), Output(b"", "scan"), expected_path=_where(owner), expected_label=label)

