"""Progress on long runs: one line on stderr (``checking targets 1200/5000``), redrawn with ``\\r``.

Shown only while a command runs inside :func:`shown`, and only when stderr is a
terminal, the run is not ``--quiet``, its format is ``text``, ``CI`` is not set,
``TERM`` is not ``dumb``, and the work has already taken more than a second.  So
fast runs, pipes and every CI log print exactly what they print without it.  The
line is cleared (blanks, then ``\\r``) before the command's own output.

The CLI wraps each long command in :func:`shown` and calls :func:`end` before it
prints.  The stages report through :func:`stage` (once per stage) and :func:`counted` (an
iterable, counted as it is consumed).  When nothing is shown both return at once,
and :func:`counted` hands back its iterable itself, so the per-item cost is nil.
Standard library only, and imported by the stages where they run.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO, TypeVar

T = TypeVar("T")

AFTER_ENV = "CONTRACTC_PROGRESS_AFTER"
"""Internal, for tests: the seconds of work before the first line (default :data:`AFTER`)."""
AFTER = 1.0
EVERY = 128
"""Items between two looks at the clock in :func:`counted`."""
REDRAW = 0.1
"""Seconds between two redraws, at most ten a second."""


class _Line:
    """The one line being drawn on a terminal."""

    __slots__ = ("stream", "start", "after", "width", "drawn", "columns")

    def __init__(self, stream: TextIO, after: float) -> None:
        self.stream = stream
        self.start = time.monotonic()
        self.after = after
        self.width = 0
        self.drawn = float("-inf")
        try:
            self.columns = os.get_terminal_size(stream.fileno()).columns or 80  # 0: a terminal that says nothing
        except (AttributeError, ValueError, OSError):
            self.columns = 80

    def draw(self, text: str, force: bool = False) -> None:
        now = time.monotonic()
        if now - self.start < self.after or (not force and now - self.drawn < REDRAW):
            return
        text = text[: max(self.columns - 1, 1)]  # a wrapped line could not be redrawn in place
        self.stream.write("\r" + text + " " * max(self.width - len(text), 0))
        self.stream.flush()
        self.width, self.drawn = len(text), now

    def clear(self) -> None:
        if self.width:  # blanks rather than an escape sequence: every terminal honours them
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


_line: _Line | None = None


def wanted(stream: TextIO, quiet: bool = False, fmt: str = "text") -> bool:
    """Whether progress may be drawn on ``stream``: a terminal, text for people, and not in CI."""
    if quiet or fmt != "text" or os.environ.get("TERM") == "dumb":
        return False
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@contextmanager
def shown(quiet: bool = False, fmt: str = "text") -> Iterator[None]:
    """Draw the stages' progress on stderr while the body runs (when :func:`wanted`); clear it after."""
    global _line
    stream = sys.stderr
    if _line is not None or not wanted(stream, quiet, fmt):
        yield
        return
    try:
        after = float(os.environ.get(AFTER_ENV, AFTER))
    except ValueError:
        after = AFTER
    _line = _Line(stream, after)
    try:
        yield
    finally:
        end()


def end() -> None:
    """The work is done: clear the line, before the command prints its output, and draw no more."""
    global _line
    line, _line = _line, None
    if line is not None:
        line.clear()


def stage(name: str) -> None:
    """A stage begins: ``name`` replaces the line (once the run has taken long enough)."""
    if _line is not None:
        _line.draw(name, force=True)


def counted(items: Iterable[T], name: str, total: int | None = None) -> Iterable[T]:
    """``items`` as they are, counted into the line as ``name done/total`` while they are consumed."""
    if _line is None:
        return items
    return _counting(_line, items, name, total)


def _counting(line: _Line, items: Iterable[T], name: str, total: int | None) -> Iterator[T]:
    of = f"/{total}" if total is not None else ""
    line.draw(f"{name} 0{of}", force=True)
    done = 0
    for item in items:
        yield item
        done += 1
        if not done % EVERY:
            line.draw(f"{name} {done}{of}")
