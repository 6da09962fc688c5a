"""The per-contract "Changes" pages: accepted breaking changes, and the diff since the last release tag.

``<prefix>/changes/<contract>.md`` lists the entries of ``contractc.changes.yaml``
for the contract (its history of accepted breaking changes, with why) and, when
the project is in a git repository with a tag, every change since the most
recent tag reachable from HEAD, classified as ``contractc diff`` classifies it.
No tag (or no git) is said on the page, not an error: a site builds anywhere.

The site only renders: the pipeline runs the diff (:mod:`contractc.diff.release`)
and hands the result over as a :class:`Since`, so no stage imports another.
"""

from pathlib import PurePosixPath
from typing import NamedTuple


class ListedChange(NamedTuple):
    """One change since the tag, as its contract's page lists it."""

    contract: str
    id: str
    verdict: str
    """Whom it breaks, in words (``breaking for producers``, ``compatible``)."""
    message: str
    line: int
    """Where it is now; 0 when it is gone."""
    accepted: bool = False
    """An acceptance added since the tag lets it pass."""
    stood: int = 0
    """Gone: the line of today's contract where it stood; 0 when that is not known."""


class ListedAcceptance(NamedTuple):
    """One entry of the approval file, as the page lists it."""

    contract: str
    """Empty: the entry names no contract, and is listed on every page."""
    date: str
    change: str
    verdict: str
    why: str


class Since(NamedTuple):
    """What every contract's Changes page shows: the diff against the last release tag, and the approval file."""

    tag: str
    """Empty when there is no tag (or no git repository)."""
    changes: tuple[ListedChange, ...] = ()
    problem: str = ""
    """Why the comparison could not be made (the tag's contracts do not load)."""
    acceptances: tuple[ListedAcceptance, ...] = ()
    """Every acceptance in the approval file (none when it is absent or malformed: diff reports that)."""


def changes_page_path(base: str, contract_path: str) -> str:
    return f"{base}changes/{PurePosixPath(contract_path).stem}.md"


def changes_context(contract_path: str, since: Since) -> dict:
    return {
        "since": since,
        "records": [
            {
                "id": c.id,
                "verdict": c.verdict,
                "accepted": c.accepted,
                "message": cell(c.message),
                "line": c.line,
                "stood": c.stood,
            }
            for c in since.changes
            if c.contract == contract_path
        ],
        "accepted": [
            {"date": cell(e.date), "change": e.change, "verdict": cell(e.verdict), "why": cell(e.why)}
            for e in since.acceptances
            if not e.contract or e.contract == contract_path
        ],
    }


def cell(text: str) -> str:
    """Text for one Markdown table cell: a ``|`` would end the cell, a newline the row."""
    return " ".join(text.split()).replace("|", "\\|")
