"""Whole-file reads with the fewest system calls, for the paths that read every target.

``Path.read_bytes`` builds a buffered file object around each file (an extra
``fstat``, ``ioctl`` and ``lseek``); for thousands of small files that costs
more than the reading.  Writes live in :mod:`contractc.output.outputs`.

Every input file is read through :func:`read_bytes`, which refuses what is not
a regular file without blocking (a FIFO would wait forever for a writer, a
device never ends) and anything larger than :data:`MAX_BYTES`.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import Any

_CHUNK = 1 << 16
MAX_BYTES = 16 << 20
"""The largest input file read (16 MiB): far above any contract, config or agent file."""
_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)


def dump_json(value: Any) -> bytes:
    """Pretty, stable, newline-terminated JSON: the one JSON format of every output."""
    import json

    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


class FileRefused(OSError):
    """An input that is not a regular file, or too large; ``strerror`` says which, for a message."""


def read_bytes(path: str | os.PathLike[str], follow: bool = True) -> bytes:
    """Every byte of the regular file at ``path`` (raises ``OSError`` like ``open``; :class:`FileRefused`
    for a FIFO, socket, device or folder, or a file over :data:`MAX_BYTES`).

    ``follow=False``: a symbolic link as the last part is refused (``ELOOP``), not read through.
    The size is checked on the open file before a byte is read.
    """
    try:
        fd = os.open(path, _FLAGS if follow else _FLAGS | os.O_NOFOLLOW)
    except ValueError:  # a NUL byte in the name: no such file can exist
        raise FileRefused(errno.EINVAL, "has a NUL byte in its name", os.fsdecode(os.fspath(path)).replace("\0", "\\0")) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(errno.EINVAL, f"is not a regular file ({_kind(st.st_mode)})", os.fspath(path))
        size = st.st_size
        if size > MAX_BYTES:
            raise FileRefused(errno.EFBIG, f"is larger than {MAX_BYTES >> 20} MiB", os.fspath(path))
        # Ask for one byte more than fstat reported: getting exactly the size back means the end was
        # met, so the common case is one read call, not a second one that returns nothing.
        chunk = os.read(fd, size + 1)
        if len(chunk) == size:
            return chunk
        chunks = []
        total = 0
        while chunk:
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_BYTES:  # grew while read
                raise FileRefused(errno.EFBIG, f"is larger than {MAX_BYTES >> 20} MiB", os.fspath(path))
            chunk = os.read(fd, _CHUNK)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_generated(root: str | os.PathLike[str], rel: str) -> bytes | None:
    """The bytes of a generated file that the compiler reads back (the prompts manifest), or None.

    None when it is absent or refused, as every read of generated files refuses: a path
    through a symbolic link (which may lead out of the project; ``check`` reports it as
    ``unsafe-path``), or what is not a regular file (:func:`read_bytes`).
    """
    if first_link(root, rel):
        return None
    try:
        return read_bytes(os.path.join(root, rel))
    except OSError:
        return None


def first_link(root: str | os.PathLike[str], rel: str, seen: dict[str, bool] | None = None) -> str | None:
    """The first of ``rel``'s leading paths (``a``, ``a/b``, ... ``rel`` itself) that is a symbolic link, or None;
    ``seen`` keeps the answers across calls (many outputs share their folders)."""
    seen = {} if seen is None else seen
    parts = rel.split("/")
    for n in range(1, len(parts) + 1):
        prefix = "/".join(parts[:n])
        if prefix not in seen:
            seen[prefix] = os.path.islink(os.path.join(root, prefix))
        if seen[prefix]:
            return prefix
    return None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"

