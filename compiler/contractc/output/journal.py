"""The write journal and the run lock: a build killed at any instant is finished by the next run, and
two runs never write at once.

``build`` stages every new file beside its target (``.NAME.RUN.contractc-tmp``,
``RUN`` the run id: the process id), then moves each into place, keeping the
old file as ``.NAME.RUN.contractc-bak`` until every move succeeded
(:mod:`contractc.output.outputs`).  An error, Ctrl-C or SIGTERM rolls back in-process;
a SIGKILL or a power cut cannot.  So before the first file is staged, the plan
is written to ``.contractc/journal.json`` (atomically: a reader sees the old
journal or the new one), and its phase changes once:

- ``stage``: files are being staged, no target has changed yet.  Recovery
  **rolls back**: it removes the staged files and the folders the build created.
- ``commit``: every file is staged, targets are being replaced.  Recovery
  **rolls forward**: it moves each staged file still there into place, removes
  each orphan still there, and removes the backups.

Either way every target ends all old or all new, and nothing the build made
is left behind.

The journal is **untrusted input**: ``.contractc/`` ignores itself, but a
force-added journal is an ordinary tracked file that a pull request controls.
So :func:`recover` acts only on what this module's own staging scheme could
have produced, and checks all of it before it touches anything:

- a journal git tracks is refused;
- every target is a path of plain parts (no ``..``, no ``.git``, no
  ``.contractc``) that the configuration on disk today makes an output or a
  target of its ``targets:`` patterns (or the configuration itself and its
  contracts, which ``adopt --write`` writes);
- every staged and backup name is the one the scheme gives that target and the
  journal's run id, in the target's own folder;
- every folder on the way is opened without following a link, and the target,
  staged and backup files are regular files or absent (``lstat``).

Anything else is a located ``journal-refused`` error, and nothing is touched.

**One run at a time.**  ``build``, ``adopt --write``, journal recovery and the
cache writes hold an advisory lock (``flock``) on ``.contractc/lock``
(:func:`hold`), which holds the holder's process id while it runs and is removed as it lets go.  A second
run waits up to :data:`WAIT_SECONDS` (``CONTRACTC_LOCK_WAIT``) with a message,
then stops with a located ``locked`` error naming the holder.  A ``check`` that
finds the lock held reads without recovering anything (:func:`recover_unless_busy`).

A ``.contractc-tmp``/``.contractc-bak`` file without a journal (left by a
version without one, or with the journal deleted) is a *leftover*: ``check``
reports it (:func:`find_leftovers`) and ``build`` removes it.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import NamedTuple

from contractc.report.diagnostics import ContractcError, Diagnostic, Severity

FOLDER = ".contractc"
NAME = "journal.json"
LOCK = "lock"
LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<pid>[0-9]+)\.contractc-(?P<what>tmp|bak)$")
WAIT_SECONDS = 30.0
"""How long a run waits for the lock before it stops (``CONTRACTC_LOCK_WAIT`` overrides)."""
IGNORE = "# contractc's local state (cache, journal, lock): never committed\n*\n"
_JOURNAL = f"{FOLDER}/{NAME}"
_NEVER = (".git", FOLDER)
"""Folders recovery never enters, whatever the case of their name."""


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


def made_state_folder(root: str | os.PathLike[str]) -> str:
    """:func:`state_folder`, created when missing -- never without its ``.gitignore`` of ``*``: the folder
    is made under a temporary name with the file in it, then renamed into place."""
    folder = state_folder(root)
    ignore = os.path.join(folder, ".gitignore")
    try:
        if os.path.isdir(folder):
            if not os.path.lexists(ignore):
                _atomic(folder, ".gitignore", IGNORE.encode("utf-8"))
            return folder
        scratch = os.path.join(os.fspath(root), f"{FOLDER}.{os.getpid()}.contractc-tmp")
        os.mkdir(scratch)
        try:
            with open(os.path.join(scratch, ".gitignore"), "x", encoding="utf-8") as handle:
                handle.write(IGNORE)
            os.rename(scratch, folder)
        except BaseException:
            _remove_tree(scratch)
            if os.path.isdir(folder):  # another run made it first
                return made_state_folder(root)
            raise
    except OSError as exc:
        raise ContractcError(
            Diagnostic(
                FOLDER,
                1,
                1,
                "write-failed",
                f"cannot create {FOLDER}/ in the project root: {exc.strerror}",
                f"contractc keeps its journal and lock in {FOLDER}/ while it writes: make the project root writable (`check` writes nothing)",
            )
        ) from None
    return folder


# --- the lock


class Locked(ContractcError):
    """Another run holds the lock (raised by :func:`hold`)."""


_HELD: dict[str, int] = {}
"""State folders whose lock this process holds: a run that holds it may take it again."""


@contextmanager
def hold(root: str | os.PathLike[str], wait: float | None = None) -> Iterator[None]:
    """Hold the run lock of ``root`` inside the block, waiting up to ``wait`` seconds (:data:`WAIT_SECONDS`)."""
    import fcntl
    import time

    folder = made_state_folder(root)
    key = os.path.realpath(folder)
    if key in _HELD:
        yield
        return
    if wait is None:
        try:
            wait = float(os.environ.get("CONTRACTC_LOCK_WAIT", WAIT_SECONDS))
        except ValueError:
            wait = WAIT_SECONDS
    path = os.path.join(folder, LOCK)
    deadline = time.monotonic() + wait
    told = False
    while True:
        fd = _open_lock(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            if time.monotonic() >= deadline:
                raise Locked(
                    Diagnostic(
                        f"{FOLDER}/{LOCK}",
                        1,
                        1,
                        "locked",
                        f"another contractc run ({holder}) holds the lock of this project; waited {wait:g} s",
                        "let it finish, then run again (CONTRACTC_LOCK_WAIT sets how long to wait)",
                    )
                ) from None
            if not told and wait > 0:
                sys.stderr.write(f"contractc: waiting for another contractc run ({holder}) to finish in this project...\n")
                sys.stderr.flush()
                told = True
            time.sleep(0.02)
            continue
        # The holder removes the file as it lets go: a lock on a file no longer at the path is no lock.
        try:
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _HELD[key] = fd
        remove_stale_scratch(root)
        try:
            yield
        finally:
            del _HELD[key]
            with suppress(OSError):
                os.unlink(path)  # a finished run leaves no trace (the next one makes the file anew)
    finally:
        os.close(fd)  # releases the lock


def _open_lock(path: str) -> int:
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        why = exc.strerror
    else:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
        os.close(fd)
        why = "not a regular file"  # a FIFO or a device: no process id can be written there
    raise ContractcError(
        Diagnostic(f"{FOLDER}/{LOCK}", 1, 1, "write-failed", f"cannot open the run lock: {why}", f"remove {FOLDER}/{LOCK} if it is not a plain file; make {FOLDER}/ writable")
    )


SCRATCH = "adopt-"
"""``.contractc/adopt-PID-*``: the copy of a plugin ``adopt`` compiles its plan in."""


@contextmanager
def scratch(root: str | os.PathLike[str]) -> Iterator[str]:
    """A scratch folder inside ``.contractc/`` (never the system temp folder: a killed run's copy of the
    plugin stays in the project, git-ignored, and the next run removes it: :func:`remove_stale_scratch`)."""
    import tempfile

    existed = os.path.isdir(os.path.join(root, FOLDER))
    folder = made_state_folder(root)
    remove_stale_scratch(root)
    try:
        with tempfile.TemporaryDirectory(prefix=f"{SCRATCH}{os.getpid()}-", dir=folder) as path:
            yield path
    finally:
        if not existed:  # a dry run (or a failed one) leaves the project as it found it
            with suppress(OSError):
                if os.listdir(folder) == [".gitignore"]:
                    os.unlink(os.path.join(folder, ".gitignore"))
                    os.rmdir(folder)


def remove_stale_scratch(root: str | os.PathLike[str]) -> None:
    """Remove the scratch folders of runs that are no longer running."""
    folder = os.path.join(os.fspath(root), FOLDER)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        pid = name[len(SCRATCH) :].partition("-")[0]
        if not name.startswith(SCRATCH) or not pid.isdigit() or _alive(int(pid)):
            continue
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            _remove_tree(path)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process
    return True


def _holder(fd: int) -> str:
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return f"process {text}" if text.isdigit() else "a process that is starting"


# --- the journal


def staging_name(target: str, run: str, what: str) -> str:
    """The staged (``tmp``) or backup (``bak``) name of ``target`` for run ``run``, in the target's own folder."""
    folder, _, name = target.rpartition("/")
    return f"{folder}/.{name}.{run}.contractc-{what}" if folder else f".{name}.{run}.contractc-{what}"


def run_id() -> str:
    return str(os.getpid())


def begin(root: str | os.PathLike[str], entries: list[dict], folders: list[str]) -> None:
    """Record the plan (phase ``stage``) before anything is staged.

    ``entries``: ``{"target", "tmp", "backup"}`` project-relative (``tmp`` None for a removal), named by
    :func:`staging_name` for :func:`run_id`; ``folders``: the folders the build will create, deepest first.
    """
    _write(root, {"phase": "stage", "run": run_id(), "entries": entries, "folders": folders})


def commit(root: str | os.PathLike[str], entries: list[dict], folders: list[str]) -> None:
    """Every file is staged: from now on recovery rolls forward."""
    _write(root, {"phase": "commit", "run": run_id(), "entries": entries, "folders": folders})


def end(root: str | os.PathLike[str]) -> None:
    with suppress(FileNotFoundError):
        os.unlink(os.path.join(state_folder(root), NAME))


def pending(root: str | os.PathLike[str]) -> bool:
    """A journal is there (a build was interrupted, or one is running)."""
    return os.path.lexists(os.path.join(state_folder(root), NAME))


def recover_unless_busy(root: str | os.PathLike[str], trust: Trust) -> tuple[list[Diagnostic], bool]:
    """``check``'s recovery: :func:`recover` under the lock, or nothing when another run holds it.

    Returns the notes and whether a run is busy (then its staged files are not leftovers).
    """
    if not pending(root):
        return [], False
    try:
        with hold(root, wait=0):
            return recover(root, trust), False
    except Locked as exc:
        busy = exc.diagnostics[0]
        return [busy._replace(severity=Severity.NOTE, code="recovered", message=f"{busy.message.split(';')[0]}: this check reads without finishing or undoing its writes", hint="")], True


def recover(root: str | os.PathLike[str], trust: Trust) -> list[Diagnostic]:
    """Finish or undo a build that was killed; a note when there was one (empty when there was nothing to do).

    Call it holding the lock (:func:`hold`).  ``trust`` says which files the configuration lets it touch.
    """
    from contractc.output.files import read_bytes

    path = os.path.join(state_folder(root), NAME)
    try:
        plan = json.loads(read_bytes(path, follow=False))
        phase, run, entries, folders = plan["phase"], plan["run"], list(plan["entries"]), list(plan["folders"])
        if phase not in ("stage", "commit") or not isinstance(run, str) or not run.isdigit() or len(run) > 10:
            raise ValueError(phase)
        if not all(isinstance(e, dict) for e in entries) or not all(isinstance(f, str) for f in folders):
            raise ValueError(phase)
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        # A journal is written whole or not at all; one that does not parse (or is nested 100,000 deep) was not written by contractc.
        raise ContractcError(
            _about_journal("file-unreadable", "the journal of an interrupted build cannot be read: contractc did not write it", f"remove {_JOURNAL}, then run `contractc check` and fix what it reports")
        ) from None
    if trust.tracked(_JOURNAL):
        raise _refused(f"git tracks {_JOURNAL}: a journal is local state, never committed, so this one is not trusted", f"`git rm --cached {_JOURNAL}` and remove it")
    forward = phase == "commit"
    base = os.open(os.fspath(root), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        planned = _checked(base, trust, run, entries, folders, forward)
        for entry in planned:
            _apply(base, entry, forward)
        if not forward:
            for folder in folders:
                _rmdir(base, folder)
    except OSError as exc:
        what = f"{exc.strerror} ({os.fsdecode(exc.filename or '') or 'a file it names'})"
        raise ContractcError(
            _about_journal("write-failed", f"could not {'finish' if forward else 'undo'} the interrupted build: {what}", f"fix the cause and run again: the journal is kept, so the next run {'finishes' if forward else 'undoes'} it")
        ) from None
    finally:
        os.close(base)
    end(root)
    verb = "finished" if forward else "rolled back"
    files = f"{len(entries)} file{'s' * (len(entries) != 1)}"
    return [_about_journal("recovered", f"{verb} a build that was interrupted ({files}): every file is {'new' if forward else 'as before it'}", severity=Severity.NOTE)]


def _about_journal(code: str, message: str, hint: str = "", severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(_JOURNAL, 1, 1, code, message, hint, severity)


def _refused(message: str, hint: str) -> ContractcError:
    return ContractcError(_about_journal("journal-refused", message, hint))


class Trust(NamedTuple):
    """What recovery asks of the stages above it (the configuration, git), handed in by the pipeline."""

    config_name: str
    """The configuration's file name (``contractc.yaml``): staged first by ``adopt --write``."""
    allowed: Callable[[str | None], Callable[[str], bool]]
    """Given the staged configuration's name (or None: the one on disk), a predicate: may recovery touch
    ``rel``?  Raises :class:`ContractcError` when the configuration cannot be read."""
    tracked: Callable[[str], bool]
    """Does git track ``rel``?"""


def _plain(rel: object) -> bool:
    """A relative path of real names, outside ``.git`` and ``.contractc``."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\0" in rel or "\\" in rel:
        return False
    parts = rel.split("/")
    return all(p not in ("", ".", "..") for p in parts) and not any(p.lower() in _NEVER for p in parts)


def _checked(base: int, trust: Trust, run: str, entries: list[dict], folders: list[str], forward: bool) -> list[tuple[str, str | None, str]]:
    """Every entry as ``(target, tmp, backup)`` after every rule of the module docstring; raises at the first break.

    A journal of a run stopped while staging, before it staged anything, needs no configuration
    (``adopt --write`` writes its own): it is dropped, and only the empty folders it made go.
    """
    planned = []
    for n, entry in enumerate(entries, 1):
        target, tmp, backup = entry.get("target"), entry.get("tmp"), entry.get("backup")
        if not _plain(target):
            raise _refused(f"entry {n} names {target!r}: not a plain path inside the project (or it is in .git or {FOLDER})", f"remove {_JOURNAL}; contractc wrote no such entry")
        assert isinstance(target, str)
        if tmp not in (None, staging_name(target, run, "tmp")) or backup != staging_name(target, run, "bak"):
            raise _refused(f"entry {n} ({target}) names files contractc's staging scheme does not make for run {run}", f"remove {_JOURNAL}; contractc wrote no such entry")
        planned.append((target, tmp, backup))
    for folder in folders:
        if not _plain(folder):
            raise _refused(f"the folder {folder!r} is not a plain path inside the project", f"remove {_JOURNAL}; contractc wrote no such entry")
        if not any(target.startswith(folder + "/") for target, _, _ in planned):  # a run makes a folder only to hold a target
            raise _refused(f"the folder {folder!r} holds none of the journal's targets: contractc made no such folder", f"remove {_JOURNAL}; nothing was changed")
    staged_config = staging_name(trust.config_name, run, "tmp")
    has_staged_config = any(t == trust.config_name and tmp for t, tmp, _ in planned) and _kind(base, staged_config) == "file"
    staged = False
    for target, tmp, backup in planned:
        for rel in filter(None, (target, tmp, backup)):
            kind = _kind(base, rel)
            if kind not in ("file", "absent"):
                raise _refused(f"{rel} is {kind}: a journal entry names only regular files", f"remove {_JOURNAL}; nothing was changed")
            staged = staged or (rel == tmp and kind == "file")
    if not forward and not staged:
        return []
    allowed = None
    if planned:
        try:
            allowed = trust.allowed(staged_config if has_staged_config else None)
        except ContractcError as exc:
            raise ContractcError(
                [_refused("the configuration cannot be read, so nothing says which files this journal may touch", "fix the error below, then run again: the journal is kept"), *exc.diagnostics]
            ) from None
    for target, _, _ in planned:
        if allowed is not None and not allowed(target):
            raise _refused(
                f"{target} is not an output or target of this project's configuration: recovery touches no other file",
                f"remove {_JOURNAL}; nothing was changed",
            )
    return planned


class _Unsafe(Exception):
    pass


def _kind(base: int, rel: str) -> str:
    """``file``, ``absent``, or what else ``rel`` is, every folder on the way opened without following a link."""
    folder, _, name = rel.rpartition("/")
    try:
        fd = _open_folder(base, folder)
    except _Unsafe as exc:
        return str(exc)
    if fd is None:
        return "absent"
    try:
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return "absent"
    finally:
        os.close(fd)
    if stat.S_ISREG(st.st_mode):
        return "file"
    return "a symbolic link" if stat.S_ISLNK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"


def _open_folder(base: int, folder: str) -> int | None:
    """A descriptor of ``folder`` under ``base``, each part opened with ``O_NOFOLLOW``; None when a part is missing."""
    fd = os.dup(base)
    try:
        walked = []
        for part in folder.split("/") if folder else ():
            walked.append(part)
            try:
                st = os.stat(part, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                os.close(fd)
                return None
            if not stat.S_ISDIR(st.st_mode):
                raise _Unsafe(f"reached through {'/'.join(walked)}, {'a symbolic link' if stat.S_ISLNK(st.st_mode) else 'not a folder'}")
            new = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = new
        return fd
    except BaseException:
        with suppress(OSError):
            os.close(fd)
        raise


def _apply(base: int, entry: tuple[str, str | None, str], forward: bool) -> None:
    """Roll one entry forward or back, inside its folder's descriptor: no name is resolved through a link."""
    target, tmp, backup = entry
    folder = target.rpartition("/")[0]
    try:
        fd = _open_folder(base, folder)
    except _Unsafe:
        return  # checked before anything was touched; a link that appeared since leads nowhere contractc goes
    if fd is None:
        return
    name = target.rpartition("/")[2]
    tmp_name = tmp.rpartition("/")[2] if tmp else None
    try:
        if forward and tmp_name is None:  # an orphan: it goes, from wherever it is
            _unlink_at(fd, name)
        elif forward and tmp_name is not None and _is_file_at(fd, tmp_name):
            os.rename(tmp_name, name, src_dir_fd=fd, dst_dir_fd=fd)
        elif tmp_name is not None:
            _unlink_at(fd, tmp_name)
        _unlink_at(fd, backup.rpartition("/")[2])
    finally:
        os.close(fd)


def _is_file_at(fd: int, name: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def _unlink_at(fd: int, name: str) -> None:
    if _is_file_at(fd, name):
        os.unlink(name, dir_fd=fd)


def _rmdir(base: int, folder: str) -> None:
    parent, _, name = folder.rpartition("/")
    try:
        fd = _open_folder(base, parent)
    except _Unsafe:
        return
    if fd is None:
        return
    try:
        os.rmdir(name, dir_fd=fd)
    except OSError:
        pass  # not empty, or not there: someone else's now
    finally:
        os.close(fd)


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


def remove_leftovers(root: str | os.PathLike[str], leftovers: Iterable[str]) -> list[str]:
    """Remove staged files; put a backup back where its file is gone (an interrupted removal), else remove it.

    Returns the files put back (project-relative)."""
    restored = []
    for rel in leftovers:
        full = os.path.join(root, rel)
        folder, name = os.path.split(full)
        m = LEFTOVER.match(name)
        if m is None or os.path.islink(full):
            continue
        target = os.path.join(folder, m["name"])
        if m["what"] == "bak" and not os.path.lexists(target):
            os.replace(full, target)
            restored.append(f"{rel.rpartition('/')[0]}/{m['name']}".lstrip("/"))
        else:
            _unlink(full)
    return restored


def leftover_diagnostic(rel: str) -> Diagnostic:
    return Diagnostic(
        rel,
        1,
        1,
        "leftover",
        "left by a build that was interrupted before contractc kept a journal",
        "run `contractc build`, which removes it (or restores the file it backs up)",
    )


def _unlink(path: str) -> None:
    with suppress(FileNotFoundError):
        os.unlink(path)


def _remove_tree(path: str) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _write(root: str | os.PathLike[str], plan: dict) -> None:
    _atomic(made_state_folder(root), NAME, json.dumps(plan).encode("utf-8"))


def write_state(folder: str, name: str, data: bytes) -> None:
    """Write ``folder/name`` atomically (a reader sees the old bytes or the new, never half); ``folder`` is
    :func:`made_state_folder`'s: contractc's local state (the journal, the cache) is never committed."""
    _atomic(made_state_folder(os.path.dirname(folder)), name, data)


def _atomic(folder: str, name: str, data: bytes) -> None:
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(folder, name))
    except BaseException:
        _unlink(tmp)
        raise
