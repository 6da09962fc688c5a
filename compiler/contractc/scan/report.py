"""``scan``'s findings as a :class:`~contractc.report.format.Report`, so every ``--format`` prints them.

One diagnostic per finding, located at the copy:

* ``scan-shape`` (note) at each shape's owning copy: how many copies, which rule chose the owner;
* ``scan-divergent`` (error, exit 1) at each copy that differs from the owner, with the diff;
* ``scan-near-copy`` (warning) at a lone block that is nearly a shape's copy under another key;
* ``scan-example`` (note) at each worked example, which is not scored.
"""

from __future__ import annotations

from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic, Severity
from contractc.output.outputs import Change, Output
from contractc.report.format import Report
from contractc.scan import ScanResult, scan_plugin
from contractc.scan.blocks import Unit

LABELS = ("this copy", "owning copy")


def scan_command(
    path: Path, include: tuple[str, ...] = (), exclude: tuple[str, ...] = (), owners: tuple[str, ...] = (), quiet: bool = False
) -> Report:
    """``contractc scan``: what scan finds in ``path`` as a report (bad input: its diagnostics); ``quiet`` drops the notes."""
    try:
        found = scan_report(scan_plugin(path, include, exclude, owners))
    except ContractcError as exc:
        return Report.of(exc.diagnostics)
    if quiet:
        found = found._replace(diagnostics=tuple(d for d in found.diagnostics if d.severity is not Severity.NOTE))
    return found


def scan_report(result: ScanResult) -> Report:
    diagnostics: list[Diagnostic] = []
    attached: dict[Diagnostic, Change] = {}
    for group in result.groups:
        owner = group.owner
        identical, divergent = len(group.identical), len(group.divergent)
        state = "all identical" if not divergent else f"{identical} identical, {divergent} divergent"
        diagnostics.append(
            _at(
                owner,
                "scan-shape",
                f"shape {group.id}: {len(group.copies)} unmanaged copies, {state}; this copy owns it because {group.owner_rule}",
                "run `contractc adopt` to move every copy under a contract",
                Severity.NOTE,
            )
        )
        for unit in group.divergent:
            d = _at(
                unit,
                "scan-divergent",
                f"copy of {group.id} differs from its owning copy at {_where(owner)}",
                "make the copies agree, or run `contractc adopt` (the owning copy's bytes win; `--owner GLOB` picks another owner)",
            )
            diagnostics.append(d)
            attached[d] = _change(unit, owner)
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
    for unit in result.examples:
        diagnostics.append(
            _at(unit, "scan-example", f"worked example of {unit.key}, not scored as a copy: {unit.block.example}", "", Severity.NOTE)
        )
    copies = sum(len(g.copies) for g in result.groups)
    headline = (
        f"contractc: {_n(len(result.files), 'file', 'files')}, {_n(len(result.groups), 'shape', 'shapes')} "
        f"with {_n(copies, 'unmanaged copy', 'unmanaged copies')}: "
        f"{_n(result.divergent, 'divergent')}, {_n(len(result.near), 'near-copy', 'near-copies')}, "
        f"{_n(len(result.examples), 'worked example', 'worked examples')}"
    )
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


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 or many is None else many}"


def _at(unit: Unit, code: str, message: str, hint: str, severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(unit.block.path, unit.line, unit.block.col, code, message, hint, severity)


def _where(unit: Unit) -> str:
    return f"{unit.block.path}:{unit.line}"


def _change(copy: Unit, owner: Unit) -> Change:
    return Change(_where(copy), owner.text.encode(), copy.text.encode(), Output(b"", "scan"), expected_path=_where(owner))

