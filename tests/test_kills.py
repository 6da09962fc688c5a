"""A build killed outright (SIGKILL) at any point is finished or undone by the next run: all old or all new.

The project has 2,000 target files whose managed region holds a shared
section, so editing that section changes 2,002 files (the regions, the snippet and the
prompts manifest).  A forked child runs ``contractc build`` and SIGKILLs
itself at an exact step of the write (``CONTRACTC_TEST_KILL_AFTER``, counted
by :mod:`contractc.output.outputs`): before the journal, while staging, between
staging and commit, and all through the commit.  The next run -- ``build``
and ``check`` by turns -- must leave every file all old or all new, no
``.contractc-tmp``/``.contractc-bak`` file and no journal.  Each round flips
the contract, so the next kill interrupts a full change again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

from contractc.output import outputs as output
from contractc.cli import main
from contractc.output.journal import LEFTOVER

N = 2_000
CONTRACT = "# C\n\n## Shared\n\nRule {version}.\n\n## EchoReturn\n\nProduced by `echoer`; consumed by `echo-skill`.\n\n```\necho: <text>\n```\n"
CONFIG = 'contracts:\n  - path: contracts/c.md\n    shared: [shared]\ntargets: ["agents/*.md"]\n'


@pytest.fixture
def big(tmp_path):
    # a RAM disk when there is one: 2,000 renames a round on a loaded shared disk cost seconds, not the rule
    base = Path(tempfile.mkdtemp(dir="/dev/shm")) if os.path.isdir("/dev/shm") else tmp_path
    root = base / "project"
    (root / "contracts").mkdir(parents=True)
    (root / "agents").mkdir()
    (root / "contractc.yaml").write_text(CONFIG)
    (root / "contracts/c.md").write_text(CONTRACT.format(version="v1"))
    for i in range(N):
        (root / f"agents/a{i:04d}.md").write_text(f"# Agent {i}\n\n<!-- contractc:begin section=shared -->\n<!-- contractc:end -->\n\nMine {i}.\n")
    yield root
    if base != tmp_path:
        shutil.rmtree(base)


def outputs(root: Path) -> dict[str, str]:
    found = {}
    for folder in ("agents", "prompts"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file():
                found[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def leftovers(root: Path) -> list[str]:
    found = [p.relative_to(root).as_posix() for p in root.rglob("*") if LEFTOVER.match(p.name)]
    if (root / ".contractc/journal.json").exists():
        found.append(".contractc/journal.json")
    return found


def killed_build(root: Path, step: int) -> int:
    """Fork a child that builds and SIGKILLs itself at write step ``step``; its exit status."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.environ["CONTRACTC_TEST_KILL_AFTER"] = str(step)
            output._KILL_AFTER[0] = -1
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            main(["build", "--root", str(root)])
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return status


def test_a_killed_build_ends_all_old_or_all_new_and_leaves_nothing_behind(big, capsys):
    assert main(["build", "--root", str(big)]) == 0
    states = {"v1": outputs(big)}
    (big / "contracts/c.md").write_text(CONTRACT.format(version="v2"))
    assert main(["build", "--root", str(big)]) == 0
    states["v2"] = outputs(big)
    changed = sum(states["v1"][p] != states["v2"][p] for p in states["v1"])
    assert changed == N + 2  # every region, the dispatch snippet and the manifest
    capsys.readouterr()

    # write steps: 1 before the journal, 1 per staged file, 2 per committed file (backup, replace)
    staged_end = 1 + changed
    last = staged_end + 2 * changed
    steps = sorted(
        {1, 2, 3, changed // 2, staged_end - 1, staged_end, staged_end + 1, staged_end + 2, last - 1, last}
        | {staged_end + j * (2 * changed) // 12 for j in range(1, 12)}
    )
    assert len(steps) >= 20
    current = "v2"
    outcomes = {"old": 0, "new": 0}
    for n, step in enumerate(steps):
        target = "v1" if current == "v2" else "v2"
        (big / "contracts/c.md").write_text(CONTRACT.format(version=target))
        status = killed_build(big, step)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"step {step} was not reached"

        command = "build" if n % 2 == 0 else "check"
        code = main([command, "--root", str(big)])
        said = capsys.readouterr()
        after = outputs(big)
        assert after in (states[current], states[target]), f"killed at step {step}: a mix of old and new files after {command}"
        assert leftovers(big) == [], f"killed at step {step}: {command} left {leftovers(big)[:3]}"
        if command == "build":
            assert code == 0 and after == states[target], said
        else:  # check finished the build (all new: clean) or undid it (all old: drift to report)
            assert code == (0 if after == states[target] else 1), said
        outcomes["new" if after == states[target] else "old"] += 1
        current = target if after == states[target] else current
    # the kills before the commit phase were rolled back, those after it finished
    assert outcomes["old"] >= 1 and outcomes["new"] >= 1


def test_check_reports_leftovers_of_a_build_without_a_journal_and_build_removes_them(tmp_path, run_cli):
    root = tmp_path
    (root / "contracts").mkdir()
    (root / "contractc.yaml").write_text(CONFIG.replace('targets: ["agents/*.md"]\n', ""))
    (root / "contracts/c.md").write_text(CONTRACT.format(version="v1"))
    assert run_cli("build", "--root", str(root)).code == 0
    snippet = root / "prompts/echoer/echoreturn.md"
    (snippet.parent / ".echoreturn.md.4242.contractc-tmp").write_bytes(b"half a file")
    os.replace(snippet, snippet.parent / ".echoreturn.md.4242.contractc-bak")  # an orphan removal cut short

    result = run_cli("check", "--root", str(root), "--no-diff")
    assert result.code == 1
    assert "prompts/echoer/.echoreturn.md.4242.contractc-tmp:1:1: error[leftover]: left by a build that was interrupted" in result.out
    assert "prompts/echoer/.echoreturn.md.4242.contractc-bak:1:1: error[leftover]" in result.out

    assert run_cli("build", "--root", str(root)).code == 0
    assert sorted(p.name for p in snippet.parent.iterdir()) == ["echoreturn.md"]
    assert run_cli("check", "--root", str(root)).code == 0
