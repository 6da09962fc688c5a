"""Bytes in and out: whole-file reads with the fewest system calls, and the one JSON output format.

``Path.read_bytes`` builds a buffered file object around each file (an extra
``fstat``, ``ioctl`` and ``lseek``); for thousands of small files that costs
more than the reading.  Writes live in :mod:`contractc.output`.
"""

from __future__ import annotations

import os
from typing import Any

_CHUNK = 1 << 16


def dump_json(value: Any) -> bytes:
    """Pretty, stable, newline-terminated JSON: the one JSON format of every output."""
    import json

    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


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
