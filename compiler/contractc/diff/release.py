"""The changes since the last release tag, for the site's Changes pages: ``diff`` finds them, the site shows them.

The pipeline (and the mkdocs plugin, mkdocs' way into the pipeline) calls
:func:`since_last_release` and hands its :class:`~contractc.site.changes.Since`
to :func:`~contractc.emit.site.render_site`, so the site never runs a diff and
the import graph keeps pointing one way: pipeline -> {diff, site} -> model/load.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from contractc.report.diagnostics import ContractcError
from contractc.site.changes import ListedAcceptance, ListedChange, Since

if TYPE_CHECKING:
    from contractc.model.records import Project


def since_last_release(root: Path, project: Project | None = None) -> Since:
    """The diff against the most recent tag reachable from HEAD, and every entry of the approval file.

    ``project``: the project the caller loaded from ``root``, compared as today's side
    rather than loaded again.
    """
    acceptances = _acceptances(root)
    tag = last_tag(root)
    if not tag:
        return Since("", acceptances=acceptances)
    from contractc.diff.gate import run_diff

    try:
        result = run_diff(root, tag, None, project)
    except ContractcError as exc:
        return Since(tag, problem=exc.diagnostics[0].format(located=True), acceptances=acceptances)
    changes = tuple(
        ListedChange(
            r.contract,
            r.id,
            r.verdict_text,
            r.message,
            r.new.line if r.new else 0,
            r.id in result.accepted,
            r.stood.line if r.stood else 0,
        )
        for r in result.records
    )
    return Since(tag, changes, acceptances=acceptances)


def _acceptances(root: Path) -> tuple[ListedAcceptance, ...]:
    """Every acceptance in the approval file (none when it is absent or malformed: diff reports that)."""
    from contractc.output.files import read_bytes
    from contractc.load.config import CHANGES_NAME

    try:  # never through a link, never over the size limit (diff reports either)
        data = read_bytes(root / CHANGES_NAME, follow=False)
    except OSError:
        return ()
    from contractc.diff.accept import read_approvals  # the diff stack only when there is an approval file

    try:
        accepted = read_approvals(data).accepted
    except ContractcError:
        return ()
    return tuple(ListedAcceptance(a.contract, a.date, a.change, a.verdict, a.why) for a in accepted)


def last_tag(root: Path) -> str:
    """The most recent tag reachable from HEAD; empty without one, or without git."""
    from contractc.load.git import run_git

    try:
        done = run_git(root, "describe", "--tags", "--abbrev=0")
    except OSError:
        return ""
    return done.stdout.decode("utf-8", "replace").strip() if done.returncode == 0 else ""
