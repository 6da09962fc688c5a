"""Targets are streamed: check and build hold one target file at a time, never all of them.

A plugin repository can hold tens of thousands of prompt files; a CI job that
checks them must not need memory in proportion.  The project here has 100
agent files of about 100 KB each (about 10 MB in all, each with a managed region
and a link), and the run's peak of traced allocations must stay far below the
size of the files together: reading them all, or the copies build would write,
would pass it many times over.  Allocation sizes are deterministic, so the
bound is not a timing.
"""

from __future__ import annotations

import tracemalloc

from conftest import ECHO_CONFIG, ECHO_CONTRACT, write_tree
from contractc.cli import main

FILES = 100
PROSE = "The echoer answers every call with one line; see [the check](../contracts/c.md#echoreturn-check-1).\n" * 500
TARGET = "# Agent {n}\n\n{prose}\n<!-- contractc:begin shape=echoreturn -->\n<!-- contractc:end -->\n\n{prose}"


def plugin(tmp_path):
    files = {f"agents/agent{n:03d}.md": TARGET.format(n=n, prose=PROSE) for n in range(FILES)}
    config = ECHO_CONFIG + "targets: [ agents/*.md ]\n"
    return write_tree(tmp_path, {"contractc.yaml": config, "contracts/c.md": ECHO_CONTRACT, **files})


def peak_of(*argv: str) -> tuple[int, int]:
    """(exit code, peak traced bytes) of one in-process run."""
    tracemalloc.start()
    try:
        code = main(list(argv))
        return code, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_check_and_build_hold_one_target_at_a_time(tmp_path, capsys):
    root = plugin(tmp_path)
    total = sum(p.stat().st_size for p in (root / "agents").iterdir())
    assert total > 9_000_000

    code, peak = peak_of("build", "--root", str(root))
    assert code == 0  # every region filled: 100 targets written (the changed ones are held until the all-or-nothing write)
    code, peak = peak_of("check", "--root", str(root), "--no-cache")
    assert code == 0
    assert "102 files checked, all current" in capsys.readouterr().out  # every target, the snippet, the manifest
    assert peak < total / 4, f"check --no-cache peaked at {peak} bytes for {total} bytes of targets"

    drifted = root / "agents/agent077.md"
    drifted.write_bytes(drifted.read_bytes().replace(b"echo: <text>", b"echo: <edited>"))
    code, peak = peak_of("check", "--root", str(root), "--no-cache")
    assert code == 1  # the hand edit is found and reported, with the same bound on memory
    assert "agents/agent077.md" in capsys.readouterr().out
    assert peak < total / 4
