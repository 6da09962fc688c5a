"""The drift gate as users install it: the pre-commit hook and the GitHub Action's script.

Both install contractc from this checkout into a fresh environment with pip
(dependencies come from PyPI), so they take a while; they skip only when
pre-commit or git is absent.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, write_tree
from test_report import CHECKED, PIN, PROJECT, introduce

ACTION = REPO / "scripts" / "contractc-action.sh"
GIT_ID = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH pointing the child at this checkout's sources."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NO_COLOR")}
    return {**env, **GIT_ID, **extra}


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def _git(cwd: Path, *args: str) -> str:
    done = _run(["git", *args], cwd, _clean_env())
    assert done.returncode == 0, done.stderr
    return done.stdout


def _snapshot_checkout(dest: Path) -> str:
    """This checkout's tracked and untracked files as a one-commit repository; its commit id.

    pre-commit installs a hook repository at a commit, so uncommitted work is
    committed here rather than left out.
    """
    if _run(["git", "rev-parse", "--is-inside-work-tree"], REPO, _clean_env()).returncode:
        pytest.skip(f"{REPO} is not a git checkout: pre-commit installs hooks from a repository")
    names = _git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for name in filter(None, names):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    _git(dest, "init", "-q", "-b", "main")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-qm", "snapshot")
    return _git(dest, "rev-parse", "HEAD").strip()


def test_pre_commit_hook_refuses_a_commit_with_drift_and_accepts_it_fixed(tmp_path, run_cli):
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install -e '.[test]')")
    hook_repo = tmp_path / "contractc"
    hook_repo.mkdir()
    rev = _snapshot_checkout(hook_repo)

    # unpinned: after a reviewed contract change the pin would move too, which is not this test's point
    unpinned = PROJECT["contractc.yaml"].replace(f"    sha256: {PIN}\n", "")
    project = write_tree(tmp_path / "project", {**PROJECT, "contractc.yaml": unpinned})
    assert run_cli("build", "--root", str(project)).code == 0
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "contracts and their copies")
    hook = project / ".git" / "hooks" / "pre-commit"
    hook.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -m pre_commit try-repo "{hook_repo}" contractc-check --ref {rev}\n'
    )
    hook.chmod(0o755)
    env = _clean_env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-cache"))

    # the usual slip: the contract is edited, its copies are not rebuilt
    contract = project / "contracts/returns.md"
    contract.write_text(contract.read_text().replace("Always start", "Always begin"))
    _git(project, "add", "-A")
    refused = _run(["git", "commit", "-m", "reword a shared rule"], project, env)
    said = refused.stdout + refused.stderr  # git shows the hook's output on stderr
    assert refused.returncode != 0, said
    assert "contractc check" in said and "Failed" in said
    assert "prompts/looker/lookupreturn.md:3:1: error[drift-output]" in said
    assert "-Always start with `state:`.\n+Always begin with `state:`." in said
    assert (
        f"contractc: 4 drifted, {CHECKED} checked; run `contractc build` to fix" in said
    )  # what carries the reworded section; not the lookup_brief region, its schemas or their manifest
    assert _git(project, "rev-list", "--count", "HEAD").strip() == "1"

    assert run_cli("build", "--root", str(project)).code == 0
    _git(project, "add", "-A")
    accepted = _run(["git", "commit", "-m", "reword a shared rule"], project, env)
    said = accepted.stdout + accepted.stderr
    assert accepted.returncode == 0, said
    assert "contractc check" in said and "Passed" in said
    assert _git(project, "rev-list", "--count", "HEAD").strip() == "2"


def _action_copy(dest: Path) -> Path:
    """The Action's files (script, package sources) copied to ``dest``; the copied script."""
    for name in ("pyproject.toml", "README.md"):
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, dest / name)
    for name in ("compiler", "scripts", "site_templates"):
        shutil.copytree(REPO / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return dest / "scripts" / ACTION.name


def test_action_script_installs_contractc_and_annotates_drift(tmp_path, run_cli):
    workspace = tmp_path / "workspace"
    project = write_tree(workspace / "plugin", PROJECT)
    run_cli("build", "--root", str(project))
    introduce(project, "missing snippet")
    github_path, summary = tmp_path / "github_path", tmp_path / "step_summary"
    github_path.touch()
    # Installed from a copy: pip builds in place, and setuptools writes build/ beside the sources it builds.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "compiler", source / "compiler", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copytree(REPO / "site_templates", source / "site_templates")
    env = _clean_env(
        INPUT_ROOT="plugin",
        INPUT_SITE="auto",
        INPUT_PACKAGE=str(source),
        CONTRACTC_VENV=str(tmp_path / "venv"),
        GITHUB_PATH=str(github_path),
        GITHUB_STEP_SUMMARY=str(summary),
    )

    # The Action installs its own copy of the repository; pip builds in place (build/), so run it from a copy.
    action = _action_copy(tmp_path / "action")
    installed = _run(["bash", str(action), "install"], workspace, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert installed.stdout.startswith("contractc, version ")
    bin_dir = github_path.read_text().strip()
    assert bin_dir == str(tmp_path / "venv" / "bin")
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"

    drift = _run(["bash", str(ACTION), "check"], workspace, env)
    assert drift.returncode == 1, drift.stdout + drift.stderr
    assert drift.stdout.startswith(
        "::error file=plugin/prompts/reporter/reportreturn.md,title=contractc drift-missing::prompts output has not been generated"
    )
    assert (
        summary.read_text()
        == f"### contractc check\n\ncontractc: 1 drifted, {CHECKED} checked; run `contractc build` to fix\n"
    )

    run_cli("build", "--root", str(project))
    clean = _run(["bash", str(ACTION), "check"], workspace, env)
    assert (clean.returncode, clean.stdout) == (0, f"contractc: {CHECKED} files checked, all current\n")

    skipped = _run(["bash", str(ACTION), "site"], workspace, env)
    assert skipped.returncode == 0 and "site build skipped" in skipped.stdout


def test_action_site_step_builds_strict_when_there_is_a_mkdocs_yml(tmp_path):
    pytest.importorskip("mkdocs")
    workspace = write_tree(
        tmp_path,
        {"plugin/mkdocs.yml": "site_name: t\n", "plugin/docs/index.md": "# Home\n\nSee [the guide](guide.md).\n"},
    )
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    env = _clean_env(INPUT_ROOT="plugin", INPUT_SITE="auto", PATH=path)
    broken = _run(["bash", str(ACTION), "site"], workspace, env)
    assert broken.returncode == 1 and "guide.md" in broken.stderr, broken.stderr
    write_tree(workspace, {"plugin/docs/guide.md": "# Guide\n"})
    built = _run(["bash", str(ACTION), "site"], workspace, env)
    assert built.returncode == 0, built.stderr
    assert (workspace / "plugin" / "site" / "guide" / "index.html").is_file()
    assert _run(["bash", str(ACTION), "site"], workspace, {**env, "INPUT_SITE": "maybe"}).returncode == 2
