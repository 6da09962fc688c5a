"""The example plugin under examples/ is built, current, and reports drift the way the docs say."""

from __future__ import annotations

import shutil

import pytest

from conftest import REPO, snapshot

EXAMPLE = REPO / "examples" / "review-plugin"
TARGETS = ["agents/code-reviewer.md", "agents/review-orchestrator.md", "skills/reviewing-changes/SKILL.md"]


@pytest.fixture
def plugin(tmp_path):
    return shutil.copytree(EXAMPLE, tmp_path / "plugin")


def test_the_committed_example_is_current(run_cli):
    result = run_cli("check", "--root", str(EXAMPLE), "--no-cache")  # --no-cache: tests never write into the tree
    assert result.code == 0, result.out + result.err
    for target in TARGETS:
        assert b"<!-- contractc:begin " in (EXAMPLE / target).read_bytes(), target


def test_build_writes_nothing_and_the_role_prompt_is_body_plus_bundle(plugin, run_cli):
    before = snapshot(plugin)
    assert run_cli("build", "--root", str(plugin)).out.startswith("contractc: 0 written, ")
    assert snapshot(plugin) == before
    full = (plugin / "prompts/code-reviewer/findingsreturn.full.md").read_bytes()
    role = (plugin / "agents/code-reviewer.md").read_bytes()
    body = role[role.index(b"---\n", 4) + 4 :]
    assert body.count(b"<!-- contractc:") == 2  # the role file's region: its markers stay in the role file
    body = b"".join(line for line in body.splitlines(keepends=True) if not line.startswith(b"<!-- contractc:"))
    assert full == body + (plugin / "prompts/code-reviewer/findingsreturn.md").read_bytes()  # the prompt without them


def test_editing_a_contract_makes_every_copy_stale_until_build(plugin, run_cli):
    handoff = plugin / "contracts/handoff.md"
    handoff.write_text(handoff.read_text().replace("security | style", "security | style | docs"))
    result = run_cli("check", "--root", str(plugin), "--no-diff")
    assert result.code == 1
    stale = [line for line in result.out.splitlines() if "error[" in line]
    assert stale == [
        "agents/code-reviewer.md:10:1: error[drift-region-stale]: region shape=review_brief is stale: its source in the contract changed since the last build",
        "agents/review-orchestrator.md:9:1: error[drift-region-stale]: region shape=review_brief is stale: its source in the contract changed since the last build",
        "prompts/code-reviewer/findingsreturn.full.md:9:1: error[drift-output]: differs from what the contracts compile to",
        "schemas/handoff/review_brief.artifact.schema.json:4:1: error[drift-output]: differs from what the contracts compile to",
        "schemas/handoff/review_brief.schema.json:4:1: error[drift-output]: differs from what the contracts compile to",
        "schemas/manifest.json:6:1: error[drift-output]: differs from what the contracts compile to",
    ]
    assert run_cli("build", "--root", str(plugin)).code == 0
    assert run_cli("check", "--root", str(plugin)).code == 0
