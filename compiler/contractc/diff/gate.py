"""The diff gate: load both sides, compare, hold the changes against the approval file, say what fails.

Each change becomes one located diagnostic whose code is its verdict, so the
report formatters print a diff like any other report: a breaking change that
is not accepted is an error (exit 1), an accepted or compatible one a note,
an acceptance added since REF that matches no change an error too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from contractc.diff.accept import Acceptance, Approvals, new_entries, read_approvals
from contractc.diff.compare import compare_projects
from contractc.diff.records import ChangeRecord
from contractc.diff.sides import CHANGES_NAME, Side, git_side, path_side, working_side
from contractc.model.records import Project
from contractc.report.diagnostics import Diagnostic, Severity


@dataclass(slots=True)
class DiffResult:
    against: str
    """The older side's label: the git ref or the path given."""
    records: list[ChangeRecord] = field(default_factory=list)
    accepted: dict[str, Acceptance] = field(default_factory=dict)
    """Record id -> the acceptance (added since ``against``) that lets it pass."""
    stale: list[Acceptance] = field(default_factory=list)
    today: Approvals = field(default_factory=Approvals)
    side: Side | None = None
    """Today's side, for ``--accept`` to append to its approval file."""
    option: str = "--against"
    """How the older side was given (``--against`` or ``--against-path``), for the command a hint names."""

    @property
    def accept_command(self) -> str:
        """The command that accepts the failing changes, with the ref this run compared against."""
        import shlex

        return f"contractc diff {self.option} {shlex.quote(self.against)} --accept --why TEXT"

    @property
    def failing(self) -> list[ChangeRecord]:
        """Breaking changes no acceptance covers."""
        return [r for r in self.records if r.breaking and r.id not in self.accepted]


def load_sides(
    root: Path, against: str | None, against_path: Path | None, loaded: Project | None = None
) -> tuple[Side, Side]:
    from contractc.report.progress import stage

    stage("reading contracts")
    today = working_side(root, loaded)
    stage(f"reading contracts at {against if against is not None else against_path}")
    old = git_side(root, against) if against is not None else path_side(root, against_path, today.project)  # type: ignore[arg-type]
    return old, today


def run_diff(
    root: Path, against: str | None, against_path: Path | None, loaded: Project | None = None
) -> DiffResult:
    """Today's contracts against an older revision; ``loaded``: today's project, when the caller has
    already loaded it from ``root`` (its contracts are not read and parsed a second time)."""
    from contractc.report.progress import stage

    old, today = load_sides(root, against, against_path, loaded)
    stage(f"comparing with {old.label}")
    approvals = read_approvals(today.changes)
    history = read_approvals(old.changes, f"{old.label}:{CHANGES_NAME}")
    records = compare_projects(old.project, today.project, approvals.redirects)
    fresh = new_entries(approvals, history)
    accepted = {}
    for record in records:
        entry = next((a for a in fresh if a.matches(record)), None)
        if entry is not None:
            accepted[record.id] = entry
    used = set(accepted.values())
    stale = [a for a in fresh if a not in used and not any(a.matches(r) for r in records)]
    return DiffResult(old.label, records, accepted, stale, approvals, today, "--against" if against is not None else "--against-path")


CODES_BY_VERDICT = {
    ("producers",): "breaking-producers",
    ("receivers",): "breaking-receivers",
    ("producers", "receivers"): "breaking-producers-receivers",
    ("producers", "receivers", "links"): "breaking-producers-receivers",  # a removed shape, with its anchors
    ("links",): "breaking-links",
}


def code_for(record: ChangeRecord) -> str:
    if not record.breaking:
        return "change-compatible"
    if "unclassified" in record.verdicts:
        return "changed-unclassified"
    return CODES_BY_VERDICT.get(record.verdicts, f"breaking-{record.verdicts[0]}")


def diagnostics(result: DiffResult) -> list[Diagnostic]:
    found = []
    for record in result.records:
        gone = record.new is None and record.old is not None
        # gone: located where it stood in today's file (line 0 when the file is gone too); the message says where it was
        where = record.stood if gone else record.new or record.old
        path, line = (where.path, where.line) if where else (record.contract, 0)
        message = f"{record.message} [{record.id}]"
        if gone:
            message += f" (was at {result.against}:{record.old})"
        if record.agents and not all(a in record.message for a in record.agents):
            message += f"; dispatches: {', '.join(record.agents)}"
        if record.id in result.accepted:
            said = f"{message}, {record.verdict_text}, accepted: {result.accepted[record.id].why}"
            found.append(Diagnostic(path, line, 1, "change-accepted", said, severity=Severity.NOTE))
        elif record.breaking:
            hint = f"if this is intended, say why in {CHANGES_NAME}: `{result.accept_command}`"
            found.append(Diagnostic(path, line, 1, code_for(record), f"{record.verdict_text}: {message}", hint))
        else:
            found.append(Diagnostic(path, line, 1, code_for(record), f"compatible: {message}", severity=Severity.NOTE))
    redirects = result.today.redirects
    for entry in result.stale:
        anchor = entry.change.removeprefix("anchor-removed:")
        redirected = anchor != entry.change and anchor in redirects
        found.append(
            Diagnostic(
                CHANGES_NAME,
                entry.line,
                1,
                "acceptance-stale",
                f"acceptance of {entry.change} matches no change since {result.against}"
                + (f": the redirect of #{anchor} to #{redirects[anchor]} makes that removal compatible" if redirected else ""),
                "remove the entry: the redirect is enough"
                if redirected
                else "remove the entry, or correct its `change:` to an id the diff prints",
            )
        )
    return found


def headline(result: DiffResult) -> str:
    breaking = len(result.failing)
    accepted = len(result.accepted)
    total = len(result.records)
    parts = [f"{total} change(s) since {result.against}", f"{breaking} breaking"]
    if accepted:
        parts.append(f"{accepted} accepted")
    if result.stale:
        parts.append(f"{len(result.stale)} stale acceptance(s)")
    line = "contractc: " + ", ".join(parts)
    if breaking:
        line += f"; accept each on purpose with `{result.accept_command}`, or undo it"
    return line
