"""Progress on long runs: a line on a terminal's stderr, redrawn with ``\\r`` and cleared before the output.

The commands run as a user runs them, in a subprocess, with stderr on a pseudo-terminal
(``os.openpty``) or a pipe.  ``CONTRACTC_PROGRESS_AFTER=0`` (internal, for tests) makes
the line appear at once instead of after a second of work, so these small projects
show it.  Without a terminal, and on one when the run is quiet, machine-read or in
CI, the bytes are exactly what the in-process run (the one every golden test
asserts on) prints.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
import tty
from pathlib import Path

import pytest

from contractc.cli import main
from trial_plugin import write_plugin

# every draw is "\r" + text (+ blanks over a longer previous text); the clear is "\r" + blanks + "\r"
PROGRESS = re.compile(rb"\A((?:\r[^\r\n]+)+)\r +\r")


def run_contractc(args: list[str], terminal: bool, **env: str) -> tuple[int, bytes, bytes]:
    """Exit code, stdout and stderr of ``contractc ARGS``; stderr on a 100-column terminal when ``terminal``."""
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR")}
    environ.update({"TERM": "xterm", "NO_COLOR": "1", "CONTRACTC_PROGRESS_AFTER": "0", **env})
    command = [sys.executable, "-m", "contractc", *args]
    if not terminal:
        done = subprocess.run(command, capture_output=True, stdin=subprocess.DEVNULL, env=environ, check=False)
        return done.returncode, done.stdout, done.stderr
    master, slave = os.openpty()
    tty.setraw(slave)  # no "\n" -> "\r\n": the bytes as contractc writes them
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=environ)
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the terminal's last writer has exited
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    out = proc.stdout.read()  # type: ignore[union-attr]
    proc.wait()
    reader.join()
    os.close(master)
    return proc.returncode, out, b"".join(chunks)


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    """The trial plugin as found (scan, adopt), and adopted with one region edited by hand (check, build, diff)."""
    base = tmp_path_factory.mktemp("progress")
    plugin = write_plugin(base / "sdlc")
    adopted = base / "adopted"
    shutil.copytree(plugin, adopted)
    assert main(["adopt", str(adopted), "--write", "--accept-drift"]) == 0
    agent = adopted / "agents/fr-specialist.md"
    data = agent.read_bytes()
    assert b"created_at:" in data
    agent.write_bytes(data.replace(b"created_at:", b"created_on:", 1))  # a hand edit inside a managed region
    contract = next((adopted / "contracts").glob("*.md"))
    older = base / "older" / contract.name  # the contract before created_at was added: a breaking change
    older.parent.mkdir()
    older.write_bytes(re.sub(rb"\n *created_at:[^\n]*", b"", contract.read_bytes(), count=1))
    return plugin, adopted, older


COMMANDS = {
    "scan": lambda p, a, o: ["scan", str(p)],
    "adopt": lambda p, a, o: ["adopt", str(p)],
    "check": lambda p, a, o: ["check", "--root", str(a), "--no-cache"],
    "build": lambda p, a, o: ["build", "--root", str(a)],
    "diff": lambda p, a, o: ["diff", "--root", str(a), "--against-path", str(o)],
}
STAGES = {
    "scan": (b"reading files 0/",),
    "adopt": (b"reading files 0/", b"compiling the plan", b"refilling targets 0/"),
    "check": (b"loading contracts", b"checking targets 0/", b"finding drift"),
    "build": (b"loading contracts", b"checking targets 0/", b"finding drift"),
    "diff": (b"reading contracts", b"comparing with "),
}


def in_process(capsys, args: list[str]) -> tuple[int, bytes, bytes]:
    capsys.readouterr()
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out.encode(), captured.err.encode()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_on_a_terminal_the_stages_are_drawn_on_stderr_and_cleared_before_the_output(command, projects, capsys):
    args = COMMANDS[command](*projects)
    code, out, err = in_process(capsys, args)
    assert (code, out, err) != (0, b"", b"")  # each command has something to say here

    tty_code, tty_out, tty_err = run_contractc(args, terminal=True)
    drawn = PROGRESS.match(tty_err)
    assert drawn, f"no progress line, or one not cleared, at the start of stderr: {tty_err[:300]!r}"
    assert all(stage in drawn.group(1) for stage in STAGES[command]), drawn.group(1)
    draws = drawn.group(1).split(b"\r")[1:]
    blanks = len(drawn.group(0)) - len(drawn.group(1)) - 2
    assert blanks >= len(draws[-1].rstrip())  # the clear covers every character the last draw left
    assert max(len(draw) for draw in draws) < 100  # never wider than the terminal: a wrapped line cannot be redrawn
    # once cleared, the command prints exactly what it prints without a terminal
    assert (tty_code, tty_out, tty_err[drawn.end() :]) == (code, out, err)

    pipe = run_contractc(args, terminal=False)
    assert pipe == (code, out, err)  # no terminal: byte for byte what it printed before progress existed
    assert b"\r" not in pipe[2]


@pytest.mark.parametrize(
    ("extra", "env"),
    [
        (["-q"], {}),
        (["--format", "json"], {}),
        ([], {"CI": "true"}),
        ([], {"TERM": "dumb"}),
        ([], {"CONTRACTC_PROGRESS_AFTER": "3600"}),  # work shorter than the wait shows nothing
    ],
    ids=["quiet", "json", "CI", "dumb-terminal", "fast-run"],
)
def test_on_a_terminal_nothing_is_drawn_when_quiet_machine_read_in_ci_or_fast(extra, env, projects, capsys):
    args = [*COMMANDS["check"](*projects), *extra]
    expected = in_process(capsys, args)
    assert expected[0] == 1  # the hand edit is reported
    got = run_contractc(args, terminal=True, **env)
    assert b"\r" not in got[2]
    assert got == expected


def test_the_line_is_cut_to_the_terminal_and_shorter_texts_blank_out_the_longer(monkeypatch):
    """The reporter itself, on a fake 20-column terminal: a long stage is cut, a short one leaves no tail."""
    import io

    from contractc.report import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

        def fileno(self) -> int:
            raise io.UnsupportedOperation  # get_terminal_size cannot ask: 80 columns

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setenv(progress.AFTER_ENV, "0")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    with progress.shown():
        progress.stage("x" * 200)
        progress.stage("short")
        assert list(progress.counted(range(3), "items", 3)) == [0, 1, 2]
        progress.end()
        progress.stage("after the end")  # the output has begun: nothing more is drawn
    assert screen.getvalue() == "\r" + "x" * 79 + "\rshort" + " " * 74 + "\ritems 0/3" + "\r" + " " * 9 + "\r"
    assert progress.counted(range(3), "items") == range(3)  # outside a command: the iterable itself, uncounted
