"""Hostile state between runs, interruption and concurrency (issue 22): nothing lost, nothing leaked.

Threat model (docs/reliability.md#threat-model): a pull request controls every tracked file,
``.contractc/`` included, and CI runs contractc with the runner's rights.  So a journal is
untrusted input: each forged journal below must give a located exit 2 and touch nothing --
not a canary outside the project, not a canary in ``.git``, not a byte of the tree.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ECHO_CONFIG, ECHO_CONTRACT, write_tree
from contractc.output import outputs as output
from contractc.cli import main
from contractc.output.journal import LEFTOVER
from test_bad_inputs import tree_state

RUN = "4242"
ORCHESTRATOR = "# Orchestrator\n\n<!-- contractc:begin section=shared -->\n<!-- contractc:end -->\n\nMine.\n"
CONFIG = ECHO_CONFIG + 'targets: ["agents/*.md"]\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A built project in a git repository, a canary beside it and one in its .git."""
    root = write_tree(tmp_path / "project", {"contractc.yaml": CONFIG, "contracts/c.md": ECHO_CONTRACT, "agents/o.md": ORCHESTRATOR})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".git/canary").write_text("in .git\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out/victim.txt").write_text("outside the project\n")
    assert main(["build", "--root", str(root)]) == 0
    return root


def _journal(root: Path, entries: list[dict], phase: str = "commit", folders: list[str] | None = None, run: str = RUN) -> None:
    (root / ".contractc").mkdir(exist_ok=True)
    (root / ".contractc/journal.json").write_text(json.dumps({"phase": phase, "run": run, "entries": entries, "folders": folders or []}))


def _entry(target: str, staged: bool = False) -> dict:
    folder, _, name = target.rpartition("/")
    prefix = f"{folder}/" if folder else ""
    return {"target": target, "tmp": f"{prefix}.{name}.{RUN}.contractc-tmp" if staged else None, "backup": f"{prefix}.{name}.{RUN}.contractc-bak"}


def _refused(root: Path, run_cli, code: str = "journal-refused") -> str:
    top = root.parent
    before = tree_state(top)
    for command in ("check", "build"):
        result = run_cli(command, "--root", str(root))
        assert result.code == 2, result.out + result.err
        assert f".contractc/journal.json:1:1: error[{code}]: " in result.err, result.err
        assert "Traceback" not in result.err
        assert tree_state(top) == before, f"{command} touched the tree"
    assert (top / "out/victim.txt").read_text() == "outside the project\n"
    assert (root / ".git/canary").read_text() == "in .git\n"
    return result.err


# --- the journal is untrusted input


def test_a_forged_journal_never_deletes_through_a_link_out_of_the_project(project, run_cli):
    (project / "link").symlink_to("../out", target_is_directory=True)
    _journal(project, [_entry("link/victim.txt")])
    err = _refused(project, run_cli)
    assert "link/victim.txt" in err


def test_a_forged_journal_in_the_old_form_is_not_read_either(project, run_cli):
    (project / "link").symlink_to("../out", target_is_directory=True)
    (project / ".contractc/journal.json").write_text(json.dumps({"phase": "commit", "entries": [{"target": "link/victim.txt", "tmp": None}], "folders": []}))
    _refused(project, run_cli, "file-unreadable")


@pytest.mark.parametrize("target", [".git/HEAD", ".git/config", ".GIT/config", ".contractc/outputs.json"])
def test_a_forged_journal_never_touches_git_or_contractc_state(project, run_cli, target):
    _journal(project, [_entry(".git/HEAD"), _entry(target)])
    _refused(project, run_cli)
    assert (project / ".git/HEAD").exists() and (project / ".git/config").exists()


def test_a_journal_entry_outside_the_configuration_is_refused(project, run_cli):
    (project / "notes.md").write_text("mine\n")
    _journal(project, [_entry("notes.md")])
    assert "not an output or target of this project's configuration" in _refused(project, run_cli)


def test_a_journal_entry_naming_files_the_staging_scheme_does_not_make_is_refused(project, run_cli):
    entry = {"target": "agents/o.md", "tmp": "contracts/c.md", "backup": "agents/.o.md.4242.contractc-bak"}
    _journal(project, [entry], phase="stage")
    assert "staging scheme" in _refused(project, run_cli)


def test_a_journal_entry_naming_a_folder_is_a_located_error(project, run_cli):
    (project / "prompts/echoer/sub").mkdir()
    _journal(project, [_entry("prompts/echoer/sub")])
    assert "is a folder" in _refused(project, run_cli)


def test_a_staged_file_that_is_a_link_is_refused(project, run_cli):
    os.symlink("../../../out/victim.txt", project / "prompts/echoer/.echoreturn.md.4242.contractc-tmp")
    _journal(project, [_entry("prompts/echoer/echoreturn.md", staged=True)])
    assert "symbolic link" in _refused(project, run_cli)


def test_a_journal_that_git_tracks_is_refused(project, run_cli):
    _journal(project, [_entry("prompts/echoer/echoreturn.md")])
    subprocess.run(["git", "-C", str(project), "add", "-f", ".contractc/journal.json"], check=True)
    assert "git tracks .contractc/journal.json" in _refused(project, run_cli)


def test_a_journal_that_is_a_link_is_not_followed(project, run_cli):
    (project.parent / "out/journal.json").write_text(json.dumps({"phase": "commit", "run": RUN, "entries": [], "folders": []}))
    os.symlink("../../out/journal.json", project / ".contractc/journal.json")
    _refused(project, run_cli, "file-unreadable")


# --- one run at a time


HOLD = """
import sys, time
from contractc.output.journal import hold
with hold(sys.argv[1]):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def _holder(root: Path, seconds: float) -> subprocess.Popen:
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(root), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "held\n"
    return child


def test_a_second_run_waits_then_stops_naming_the_holder(project, run_cli, monkeypatch):
    monkeypatch.setenv("CONTRACTC_LOCK_WAIT", "0.3")
    child = _holder(project, 30)
    try:
        (project / "contracts/c.md").write_text(ECHO_CONTRACT.replace("Read me.", "Read me twice."))
        before = tree_state(project)
        result = run_cli("build", "--root", str(project))
        assert result.code == 2
        assert "contractc: waiting for another contractc run (process " in result.err
        assert f".contractc/lock:1:1: error[locked]: another contractc run (process {child.pid}) holds the lock" in result.err
        assert tree_state(project) == before
    finally:
        child.kill()
        child.wait()
    assert run_cli("build", "--root", str(project)).code == 0  # the lock died with its holder


def test_check_beside_a_running_build_recovers_nothing(project, run_cli):
    """A journal and a staged file of a build that is running: check reads, and leaves them to it."""
    (project / "prompts/echoer/.echoreturn.md.4242.contractc-tmp").write_text("being written\n")
    _journal(project, [_entry("prompts/echoer/echoreturn.md", staged=True)], phase="stage")
    child = _holder(project, 30)
    try:
        before = tree_state(project)
        result = run_cli("check", "--root", str(project), "--no-cache")
        assert result.code == 0, result.err  # the running build's staged file is not a leftover
        assert tree_state(project) == before
    finally:
        child.kill()
        child.wait()
    result = run_cli("check", "--root", str(project), "--no-cache")  # the build died: now it is rolled back
    assert result.code == 0, result.err
    assert not (project / "prompts/echoer/.echoreturn.md.4242.contractc-tmp").exists()
    assert not (project / ".contractc/journal.json").exists()


def _fork(argv: list[str]) -> int:
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            code = main(argv)
        finally:
            os._exit(code)
    return pid


def _status(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _leftovers(root: Path) -> list[str]:
    found = [p.relative_to(root).as_posix() for p in root.rglob("*") if LEFTOVER.match(p.name) and ".git" not in p.parts]
    return found + [n for n in ("journal.json", "lock") if (root / ".contractc" / n).exists()]


def test_concurrent_builds_and_a_check_beside_a_build_never_fail(tmp_path):
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/c.md": ECHO_CONTRACT, **{f"agents/a{i}.md": ORCHESTRATOR for i in range(20)}})
    assert main(["build", "--root", str(root)]) == 0
    for n in range(30):
        (root / "contracts/c.md").write_text(ECHO_CONTRACT.replace("Read me.", f"Read me {n}."))
        pair = [_fork(["build", "--root", str(root)]), _fork(["build", "--root", str(root)])]
        assert [_status(pid) for pid in pair] == [0, 0], f"pair {n}"
        assert _leftovers(root) == [], f"pair {n}"
        assert f"Read me {n}." in (root / "agents/a7.md").read_text()
    for n in range(10):
        (root / "contracts/c.md").write_text(ECHO_CONTRACT.replace("Read me.", f"Check me {n}."))
        build = _fork(["build", "--root", str(root)])
        check = _fork(["check", "--root", str(root), "--no-cache"])
        assert _status(build) == 0, f"build beside check {n}"
        assert _status(check) in (0, 1), f"check beside build {n}"  # 1: it read before the build wrote
        assert _leftovers(root) == []
    assert main(["check", "--root", str(root), "--no-cache"]) == 0


# --- all or nothing


def _outputs(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("agents", "prompts", "schemas")
        for p in sorted((root / folder).rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def many(tmp_path: Path) -> Path:
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/c.md": ECHO_CONTRACT, **{f"agents/a{i:02d}.md": ORCHESTRATOR for i in range(12)}})
    assert main(["build", "--root", str(root)]) == 0
    (root / "contracts/c.md").write_text(ECHO_CONTRACT.replace("Read me.", "Read me again."))
    return root


@pytest.mark.parametrize("code", [errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT])
def test_a_failed_commit_restores_every_file_and_exits_2(many, run_cli, monkeypatch, code):
    before, tree = _outputs(many), tree_state(many)
    real = os.replace
    seen = []

    def failing(src, dst):
        if "contractc-tmp" in str(src):
            seen.append(dst)
            if len(seen) == 7:  # the seventh target: six are already replaced
                raise OSError(code, os.strerror(code), str(dst))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    result = run_cli("build", "--root", str(many))
    monkeypatch.undo()
    assert result.code == 2, result.err
    assert result.err.startswith(f"agents/a06.md:1:1: error[write-failed]: could not write agents/a06.md: {os.strerror(code)}; every file is as it was before this run")
    assert _outputs(many) == before and tree_state(many) == tree
    assert _leftovers(many) == []


def test_a_commit_whose_rollback_fails_keeps_the_journal_and_says_so(many, run_cli, monkeypatch):
    real = os.replace
    calls = []

    def failing(src, dst):
        calls.append((src, dst))
        if "contractc-tmp" in str(src) and str(dst).endswith("a05.md"):
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        if "contractc-bak" in str(src) and str(dst).endswith("a02.md"):  # restoring a02 fails too
            raise OSError(errno.EIO, "Input/output error", str(dst))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    result = run_cli("build", "--root", str(many))
    monkeypatch.undo()
    assert result.code == 2
    assert "1 file could not be restored (agents/a02.md): the journal .contractc/journal.json is kept, and the next contractc run finishes this build" in result.err
    assert (many / ".contractc/journal.json").exists()
    result = run_cli("build", "--root", str(many))
    assert result.code == 0 and "finished a build that was interrupted" in result.out + result.err, result.err
    assert _leftovers(many) == []
    assert run_cli("check", "--root", str(many), "--no-cache").code == 0


def test_an_immutable_target_is_rolled_back_where_the_file_system_allows_it(many, run_cli):
    victim = many / "agents/a04.md"
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(victim)], capture_output=True).returncode:
        pytest.skip("chattr +i is not supported here")
    try:
        before, tree = _outputs(many), tree_state(many)
        result = run_cli("build", "--root", str(many))
        assert result.code == 2 and "agents/a04.md:1:1: error[write-failed]" in result.err, result.err
        assert _outputs(many) == before and tree_state(many) == tree and _leftovers(many) == []
    finally:
        subprocess.run(["chattr", "-i", str(victim)], check=False)


def test_an_edit_made_while_build_writes_stops_it_and_is_kept(many, run_cli, monkeypatch):
    before = _outputs(many)
    real = output.journal.commit

    def commit_then_a_person_edits(*args):
        real(*args)
        (many / "agents/a03.md").write_text("# Orchestrator\n\nA person's edit, mid-build.\n")

    monkeypatch.setattr(output.journal, "commit", commit_then_a_person_edits)
    result = run_cli("build", "--root", str(many))
    monkeypatch.undo()
    assert result.code == 2
    assert result.err.startswith("agents/a03.md:1:1: error[file-changed]: agents/a03.md changed while contractc was writing")
    assert (many / "agents/a03.md").read_text() == "# Orchestrator\n\nA person's edit, mid-build.\n"
    after = _outputs(many)
    assert {p: h for p, h in after.items() if p != "agents/a03.md"} == {p: h for p, h in before.items() if p != "agents/a03.md"}
    assert _leftovers(many) == []


# --- Ctrl-C and SIGTERM on a 2,000-target build

N = 2_000


@pytest.fixture
def big(tmp_path):
    base = Path(tempfile.mkdtemp(dir="/dev/shm")) if os.path.isdir("/dev/shm") else tmp_path
    root = write_tree(base / "project", {"contractc.yaml": CONFIG, "contracts/c.md": ECHO_CONTRACT})
    (root / "agents").mkdir()
    for i in range(N):
        (root / f"agents/a{i:04d}.md").write_text(ORCHESTRATOR)
    yield root
    if base != tmp_path:
        shutil.rmtree(base)


def _signalled_build(root: Path, step: int, name: str, err: Path) -> int:
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            os.environ.update(CONTRACTC_TEST_KILL_AFTER=str(step), CONTRACTC_TEST_KILL_SIGNAL=name)
            output._KILL_AFTER[0] = -1
            sys.stderr = open(err, "w", buffering=1)  # noqa: SIM115  (the child ends with os._exit)
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
            code = main(["build", "--root", str(root)])
        finally:
            sys.stderr.flush()
            os._exit(code)
    return _status(pid)


def test_ctrl_c_at_any_point_of_a_large_build_leaves_all_old_or_all_new_and_says_which(big, tmp_path):
    assert main(["build", "--root", str(big)]) == 0
    states = {"v1": _outputs(big)}
    (big / "contracts/c.md").write_text(ECHO_CONTRACT.replace("Read me.", "v2."))
    assert main(["build", "--root", str(big)]) == 0
    states["v2"] = _outputs(big)
    changed = sum(states["v1"][p] != states["v2"][p] for p in states["v1"])
    assert changed >= N  # every region (and the prompts the shared section reaches)
    staged_end = 1 + changed  # steps: 1 before the journal, 1 per staged file, 2 per committed file
    last = staged_end + 2 * changed
    points = [("INT", 1), ("INT", changed // 2), ("INT", staged_end), ("INT", staged_end + 2), ("INT", staged_end + changed), ("TERM", last - 3), ("INT", last)]
    current = "v2"
    seen = set()
    for name, step in points:
        target = "v1" if current == "v2" else "v2"
        (big / "contracts/c.md").write_text(ECHO_CONTRACT.replace("Read me.", "v2.") if target == "v2" else ECHO_CONTRACT)
        err = tmp_path / "err.txt"
        code = _signalled_build(big, step, name, err)
        said = err.read_text()
        after = _outputs(big)
        assert code == 128 + getattr(signal, "SIG" + name), (step, said)
        assert _leftovers(big) == [], (step, _leftovers(big)[:3])
        if after == states[current]:
            assert said.strip().endswith("contractc: interrupted; every file is as it was before this run"), (step, said)
            seen.add("old")
        else:
            assert after == states[target], f"step {step}: a mix of old and new"
            assert "every file was written before it stopped" in said or f"wrote {changed} file(s), each whole and new" in said, (step, said)
            current = target
            seen.add("new")
    assert seen == {"old", "new"}


def test_a_staged_file_that_cannot_be_removed_keeps_the_journal_for_the_next_run(many, run_cli, monkeypatch):
    before = _outputs(many)
    real_replace, real_unlink = os.replace, os.unlink

    def replace(src, dst):
        if "contractc-tmp" in str(src) and str(dst).endswith("a03.md"):
            raise OSError(errno.EROFS, "Read-only file system", str(dst))
        return real_replace(src, dst)

    def unlink(path, *args, **kwargs):
        if str(path).endswith(".a07.md.%d.contractc-tmp" % os.getpid()):
            raise OSError(errno.EBUSY, "Device or resource busy", str(path))
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "unlink", unlink)
    result = run_cli("build", "--root", str(many))
    monkeypatch.undo()
    assert result.code == 2
    assert "every file is as it was before this run; 1 staged file could not be removed (agents/a07.md): the journal is kept" in result.err
    kept = {p: h for p, h in _outputs(many).items() if not LEFTOVER.match(p.rpartition("/")[2])}
    assert kept == before and (many / ".contractc/journal.json").exists()
    assert run_cli("check", "--root", str(many), "--no-cache").code == 1  # drift to build, nothing left over
    assert _leftovers(many) == []


def test_a_journal_folder_that_holds_none_of_its_targets_is_refused_and_kept(project, run_cli):
    """A forged stage journal listing the user's own empty folder: recovery removes only folders it made
    for a target it names, so the folder stays and nothing is touched."""
    (project / "src").mkdir()
    (project / "prompts/echoer/.echoreturn.md.4242.contractc-tmp").write_text("staged\n")
    _journal(project, [_entry("prompts/echoer/echoreturn.md", staged=True)], phase="stage", folders=["src"])
    err = _refused(project, run_cli)
    assert "the folder 'src' holds none of the journal's targets" in err
    assert (project / "src").is_dir()
