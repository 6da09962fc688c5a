"""A local cache that lets ``check`` confirm "nothing changed" without compiling.

A clean ``check`` (no diagnostic at all) records, in ``<root>/.contractc/check.sha256``,
the SHA-256 of **every file under the root that the run opened for reading**
and a digest of **every folder under the root that it listed or read from**
(and of each of their parents, so a file that appears where the run only
tested for one is noticed), plus the interpreter and the size, mtime and
SHA-256 of every module loaded, contractc's own included (a module whose mtime
changed is re-hashed, so a reinstall of the same code keeps the cache).  The files are found with an
audit hook (:func:`sys.addaudithook`), so any input a stage reads, today's or a
future one's, is covered without being listed here.

The next ``check`` first re-reads and re-hashes exactly those files
(:func:`confirm`): if every byte, folder and module is as recorded, the outcome
is known and is printed without importing the compiler.  Anything else — a
changed, new or deleted file, a missing or unreadable cache, another contractc
— falls back to the full run, which reports drift exactly as without a cache.
The cache can only ever say "the same as last time", never "clean" on its own;
a cache of another format, contractc version, interpreter or options is ignored.

It is a local speed-up, not evidence: anyone who can write ``.contractc/`` can
forge it and make ``check`` pass.  A gate (the Action, the pre-commit hook)
runs ``--no-cache`` unless the user opts in.

The folder holds a ``.gitignore`` of ``*``, so it is never committed; ``--no-cache``
neither reads nor writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from contractc.report import __version__
from contractc.output.files import read_bytes

FOLDER = ".contractc"
NAME = "check.sha256"
FORMAT = 4
# The file: one line of JSON (format, interpreter, modules, folders, files that were absent,
# the count to print), then one line per file read in `sha256sum`'s format.  confirm()
# streams those lines: its memory does not grow with the number of files.


def confirm(root: str | os.PathLike[str], options: dict[str, object] | None = None) -> int | None:
    """The ``checked`` count of the last clean run if nothing it read has changed since, else None.

    ``options`` are the command's options that can change its output: a cache
    written under other options is not used.
    """
    base = os.path.abspath(root)
    try:
        with open(os.path.join(base, FOLDER, NAME), encoding="utf-8", newline="\n") as handle:
            head = json.loads(handle.readline())
            if (
                head["format"] != FORMAT
                or head["version"] != __version__
                or head["python"] != sys.version
                or head["options"] != _options(options)
            ):
                return None
            for path, mtime, size, digest in head["modules"]:
                st = os.stat(path)
                if st.st_size != size or (st.st_mtime_ns != mtime and _file_sha256(path) != digest):
                    return None  # a reinstall (new mtime, same bytes, e.g. in CI) keeps the cache
            for rel, digest in head["folders"].items():
                if _listing(os.path.join(base, rel)) != digest:
                    return None
            for rel in head["absent"]:
                if os.path.lexists(os.path.join(base, rel)):
                    return None
            for line in handle:
                if line[64:66] != "  " or not line.endswith("\n"):
                    return None  # a torn or edited cache
                digest, rel = line[:64], line[66:-1]
                if _file_sha256(os.path.join(base, rel)) != digest:
                    return None
        return int(head["checked"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):  # a torn, forged or 100,000-deep cache: a full run
        return None


class Recorder:
    """Collects what a full run opens and lists under ``root``; :meth:`save` writes the cache."""

    def __init__(self, root: str | os.PathLike[str]):
        self.root = os.path.abspath(root)
        self.files: dict[str, tuple[int, int, int] | None] = {}
        """Absolute path -> (mtime_ns, size, inode) when it was opened, None when it did not exist."""
        self.folders: dict[str, str | None] = {}
        """Absolute path -> digest of its listing when it was listed."""
        self._skip = os.path.join(self.root, FOLDER)
        self.broken = False
        """Something could not be recorded: then no cache is written."""

    def _inside(self, path: object) -> str | None:
        if isinstance(path, int):
            return None
        try:
            full = os.path.abspath(os.fsdecode(os.fspath(path)))  # type: ignore[arg-type]
        except TypeError:
            return None
        if full != self.root and not full.startswith(self.root + os.sep):
            return None
        if full == self._skip or full.startswith(self._skip + os.sep) or f"{os.sep}__pycache__{os.sep}" in full:
            return None
        return full

    def opened(self, path: object, mode: object, flags: object) -> None:
        if isinstance(mode, str):
            reading = "r" in mode or "+" in mode
        else:
            reading = isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) == 0
        full = self._inside(path) if reading else None
        if full is not None and full not in self.files:
            try:
                st = os.stat(full)
                self.files[full] = (st.st_mtime_ns, st.st_size, st.st_ino)
            except OSError:
                self.files[full] = None

    def listed(self, path: object) -> None:
        full = self._inside(path if path is not None else ".")
        if full is not None and full not in self.folders:
            self.folders[full] = _listing(full)

    def save(self, checked: int, options: dict[str, object] | None = None) -> None:
        """Write the cache, unless anything the run read changed while it ran (then the next run is full)."""
        if self.broken:
            return
        lines, absent = [], []
        for full, seen in sorted(self.files.items()):
            rel = self._rel(full)
            if "\n" in rel or "\r" in rel:
                return  # not expressible as a line: no cache rather than a wrong one
            try:
                with open(full, "rb") as handle:
                    st = os.fstat(handle.fileno())
                    if seen is None or (st.st_mtime_ns, st.st_size, st.st_ino) != seen:
                        return
                    lines.append(f"{hashlib.sha256(handle.read()).hexdigest()}  {rel}\n")
            except FileNotFoundError:
                if seen is not None:
                    return
                absent.append(rel)
            except OSError:
                return
        folders = {self.root}
        for full in [*self.files, *self.folders]:
            while full != self.root:
                full = os.path.dirname(full)
                folders.add(full)
        listings = {}
        for full in sorted(folders):
            now = _listing(full)
            if full in self.folders and self.folders[full] != now:
                return
            listings[self._rel(full)] = now
        modules = []
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if isinstance(path, str) and os.path.isfile(path):
                st = os.stat(path)
                modules.append((path, st.st_mtime_ns, st.st_size, _file_sha256(path)))
        head = {
            "format": FORMAT,
            "version": __version__,
            "python": sys.version,
            "checked": checked,
            "options": _options(options),
            "modules": sorted(modules),
            "folders": listings,
            "absent": absent,
        }
        try:
            text = json.dumps(head, sort_keys=True, ensure_ascii=True) + "\n" + "".join(lines)
            data = text.encode("utf-8")
        except ValueError:  # a file name that is not valid Unicode: no cache
            return
        _write(os.path.join(self.root, FOLDER), data)

    def _rel(self, full: str) -> str:
        return os.path.relpath(full, self.root).replace(os.sep, "/")


_ACTIVE: list[Recorder] = []


def _audit(event: str, args: tuple) -> None:
    if not _ACTIVE or event not in ("open", "os.scandir", "os.listdir"):
        return
    recorder = _ACTIVE.pop()  # the hook's own stat and listdir must not be recorded
    try:
        if event == "open":
            recorder.opened(*args[:3])
        else:
            recorder.listed(args[0])
    except Exception:  # noqa: BLE001  a hook that raises would break the open it watches
        recorder.broken = True
    finally:
        _ACTIVE.append(recorder)


_HOOKED = False


@contextmanager
def recording(root: str | os.PathLike[str]) -> Iterator[Recorder]:
    """Record what this process opens and lists under ``root`` inside the block."""
    global _HOOKED
    if not _HOOKED:  # audit hooks cannot be removed: install one, switch it with _ACTIVE
        sys.addaudithook(_audit)
        _HOOKED = True
    recorder = Recorder(root)
    _ACTIVE.append(recorder)
    try:
        yield recorder
    finally:
        _ACTIVE.remove(recorder)


def _file_sha256(path: str) -> str:
    return hashlib.sha256(read_bytes(path)).hexdigest()


def _options(options: dict[str, object] | None) -> str:
    return json.dumps(options or {}, sort_keys=True, default=str)


def _listing(folder: str) -> str | None:
    try:
        names = sorted(name for name in os.listdir(folder) if name != FOLDER)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def _write(folder: str, data: bytes) -> None:
    """Atomic: a reader sees the old cache or the new one, never half of one."""
    from contractc.report.diagnostics import ContractcError
    from contractc.output.journal import hold, write_state

    with suppress(OSError, ContractcError):  # a read-only checkout simply runs without a cache
        with hold(os.path.dirname(folder), wait=0):  # a build running: no cache this time
            write_state(folder, NAME, data)
