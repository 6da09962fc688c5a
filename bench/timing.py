"""Timing whole processes from outside: spawn, wait, read the child's peak RSS.

The machine's speed drifts 10-20 % within minutes, so absolute times from
different moments are not comparable: every comparison here is a *paired ratio*
of two commands run back to back in the same round, and rounds alternate the
commands (A B A B ...) after one untimed warm-up of each.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

TIME = shutil.which("time", path="/usr/bin:/bin")

DEFAULT_REPS = {10: 21, 100: 15, 1000: 11, 5000: 11}
"""Timed rounds per corpus size N (``check`` rows)."""
SITE_REPS = {10: 9, 100: 15, 500: 3}
"""Timed rounds per site size P: a `mkdocs build` of P = 100 takes seconds and differs from the plugin's by a
few per cent, while single pairs on a shared machine spread from 0.8 to 1.3, so seven rounds decided little;
P = 500 takes half a minute a build."""


@dataclass(frozen=True)
class Command:
    """One process to time: a label, its argv and its working folder."""

    label: str
    argv: tuple[str, ...]
    cwd: Path
    env: dict[str, str] | None = None


@dataclass
class Samples:
    """Wall times (seconds) of the timed runs of one command, the CPU time (user + system, seconds) of each of
    those runs, and its peak RSS (KiB) from separate runs."""

    seconds: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def peak_rss(self) -> int:
        return max(self.rss_kib, default=0)


def timed(cmd: Command) -> tuple[float, float, int]:
    """Run ``cmd`` once with its output discarded; return (wall seconds, CPU seconds, exit code)."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    env = cmd.env if cmd.env is not None else dict(os.environ)
    cwd = os.getcwd()
    os.chdir(cmd.cwd)  # posix_spawn has no cwd argument; the harness is single-threaded
    try:
        start = time.perf_counter()
        pid = os.posix_spawn(cmd.argv[0], list(cmd.argv), env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        os.chdir(cwd)
    return elapsed, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def peak_rss(cmd: Command) -> int:
    """The child's peak RSS in KiB, read by ``/usr/bin/time`` (a small parent).

    Linux keeps ``ru_maxrss`` across ``execve``, so a child spawned straight from
    this (large) harness would report at least the harness's own size.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as out:
        subprocess.run(
            [TIME, "-f", "%M", "-o", out.name, *cmd.argv],
            cwd=cmd.cwd,
            env=cmd.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        return int(out.read().strip().splitlines()[-1])


def captured(cmd: Command) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` once, untimed, keeping its output (for the fail-first proof and line counts)."""
    return subprocess.run(cmd.argv, cwd=cmd.cwd, env=cmd.env, capture_output=True, text=True, check=False)


def rounds(
    commands: Sequence[Command],
    reps: int,
    before: Callable[[Command], None] | None = None,
    expect: int | None = 0,
) -> dict[str, Samples]:
    """One untimed warm-up of each command, then ``reps`` rounds running each in turn.

    ``before`` runs untimed ahead of every run (to re-drift a corpus that the
    command repairs).  A run whose exit code is not ``expect`` aborts the
    benchmark: a command that fails is not measured.
    """
    samples = {c.label: Samples() for c in commands}
    for rep in range(reps + 1):
        for cmd in commands:
            if before:
                before(cmd)
            seconds, cpu, code = timed(cmd)
            if expect is not None and code != expect:
                raise RuntimeError(f"{cmd.label}: exit {code}, expected {expect} ({' '.join(cmd.argv)} in {cmd.cwd})")
            if rep:  # round 0 is the warm-up
                samples[cmd.label].seconds.append(seconds)
                samples[cmd.label].cpu.append(cpu)
    if TIME and before is None:
        for cmd in commands:
            samples[cmd.label].rss_kib.extend(peak_rss(cmd) for _ in range(2))
    return samples


def paired_ratio(a: Samples, b: Samples, cpu: bool = False) -> float:
    """Median over rounds of a/b, each pair timed back to back (``cpu``: of their CPU times, not wall times)."""
    xs, ys = (a.cpu, b.cpu) if cpu else (a.seconds, b.seconds)
    return statistics.median(x / y for x, y in zip(xs, ys, strict=True))
