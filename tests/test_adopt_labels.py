"""`contractc adopt` follows scan's labels: copies become regions, instances and examples keep every byte,
drift is rewritten only when chosen (tests/labelled_plugin.py)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess

import pytest
from conftest import snapshot
from labelled_plugin import BRIEF, DRIFTED_BRIEF, FILES, OUTCOMES, write_plugin

from contractc.scan import scan_plugin

UNTOUCHED = ("agents/verifier.md", "commands/publish.md", "commands/yank.md", "commands/status.md", "skills/release-notes/SKILL.md")


@pytest.fixture
def plugin(tmp_path):
    root = write_plugin(tmp_path / "release")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _kept_blocks(root) -> list[tuple[str, bytes, str]]:
    """(path, block bytes, their sha256) of every member scan labels instance or example, and every example."""
    result = scan_plugin(root)
    units = [m.unit for g in result.groups for m in g.members if m.label in ("instance", "example")]
    units += list(result.examples)
    found = {}
    for u in units:
        data = result.data[u.block.path][u.block.start : u.block.end]
        found[(u.block.path, u.block.start)] = (u.block.path, data, hashlib.sha256(data).hexdigest())
    return list(found.values())


def _check(run_cli, root):
    run = run_cli("check", "--root", str(root), "--no-cache", "--format", "json")
    return run.code, [(d["path"], d["code"]) for d in json.loads(run.out)["diagnostics"] if d["severity"] == "error"]


def test_adopt_write_leaves_every_instance_and_example_byte_identical(plugin, run_cli):
    kept = _kept_blocks(plugin)
    labels = {m.label for g in scan_plugin(plugin).groups for m in g.members}
    assert {"instance", "drifted", "copy"} <= labels and len(kept) >= 8  # the envelopes and the four outcomes
    before = snapshot(plugin)
    run = run_cli("adopt", str(plugin), "--write")
    assert run.code == 0, run.err
    after = snapshot(plugin)
    for path, data, digest in kept:
        at = after[path].find(data)
        assert at >= 0, f"{path}: a block scan labelled instance or example lost its bytes"
        assert hashlib.sha256(after[path][at : at + len(data)]).hexdigest() == digest
    for path in UNTOUCHED:  # no copy at all there: the per-outcome blocks, the usage lines, Good and Bad
        assert after[path] == before[path], path
    for name in ("npm", "pypi", "crates"):  # each adapter keeps its own envelope values
        text = after[f"agents/{name}.md"].decode()
        assert f'"adapter": "{name}"' in text and f'"code": "{name.upper()}_REJECTED"' in text
        assert not re.search(r'"adapter": "(?!%s")' % name, text)
    verifier = after["agents/verifier.md"].decode()
    assert [f"result: {r}" in verifier for r in OUTCOMES] == [True] * 4


def test_identical_copies_become_regions_and_instances_instance_regions(plugin, run_cli):
    run_cli("adopt", str(plugin), "--write")
    for path in ("agents/release-orchestrator.md", "agents/npm.md"):
        text = (plugin / path).read_text()
        assert re.search(r"<!-- contractc:begin shape=package_brief sha256=[0-9a-f]{64} -->\n" + re.escape(BRIEF), text), path
    npm = (plugin / "agents/npm.md").read_text()
    assert npm.count("<!-- contractc:begin instance=") == 2  # its success and its failure envelope
    assert "sha256" not in npm.split("<!-- contractc:begin instance=", 1)[1].split("\n", 1)[0]  # never stamped
    crates = (plugin / "agents/crates.md").read_text()  # the drifted copy: its bytes, outside any region
    assert "\n\n" + DRIFTED_BRIEF + "\n" in crates and "shape=package_brief" not in crates


def test_check_after_adopt_reports_only_the_drift_left_unresolved_and_nothing_is_allowed_unseen(plugin, run_cli):
    run = run_cli("adopt", str(plugin), "--write")
    assert "drifted copies left byte for byte as they are" in run.out and "agents/crates.md:8: package_brief: adds mirror" in run.out
    assert "+  mirror: string" not in run.out  # the written plan lists; the dry run shows the diff:
    dry = run_cli("adopt", str(write_plugin(plugin.parent / "again")))
    assert "-  mirror: string                    # crates only" in dry.out
    code, errors = _check(run_cli, plugin)
    assert code == 1 and errors == [("agents/crates.md", "drift-unresolved")]
    assert "allow_restatements" not in (plugin / "contractc.yaml").read_text()
    held = hashlib.sha256((plugin / "agents/crates.md").read_bytes()).hexdigest()
    for force in ((), ("--force",)):  # no region holds it: no build, forced or not, puts the owner's bytes over it
        run_cli("build", "--root", str(plugin), *force)
        assert hashlib.sha256((plugin / "agents/crates.md").read_bytes()).hexdigest() == held
    # the choice, made later: the dry run shows this copy's diff, --write rewrites it and drops its entry
    checked = run_cli("check", "--root", str(plugin), "--no-cache")
    choice = re.search(r"`contractc adopt --resolve (package_brief=contracts/release\.md:\d+)`", checked.out).group(1)
    assert "-  mirror: string" in checked.out  # check shows the diff too
    assert "-  mirror: string" in run_cli("adopt", str(plugin), "--resolve", choice).out
    assert run_cli("adopt", str(plugin), "--write", "--resolve", choice).code == 0
    assert "mirror" not in (plugin / "agents/crates.md").read_text() and "unresolved" not in (plugin / "contractc.yaml").read_text()
    assert _check(run_cli, plugin) == (0, [])


def test_accept_drift_rewrites_the_drifted_copy_with_its_diff_in_the_plan(plugin, run_cli):
    dry = run_cli("adopt", str(plugin), "--accept-drift")
    listed = dry.out[dry.out.index("copies whose bytes will change") :]
    assert "agents/crates.md:8: package_brief: drifted from the owning copy at agents/release-orchestrator.md:11" in listed
    assert "--- agents/crates.md:8 (this copy)" in listed and "-  mirror: string" in listed
    kept = _kept_blocks(plugin)
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    assert "mirror" not in (plugin / "agents/crates.md").read_text()
    assert _check(run_cli, plugin) == (0, [])
    for path, data, _ in kept:  # instances are never rewritten, whatever the options
        assert data in (plugin / path).read_bytes()


def test_resolve_makes_the_named_copy_the_owner_for_its_group(plugin, run_cli):
    run = run_cli("adopt", str(plugin), "--write", "--resolve", "package_brief=agents/crates.md:8")
    assert run.code == 0, run.err
    assert "mirror: string" in (plugin / "contracts/release.md").read_text()
    for path in ("agents/release-orchestrator.md", "agents/npm.md", "agents/crates.md"):
        assert DRIFTED_BRIEF in (plugin / path).read_text(), path
    assert _check(run_cli, plugin) == (0, [])


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ("nosuch=agents/crates.md:8", "no group 'nosuch' (groups: "),
        ("package_brief=agents/crates.md:99", "no copy of package_brief at agents/crates.md:99 (copies: agents/crates.md:8,"),
    ],
)
def test_a_resolve_that_names_nothing_is_refused_and_nothing_is_written(plugin, run_cli, choice, said):
    before = snapshot(plugin)
    run = run_cli("adopt", str(plugin), "--write", "--resolve", choice)
    assert run.code == 2 and "error[adopt-resolve]" in run.err and said in run.err
    assert snapshot(plugin) == before


def test_the_options_adopt_was_given_are_recorded_and_read_again(plugin, run_cli):
    (plugin / "docs").mkdir()
    for name in ("old", "older"):  # two copies of a shape whose notation contractc cannot read (`string[]`)
        (plugin / f"docs/{name}.md").write_text("# Old\n\n```yaml\nlegacy_brief:\n  mode: a | b\n  tags: string[]\n```\n")
    planned = run_cli("adopt", str(plugin))
    assert planned.code == 0 and "would write docs/old.md" in planned.out  # the old pages would be adopted ...
    assert run_cli("adopt", str(plugin), "--write", "--exclude", "docs/*").code == 0  # ... so they are left out
    config = (plugin / "contractc.yaml").read_text()
    assert 'scan:  # the options adopt was given' in config and 'exclude: ["docs/*"]' in config
    from contractc.load.config import load_config

    assert load_config(plugin).scan.exclude == ("docs/*",)
    scanned = run_cli("scan", str(plugin), "--format", "json")  # no --exclude now: the recorded one applies
    assert "docs/old.md" not in scanned.out
    assert run_cli("adopt", str(plugin)).code == 0  # and adopt again behaves the same: nothing to adopt


def test_a_prose_default_comment_is_a_description_and_a_readable_default_is_kept(plugin, run_cli):
    assert run_cli("adopt", str(plugin), "--write").code == 0
    schema = json.loads(next(plugin.glob("schemas/*/package_brief.schema.json")).read_text())
    sign = schema["properties"]["sign"]
    assert sign["default"] is True and sign["description"].startswith("Default: true. Set false")


def test_the_contract_names_the_direction_and_says_when_it_is_unsure(plugin, run_cli):
    run_cli("adopt", str(plugin), "--write")
    contract = (plugin / "contracts/release.md").read_text()
    produced = re.findall(r"^Produced by `([^`]+)`; consumed by (.+)\.$", contract, re.M)
    assert produced and all(p not in consumers for p, consumers in produced)  # never its own consumer
    assert all(consumers == "`release-orchestrator`" for _, consumers in produced)  # who sends the adapters work
    assert "> **Check the line above:** `contractc adopt` was unsure of it: " in contract


def test_the_lead_probe_each_outcome_file_keeps_its_own_result_line(tmp_path, run_cli):
    files = {
        "agents/passer.md": "# Passer\n\nReply:\n\n```yaml\noutcome:\n  result: pass\n  note: string\n```\n",
        "agents/skipper.md": "# Skipper\n\nReply:\n\n```yaml\noutcome:\n  result: skipped\n  note: string\n```\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert run_cli("adopt", str(tmp_path), "--write").code == 0
    assert "  result: pass\n" in (tmp_path / "agents/passer.md").read_text()
    assert "  result: skipped\n" in (tmp_path / "agents/skipper.md").read_text()


def test_the_fixture_is_what_its_docstring_says():
    assert set(FILES) >= set(UNTOUCHED) and BRIEF in FILES["agents/npm.md"] and DRIFTED_BRIEF in FILES["agents/crates.md"]


def test_sections_are_titled_from_the_plugins_headings_cleaned_and_in_natural_order(tmp_path, run_cli):
    stages = {"9": ("## Stage 9: Build", "build_brief"), "10": ("## Stage 10 — `Publish`:", "publish_brief"), "9.5": ("## **Stage 9.5** Verify", "verify_brief")}
    orchestrator = ["---\nrole: orchestrator\n---\n# Orchestrator\n"]
    for heading, key in stages.values():
        block = f"```yaml\n{key}:\n  target: string\n  mode: fast | full\n```\n"
        orchestrator.append(f"\n{heading}\n\nSend:\n\n{block}")
        (tmp_path / "agents").mkdir(exist_ok=True)
        (tmp_path / f"agents/{key.split('_')[0]}er.md").write_text(f"# Worker\n\n{heading}\n\nYou receive:\n\n{block}")
    (tmp_path / "agents/orchestrator.md").write_text("".join(orchestrator))
    assert run_cli("adopt", str(tmp_path), "--write").code == 0
    contract = (tmp_path / "contracts" / next(p.name for p in (tmp_path / "contracts").iterdir())).read_text()
    titles = [line for line in contract.splitlines() if line.startswith("## ")]
    assert [t.split(" {#")[0] for t in titles] == ["## Stage 9: Build", "## Stage 9.5 Verify", "## Stage 10 — Publish"]


def test_natural_order_compares_numbers_by_value():
    from contractc.adopt.contract import clean_title, natural_key

    assert sorted(["Stage 10", "Stage 9.5", "Stage 9", "Stage 1"], key=natural_key) == ["Stage 1", "Stage 9", "Stage 9.5", "Stage 10"]
    assert clean_title("**Step 2** — [the brief](x.md) {#brief}:") == "Step 2 — the brief"


def test_the_json_plan_locates_every_kept_block_and_carries_the_drifted_copys_diff(plugin, run_cli):
    doc = json.loads(run_cli("adopt", str(plugin), "--format", "json").out)
    kept = {(d["path"], d["line"]): d["message"] for d in doc["diagnostics"] if d["code"] == "adopt-kept"}
    assert kept[("agents/crates.md", 8)].startswith("drifted of package_brief left byte for byte: adds mirror")
    assert any(m.startswith("instance of ") for m in kept.values())
    diffs = {c["path"]: c["diff"] for c in doc["changes"]}
    assert "-  mirror: string" in diffs["agents/crates.md:8"]


def test_on_the_scan_traps_plugin_adopt_keeps_every_instance_and_example_and_check_reports_the_planted_drift(tmp_path, run_cli):
    from scan_traps import DIVERGENT, write_traps

    root = write_traps(tmp_path / "desk")
    kept = _kept_blocks(root)
    assert len(kept) >= 6
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.err
    for path, data, digest in kept:
        at = (root / path).read_bytes().find(data)
        assert at >= 0 and hashlib.sha256((root / path).read_bytes()[at : at + len(data)]).hexdigest() == digest, path
    code, errors = _check(run_cli, root)
    assert code == 1 and {path for path, _ in errors} == {path for path, _ in DIVERGENT}
    assert sorted(c for _, c in errors) == ["drift-instance-missing", "drift-unresolved", "drift-unresolved"]
    drifted = {p: (root / p).read_bytes() for p, c in errors if c == "drift-unresolved"}
    assert run_cli("build", "--root", str(root), "--force").code == 1  # the drift is still there, and still the user's
    assert {p: (root / p).read_bytes() for p in drifted} == drifted


def test_without_its_marker_lines_every_file_of_copies_and_instances_is_what_it_was(plugin, run_cli):
    from contractc.emit.filled import without_marker_lines

    before = snapshot(plugin)
    run_cli("adopt", str(plugin), "--write")
    for path in ("agents/release-orchestrator.md", "agents/npm.md", "agents/pypi.md"):  # identical copies and instances
        assert without_marker_lines((plugin / path).read_bytes()) == before[path], path
