"""Stage 4, the output set: what the contracts compile to, compared with or written to disk.

``check`` and ``build`` are the same pipeline with a different sink
(:class:`Mode`).  Writing is all-or-nothing: every new file is staged beside its
target first, then each is moved into place with an atomic ``os.replace``
after a hard link (or, where links fail, a copy) keeps the old file; if
anything fails or Ctrl-C arrives, the files already replaced are restored and
the folders the build created are removed, so a failed build leaves every
file as it was and no file is ever torn.  A build killed outright is finished
by the next run from its journal (:mod:`contractc.output.journal`).

Every output path obeys one rule (:func:`guard_paths`): it lies in an output
folder, is made of plain names, and neither it nor a folder on its way is a
symbolic link.  Nothing is ever read or written through a link.
"""

import enum
import os
from pathlib import Path
from typing import NamedTuple

from contractc.output import journal
from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.output.files import read_bytes
from contractc.model.names import all_plain
from contractc.model.records import Span


class Mode(enum.Enum):
    CHECK = "check"
    """Compare with disk, report drift, write nothing."""
    BUILD = "build"
    """Write every changed file."""


class Output(NamedTuple):
    """One generated file."""

    data: bytes
    kind: str
    """The emitter that produced it (a key of ``EMITTERS``)."""


class OutputSet(NamedTuple):
    """Every file the project compiles to, plus the folders the tool owns (filled as the emitters run)."""

    files: dict[str, Output]
    owned: set[str]
    """Folders whose every file is generated: a file there that nothing produces is an orphan."""
    folders: dict[str, Span]
    """Every output folder with the configuration key that names it; generated files lie in these only."""

    def add(self, kind: str, files: dict[str, bytes]) -> None:
        for path, data in files.items():
            self.files[path] = Output(data, kind)


class Change(NamedTuple):
    """A difference between the output set and the disk."""

    path: str
    expected: bytes | None
    """None: the file should not exist (an orphan)."""
    actual: bytes | None
    """None: the file does not exist yet."""
    output: Output | None
    removable: bool = True
    """For an orphan: build can prove it wrote it (:mod:`contractc.output.written`), so it may remove it."""
    edited: bool = False
    """For an orphan build may not remove: contractc recorded it, but its bytes changed since."""
    expected_path: str | None = None
    """Where the expected bytes are, when not at ``path`` (``scan``: the owning copy in another file)."""


def guard_paths(root: Path, outputs: OutputSet) -> None:
    """Refuse (``unsafe-path``) any output path outside the one rule of the module docstring.

    Generated names were checked where they were read (:mod:`contractc.model.names`);
    this is the last line, for every path whatever produced it.
    """
    problems = []
    links: dict[str, bool] = {}
    folders = sorted(outputs.folders, key=lambda f: (f == ".", -len(f)))  # "." (the project root) last
    for rel, out in sorted(outputs.files.items()):
        if out.kind == "regions":  # the user's own target files, found by the confined targets patterns
            continue
        folder = next((f for f in folders if f == "." or rel.startswith(f + "/")), None)
        where = outputs.folders.get(folder or "", Span(rel, 1, 1, 0, 0))
        if folder is None or not all_plain(rel if folder == "." else rel[len(folder) + 1 :]):
            problems.append(_unsafe(where, f"output {rel!r} is not a plain path inside an output folder"))
            continue
        link = _first_link(root, rel, links)
        if link:
            problems.append(_unsafe(where, f"output {rel!r} would be written through the symbolic link {link!r}"))
    if problems:
        raise ContractcError(problems)


def _first_link(root: Path, rel: str, seen: dict[str, bool]) -> str | None:
    parts = rel.split("/")
    for n in range(1, len(parts) + 1):
        prefix = "/".join(parts[:n])
        if prefix not in seen:
            seen[prefix] = os.path.islink(os.path.join(root, prefix))
        if seen[prefix]:
            return prefix
    return None


def _unsafe(where: Span, message: str) -> Diagnostic:
    return Diagnostic(
        where.path, where.line or 1, where.col or 1, "unsafe-path", message, "remove the symbolic link; contractc never reads or writes through one"
    )


def diff_against_disk(root: Path, outputs: OutputSet) -> list[Change]:
    """Every generated file whose bytes differ from disk, and every orphan, in path order.

    A symbolic link in an owned folder is refused, never followed; staged or backup files of an
    interrupted build are not orphans (see :mod:`contractc.output.journal`).
    """
    changes = []
    for path in sorted(outputs.files):
        out = outputs.files[path]
        actual = None
        try:
            actual = read_bytes(root / path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise ContractcError(_unreadable_output(path, exc)) from None
        if actual != out.data:
            changes.append(Change(path, out.data, actual, out))
    proof = None  # what build recorded writing: read for the first orphan, and only then imported
    links = []
    for folder in sorted(outputs.owned):
        for rel, is_link in _walk(root, folder):
            if is_link:
                links.append(_unsafe(outputs.folders.get(folder, Span(rel, 1, 1, 0, 0)), f"{rel!r} in an output folder is a symbolic link"))
            elif rel not in outputs.files and not journal.LEFTOVER.match(rel.rsplit("/", 1)[-1]):
                try:
                    data = read_bytes(root / rel)
                except OSError as exc:
                    raise ContractcError(_unreadable_output(rel, exc)) from None
                if proof is None:
                    from contractc.output.written import Proof

                    proof = Proof.load(root, outputs)
                changes.append(Change(rel, None, data, None, proof.wrote(rel, data), edited=proof.edited(rel, data)))
    if links:
        raise ContractcError(links)
    return sorted(changes, key=lambda c: c.path)


def _walk(root: Path, folder: str) -> list[tuple[str, bool]]:
    """Every file under ``folder`` (project-relative, sorted), with whether it is a symbolic link; links are not followed."""
    found = []
    for top, dirs, files in os.walk(os.path.join(root, folder)):
        rel_top = os.path.relpath(top, root).replace(os.sep, "/")
        for name in dirs:
            if os.path.islink(os.path.join(top, name)):
                found.append((f"{rel_top}/{name}", True))
        for name in files:
            found.append((f"{rel_top}/{name}", os.path.islink(os.path.join(top, name))))
    return sorted(found)


def _unreadable_output(rel: str, exc: OSError) -> Diagnostic:
    return Diagnostic(rel, 1, 1, "file-unreadable", f"{rel} cannot be read: {exc.strerror}", "make it a regular file contractc may read, or remove it")


def write_changes(root: Path, changes: list[Change]) -> None:
    """Apply ``changes`` all-or-nothing (see the module docstring); Ctrl-C rolls back, then re-raises."""
    if not changes:  # nothing to do, so not even a journal: a build with nothing to write writes nothing
        return
    umask = _umask()
    plan = [_Staged(os.path.join(root, c.path), None if c.expected is None else _sibling(os.path.join(root, c.path), "contractc-tmp"), c.path) for c in changes]
    created = _missing_folders(root, changes)
    entries = [
        {"target": p.rel, "tmp": None if p.tmp is None else _rel(root, p.tmp), "backup": _rel(root, _sibling(p.target, "contractc-bak"))}
        for p in plan
    ]
    _fault()
    journal.begin(root, entries, created)
    staged: list[_Staged] = []
    try:
        for change, planned in zip(changes, plan):
            if change.expected is None:
                staged.append(planned)
                continue
            _stage(planned, change.expected, umask, staged)
            _fault()
        journal.commit(root, entries, created)
    except BaseException as exc:
        _discard(staged)
        _remove_folders(root, created)
        journal.end(root)
        if isinstance(exc, OSError):
            raise _write_error(exc, root, plan[: len(staged) + 1]) from None
        raise
    try:
        _commit(staged)
    except BaseException:  # rolled back: every target is as it was
        _remove_folders(root, created)
        raise
    finally:
        journal.end(root)


def _missing_folders(root: Path, changes: list[Change]) -> list[str]:
    """Project-relative folders the changes will create, deepest first."""
    missing: set[str] = set()
    for change in changes:
        if change.expected is None:
            continue
        parts = change.path.split("/")[:-1]
        for n in range(len(parts), 0, -1):
            folder = "/".join(parts[:n])
            if folder in missing or os.path.isdir(os.path.join(root, folder)):
                break
            missing.add(folder)
    return sorted(missing, key=lambda f: (-f.count("/"), f))


def _remove_folders(root: Path, folders: list[str]) -> None:
    for folder in folders:  # deepest first; one that is not empty is someone else's now
        try:
            os.rmdir(os.path.join(root, folder))
        except OSError:
            pass


class _Staged(NamedTuple):
    target: str
    tmp: str | None
    """The new bytes, beside the target; None: the target is to be removed (an orphan)."""
    rel: str
    """The target, project-relative: what a message names."""


def _stage(planned: _Staged, data: bytes, umask: int, staged: list[_Staged]) -> None:
    """Write ``data`` to ``planned.tmp`` with the target's mode (a new file: the umask's); add it to ``staged``."""
    target, tmp = planned.target, planned.tmp
    assert tmp is not None
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
        os.makedirs(os.path.dirname(target), exist_ok=True)
    # One name per target and process (no mkstemp search): O_EXCL still refuses to write through anything there.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        fd = os.open(tmp, flags, 0o666 if mode is None else mode)
    except FileExistsError:  # left by a killed run that had this process id
        os.unlink(tmp)
        fd = os.open(tmp, flags, 0o666 if mode is None else mode)
    staged.append(planned)  # from here on, a failure discards it
    try:
        if mode is not None and mode & umask:  # os.open applied the umask; the target's mode wins
            os.fchmod(fd, mode)
        view = memoryview(data)
        while view:  # os.write may write less than asked
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _commit(staged: list[_Staged]) -> None:
    backups: list[tuple[str, str | None]] = []  # (target, backup or None when it did not exist)
    current = None
    try:
        for planned in staged:
            target, tmp = planned.target, planned.tmp
            current = planned
            # Whether the target exists is asked now, not when it was staged: a file
            # that appeared in between is backed up and restored like any other.
            backup: str | None = _sibling(target, "contractc-bak")
            try:
                if tmp is None:
                    os.replace(target, backup)  # an orphan: removed for good once every write succeeded
                else:
                    _backup(target, backup)
            except FileNotFoundError:
                backup = None
            backups.append((target, backup))
            _fault()
            if tmp is not None:
                os.replace(tmp, target)
            _fault()
    except BaseException as exc:
        for target, backup in reversed(backups):
            if backup is not None:
                os.replace(backup, target)
                if os.path.lexists(backup):  # still a hard link of the target: rename(2) did nothing
                    os.unlink(backup)
            elif os.path.exists(target):
                os.unlink(target)
        _discard(staged)
        if isinstance(exc, OSError):
            raise _write_error(exc, None, staged[: staged.index(current) + 1] if current else []) from None
        raise
    for _, backup in backups:
        if backup is not None:
            try:
                os.unlink(backup)
            except FileNotFoundError:
                pass


def _sibling(target: str, suffix: str) -> str:
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.{os.getpid()}.{suffix}")


def _rel(root: Path, path: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def _backup(target: str, backup: str) -> None:
    """Keep the old ``target`` at ``backup``: a hard link, or a copy where links are not supported."""
    try:
        os.link(target, backup)
    except FileExistsError:  # left by a killed run that had this process id
        os.unlink(backup)
        _backup(target, backup)
    except FileNotFoundError:
        raise
    except OSError:  # no hard links here (some network and FAT file systems, some containers)
        import shutil

        shutil.copy2(target, backup, follow_symlinks=False)


def _discard(staged: list[_Staged]) -> None:
    for planned in staged:
        if planned.tmp is not None and os.path.lexists(planned.tmp):
            os.unlink(planned.tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_KILL_AFTER = [-1]


def _fault() -> None:
    """Testing only: with ``CONTRACTC_TEST_KILL_AFTER=N`` the process SIGKILLs itself at the N-th step
    of a write, so the kill test can stop a build at exact points (tests/test_kills.py)."""
    if _KILL_AFTER[0] == -1:
        _KILL_AFTER[0] = int(os.environ.get("CONTRACTC_TEST_KILL_AFTER", "0") or 0)
    if _KILL_AFTER[0] > 0:
        _KILL_AFTER[0] -= 1
        if _KILL_AFTER[0] == 0:
            import signal

            os.kill(os.getpid(), signal.SIGKILL)


def _write_error(exc: OSError, root: Path | None, staged: list[_Staged]) -> ContractcError:
    """``write-failed`` naming the user's file: the target whose write failed, never a temporary name."""
    rel = staged[-1].rel if staged else None
    failing = os.fsdecode(exc.filename) if exc.filename else ""
    for planned in staged:
        if failing in (planned.target, planned.tmp, _sibling(planned.target, "contractc-bak")):
            rel = planned.rel
    if rel is None:
        rel = os.path.relpath(failing, root).replace(os.sep, "/") if failing and root is not None else "."
    return ContractcError(
        Diagnostic(rel, 1, 1, "write-failed", f"could not write {rel}: {exc.strerror}", "nothing was changed; fix the permissions or free space and run again")
    )
