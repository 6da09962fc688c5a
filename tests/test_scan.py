"""`contractc scan` on a realistic plugin that predates contractc (tests/adopt_plugin.py)."""

from __future__ import annotations

import json
import re

import pytest

from adopt_plugin import DIVERGENCES, EXAMPLES, EXPECTED, FILES, IGNORED, NEAR_COPIES, count_by_kind, write_plugin
from contractc.scan import scan_plugin

LOCATED = re.compile(r"^(?P<path>[^\s:]+):(?P<line>\d+):\d+: (?P<severity>\w+)\[(?P<code>[\w-]+)\]: (?P<message>.*)$", re.M)


@pytest.fixture
def plugin(tmp_path):
    return write_plugin(tmp_path / "plugin")


def test_the_fixture_is_as_large_as_the_issue_asks():
    kinds = count_by_kind()
    assert sum(kinds.values()) >= 12 and all(kinds.values())
    stages = {g["owner"] for g in EXPECTED.values()}
    assert {"agents/survey-orchestrator.md", "agents/draft-orchestrator.md", "agents/review-orchestrator.md"} <= stages
    assert DIVERGENCES == 5


def test_scan_finds_every_shape_owner_and_copy_as_written_down(plugin):
    result = scan_plugin(plugin)
    found = {
        g.id: {
            "owner": g.owner.block.path,
            "identical": sorted(m.unit.block.path for m in g.members if m.unit is not g.owner and m.unit.text == g.owner.text),
            "divergent": sorted(u.block.path for u in g.divergent),
        }
        for g in result.groups
    }
    expected = {
        k: {"owner": v["owner"], "identical": sorted(v["identical"]), "divergent": sorted(v["divergent"])}
        for k, v in EXPECTED.items()
    }
    assert found == expected


def test_no_identical_copy_is_reported_divergent_and_every_planted_change_is_in_its_diff(plugin, run_cli):
    run = run_cli("scan", str(plugin))
    assert run.code == 1
    divergent = [m for m in LOCATED.finditer(run.out) if m["code"] == "scan-divergent"]
    assert sorted(m["path"] for m in divergent) == sorted(p for g in EXPECTED.values() for p in g["divergent"])
    for group in EXPECTED.values():
        for path, planted in group["divergent"].items():
            diff = run.out[run.out.index(f"--- {path}:") :]
            diff = LOCATED.split(diff, maxsplit=1)[0]  # up to the next located message
            assert f"\n-{planted}\n" in diff, (path, planted)
    assert f"{DIVERGENCES} divergent" in run.out.splitlines()[-1]


def test_each_diff_shows_the_copy_as_minus_and_the_owner_as_plus(plugin, run_cli):
    run = run_cli("scan", str(plugin))
    block = run.out[run.out.index("--- agents/fact-checker.md:") :]
    assert "\n-<reason>\n+<one-line reason>\n" in block
    block = run.out[run.out.index("--- agents/section-writer.md:") :]
    assert "\n-  tone: formal | casual\n" in block


def test_a_key_in_three_stages_is_three_shapes_not_drift(plugin):
    ids = {g.id for g in scan_plugin(plugin).groups}
    assert {"survey-stage.task_brief", "drafting-stage.task_brief", "review-stage.task_brief"} <= ids
    assert "task_brief" not in ids


def test_a_two_key_block_is_two_shapes(plugin):
    groups = {g.id: g for g in scan_plugin(plugin).groups}
    critique = next(u for u in groups["critique_report"].copies if u.block.path == "agents/review-orchestrator.md")
    revision = next(u for u in groups["revision_request"].copies if u.block.path == "agents/review-orchestrator.md")
    assert critique.block == revision.block and critique.line < revision.line


def test_envelope_variants_are_separate_shapes(plugin):
    groups = {g.id: g for g in scan_plugin(plugin).groups}
    assert not groups["dispatch-envelope"].divergent and not groups["return-envelope"].divergent


def test_worked_examples_are_listed_not_scored(plugin, run_cli):
    result = scan_plugin(plugin)
    assert {u.block.path for u in result.examples} == EXAMPLES
    scored = {(m.unit.block.path, m.unit.line) for g in result.groups for m in g.members if m.label != "example"}
    assert not scored & {(u.block.path, u.line) for u in result.examples}
    labelled = {(m.unit.block.path, m.unit.line) for g in result.groups for m in g.labelled("example")}
    assert labelled <= {(u.block.path, u.line) for u in result.examples}  # an example joins the shape it illustrates
    run = run_cli("scan", str(plugin))
    assert not [m for m in LOCATED.finditer(run.out) if m["code"] == "scan-example"]  # listed only with -v
    run = run_cli("scan", "-v", str(plugin))
    assert sorted(m["path"] for m in LOCATED.finditer(run.out) if m["code"] == "scan-example") == sorted(EXAMPLES)


def test_a_near_copy_under_another_key_is_a_warning(plugin, run_cli):
    result = scan_plugin(plugin)
    assert {n.unit.block.path: n.group.id for n in result.near} == NEAR_COPIES
    run = run_cli("scan", str(plugin))
    warned = [m for m in LOCATED.finditer(run.out) if m["code"] == "scan-near-copy"]
    assert [(m["path"], m["severity"]) for m in warned] == [("agents/term-harvester.md", "warning")]


def test_gitignored_files_are_never_read(plugin):
    assert not set(scan_plugin(plugin).files) & IGNORED


def test_include_and_exclude_globs(plugin):
    only_agents = scan_plugin(plugin, include=("agents/*",))
    assert all(p.startswith("agents/") for p in only_agents.files)
    no_checker = scan_plugin(plugin, exclude=("agents/fact-checker.md",))
    assert "agents/fact-checker.md" not in no_checker.files
    assert not {g.id: g for g in no_checker.groups}["verdict"].divergent


def test_owner_glob_overrides_the_rule_and_says_so(plugin, run_cli):
    groups = {g.id: g for g in scan_plugin(plugin, owners=("agents/source-scout.md",)).groups}
    findings = groups["survey_findings"]
    assert findings.owner.block.path == "agents/source-scout.md"
    assert "--owner" in findings.owner_reason
    assert sorted(u.block.path for u in findings.divergent) == ["agents/survey-orchestrator.md", "agents/term-harvester.md"]
    run = run_cli("scan", "-v", str(plugin), "--owner", "agents/source-scout.md")
    assert "owns it because it matches --owner agents/source-scout.md" in run.out


def test_the_owner_rule_is_the_majority_without_a_dispatching_file(tmp_path):
    block = "```yaml\nping:\n  at: string\n```\n"
    write_plugin(
        tmp_path,
        {"agents/a.md": block, "agents/b.md": block, "agents/c.md": block.replace("string", "integer")},
    )
    (group,) = scan_plugin(tmp_path).groups
    assert [u.block.path for u in group.divergent] == ["agents/c.md"]
    assert group.owner_reason == "2 of the 3 copies hold it"


def test_one_comment_is_drift(tmp_path):
    block = "```yaml\nping:\n  at: string   # when\n```\n"
    write_plugin(tmp_path, {"skills/p/SKILL.md": block, "agents/b.md": block.replace("# when", "# when, UTC")})
    (group,) = scan_plugin(tmp_path).groups
    assert [u.block.path for u in group.divergent] == ["agents/b.md"]


def test_exit_0_when_every_copy_agrees(tmp_path, run_cli):
    fixed = {p: t for p, t in FILES.items() if p not in IGNORED}
    for group in EXPECTED.values():
        for path in group["divergent"]:
            owner = FILES[group["owner"]]
            fixed[path] = owner  # the owner's file in its place: every copy now agrees
    write_plugin(tmp_path, fixed)
    run = run_cli("scan", str(tmp_path))
    assert run.code == 0, run.out
    assert "0 divergent" in run.out.splitlines()[-1]


def test_exit_2_for_a_path_that_is_not_a_folder(tmp_path, run_cli):
    run = run_cli("scan", str(tmp_path / "nowhere"))
    assert run.code == 2
    assert "is not a folder" in run.err


def test_json_report_matches_the_check_report_schema(plugin, run_cli):
    from importlib import resources

    from jsonschema import Draft202012Validator

    schema = json.loads(resources.files("contractc.data").joinpath("check-report.schema.json").read_text("utf-8"))
    run = run_cli("scan", str(plugin), "--format", "json")
    doc = json.loads(run.out)
    Draft202012Validator(schema).validate(doc)
    assert doc["status"] == "drift" and doc["drifted"] == DIVERGENCES
    assert doc["fix"] == "contractc adopt"
    assert sum(c["kind"] == "scan" for c in doc["changes"]) == DIVERGENCES + len(NEAR_COPIES)


def test_github_format_annotates_each_divergent_copy(plugin, run_cli):
    run = run_cli("scan", str(plugin), "--format", "github")
    errors = [line for line in run.out.splitlines() if line.startswith("::error ")]
    assert len(errors) == DIVERGENCES
    assert all("title=contractc scan-divergent" in line for line in errors)


def test_blocks_inside_managed_regions_are_not_copies(tmp_path):
    block = "```yaml\nping:\n  at: string\n```\n"
    managed = f"<!-- contractc:begin shape=ping -->\n{block.replace('string', 'integer')}<!-- contractc:end -->\n"
    write_plugin(tmp_path, {"agents/a.md": block, "agents/b.md": block, "agents/c.md": managed})
    (group,) = scan_plugin(tmp_path).groups
    assert [u.block.path for u in group.copies] == ["agents/a.md", "agents/b.md"]


def test_a_file_that_is_not_utf8_is_bad_input_located(tmp_path, run_cli):
    write_plugin(tmp_path, {"agents/a.md": "# A\n"})
    (tmp_path / "agents/b.md").write_bytes(b"# B\n\xff\n")
    run = run_cli("scan", str(tmp_path))
    assert run.code == 2
    assert run.err.startswith("agents/b.md:2:1: error[not-utf8]: byte 0xff is not valid UTF-8")


def test_copies_in_quotes_and_list_items_are_found_and_compared_dedented(tmp_path):
    block = "```yaml\nping:\n  at: string\n  kind: a | b\n```\n"
    quoted = "".join(f"> {line}\n" for line in block.splitlines())
    listed = "- hand over:\n\n" + "".join(f"  {line}\n" for line in block.splitlines())
    write_plugin(tmp_path, {"skills/a/SKILL.md": block, "agents/b.md": quoted, "agents/c.md": listed})
    (group,) = scan_plugin(tmp_path).groups
    assert [u.block.path for u in group.copies] == ["agents/b.md", "agents/c.md", "skills/a/SKILL.md"]
    assert not group.divergent


def test_an_owner_glob_that_matches_no_file_is_bad_input(plugin, run_cli):
    run = run_cli("scan", str(plugin), "--owner", "agent/typo.md")
    assert run.code == 2
    assert "error[file-missing]: --owner agent/typo.md matches no file scan reads" in run.err


def test_scan_says_the_same_whatever_python_s_hash_seed(tmp_path):
    """A block as close to two shapes (three of four keys each) joins the same one in every process: Python orders
    sets of strings by a per-process hash seed, and scan once broke such ties by that order."""
    import os
    import subprocess
    import sys

    a = "status: <ok|failed>\nsummary: <text>\nfindings: <list>\nscore: <number>\n"
    b = "status: <ok|failed>\nsummary: <text>\nerrors: <list>\nretries: <number>\n"
    tied = "status: <ok|failed>\nsummary: <text>\nfindings: <list>\nerrors: <list>\n"
    blocks = {"a1": a, "a2": a, "b1": b, "b2": b, "u": tied}
    for name, block in blocks.items():
        (tmp_path / "agents").mkdir(exist_ok=True)
        (tmp_path / "agents" / f"{name}.md").write_text(f"# {name}\n\nReturn:\n\n```yaml\n{block}```\n", "utf-8")
    outputs = set()
    for seed in range(8):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        done = subprocess.run([sys.executable, "-m", "contractc", "scan", "--format", "json", "."], cwd=tmp_path, env=env, capture_output=True, check=False)
        outputs.add(done.stdout)
    assert len(outputs) == 1
    said = {(d["path"], d["message"].split(":", 1)[0]) for d in json.loads(outputs.pop())["diagnostics"]}
    assert ("agents/u.md", "instance of status-findings by design, or a copy that drifted? (lacks score and adds errors") in said
