"""``check --changed-since REF``: limit the report to drift the changes since REF can explain.

A drift is kept when its copy changed since REF, or when any source of the
compile changed (``Result.sources``: the configuration, the contracts, role
files, the site's override templates): a contract's copies can be anywhere,
so a changed source keeps every drift.
Pre-existing drift in untouched files is counted, not shown, so a pull request
is judged on what it touched.  Everything is still compiled and compared: only
the report is limited.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic, ExitCode
from contractc.output.outputs import Change


def changed_files(root: Path, ref: str) -> set[str]:
    """Root-relative paths that differ between ``ref`` and the working tree, plus untracked files."""
    if ref.startswith("-") or "\0" in ref:  # never an option to git, whatever follows
        raise _bad_ref(ref, "a ref cannot start with '-' or hold a NUL byte")
    _git(root, ref, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    # -z: names verbatim; --no-renames: a renamed file counts under its old and its new name.
    diffed = _git(root, ref, "diff", "--name-only", "--relative", "--no-renames", "-z", ref, "--")
    untracked = _git(root, ref, "ls-files", "-z", "--others", "--exclude-standard")
    return {name for name in (diffed + untracked).split("\0") if name}


def limit_to_changes(
    diagnostics: Iterable[Diagnostic], changes: Iterable[Change], changed: set[str], sources: set[str]
) -> tuple[list[Diagnostic], list[Change], int]:
    """The diagnostics and changes to report, and how many drift diagnostics were left out."""
    folders = tuple(s for s in sources if s.endswith("/"))
    everything = bool(changed & sources) or any(path.startswith(folders) for path in changed)
    kept, hidden = [], 0
    for d in diagnostics:
        if everything or d.path in changed or d.exit_code is not ExitCode.DRIFT:
            kept.append(d)
        else:
            hidden += 1
    paths = {d.path for d in kept}
    return kept, [c for c in changes if c.path in paths], hidden


def _git(root: Path, ref: str, *args: str) -> str:
    from contractc.load.git import git_output

    return git_output(root, ref, lambda reason: _bad_ref(ref, reason), *args)


def _bad_ref(ref: str, reason: str) -> ContractcError:
    return ContractcError(
        Diagnostic(
            "--changed-since",
            1,
            1,
            "bad-ref",
            f"--changed-since {ref}: {reason}",
            "name a commit git knows (in CI fetch it first, e.g. actions/checkout with fetch-depth: 0), or drop --changed-since for a full check",
        )
    )
