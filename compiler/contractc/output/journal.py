"""The write journal: a build killed at any instant is finished by the next ``build`` or ``check``.

``build`` stages every new file beside its target (``.NAME.PID.contractc-tmp``),
then moves each into place, keeping the old file as ``.NAME.PID.contractc-bak``
until every move succeeded (:mod:`contractc.output.outputs`).  An error or Ctrl-C
rolls back in-process; a SIGKILL or a power cut cannot.  So before the first
file is staged, the plan is written to ``.contractc/journal.json`` (atomically:
a reader sees the old journal or the new one), and its phase changes once:

- ``stage``: files are being staged, no target has changed yet.  Recovery
  **rolls back**: it removes the staged files and the folders the build created.
- ``commit``: every file is staged, targets are being replaced.  Recovery
  **rolls forward**: it moves each staged file still there into place, removes
  each orphan still there, and removes the backups.

Either way every target ends all old or all new, and nothing the build made
is left behind.  :func:`recover` runs first in ``build`` and in ``check``;
a ``.contractc-tmp``/``.contractc-bak`` file without a journal (left by a
version without one, or with the journal deleted) is a *leftover*: ``check``
reports it (:func:`find_leftovers`) and ``build`` removes it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable

from contractc.report.diagnostics import ContractcError, Diagnostic, Severity

FOLDER = ".contractc"
NAME = "journal.json"
LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<pid>[0-9]+)\.contractc-(?P<what>tmp|bak)$")


def state_folder(root: str | os.PathLike[str]) -> str:
    """``<root>/.contractc``; a symbolic link there is refused (it would send the journal and cache elsewhere)."""
    folder = os.path.join(root, FOLDER)
    if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
        raise ContractcError(
            Diagnostic(
                FOLDER,
                1,
                1,
                "unsafe-path",
                f"{FOLDER} is {'a symbolic link' if os.path.islink(folder) else 'not a folder'}: contractc keeps its journal and cache there and writes nowhere else",
                f"remove it ({FOLDER} is recreated as a plain folder on the next run)",
            )
        )
    return folder


def begin(root: str | os.PathLike[str], entries: list[dict], folders: list[str]) -> None:
    """Record the plan (phase ``stage``) before anything is staged.

    ``entries``: ``{"target", "tmp", "backup"}`` project-relative (``tmp`` None for a removal);
    ``folders``: the folders the build will create, deepest first.
    """
    _write(root, {"phase": "stage", "entries": entries, "folders": folders})


def commit(root: str | os.PathLike[str], entries: list[dict], folders: list[str]) -> None:
    """Every file is staged: from now on recovery rolls forward."""
    _write(root, {"phase": "commit", "entries": entries, "folders": folders})


def end(root: str | os.PathLike[str]) -> None:
    try:
        os.unlink(os.path.join(state_folder(root), NAME))
    except FileNotFoundError:
        pass


def recover(root: str | os.PathLike[str]) -> list[Diagnostic]:
    """Finish or undo a build that was killed; a note per file it touched (empty when there was nothing to do)."""
    path = os.path.join(state_folder(root), NAME)
    try:
        from contractc.output.files import read_bytes

        plan = json.loads(read_bytes(path))
        phase, entries, folders = plan["phase"], list(plan["entries"]), list(plan["folders"])
        if phase not in ("stage", "commit") or not all(isinstance(e, dict) for e in entries):
            raise ValueError(phase)
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError):
        # A journal is written whole or not at all; one that does not parse was not written by contractc.
        raise ContractcError(
            Diagnostic(
                f"{FOLDER}/{NAME}",
                1,
                1,
                "file-unreadable",
                "the journal of an interrupted build cannot be read: contractc did not write it",
                f"remove {FOLDER}/{NAME}, then run `contractc check` and fix what it reports",
            )
        ) from None
    base = os.fspath(root)
    forward = phase == "commit"
    for entry in entries:
        target, tmp, backup = (_inside(base, entry.get(k)) for k in ("target", "tmp", "backup"))
        if target is None:
            continue
        if forward and tmp is None:  # an orphan: it goes, from wherever it is
            _unlink(target)
        elif forward and os.path.lexists(tmp):
            os.replace(tmp, target)
        elif tmp is not None:
            _unlink(tmp)
        if backup is not None:
            _unlink(backup)
    if not forward:
        for folder in folders:
            full = _inside(base, folder)
            if full is not None:
                try:
                    os.rmdir(full)
                except OSError:
                    pass
    end(root)
    verb = "finished" if forward else "rolled back"
    return [
        Diagnostic(
            f"{FOLDER}/{NAME}",
            1,
            1,
            "recovered",
            f"{verb} a build that was interrupted ({len(entries)} file{'s' * (len(entries) != 1)}): every file is {'new' if forward else 'as before it'}",
            severity=Severity.NOTE,
        )
    ]


def find_leftovers(root: str | os.PathLike[str], folders: Iterable[str]) -> list[str]:
    """Project-relative paths of staged or backup files left in ``folders`` (not recursive)."""
    found = []
    for folder in sorted(set(folders)):
        try:
            names = os.listdir(os.path.join(root, folder) if folder else root)
        except OSError:
            continue
        found.extend(f"{folder}/{name}" if folder else name for name in names if LEFTOVER.match(name))
    return sorted(found)


def remove_leftovers(root: str | os.PathLike[str], leftovers: Iterable[str]) -> None:
    """Remove staged files; put a backup back where its file is gone (an interrupted removal), else remove it."""
    for rel in leftovers:
        full = os.path.join(root, rel)
        folder, name = os.path.split(full)
        m = LEFTOVER.match(name)
        if m is None or os.path.islink(full):
            continue
        target = os.path.join(folder, m["name"])
        if m["what"] == "bak" and not os.path.lexists(target):
            os.replace(full, target)
        else:
            _unlink(full)


def leftover_diagnostic(rel: str) -> Diagnostic:
    return Diagnostic(
        rel,
        1,
        1,
        "leftover",
        "left by a build that was interrupted before contractc kept a journal",
        "run `contractc build`, which removes it (or restores the file it backs up)",
    )


def _inside(base: str, rel: object) -> str | None:
    """The absolute path of a journal entry, only when it is a plain relative path (the journal is data, not trusted)."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/") or "\0" in rel:
        return None
    return os.path.join(base, rel)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _write(root: str | os.PathLike[str], plan: dict) -> None:
    write_state(state_folder(root), NAME, json.dumps(plan).encode("utf-8"))


def write_state(folder: str, name: str, data: bytes) -> None:
    """Write ``folder/name`` atomically (a reader sees the old bytes or the new, never half), creating the
    folder with a ``.gitignore`` of ``*``: contractc's local state (the journal, the cache) is never committed."""
    os.makedirs(folder, exist_ok=True)
    ignore = os.path.join(folder, ".gitignore")
    if not os.path.exists(ignore):
        with open(ignore, "w", encoding="utf-8") as handle:
            handle.write("# contractc's local state (cache, journal): never committed\n*\n")
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, os.path.join(folder, name))
    except BaseException:
        _unlink(tmp)
        raise
