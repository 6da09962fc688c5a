"""The per-contract "Changes" pages: accepted breaking changes, and the diff since the last release tag.

``<prefix>/changes/<contract>.md`` lists the entries of ``contractc.changes.yaml``
for the contract (its history of accepted breaking changes, with why) and, when
the project is in a git repository with a tag, every change since the most
recent tag reachable from HEAD, classified as ``contractc diff`` classifies it.
No tag (or no git) is said on the page, not an error: a site builds anywhere.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from contractc.diagnostics import ContractcError
from contractc.model import Project


@dataclass(frozen=True, slots=True)
class Since:
    """The diff against the last release tag, for every contract."""

    tag: str
    """Empty when there is no tag (or no git repository)."""
    records: tuple = ()
    accepted: frozenset[str] = frozenset()
    problem: str = ""
    """Why the comparison could not be made (the tag's contracts do not load)."""


def changes_page_path(base: str, contract_path: str) -> str:
    return f"{base}changes/{PurePosixPath(contract_path).stem}.md"


def last_release(root: Path) -> Since:
    tag = _last_tag(root)
    if not tag:
        return Since("")
    from contractc.diff.gate import run_diff  # the diff stack only when there is a tag to compare with

    try:
        result = run_diff(root, tag, None)
    except ContractcError as exc:
        return Since(tag, problem=exc.diagnostics[0].format().splitlines()[0])
    return Since(tag, tuple(result.records), frozenset(result.accepted))


def accepted_entries(root: Path) -> list:
    """Every acceptance in the approval file (none when it is absent or malformed: diff reports that)."""
    from contractc.load.config import CHANGES_NAME

    try:
        data = (root / CHANGES_NAME).read_bytes()
    except OSError:
        return []
    from contractc.diff.accept import read_approvals  # the diff stack only when there is an approval file

    try:
        return list(read_approvals(data).accepted)
    except ContractcError:
        return []


def changes_context(project: Project, root: Path, contract_path: str, since: Since, entries: list) -> dict:
    records = [r for r in since.records if r.contract == contract_path]
    return {
        "since": since,
        "records": [
            {
                "id": r.id,
                "verdict": r.verdict_text,
                "accepted": r.id in since.accepted,
                "message": cell(r.message),
                "line": r.new.line if r.new else 0,
            }
            for r in records
        ],
        "accepted": [
            {"date": cell(e.date), "change": e.change, "verdict": cell(e.verdict), "why": cell(e.why)}
            for e in entries
            if not e.contract or e.contract == contract_path
        ],
    }


def cell(text: str) -> str:
    """Text for one Markdown table cell: a ``|`` would end the cell, a newline the row."""
    return " ".join(text.split()).replace("|", "\\|")


def _last_tag(root: Path) -> str:
    try:
        done = subprocess.run(
            ["git", "describe", "--tags", "--abbrev=0"], cwd=root, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
