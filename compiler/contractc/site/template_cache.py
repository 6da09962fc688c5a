"""The site templates' compiled code, kept between runs in jinja2's own on-disk cache.

Compiling the six templates costs a ``mkdocs build`` of a hundred pages more than
rendering them, and each build is a new process.  jinja2's
:class:`~jinja2.FileSystemBytecodeCache` keeps the compiled code in a folder of the
system temp dir that it makes for the user alone (mode 0700, owner checked), writes
each file atomically and compiles again a template whose source changed.  The file
names carry a digest of everything else that shapes the compiled code (the jinja2
version and the environment's options), so no other version or setting reads them.
A cache that cannot be read or written is a miss: it never fails a build.
"""

from __future__ import annotations

import hashlib
import pickle

import jinja2
from jinja2.bccache import Bucket, FileSystemBytecodeCache


class _MissOnError(FileSystemBytecodeCache):
    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
            bucket.reset()  # unreadable: compiled afresh, and written again

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass  # a full or read-only temp dir: the next build compiles again


def compiled_templates_cache(options: dict, filters: dict) -> FileSystemBytecodeCache | None:
    """The cache for an environment made with ``options`` and given ``filters`` (whose names, and the
    arguments jinja2 passes each, are compiled in); None when the system has no temp dir jinja2 deems safe."""
    shape = (
        jinja2.__version__,
        sorted((name, repr(value)) for name, value in options.items()),
        sorted((name, repr(getattr(f, "jinja_pass_arg", None))) for name, f in filters.items()),
    )
    digest = hashlib.sha256(repr(shape).encode()).hexdigest()[:16]
    try:
        return _MissOnError(pattern=f"__contractc_site_{digest}_%s.cache")
    except (OSError, RuntimeError):  # RuntimeError: jinja2 found the folder not safely the user's own
        return None
