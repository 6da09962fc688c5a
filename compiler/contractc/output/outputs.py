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

import contextlib
import enum
import errno
import os
from pathlib import Path
from typing import NamedTuple

from contractc.output import journal
from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.output.files import first_link, read_bytes
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
    expected_label: str = ""
    """What the expected side is, when not the report's label (``scan``: a near-identical twin, not the owner)."""


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
        link = first_link(root, rel, links)
        if link:
            problems.append(_unsafe(where, f"output {rel!r} would be written through the symbolic link {link!r}"))
    if problems:
        raise ContractcError(problems)


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


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM arrived while files were written; raised once the write is whole again.

    ``state`` says, truthfully, how the files are: the CLI prints it and exits ``128 + signum``.
    """

    def __init__(self, signum: int, state: str):
        super().__init__(state)
        self.signum, self.state = signum, state


WROTE: list[int] = []
"""How many files write_changes wrote in this process (the CLI resets it per command): what an interrupted
run's message may say."""


def write_changes(root: Path, changes: list[Change]) -> None:
    """Apply ``changes`` all-or-nothing (see the module docstring), holding the run lock.

    Ctrl-C and SIGTERM are held off while files change: they are taken at the next step between two
    files, the write is rolled back (or, once every file is in place, finished), then :class:`Interrupted`
    says which.  Just before a target is replaced it must still hold the bytes read (``Change.actual``);
    one that changed meanwhile stops the write, which rolls back (``file-changed``).
    """
    if not changes:  # nothing to do, so not even a journal: a build with nothing to write writes nothing
        return
    with journal.hold(root), _signals_held() as stop:
        run = journal.run_id()
        plan = [
            _Staged(os.path.join(root, c.path), None if c.expected is None else os.path.join(root, journal.staging_name(c.path, run, "tmp")), c.path, c.actual)
            for c in changes
        ]
        created = _missing_folders(root, changes)
        entries = [{"target": p.rel, "tmp": None if p.tmp is None else os.path.relpath(p.tmp, root).replace(os.sep, "/"), "backup": journal.staging_name(p.rel, run, "bak")} for p in plan]
        _fault()
        umask = _umask()
        try:
            journal.begin(root, entries, created)
        except OSError as exc:
            raise _write_error(exc, root, plan[:1], "every file is as it was before this run") from None
        staged: list[_Staged] = []
        try:
            for change, planned in zip(changes, plan):
                stop()
                if change.expected is None:
                    staged.append(planned)
                    continue
                _stage(planned, change.expected, umask, staged)
                _fault()
            stop()
            journal.commit(root, entries, created)
        except BaseException as exc:
            raise _stopped(exc, root, plan[: len(staged) + 1], _undone(root, staged, created)) from None
        _commit(root, staged, created, stop)
        WROTE.append(len(staged))


def _stopped(exc: BaseException, root: Path | None, staged: list["_Staged"], state: str) -> BaseException:
    """What a write that stopped raises, ``state`` saying how the files are."""
    if isinstance(exc, _Signal):
        return Interrupted(exc.signum, state)
    if isinstance(exc, KeyboardInterrupt):
        return Interrupted(2, state)
    if isinstance(exc, _Changed):
        rel = exc.rel
        return ContractcError(
            Diagnostic(
                rel,
                1,
                1,
                "file-changed",
                f"{rel} changed while contractc was writing: it no longer holds the bytes this run read, so writing it would lose that edit; {state}",
                "run the command again once nobody else writes the project",
            )
        )
    if isinstance(exc, OSError):
        return _write_error(exc, root, staged, state)
    return exc


class _Signal(BaseException):
    def __init__(self, signum: int):
        self.signum = signum


class _Changed(Exception):
    def __init__(self, rel: str):
        self.rel = rel


class _signals_held:
    """Hold SIGINT and SIGTERM while files change; the block gets a ``stop()`` that raises :class:`_Signal`
    at a safe point when one is pending.  One that arrives after the last safe point (every file is in
    place) is still taken: on leaving, :class:`Interrupted` says the write finished."""

    _SIGNALS = {2, 15}  # SIGINT, SIGTERM

    def __enter__(self):
        import signal
        import threading

        self._held = threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask")
        if self._held:
            self._old = signal.pthread_sigmask(signal.SIG_BLOCK, self._SIGNALS)
        return self.stop

    def stop(self) -> None:
        if self._held:
            signum = self._take()
            if signum:
                raise _Signal(signum)

    def _take(self) -> int:
        import signal

        pending = signal.sigpending() & self._SIGNALS
        for signum in pending:
            signal.sigtimedwait([signum], 0)  # taken: the handler never runs
        return min(pending) if pending else 0

    def __exit__(self, kind, exc, tb):
        if not self._held:
            return False
        import signal

        late = self._take()
        signal.pthread_sigmask(signal.SIG_SETMASK, self._old)
        if late and kind is None:
            raise Interrupted(late, "every file was written before it stopped")
        return False


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
        with contextlib.suppress(OSError):
            os.rmdir(os.path.join(root, folder))


class _Staged(NamedTuple):
    target: str
    tmp: str | None
    """The new bytes, beside the target; None: the target is to be removed (an orphan)."""
    rel: str
    """The target, project-relative: what a message names."""
    actual: bytes | None = None
    """The bytes this run read from the target (None: it did not exist): what it must still hold."""


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


class _Done(NamedTuple):
    planned: _Staged
    backup: str | None
    """The old target's keeper (None: there was no old target)."""
    replaced: bool
    """The target was replaced (or, for an orphan, moved to ``backup``)."""


def _commit(root: Path, staged: list[_Staged], created: list[str], stop) -> None:
    """Replace every target, or none: a failure or a signal restores each one already replaced.

    The journal stays until the run is whole: removed after a full commit or a full rollback, kept
    (phase ``commit``, so the next run finishes the build) when a file cannot be restored.
    """
    done: list[_Done] = []
    current = None
    try:
        for planned in staged:
            stop()
            current = planned
            backup = journal.staging_name(planned.rel, journal.run_id(), "bak")
            backup = os.path.join(root, backup)
            if planned.tmp is None:  # an orphan: removed for good once every write succeeded
                if _unchanged(planned, None, planned.target):
                    os.replace(planned.target, backup)
                    done.append(_Done(planned, backup, True))
                continue
            # Whether the target exists is asked now, not when it was staged.
            try:
                _backup(planned.target, backup)
            except FileNotFoundError:
                backup = None
            done.append(_Done(planned, backup, False))
            _unchanged(planned, backup, planned.target)
            _fault()
            os.replace(planned.tmp, planned.target)
            done[-1] = done[-1]._replace(replaced=True)
            _fault()
    except BaseException as exc:
        left = _rollback(done)
        failed = staged[: staged.index(current) + 1] if current else []
        if left:
            state = (
                f"{len(left)} file{'s' * (len(left) != 1)} could not be restored ({', '.join(left[:3])}{', ...' if len(left) > 3 else ''}): "
                f"the journal {journal.FOLDER}/{journal.NAME} is kept, and the next contractc run finishes this build (every file new)"
            )
        else:
            state = _undone(root, staged, created)
        raise _stopped(exc, None, failed, state) from None
    kept = False
    for item in done:
        if item.backup is not None:
            try:
                os.unlink(item.backup)
            except FileNotFoundError:
                pass
            except OSError:
                kept = True  # the journal stays: the next run removes it
    if not kept:
        journal.end(root)


def _undone(root: Path, staged: list[_Staged], created: list[str]) -> str:
    """Remove what a rolled-back write staged; the journal goes only when all of it went. How things are."""
    left = _discard(staged)
    _remove_folders(root, created)
    if left:
        return (
            f"every file is as it was before this run; {len(left)} staged file{'s' * (len(left) != 1)} could not be removed "
            f"({left[0]}{', ...' if len(left) > 1 else ''}): the journal is kept, and the next contractc run removes them"
        )
    journal.end(root)
    return "every file is as it was before this run"


def _unchanged(planned: _Staged, backup: str | None, target: str) -> bool:
    """Raise :class:`_Changed` unless the target still holds the bytes the run read: checked on ``backup``
    (a hard link of it, or a copy) and on the target itself.  False: an orphan someone removed meanwhile."""
    import stat

    expected = planned.actual
    now = _lstat(target)
    if expected is None:
        if now is not None:
            raise _Changed(planned.rel)  # a file appeared where the run found none
        return True
    if now is None:
        if planned.tmp is None:
            return False
        raise _Changed(planned.rel)
    keeper = _lstat(backup) if backup is not None else now
    if keeper is None or not stat.S_ISREG(keeper.st_mode) or keeper.st_size != len(expected):
        raise _Changed(planned.rel)
    if read_bytes(backup or target, follow=False) != expected:
        raise _Changed(planned.rel)
    if backup is not None and (now.st_ino, now.st_dev) != (keeper.st_ino, keeper.st_dev):
        if not stat.S_ISREG(now.st_mode) or read_bytes(target, follow=False) != expected:  # replaced since the backup
            raise _Changed(planned.rel)
    return True


def _lstat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return None


def _rollback(done: list[_Done]) -> list[str]:
    """Undo ``done``, last first; the targets that could not be restored (each still tried)."""
    left = []
    for item in reversed(done):
        target = item.planned.target
        try:
            if item.replaced and item.backup is not None:
                os.replace(item.backup, target)
                if os.path.lexists(item.backup):  # still a hard link of the target: rename(2) did nothing
                    os.unlink(item.backup)
            elif item.replaced:
                os.unlink(target)
            elif item.backup is not None:  # backed up, never replaced: the target is as it was
                os.unlink(item.backup)
        except FileNotFoundError:
            pass
        except OSError:
            left.append(item.planned.rel)
    return left


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


def _discard(staged: list[_Staged]) -> list[str]:
    """Remove the staged files; the targets of those that could not be removed."""
    left = []
    for planned in staged:
        if planned.tmp is not None and os.path.lexists(planned.tmp):
            try:
                os.unlink(planned.tmp)
            except OSError:
                left.append(planned.rel)
    return left


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_KILL_AFTER = [-1]


def _fault() -> None:
    """Testing only: with ``CONTRACTC_TEST_KILL_AFTER=N`` the process signals itself at the N-th step of a
    write (SIGKILL, or the signal named by ``CONTRACTC_TEST_KILL_SIGNAL``: ``INT``, ``TERM``), so the kill
    and interrupt tests can stop a build at exact points (tests/test_kills.py)."""
    if _KILL_AFTER[0] == -1:
        _KILL_AFTER[0] = int(os.environ.get("CONTRACTC_TEST_KILL_AFTER", "0") or 0)
    if _KILL_AFTER[0] > 0:
        _KILL_AFTER[0] -= 1
        if _KILL_AFTER[0] == 0:
            import signal

            os.kill(os.getpid(), getattr(signal, "SIG" + os.environ.get("CONTRACTC_TEST_KILL_SIGNAL", "KILL")))


def _write_error(exc: OSError, root: Path | None, staged: list[_Staged], state: str) -> ContractcError:
    """``write-failed`` naming the user's file: the target whose write failed, never a temporary name."""
    rel = staged[-1].rel if staged else None
    failing = os.fsdecode(exc.filename) if exc.filename else ""
    for planned in staged:
        if failing in (planned.target, planned.tmp) or os.path.basename(failing).startswith(f".{os.path.basename(planned.target)}."):
            rel = planned.rel
    if rel is None:
        rel = os.path.relpath(failing, root).replace(os.sep, "/") if failing and root is not None else "."
    hint = (
        "the file system refuses a name this long: shorten the shape's or agent's name it is made from (its heading or key), and run again"
        if exc.errno == errno.ENAMETOOLONG
        else "fix the permissions, the immutable flag or the free space, and run again"
    )
    return ContractcError(Diagnostic(rel, 1, 1, "write-failed", f"could not write {rel}: {exc.strerror or exc}; {state}", hint))
