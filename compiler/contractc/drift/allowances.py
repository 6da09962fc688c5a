"""The configuration's lists of copies left on purpose: ``allow_restatements`` entries that no longer do
anything, each reported where it is written; and ``unresolved`` entries, each reported at its copy.

An ``unresolved`` entry is a divergent copy ``adopt`` left as it is (a contract has no form for it: a fenced
front matter; or the contract could not hold it): check reports it, an error at the copy's file and line,
for as long as the entry is there, so drift adopt could not put under a contract never turns check green.
Deleting the entry, once the copies agree, is the decision that ends it.

An entry that names a shape no contract defines, matches no target file, or
points at a line where no copy starts (the text above the copy changed, so the
copy moved and is reported again) silences nothing; left in place it would
hide the next copy that happens to land there.

An entry with ``sha256`` names its copy by content: prose added or removed
around the copy never makes it stale.  Its ``line``, if any, is a hint: when
the copy has moved, a note says where it is now, and ``check`` still passes.
An entry whose ``sha256`` matches no copy (the copy was edited or removed) is
an error, and the edited copy is reported again as a restatement.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from contractc.report.diagnostics import Diagnostic, Severity
from contractc.drift.restatements import unmanaged_copies
from contractc.model.records import DataShape, Project

_HINT = "fix the entry or delete it (contractc.yaml, allow_restatements)"


def find_stale_allowances(project: Project) -> list[Diagnostic]:
    entries = project.config.allow_restatements
    if not entries:
        return []
    ids = {s.id: s for _, s in project.shapes()}
    copies = unmanaged_copies(project)
    targets = project.targets.paths
    found = []
    for i, entry in enumerate(entries):
        where = project.config.where(f"$.allow_restatements[{i}]")
        path, shape, line = entry.path, entry.shape, entry.line

        def report(message: str, hint: str = _HINT, severity: Severity = Severity.ERROR) -> None:
            found.append(Diagnostic.at(where, "drift-allowance", message, hint, severity))

        if shape is not None and shape not in ids:
            qualified = sorted(i for i, s in ids.items() if isinstance(s, DataShape) and s.key == shape)
            if qualified:
                report(f"allow_restatements entry names shape {shape!r}, which is used in several stages", f"name one: {', '.join(qualified)}")
            else:
                report(f"allow_restatements entry names shape {shape!r}, which no contract defines", _HINT)
            continue
        if not any(fnmatchcase(t, path) for t in targets):
            report(f"allow_restatements entry {path!r} matches no target file", _HINT)
            continue
        matching = [c for c in copies if fnmatchcase(c[0], path) and (shape is None or c[1] == shape)]
        digest = entry.sha256
        if digest is not None:
            held = [c for c in matching if c[3] == digest]
            if not held:
                report(
                    f"allow_restatements entry for {path}{' (' + shape + ')' if shape else ''} names sha256 {digest[:12]}…, which no copy has: the copy was edited or removed",
                    "if the edit is on purpose, put the copy's new sha256 in the entry"
                    + ("".join(f"; {p}:{n} has sha256 {d}" for p, _, n, d in matching[:5]) or "")
                    + "; else undo the edit",
                )
            elif line is not None and not any(c[2] == line for c in held):
                now = ", ".join(f"{p}:{n}" for p, _, n, _ in held[:5])
                report(
                    f"allow_restatements entry's line {line} is out of date: the copy it allows now starts at {now}",
                    "nothing to do (the entry matches by sha256); update or drop `line` to silence this note",
                    Severity.NOTE,
                )
            continue
        if line is not None and not any(c[2] == line for c in matching):
            at = ", ".join(f"{p}:{n}" for p, _, n, _ in matching[:5])
            moved = f"; copies{' of ' + shape if shape else ''} start at {at}" if at else ""
            report(f"allow_restatements entry allows line {line} of {path}, but no copy starts there{moved}", "point `line` at the copy's opening fence, or name the copy by `sha256` so it may move, or delete the entry")
        elif not matching:
            report(f"allow_restatements entry for {path}{' (' + shape + ')' if shape else ''} matches no copy", _HINT)
    return found


def find_unresolved(project: Project) -> list[Diagnostic]:
    """A ``drift-unresolved`` error at each copy the configuration's ``unresolved`` list names, its hint naming
    the choices; its diff against the contract's block is attached by
    :func:`contractc.drift.restatements.restatement_changes`."""
    blocks = {s.id: s.block if isinstance(s, DataShape) else s.template for _, s in project.shapes()}
    found = []
    for i, entry in enumerate(project.config.unresolved):
        where = project.config.where(f"$.unresolved[{i}]")
        block = None if _in_region(project, entry.path, entry.line) else blocks.get(entry.shape)
        if block is None:  # a shape no contract holds (a fenced front matter), or a part of a block in a region
            hint = f"make the copies agree by hand (`contractc scan` shows the diff), then delete this entry from {where.path} (unresolved, line {where.line})"
        else:
            at = f"{block.path}:{block.line}"
            hint = (
                f"decide which is right: `contractc adopt --resolve {entry.shape}={at}` shows the plan and this copy's diff "
                f"against the contract's block at {at}; add --write to rewrite this copy to it, in a region "
                "(--accept-drift: every drifted copy); if this copy is right, carry its difference into the contract and "
                "run `contractc adopt --write`, which wraps it in a region; adopt then deletes this entry"
            )
        found.append(
            Diagnostic(
                entry.path,
                entry.line,
                1,
                "drift-unresolved",
                f"unresolved drift that adopt left as it is: {entry.why or 'a divergent copy of ' + entry.shape}",
                hint,
            )
        )
    return found


def _in_region(project: Project, path: str, line: int) -> bool:
    """Whether ``line`` of the target ``path`` lies in one of its regions: a part of a larger block adopt put in a
    region, which no later adopt can give a region of its own."""
    from contractc.load.source import count_newlines

    target = project.target(path)
    return target is not None and any(
        r.content.line <= line <= r.content.line + count_newlines(target.data, r.content.start, r.content.end) for r in target.regions
    )
