"""scan and adopt on real hand-off material: the three-stage page of ../shared/seeds, pasted into a plugin.

Each stage's blocks go into the stage's orchestrator (under the stage heading),
and each stage's brief is pasted again into a specialist, as real plugins do;
one specialist's copy drifted by a comment.
"""

from __future__ import annotations

import re

import pytest

from conftest import write_tree
from contractc.scan import scan_plugin
from test_seed_handoffs import STAGES, described_elsewhere, rebuild

FENCE = re.compile(r"```yaml\n(?P<body>.*?)```\n", re.DOTALL)


@pytest.fixture
def plugin(seeds, tmp_path):
    page = described_elsewhere(rebuild((seeds / "page-handoff-contracts.txt").read_text("utf-8")))
    files = {}
    for n, stage in enumerate(STAGES):
        start = page.index(f"## {stage}")
        end = page.index(f"## {STAGES[n + 1]}") if n + 1 < len(STAGES) else len(page)
        section = page[start:end]
        name = stage.split()[1]
        files[f"agents/{name}-orchestrator.md"] = f"# {name} orchestrator\n\n{section}"
        brief = FENCE.search(section)["body"]
        files[f"agents/{name}-specialist.md"] = f"# {name} specialist\n\n## Your input\n\n```yaml\n{brief}```\n"
    drifted = files["agents/design-specialist.md"].replace("# the FULL requirement set", "# the requirement set", 1)
    assert drifted != files["agents/design-specialist.md"]
    files["agents/design-specialist.md"] = drifted
    return write_tree(tmp_path / "plugin", files)


def test_scan_tells_the_three_stages_apart_and_finds_the_one_drifted_brief(plugin):
    result = scan_plugin(plugin)
    ids = {g.id for g in result.groups}
    assert {
        "the-requirements-stage.generation_brief",
        "the-design-stage.generation_brief",
        "the-qa-stage.generation_brief",
    } <= ids
    # the two stages' formatter_result blocks share most keys: one shape, the second stage's an instance, not drift
    assert not [m for g in result.groups if g.key == "formatter_result" for m in g.members if m.divergent]
    divergent = [(g.id, u.block.path) for g in result.groups for u in g.divergent]
    assert divergent == [("the-design-stage.generation_brief", "agents/design-specialist.md")]


def test_adopt_compiles_the_real_notation_and_check_is_clean(plugin, run_cli):
    run = run_cli("adopt", str(plugin), "--write", "--accept-drift")
    assert run.code == 0, run.err
    check = run_cli("check", "--root", str(plugin), "--no-cache")
    assert check.code == 0, check.out
    assert "<!-- contractc:begin shape=the-design-stage.generation_brief sha256=" in (
        plugin / "agents/design-specialist.md"
    ).read_text()
