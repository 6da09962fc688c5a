"""Whole-file reads with the fewest system calls, for the paths that read every target.

``Path.read_bytes`` builds a buffered file object around each file (an extra
``fstat``, ``ioctl`` and ``lseek``); for thousands of small files that costs
more than the reading.  Writes live in :mod:`contractc.output`.
"""

from __future__ import annotations

import os

_CHUNK = 1 << 16


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Every byte of the file at ``path`` (raises ``OSError`` like ``open``)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        chunks = []
        while chunk := os.read(fd, _CHUNK):
            chunks.append(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)
