"""Formatter safety: a real Markdown formatter run over targets cannot change a region unnoticed."""

from __future__ import annotations

import shutil

import mdformat

from conftest import REPO
from contractc.load.targets import scan_regions

EXAMPLE = REPO / "examples" / "review-plugin"
TARGETS = ["agents/code-reviewer.md", "agents/review-orchestrator.md", "skills/reviewing-changes/SKILL.md"]


def test_every_region_mdformat_touches_is_reported_as_edited(tmp_path, run_cli):
    root = shutil.copytree(EXAMPLE, tmp_path / "plugin")
    touched, kept = set(), set()
    for target in TARGETS:
        path = root / target
        before = path.read_bytes()
        path.write_text(mdformat.text(before.decode()))
        after = path.read_bytes()
        old, new = scan_regions(target, before, None), scan_regions(target, after, None)
        assert [r.label for r in old] == [r.label for r in new]
        for was, now in zip(old, new):
            if before[was.content.start : was.content.end] != after[now.content.start : now.content.end]:
                # an instance region's bytes are the user's: a formatter that keeps its structure is no drift
                (kept if now.kind == "instance" else touched).add((target, now.marker.line, now.label))
    assert touched, "mdformat changed no region: pick contract text it rewrites"
    result = run_cli("check", "--root", str(root), "--no-diff")
    assert result.code == 1
    reported = {
        (line.split(":")[0], int(line.split(":")[1]), line.split("region ")[1].split(" ")[0])
        for line in result.out.splitlines()
        if "error[drift-region-edited]" in line
    }
    assert reported == touched
    assert kept and not any(f":{line}:" in result.out for _, line, _ in kept)  # not reported at all
