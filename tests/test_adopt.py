"""`contractc adopt` on the realistic plugin of tests/adopt_plugin.py: plan, write, then check is clean."""

from __future__ import annotations

import hashlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adopt_plugin import EXPECTED, FILES, IGNORED, write_plugin
from conftest import fail_nth_replace, snapshot, write_tree
from contractc.adopt import plan_adoption
from contractc.scan import scan_plugin

_BEGIN = re.compile(rb"^<!-- contractc:begin .*?-->\r?\n", re.M)
_END = re.compile(rb"^<!-- contractc:end -->(\r?\n|$)", re.M)


@pytest.fixture
def plugin(tmp_path):
    return write_plugin(tmp_path / "docs-pipeline")


def _outside_regions(data: bytes) -> list[bytes]:
    """The bytes of a written file outside its regions (begin marker line to end marker line), in order."""
    parts, done = [], 0
    for begin in _BEGIN.finditer(data):
        if begin.start() < done:
            continue
        end = _END.search(data, begin.end())
        parts.append(data[done : begin.start()])
        done = end.end()
    parts.append(data[done:])
    return [p for p in parts if p]


def _outside_spans(data: bytes, spans: list[tuple[int, int]]) -> list[bytes]:
    parts, done = [], 0
    for start, end in sorted(spans):
        parts.append(data[done:start])
        done = end
    parts.append(data[done:])
    return [p for p in parts if p]


def test_dry_run_prints_the_plan_and_writes_nothing(plugin, run_cli):
    before = snapshot(plugin)
    run = run_cli("adopt", str(plugin))
    assert run.code == 0, run.err
    assert snapshot(plugin) == before
    assert "would write contracts/docs-pipeline.md (new, contract)" in run.out
    assert "would write contractc.yaml (new, config)" in run.out
    for path in {p for g in EXPECTED.values() for p in [g["owner"], *g["identical"], *g["divergent"]]}:
        assert f"would write {path} (changed, regions)" in run.out
    assert "+++ contracts/docs-pipeline.md (after adopt)" in run.out
    assert run.out.splitlines()[-1].endswith("run `contractc adopt --write` to apply")


def test_the_plan_lists_every_copy_whose_bytes_change(plugin, run_cli):
    run = run_cli("adopt", str(plugin), "--no-diff", "--accept-drift")
    listed = run.out[run.out.index("copies whose bytes will change") :]
    for group in EXPECTED.values():
        for path in group["divergent"]:
            assert re.search(rf"^  {re.escape(path)}:\d+: \S+: drifted from the owning copy at ", listed, re.M), path
    changing = listed.split("\n\n", 1)[0]
    assert "\n  agents/review-orchestrator.md:" not in changing  # its block of two keys is one record: never cut in two
    left = run.out[run.out.index("copies left as they are") :]
    assert "agents/review-orchestrator.md:32: critique_report: the block is one record of 2 keys" in left


def test_write_then_check_is_clean_and_build_writes_nothing(plugin, run_cli):
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    check = run_cli("check", "--root", str(plugin), "--no-cache")
    assert check.code == 0, check.out + check.err
    assert check.out.strip().endswith("all current")
    after = snapshot(plugin)
    build = run_cli("build", "--root", str(plugin))
    assert build.code == 0 and "contractc: 0 written, " in build.out
    assert snapshot(plugin) == after


def test_no_byte_outside_the_replaced_blocks_changes(plugin):
    before = snapshot(plugin)
    plan = plan_adoption(plugin)
    from contractc.output.outputs import write_changes

    write_changes(plugin, plan.changes)
    after = snapshot(plugin)
    assert plan.replaced
    for path, spans in plan.replaced.items():
        old = hashlib.sha256(b"".join(_outside_spans(before[path], spans))).hexdigest()
        new = hashlib.sha256(b"".join(_outside_regions(after[path]))).hexdigest()
        assert old == new, path
    untouched = set(before) - set(plan.replaced)
    assert untouched >= {"README.md", *IGNORED}
    for path in untouched:
        assert after[path] == before[path], path


def test_every_copy_becomes_a_stamped_region_holding_the_owners_bytes(plugin, run_cli):
    run_cli("adopt", str(plugin), "--write", "--accept-drift")
    fact_checker = (plugin / "agents/fact-checker.md").read_text()
    assert "<!-- contractc:begin shape=verdict sha256=" in fact_checker
    assert "<one-line reason>" in fact_checker and "<reason>" not in fact_checker
    contract = (plugin / "contracts/docs-pipeline.md").read_bytes()
    for group in scan_plugin(write_plugin(plugin.parent / "fresh")).groups:
        assert group.owner.text.encode() in contract, group.id
    assert not scan_plugin(plugin).groups  # nothing unmanaged is left


def test_the_contract_has_one_section_per_stage(plugin, run_cli):
    run_cli("adopt", str(plugin), "--write")
    contract = (plugin / "contracts/docs-pipeline.md").read_text()
    for anchor in ("survey-stage", "drafting-stage", "review-stage"):
        assert len(re.findall(rf"^## .* \{{#{anchor}\}}$", contract, re.M)) == 1
    config = (plugin / "contractc.yaml").read_text()
    assert 'path: "contracts/docs-pipeline.md"' in config
    # check shares scan's worked-example rule (load/worked.py): the examples need no allow_restatements entry;
    # the one entry is the record of two keys adopt left whole, by its bytes
    allowed = config.split("allow_restatements:\n", 1)[1].split("\n")
    assert allowed[0].startswith('  - { path: "agents/review-orchestrator.md", shape: "critique_report", sha256: ')
    assert "a block of several keys (one record), left whole" in allowed[0] and not allowed[1].startswith("  - ")


def test_adopting_an_adopted_plugin_changes_nothing(plugin, run_cli):
    run_cli("adopt", str(plugin), "--write")
    before = snapshot(plugin)
    for args in (("adopt", str(plugin)), ("adopt", str(plugin), "--write")):
        run = run_cli(*args)
        assert run.code == 0
        assert "nothing to adopt" in run.out
    assert snapshot(plugin) == before


def test_a_failed_write_changes_nothing(plugin, run_cli, monkeypatch):
    before = snapshot(plugin)
    fail_nth_replace(monkeypatch, 5, 13, "Permission denied")
    run = run_cli("adopt", str(plugin), "--write")
    monkeypatch.undo()
    assert run.code == 2 and "write-failed" in run.err
    assert snapshot(plugin) == before


def test_owner_glob_decides_whose_bytes_win(plugin, run_cli):
    run_cli("adopt", str(plugin), "--write", "--accept-drift", "--owner", "agents/fact-checker.md")
    assert "<reason>" in (plugin / "skills/review/SKILL.md").read_text()


def test_a_plugin_whose_configuration_is_broken_is_refused_located_and_nothing_is_written(plugin, run_cli):
    (plugin / "contractc.yaml").write_text("contracts: []\n")
    before = snapshot(plugin)
    run = run_cli("adopt", str(plugin), "--write")
    assert run.code == 2 and run.err.startswith("contractc.yaml:1:1: error[config-invalid]")
    assert snapshot(plugin) == before


def test_a_yaml_shape_whose_notation_cannot_be_read_is_adopted_as_a_template_and_says_why_at_the_owning_copy(tmp_path, run_cli):
    block = "# A\n\n```yaml\nping:\n  kind: a | b\n  at: str\n```\n"
    write_plugin(tmp_path, {"agents/a.md": block, "skills/x/SKILL.md": block})
    run = run_cli("adopt", str(tmp_path), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "  ping: its values are not notation a data shape can hold (skills/x/SKILL.md:6: ping: $.at: `str` is not a type of the notation" in run.out
    contract = next((tmp_path / "contracts").glob("*.md")).read_text()
    assert "Produced by `" in contract and "```yaml\nping:\n  kind: a | b\n  at: str\n```\n" in contract
    for path in ("agents/a.md", "skills/x/SKILL.md"):  # each copy byte-managed, its bytes unchanged
        text = (tmp_path / path).read_text()
        assert "<!-- contractc:begin shape=ping " in text and block.split("\n\n", 1)[1] in text
    assert not list(tmp_path.glob("schemas/**/ping*.json"))  # a template has no JSON Schema
    assert run_cli("check", "--root", str(tmp_path)).code == 0


def test_the_fixture_scans_clean_after_adopt_but_for_the_drift_left_unresolved(plugin, run_cli):
    run_cli("adopt", str(plugin), "--write")
    import json

    from contractc.load.config import load_config

    recorded = {(e.path, e.shape) for e in load_config(plugin).unresolved}
    run = run_cli("scan", str(plugin), "--format", "json")

    errors = {(d["path"], d["message"].split(" of ", 1)[1].split(" ", 1)[0]) for d in json.loads(run.out)["diagnostics"] if d["severity"] == "error"}
    assert errors and errors <= recorded  # each drifted copy scan still reports is one check reports too
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    assert run_cli("scan", str(plugin)).code == 0
    assert len(FILES) > 12


def test_a_plugin_with_its_own_schemas_folder_keeps_it(plugin, run_cli):
    mine = {"schemas/handwritten.json": '{"type": "object"}\n', "prompts/notes.txt": "mine\n"}
    write_plugin(plugin, mine)
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    for path, text in mine.items():
        assert (plugin / path).read_text() == text
    config = (plugin / "contractc.yaml").read_text()
    assert 'prompts: "contractc/prompts"' in config and 'schemas: "contractc/schemas"' in config
    assert run_cli("check", "--root", str(plugin), "--no-cache").code == 0
    assert run_cli("build", "--root", str(plugin)).code == 0
    for path, text in mine.items():  # build removes orphans only in folders contractc owns
        assert (plugin / path).read_text() == text


def test_symbolic_links_are_not_read_so_adopt_never_writes_through_one(plugin, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_bytes((plugin / "agents/fact-checker.md").read_bytes())
    (plugin / "agents/linked.md").symlink_to(outside)
    assert "agents/linked.md" not in scan_plugin(plugin).files
    assert "agents/linked.md" not in {c.path for c in plan_adoption(plugin).changes}

_PROSE = st.text(alphabet="abcdefgh XYZ.,:;!?\t-*_()", min_size=0, max_size=60)
_BLOCK = "```yaml\nping:\n  at: string   # when\n  kind: a | b\n```\n"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    before=st.lists(_PROSE, max_size=4),
    after=st.lists(_PROSE, max_size=4),
    newline=st.sampled_from(["\n", "\r\n"]),
    bom=st.booleans(),
    final_newline=st.booleans(),
    drifted=st.booleans(),
)
def test_property_bytes_outside_the_replaced_blocks_never_change(tmp_path_factory, before, after, newline, bom, final_newline, drifted):
    root = tmp_path_factory.mktemp("plugin")
    files = {}
    for n, path in enumerate(("skills/a/SKILL.md", "agents/b.md")):
        block = _BLOCK.replace("# when", "# when, UTC") if drifted and n else _BLOCK
        text = newline.join([*before, "", block.rstrip("\n").replace("\n", newline), "", *after])
        data = (b"\xef\xbb\xbf" if bom else b"") + (text + (newline if final_newline else "")).encode()
        files[path] = data
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    plan = plan_adoption(root)
    from contractc.output.outputs import write_changes

    write_changes(root, plan.changes)
    for path, spans in plan.replaced.items():
        assert b"".join(_outside_spans(files[path], spans)) == b"".join(_outside_regions((root / path).read_bytes()))
    if drifted:  # not chosen: the drifted copy keeps every byte, outside any region
        assert set(plan.replaced) == {"skills/a/SKILL.md"} and (root / "agents/b.md").read_bytes() == files["agents/b.md"]
    else:
        assert set(plan.replaced) == set(files)


def test_a_quoted_copy_is_left_as_it_is_listed_and_check_stays_clean(tmp_path, run_cli):
    block = "```yaml\nping:\n  at: string\n  kind: a | b\n```\n"
    listed = "# B\n\n> hand over:\n>\n" + "".join(f"> {line}\n" for line in block.splitlines())
    write_plugin(tmp_path, {"skills/a/SKILL.md": block, "agents/b.md": block, "agents/c.md": listed})
    before = (tmp_path / "agents/c.md").read_bytes()
    run = run_cli("adopt", str(tmp_path), "--write")
    assert run.code == 0
    assert "copies left as they are:\n  agents/c.md:6: ping: inside a quote" in run.out
    assert (tmp_path / "agents/c.md").read_bytes() == before
    assert run_cli("check", "--root", str(tmp_path), "--no-cache").code == 0


def _report_schema():
    import json
    from importlib import resources

    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(resources.files("contractc.data").joinpath("check-report.schema.json").read_text("utf-8")))


def test_format_json_is_the_plan_as_one_document_of_the_report_schema_and_writes_nothing(plugin, run_cli):
    import json

    before = snapshot(plugin)
    run = run_cli("adopt", str(plugin), "--format", "json", "--accept-drift")
    assert run.code == 0
    doc = json.loads(run.out)
    _report_schema().validate(doc)
    assert snapshot(plugin) == before
    assert doc["status"] == "clean" and doc["summary"].startswith("contractc: dry run, nothing written: 11 shapes")
    rewritten = [(d["path"], d["line"], d["severity"]) for d in doc["diagnostics"] if d["code"] == "adopt-rewritten"]
    assert ("agents/example-writer.md", 21, "warning") in rewritten and len(rewritten) == 5
    files = {d["path"] for d in doc["diagnostics"] if d["code"] == "adopt-file"}
    changes = {c["path"]: c for c in doc["changes"]}
    # beside the files, each rewritten drifted copy's diff against its owner (PATH:LINE)
    assert files == {p for p in changes if not re.search(r":\d+$", p)} and "contracts/docs-pipeline.md" in files
    assert {p for p in changes if re.search(r":\d+$", p)} >= {"agents/example-writer.md:21", "agents/fact-checker.md:20"}
    contract = changes["contracts/docs-pipeline.md"]
    assert contract["actual_sha256"] is None and contract["diff"] is not None  # new: nothing there now
    agent = changes["agents/section-writer.md"]
    assert agent["actual_sha256"] == hashlib.sha256((plugin / "agents/section-writer.md").read_bytes()).hexdigest()
    assert "+<!-- contractc:begin shape=" in agent["diff"]

    written = json.loads(run_cli("adopt", str(plugin), "--write", "--format", "json", "--accept-drift").out)
    _report_schema().validate(written)
    assert written["summary"].startswith("contractc: adopted 11 shapes")
    after = {c["path"]: c for c in written["changes"]}
    assert after["agents/section-writer.md"]["expected_sha256"] == hashlib.sha256(
        (plugin / "agents/section-writer.md").read_bytes()
    ).hexdigest()  # what it wrote is on disk
    assert run_cli("check", "--root", str(plugin)).code == 0


def test_format_github_annotates_each_copy_that_changes_and_bad_input_stays_located(plugin, run_cli):
    import json

    run = run_cli("adopt", str(plugin), "--format", "github", "--no-diff", "--accept-drift")
    assert run.code == 0
    lines = run.out.splitlines()
    assert any(
        line.startswith("::warning file=") and "agents/example-writer.md,line=21,col=1,title=contractc adopt-rewritten::" in line
        for line in lines
    )
    assert lines[-1].startswith("contractc: dry run, nothing written:")
    (plugin / "contractc.yaml").write_text("contracts: []\n")
    refused = run_cli("adopt", str(plugin), "--format", "json")
    assert refused.code == 2
    doc = json.loads(refused.out)
    _report_schema().validate(doc)
    assert [(d["path"], d["line"], d["code"]) for d in doc["diagnostics"]] == [("contractc.yaml", 1, "config-invalid")]


PING = "```yaml\nping:\n  at: string          # when it was sent\n  kind: a | b\n```\n"
PING_DRIFTED = "```yaml\nping:\n  at: string\n  kind: a | b\n```\n"


@pytest.mark.parametrize("accept", [(), ("--accept-drift",)])
def test_a_quoted_drifted_copy_is_never_allowed_and_check_reports_it_located(tmp_path, run_cli, accept):
    quoted = "# C\n\n> hand over:\n>\n" + "".join(f"> {line}\n" for line in PING_DRIFTED.splitlines())
    write_plugin(tmp_path, {"skills/a/SKILL.md": PING, "agents/b.md": PING, "agents/c.md": quoted})
    before = (tmp_path / "agents/c.md").read_bytes()
    run = run_cli("adopt", str(tmp_path), "--write", *accept)
    assert run.code == 0, run.err
    assert "agents/c.md:6: ping: the notation of at differs from the owner's; left as it is" in run.out
    assert "check reports it (drift-restatement)" in run.out
    assert "allowed in contractc.yaml" not in run.out  # the drift goes on no allow-list, --accept-drift or not
    assert "allow_restatements" not in (tmp_path / "contractc.yaml").read_text()
    assert (tmp_path / "agents/c.md").read_bytes() == before
    check = run_cli("check", "--root", str(tmp_path), "--no-cache")
    assert check.code == 1
    assert "agents/c.md:5:3: error[drift-restatement]: unmanaged copy of ping, different from the contract" in check.out
    assert "a region cannot sit in a quote: move lines 5-9 out of the quote" in check.out


def _listed(block: str, indent: str) -> str:
    """``block`` in a list inside a list, ``indent`` in (a fence four or more columns in)."""
    return "# C\n\n1. Steps:\n   - hand over:\n\n" + "".join(f"{indent}{line}\n" for line in block.splitlines()) + "\n   - then stop.\n"


@pytest.mark.parametrize("indent", ["  ", "     "], ids=["list item", "list in a list"])
def test_a_copy_in_a_list_item_becomes_a_region_indented_like_its_fence_end_to_end(tmp_path, run_cli, indent):
    write_plugin(
        tmp_path,
        {"skills/a/SKILL.md": PING, "agents/b.md": PING, "agents/c.md": _listed(PING, indent), "agents/d.md": _listed(PING_DRIFTED, indent)},
    )
    run = run_cli("adopt", str(tmp_path), "--write")
    assert run.code == 0, run.err
    same = (tmp_path / "agents/c.md").read_text()
    begin = next(line for line in same.splitlines() if "contractc:begin shape=ping" in line)
    assert begin.startswith(f"{indent}<!--") and f"{indent}<!-- contractc:end -->\n" in same
    assert "".join(f"{indent}{line}\n" for line in PING.splitlines()) in same  # the item's bytes kept, indent and all
    # the drifted one: left as it is, no region; check reports it, located, with its diff
    check = run_cli("check", "--root", str(tmp_path), "--no-cache")
    assert check.code == 1
    assert "agents/d.md:7:1: error[drift-unresolved]" in check.out and "-  at: string\n" in check.out
    assert "agents/c.md" not in check.out  # equal to the contract once the item's indent is taken off
    choice = re.search(r"`contractc adopt --resolve (\S+)`", check.out).group(1)
    assert run_cli("adopt", str(tmp_path), "--write", "--resolve", choice).code == 0
    assert "".join(f"{indent}{line}\n" for line in PING.splitlines()) in (tmp_path / "agents/d.md").read_text()  # re-indented
    assert run_cli("check", "--root", str(tmp_path), "--no-cache").code == 0
    # a hand edit inside the indented region is seen, and so is a line moved out of the item
    edited = (tmp_path / "agents/c.md").read_text().replace("kind: a | b", "kind: a | c")
    (tmp_path / "agents/c.md").write_text(edited)
    assert "error[drift-region-edited]" in run_cli("check", "--root", str(tmp_path), "--no-cache").out
    (tmp_path / "agents/c.md").write_text(edited.replace(f"{indent}  kind: a | c", "kind: a | b"))
    assert "error[drift-region-edited]" in run_cli("check", "--root", str(tmp_path), "--no-cache").out


def test_an_unmanaged_copy_in_a_list_in_a_list_is_seen_and_an_equal_one_is_identical(tmp_path, run_cli):
    write_plugin(tmp_path, {"skills/a/SKILL.md": PING, "agents/b.md": PING})
    assert run_cli("adopt", str(tmp_path), "--write").code == 0
    (tmp_path / "agents/c.md").write_text(_listed(PING, "     "))
    (tmp_path / "agents/d.md").write_text(_listed(PING_DRIFTED, "     "))
    check = run_cli("check", "--root", str(tmp_path), "--no-cache")
    assert check.code == 1
    assert "agents/c.md:6:6: error[drift-restatement]: unmanaged copy of ping, identical to the contract" in check.out
    assert "agents/d.md:6:6: error[drift-restatement]: unmanaged copy of ping, different from the contract" in check.out
    assert "each indented 5 spaces like the fence" in check.out


def test_a_drifted_copy_check_cannot_see_is_not_promised_a_report(tmp_path, run_cli):
    block = "```yaml\nping:\n  at: string          # when it was sent\n  kind: a | b\n```\n"
    # a quote six spaces in (a quote in a list item in a list item): check's finder reads quote markers at most
    # three spaces in
    quoted = "# C\n\n- a:\n   - b:\n\n" + "".join(f"      > {line}\n" for line in block.replace("          # when it was sent", "").splitlines())
    write_plugin(tmp_path, {"skills/a/SKILL.md": block, "agents/b.md": block, "agents/c.md": quoted})
    run = run_cli("adopt", str(tmp_path), "--accept-drift")
    assert run.code == 0, run.err
    assert "agents/c.md:7: ping:" in run.out
    said = "check's restatement finder cannot see it (a quote more than three spaces in): it is recorded under unresolved"
    assert said in run.out
    assert "check reports it (drift-restatement)" not in run.out
    # recorded with the drift adopt left out, so check reports it all the same
    assert run_cli("adopt", str(tmp_path), "--accept-drift", "--write").code == 0
    assert '  - { path: "agents/c.md", line: 7, shape: "ping", why: "drifted copy of ping: ' in (tmp_path / "contractc.yaml").read_text()
    checked = run_cli("check", "--root", str(tmp_path))
    assert checked.code == 1 and checked.out.startswith("agents/c.md:7:1: error[drift-unresolved]: unresolved drift that adopt left as it is: drifted copy of ping")


def _record(inner: str) -> str:
    return f"```yaml\nanalysis:\n{inner}\nroot_cause: string       # one sentence\ncategory: prompt | tool | model\n```\n"


def test_a_record_some_of_whose_keys_are_shapes_is_never_cut_into_fences(tmp_path, run_cli):
    """One fenced record of three keys, two of them pasted alike in two agents, the third each agent's own: the
    record is one unit, so its two shared keys are no shapes of their own (a region of them would cut the record
    into fences); the records are left as they are, and the shape beside the record is adopted."""
    handoff = "```yaml\nhandoff:\n  status: done | stuck\n  summary: string\n```\n"
    records = {"alpha": _record("  first_look: string\n  depth: integer\n"), "beta": _record("  timeline: string\n  actors: string\n")}
    root = write_tree(tmp_path, {f"agents/{a}.md": f"# {a}\n\nReturn this record:\n\n{r}\nHand back:\n\n{handoff}" for a, r in records.items()})
    scanned = run_cli("scan", "-v", str(root))
    assert "shape handoff: 2 members" in scanned.out and "root_cause" not in scanned.out and "category" not in scanned.out, scanned.out
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    for agent, record in records.items():
        new = (root / f"agents/{agent}.md").read_text()
        assert new.count(record) == 1 and new.count("<!-- contractc:begin shape=handoff") == 1, new
        assert new.count("<!-- contractc:begin") == 1
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0


LONG_TITLE = (
    "```markdown\n## The quarterly review of every authentication middleware step and the user data fetch policy it follows\n"
    "**Status:** <done or stuck>\n**Notes:** <one line>\n```\n"
)


def test_a_sentence_long_title_makes_a_shape_id_short_enough_for_a_file_name(tmp_path, run_cli):
    # the id names a section, an anchor and a file (prompts/AGENT/ID.md): a title's every word made it too long
    root = write_tree(
        tmp_path / "review",
        {"agents/a.md": f"# A\n\n{LONG_TITLE}", "agents/b.md": f"# B\n\n{LONG_TITLE}", "skills/run/SKILL.md": "# Run\n\nDispatches `a` and `b`.\n"},
    )
    scanned = run_cli("scan", "-v", str(root))
    assert "shape the-quarterly-review-of-every-authentication: 2 members" in scanned.out
    written = run_cli("adopt", str(root), "--write")
    assert written.code == 0, written.err
    assert "{#the-quarterly-review-of-every-authentication}" in (root / "contracts/review.md").read_text()
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0


def test_a_file_name_too_long_for_the_file_system_is_said_so(plugin, run_cli, monkeypatch):
    import errno
    import os

    real = os.replace

    def refusing(src, dst):
        if "contractc-tmp" in str(src):
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), str(dst))
        return real(src, dst)

    before = snapshot(plugin)
    monkeypatch.setattr(os, "replace", refusing)
    run = run_cli("adopt", str(plugin), "--write")
    monkeypatch.undo()
    assert run.code == 2 and "error[write-failed]" in run.err
    assert "hint: the file system refuses a name this long: shorten the shape's or agent's name" in run.err
    assert snapshot(plugin) == before


def test_a_copy_left_as_it_is_is_listed_under_the_id_of_its_shape_not_its_key(tmp_path, run_cli):
    # two shapes under one key `result`: scan names them result-verdict and result-path, and so does the plan
    verdict = "```yaml\nresult:\n  verdict: pass | fail\n  summary: <text>\n  findings: <list>\n```\n"
    where = "```yaml\nresult:\n  path: <file>\n  lines: <int>\n  owner: <agent>\n```\n"
    quoted = "".join(f"> {line}\n" for line in where.splitlines())
    files = {"agents/a.md": verdict, "agents/b.md": verdict, "agents/c.md": where, "agents/d.md": where, "agents/e.md": quoted}
    root = write_tree(tmp_path, {path: f"# {path[7]}\n\n{text}" for path, text in files.items()})
    run = run_cli("adopt", str(root), "--no-diff")
    assert "copies left as they are:\n  agents/e.md:4: result-path: inside a quote" in run.out, run.out
    notes = run_cli("adopt", str(root), "--format", "json").out
    assert '"copy of result-path left as it is: inside a quote' in notes
