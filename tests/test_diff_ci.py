"""The diff gate as CI runs it: the Action's `diff` step and the pre-commit hook's definition."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from diff_repo import edit, line_of, make_repo

ACTION = REPO / "scripts" / "contractc-action.sh"
WIDEN = ("kind: feature | fix | chore", "kind: feature | fix | chore | docs")

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("bash") is None, reason="needs git and bash"
)


def _action_diff(workspace: Path, tmp_path: Path, against: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    summary = tmp_path / "step_summary"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
    env.update(INPUT_ROOT="project", INPUT_DIFF_AGAINST=against, GITHUB_STEP_SUMMARY=str(summary))
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # this checkout's contractc
    done = subprocess.run(
        ["bash", str(ACTION), "diff"], cwd=workspace, env=env, capture_output=True, text=True, check=False
    )
    return done, summary


def test_action_diff_step_annotates_a_breaking_change_and_fails_the_job(tmp_path):
    workspace = tmp_path / "workspace"
    project = make_repo(workspace / "project")
    edit(project, "contracts/handoffs.md", *WIDEN)
    done, summary = _action_diff(workspace, tmp_path, "HEAD")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(
        f"::error file=project/contracts/handoffs.md,line={line_of('handoffs.md', '  kind: feature')},col=1,title=contractc breaking-receivers::breaking for receivers: "
    )
    assert summary.read_text().startswith("### contractc diff\n\ncontractc: 1 change(s) since HEAD, 1 breaking;")


def test_action_diff_step_is_skipped_without_a_ref(tmp_path):
    workspace = tmp_path / "workspace"
    make_repo(workspace / "project")
    done, summary = _action_diff(workspace, tmp_path, "")
    assert (done.returncode, done.stdout) == (0, "contractc action: no diff-against ref, contract diff skipped\n")
    assert not summary.exists()


def test_action_declares_the_diff_input_and_step():
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["inputs"]["diff-against"]["default"] == ""
    step = next(
        s
        for s in action["runs"]["steps"]
        if s["run"].endswith("contractc-action.sh\" diff'") or s["run"].endswith("diff")
    )
    assert step["env"]["INPUT_DIFF_AGAINST"] == "${{ inputs.diff-against }}"


def test_pre_commit_hook_runs_contractc_diff_with_the_users_ref(tmp_path, run_cli):
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    hook = hooks["contractc-diff"]
    assert (hook["entry"], hook["pass_filenames"], hook["language"]) == ("contractc diff", False, "python")
    assert hooks["contractc-check"]["entry"].startswith("contractc check")  # the check hook is still there
    # what pre-commit runs: the entry plus the args the user configures (see the file's comment)
    project = make_repo(tmp_path / "project")
    argv = shlex.split(hook["entry"])[1:] + ["--against", "HEAD", "--root", str(project)]
    assert run_cli(*argv).code == 0
    edit(project, "contracts/handoffs.md", *WIDEN)
    assert run_cli(*argv).code == 1
