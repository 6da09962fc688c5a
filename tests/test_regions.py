"""Managed regions as a user meets them: build fills them byte-exact, check says why one drifted."""

from __future__ import annotations

import hashlib
import os
import re

import pytest

from conftest import snapshot, write_tree
from region_project import BRIEFS, RETURNS, project_files, section

AGENT = """\
# Orchestrator

Hand the planner this brief:

<!-- contractc:begin shape=planning.task_brief -->
<!-- contractc:end -->

Then wait.
"""
SKILL = """\
Dispatch with:

<!-- contractc:begin bundle=echoreturn -->
<!-- contractc:end -->
<!-- contractc:begin section=shared-forms,contracts/briefs.md#building -->
<!-- contractc:end -->
<!-- contractc:begin shape=echoreturn -->
<!-- contractc:end -->
<!-- contractc:begin shape=report -->
<!-- contractc:end -->
"""
_MARKER = re.compile(rb"<!-- contractc:begin (\S+) sha256=([0-9a-f]{64}) -->\n(.*?)<!-- contractc:end -->", re.DOTALL)


@pytest.fixture
def project(tmp_path):
    return write_tree(tmp_path, project_files(**{"agents/orchestrator.md": AGENT, "skills/echo/SKILL.md": SKILL}))


@pytest.fixture
def built(project, run_cli):
    result = run_cli("build", "--root", str(project))
    assert result.code == 0, result.err
    return project


def regions(path) -> dict[str, tuple[str, bytes]]:
    """label -> (recorded sha256, bytes) of every region in a built file."""
    return {m[1].decode(): (m[2].decode(), m[3]) for m in _MARKER.finditer(path.read_bytes())}


def test_build_fills_each_kind_of_region_with_the_exact_contract_bytes(built, run_cli):
    skill = regions(built / "skills/echo/SKILL.md")
    planning = section(BRIEFS, "## Planning")
    assert (
        regions(built / "agents/orchestrator.md")["shape=planning.task_brief"][1]
        == planning[planning.index("```") :].rstrip("\n").encode() + b"\n"
    )
    assert b"# \xe2\x86\x90 TRANSIENT" in regions(built / "agents/orchestrator.md")["shape=planning.task_brief"][1]
    assert (
        skill["bundle=echoreturn"][1]
        == (section(RETURNS, "## Shared forms") + section(RETURNS, "## EchoReturn")).encode()
    )
    assert (
        skill["section=shared-forms,contracts/briefs.md#building"][1]
        == (section(RETURNS, "## Shared forms") + section(BRIEFS, "## Building")).encode()
    )
    assert skill["shape=echoreturn"][1] == b"```\nstatus: ok\necho: <text>\nnote: <one line, optional>\n```\n"
    assert skill["shape=report"][1] == b"```yaml\nreport:\n  outcome: passed | failed    # odd  spacing   kept\n```\n"
    for recorded, data in skill.values():
        assert recorded == hashlib.sha256(data).hexdigest()
    assert (built / "skills/echo/SKILL.md").read_bytes().endswith(b"<!-- contractc:end -->\n")


def test_check_is_clean_after_build_and_a_second_build_writes_nothing(built, run_cli):
    mtimes = {p: os.stat(built / p).st_mtime_ns for p in snapshot(built)}
    again = run_cli("build", "--root", str(built))
    assert (again.code, again.out) == (0, "contractc: 0 written, 10 already current\n")
    assert mtimes == {p: os.stat(built / p).st_mtime_ns for p in snapshot(built)}
    assert run_cli("check", "--root", str(built)).out == "contractc: 10 files checked, all current\n"


def test_bytes_outside_regions_survive_crlf_bom_trailing_blanks_no_final_newline_and_mode(project, run_cli):
    before = b"\xef\xbb\xbf# Agent \t\r\n\r\nIntro  \r\n<!-- contractc:begin shape=report -->\r\n"
    after = b"<!-- contractc:end -->\r\nTail without newline \t"
    write_tree(project, {"agents/crlf.md": before + b"old\r\n" + after})
    os.chmod(project / "agents/crlf.md", 0o751)
    assert run_cli("build", "--root", str(project), "--force").code == 0  # --force: the region's old bytes are dropped
    data = (project / "agents/crlf.md").read_bytes()
    marker = (
        b"<!-- contractc:begin shape=report sha256="
        + hashlib.sha256(b"```yaml\nreport:\n  outcome: passed | failed    # odd  spacing   kept\n```\n")
        .hexdigest()
        .encode()
        + b" -->"
    )
    assert (
        data
        == before.replace(b"<!-- contractc:begin shape=report -->", marker)
        + b"```yaml\nreport:\n  outcome: passed | failed    # odd  spacing   kept\n```\n"
        + after
    )
    assert (project / "agents/crlf.md").stat().st_mode & 0o777 == 0o751


def test_a_rewritten_target_keeps_mode_bits_the_umask_would_clear(project, run_cli):
    write_tree(project, {"agents/open.md": b"<!-- contractc:begin shape=report -->\nold\n<!-- contractc:end -->\n"})
    os.chmod(project / "agents/open.md", 0o666)
    mask = os.umask(0o077)
    try:
        assert run_cli("build", "--root", str(project), "--force").code == 0
    finally:
        os.umask(mask)
    assert b"old" not in (project / "agents/open.md").read_bytes()
    assert (project / "agents/open.md").stat().st_mode & 0o777 == 0o666


def test_check_before_build_says_each_region_is_new(project, run_cli):
    result = run_cli("check", "--root", str(project), "--no-diff")
    assert result.code == 1
    assert (
        "agents/orchestrator.md:5:1: error[drift-region-new]: region shape=planning.task_brief has not been filled by build yet\n  hint: run `contractc build` to fill it; more: `contractc explain drift-region-new`\n"
        in result.out
    )
    assert result.out.count("error[drift-region-new]") == 5


def test_contract_change_makes_a_region_stale_with_a_diff(built, run_cli):
    (built / "contracts/briefs.md").write_text(BRIEFS.replace("kind: a | b", "kind: a | b | c"))
    result = run_cli("check", "--root", str(built))
    assert result.code == 1
    lines = result.out.splitlines()
    assert (
        lines[0]
        == "agents/orchestrator.md:5:1: error[drift-region-stale]: region shape=planning.task_brief is stale: its source in the contract changed since the last build"
    )
    assert lines[1] == "  hint: run `contractc build` to refresh it; more: `contractc explain drift-region-stale`"
    assert "-  kind: a | b" in lines and "+  kind: a | b | c" in lines
    # the region, the edited shape's two schemas and their manifest; the other shapes' schemas record
    # their own blocks (their provenance), not the contract's hash, so they stay current
    assert lines[-1] == "contractc: 4 drifted, 10 checked; run `contractc build` to fix"
    assert "wrote agents/orchestrator.md" in run_cli("build", "--root", str(built)).out
    assert run_cli("check", "--root", str(built)).code == 0


def _edit_region(root, path: str, old: bytes, new: bytes) -> None:
    """Replace the last occurrence of ``old`` (the last region of the file holds it)."""
    data = (root / path).read_bytes()
    at = data.rindex(old)
    (root / path).write_bytes(data[:at] + new + data[at + len(old) :])


def line_of(root, path: str, text: bytes) -> int:
    data = (root / path).read_bytes()
    return data.count(b"\n", 0, data.index(text)) + 1


def test_hand_edit_is_reported_and_build_refuses_it_without_force(built, run_cli):
    _edit_region(built, "agents/orchestrator.md", b"kind: a | b", b"kind: a | b | z")
    recorded = regions(built / "agents/orchestrator.md")["shape=planning.task_brief"][0]
    check = run_cli("check", "--root", str(built), "--no-diff")
    assert check.code == 1
    assert check.out.startswith(
        "agents/orchestrator.md:5:1: error[drift-region-edited]: region shape=planning.task_brief was edited by hand since the last build "
        f"(marker records sha256 {recorded[:12]}, region holds "
    )
    before = snapshot(built)
    build = run_cli("build", "--root", str(built))
    assert build.code == 1 and build.out == ""
    assert build.err.splitlines()[0].startswith(
        "agents/orchestrator.md:5:1: error[drift-region-edited]: region shape=planning.task_brief was edited by hand"
    )
    assert (
        "  hint: build will not overwrite a hand edit: to keep it, carry it into the contract and run `contractc build` "
        "(the region then holds the contract's bytes already); to drop it, `contractc build --force` overwrites the "
        "region with the contract's bytes, deleting the lines check's diff shows with `-`"
        in build.err
    )
    assert build.err.endswith("contractc: nothing written; 1 region(s) need a decision\n")
    assert snapshot(built) == before
    forced = run_cli("build", "--force", "--root", str(built))
    assert (forced.code, forced.out) == (0, "wrote agents/orchestrator.md\ncontractc: 1 written, 9 already current\n")
    assert run_cli("check", "--root", str(built)).code == 0


def test_a_hand_edit_carried_into_the_contract_needs_no_force(built, run_cli):
    """What the edited region's hint says: once the contract holds the edit, a plain build stamps the region."""
    _edit_region(built, "agents/orchestrator.md", b"kind: a | b", b"kind: a | b | z")
    edited = (built / "agents/orchestrator.md").read_bytes()
    contract = built / "contracts/briefs.md"
    contract.write_text(contract.read_text().replace("  kind: a | b\n", "  kind: a | b | z\n", 1))
    build = run_cli("build", "--root", str(built))
    assert build.code == 0, build.err
    assert "wrote agents/orchestrator.md" in build.out
    after = (built / "agents/orchestrator.md").read_bytes()
    assert b"kind: a | b | z" in after and len(after) == len(edited)  # the edit kept, only the marker's sha256 new
    assert run_cli("check", "--root", str(built), "--no-cache").code == 0


def test_a_refused_region_blocks_every_write(built, run_cli):
    _edit_region(built, "agents/orchestrator.md", b"kind: a | b", b"kind: edited")
    (built / "contracts/returns.md").write_text(RETURNS.replace("Every return", "Each return"))
    before = snapshot(built)
    assert run_cli("build", "--root", str(built)).code == 1
    assert snapshot(built) == before


def test_stale_and_hand_edited_at_once(built, run_cli):
    _edit_region(built, "agents/orchestrator.md", b"goal: string", b"goal: text")
    (built / "contracts/briefs.md").write_text(BRIEFS.replace("kind: a | b", "kind: a | c"))
    result = run_cli("check", "--root", str(built), "--no-diff")
    assert result.out.splitlines()[0] == (
        "agents/orchestrator.md:5:1: error[drift-region-stale-edited]: region shape=planning.task_brief is stale and was edited by hand: "
        "both the contract and the copy changed since the last build"
    )
    assert run_cli("build", "--root", str(built)).code == 1


def test_a_formatter_that_touches_a_region_is_caught(built, run_cli):
    # mdformat/prettier style: trailing blanks stripped, list markers changed.
    _edit_region(built, "skills/echo/SKILL.md", b"kept\n```", b"kept  \n```")
    result = run_cli("check", "--root", str(built), "--no-diff")
    line = line_of(built, "skills/echo/SKILL.md", b"<!-- contractc:begin shape=report")
    assert (
        f"skills/echo/SKILL.md:{line}:1: error[drift-region-edited]: region shape=report was edited by hand"
        in result.out
    )


def test_marker_with_a_wrong_hash_over_current_bytes_is_unstamped(built, run_cli):
    data = (built / "skills/echo/SKILL.md").read_bytes()
    recorded = regions(built / "skills/echo/SKILL.md")["shape=report"][0]
    (built / "skills/echo/SKILL.md").write_bytes(data.replace(recorded.encode(), b"0" * 64))
    result = run_cli("check", "--root", str(built), "--no-diff")
    line = line_of(built, "skills/echo/SKILL.md", b"<!-- contractc:begin shape=report")
    assert result.out.splitlines()[0] == (
        f"skills/echo/SKILL.md:{line}:1: error[drift-region-unstamped]: region shape=report holds the current bytes but its marker records others (sha256 000000000000)"
    )
    assert run_cli("build", "--root", str(built)).code == 0
    assert (built / "skills/echo/SKILL.md").read_bytes() == data


def test_a_region_whose_reference_went_away_is_orphaned_and_build_refuses_even_with_force(built, run_cli):
    (built / "contracts/briefs.md").write_text(BRIEFS.replace("## Planning", "## Planning stage"))
    check = run_cli("check", "--root", str(built), "--no-diff")
    assert check.code == 1
    assert (
        "agents/orchestrator.md:5:1: error[drift-region-orphaned]: region shape=planning.task_brief is orphaned: "
        "no shape 'planning.task_brief' in the contracts (shapes: building.task_brief, echoreturn, pingreturn, planning-stage.task_brief, report)\n"
        "  hint: point the marker at an existing shape or section, or delete the region with its markers; more: `contractc explain drift-region-orphaned`\n"
    ) in check.out
    before = snapshot(built)
    for args in (("build",), ("build", "--force")):
        result = run_cli(*args, "--root", str(built))
        assert result.code == 1 and "error[drift-region-orphaned]" in result.err
        assert snapshot(built) == before


def test_targets_never_include_contracts_or_outputs(tmp_path, run_cli):
    config = "contracts:\n  - path: contracts/returns.md\n    shared: [shared-forms]\n  - path: contracts/briefs.md\ntargets: ['**/*.md']\n"
    root = write_tree(
        tmp_path,
        project_files(
            **{"contractc.yaml": config, "README.md": "<!-- contractc:begin shape=report -->\n<!-- contractc:end -->\n"}
        ),
    )
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("build", "--root", str(root)).out.startswith("contractc: 0 written, ")
    assert (root / "contracts/returns.md").read_text() == RETURNS


def test_a_target_pattern_leaving_the_project_is_refused(project, run_cli):
    (project / "contractc.yaml").write_text((project / "contractc.yaml").read_text() + "  - ../*.md\n")
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert result.err.startswith("contractc.yaml:8:5: error[unsafe-path]: path '../*.md' contains '..'")


def test_a_target_reached_through_a_symlink_out_of_the_project_is_refused(project, run_cli, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "evil.md"
    outside.write_text("<!-- contractc:begin shape=report -->\n<!-- contractc:end -->\n")
    (project / "agents/evil.md").symlink_to(outside)
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    assert result.err.startswith(
        "contractc.yaml:6:5: error[unsafe-path]: path 'agents/evil.md' leaves the project root through a symbolic link"
    )
    assert outside.read_text() == "<!-- contractc:begin shape=report -->\n<!-- contractc:end -->\n"


def test_contract_bytes_holding_a_marker_line_cannot_be_copied(project, run_cli):
    (project / "contracts/briefs.md").write_text(BRIEFS + "\n## Markers\n\n<!-- contractc:end -->\n")
    write_tree(project, {"agents/orchestrator.md": "<!-- contractc:begin section=markers -->\n<!-- contractc:end -->\n"})
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert result.err.startswith(
        "agents/orchestrator.md:1:1: error[marker-reference]: section=markers holds a contractc marker line, "
        "which cannot be copied into a region\n"
    )


def test_the_first_build_of_a_region_holding_other_bytes_refuses_until_forced(project, run_cli):
    pasted = b"<!-- contractc:begin shape=report -->\n```yaml\nreport:\n  outcome: passed | failed   # my note\n```\n<!-- contractc:end -->\n"
    write_tree(project, {"agents/pasted.md": pasted})
    before = snapshot(project)
    build = run_cli("build", "--root", str(project))
    assert build.code == 1
    assert build.err.startswith(
        "agents/pasted.md:1:1: error[drift-region-new-differs]: region shape=report has not been filled by build yet "
        "and already holds bytes that differ from the contract\n"
    )
    assert "`contractc build --force`" in build.err
    assert snapshot(project) == before  # nothing written, the note is not lost unseen
    check = run_cli("check", "--root", str(project), "--no-cache")
    assert "-  outcome: passed | failed   # my note" in check.out  # the diff shows what would be lost
    assert run_cli("build", "--root", str(project), "--force").code == 0
    assert b"# my note" not in (project / "agents/pasted.md").read_bytes()


def test_a_new_region_already_holding_the_contract_bytes_is_stamped_without_force(project, run_cli):
    block = b"```yaml\nreport:\n  outcome: passed | failed    # odd  spacing   kept\n```\n"
    write_tree(project, {"agents/same.md": b"<!-- contractc:begin shape=report -->\n" + block + b"<!-- contractc:end -->\n"})
    assert run_cli("build", "--root", str(project)).code == 0
    assert b"shape=report sha256=" in (project / "agents/same.md").read_bytes()


def test_a_refused_build_shows_the_diff_of_what_force_would_overwrite(built, run_cli):
    _edit_region(built, "agents/orchestrator.md", b"kind: a | b", b"kind: a | b | z")
    build = run_cli("build", "--root", str(built))
    assert build.code == 1
    assert "--- agents/orchestrator.md (on disk)\n+++ agents/orchestrator.md (from contracts)\n" in build.err
    assert "\n-  kind: a | b | z\n+  kind: a | b\n" in build.err


def test_a_new_region_holding_an_instance_is_offered_the_instance_marker_before_force(project, run_cli):
    # adopt leaves a copy it called drifted in a region build has not filled; when the copy is really an
    # instance (its own values), the hint names the marker that keeps it, not only `build --force`
    own = b"```yaml\nreport:\n  outcome: failed   # this agent's own value\n```\n"
    write_tree(project, {"agents/own.md": b"<!-- contractc:begin shape=report -->\n" + own + b"<!-- contractc:end -->\n"})
    check = run_cli("check", "--root", str(project), "--no-cache")
    assert check.code == 1
    lines = check.out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("agents/own.md:1:1: error[drift-region-new-differs]"))
    hint = lines[at + 1]
    assert hint.index("`instance=` for `shape=`") < hint.index("`contractc build --force`")
    marked = (project / "agents/own.md").read_bytes().replace(b"begin shape=report", b"begin instance=report")
    (project / "agents/own.md").write_bytes(marked)
    assert "agents/own.md" not in run_cli("check", "--root", str(project), "--no-cache").out
    assert run_cli("build", "--root", str(project), "--force").code == 0
    assert (project / "agents/own.md").read_bytes() == marked  # an instance region is never written
    assert run_cli("check", "--root", str(project), "--no-cache").code == 0
