"""``contractc check`` as one decision: the cache, ``--changed-since`` and the run, into one :class:`Report`.

The CLI parses options and prints; what they mean is decided here.  The cache
is asked first, and only when it cannot answer is the compiler imported, so a
warm ``check`` costs little more than reading the files it hashes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from contractc.report.diagnostics import ContractcError, ExitCode

if TYPE_CHECKING:
    from contractc.report.format import Report

REPORT_ONLY = ("root", "cache", "diff", "fmt", "quiet", "changed_since")
"""Options of ``check`` that only shape the report.  Every other option changes what is
compared and keys the cache, so one added later is never answered by a cache written
without it; a clean full check is clean in every format, and for every ``--changed-since``."""


def check(root: Path, params: Mapping[str, object]) -> tuple[Report, str]:
    """The report of ``contractc check`` with the command's options ``params`` (by click parameter name),
    and the project's ``docs_url`` for the messages' ``see:`` links (empty when none, or not loaded)."""
    from contractc.report.format import Report

    changed_since = params.get("changed_since")
    use_cache = bool(params.get("cache", True))
    changed = None
    if changed_since is not None:  # a bad ref is exit 2 even when the cache could answer
        from contractc.drift.changed import changed_files

        try:
            changed = changed_files(root, str(changed_since))
        except ContractcError as exc:
            return Report.of(exc.diagnostics), ""
    options = {k: v for k, v in params.items() if k not in REPORT_ONLY}
    if use_cache:
        from contractc.output.cache import FOLDER, NAME, confirm
        from contractc.output.journal import state_folder

        try:  # the cache is read from .contractc only when that is a plain folder of the project
            state_folder(root)
        except ContractcError as exc:
            return Report.of(exc.diagnostics), ""

        checked = confirm(root, options)
        if checked is not None:
            from contractc.load.git import tracked

            # A cache git tracks was force-added: it came with the tree (a pull request's), and whoever wrote
            # the tree could make it say "current", so it is never used nor rewritten.
            if tracked(root, f"{FOLDER}/{NAME}"):
                checked, use_cache = None, False
        if checked is not None:  # every file the last clean run read is byte-identical
            return Report.of([], checked=checked, since=changed_since), ""
    from contractc.output.outputs import Mode
    from contractc.pipeline import run

    site_pages = str(params["site_pages"]) if params.get("site_pages") is not None else None
    if use_cache:
        from contractc.output.cache import recording

        with recording(root) as record:
            result = run(root, Mode.CHECK, site_pages=site_pages)
        if not result.diagnostics:
            record.save(result.checked, options)
    else:
        result = run(root, Mode.CHECK, site_pages=site_pages)
    if result.exit_code is ExitCode.BAD_INPUT:
        return Report.of(result.diagnostics), result.docs_url
    diagnostics, changes, hidden = result.diagnostics, result.changes, 0
    if changed is not None:
        from contractc.drift.changed import limit_to_changes

        diagnostics, changes, hidden = limit_to_changes(diagnostics, changes, changed, result.sources)
    kept = set(diagnostics)
    attached = {d: c for d, c in result.attached.items() if d in kept}
    return Report.of(diagnostics, changes, result.checked, changed_since, hidden)._replace(attached=attached), result.docs_url
