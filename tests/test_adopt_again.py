"""`contractc adopt` on a plugin adopted before: new shapes appended to its contract, new copies of the shapes
it holds judged against the contract, contractc.yaml merged line by line (docs/adopt.md, "Adopting again")."""

from __future__ import annotations

import hashlib
import re

import pytest

from conftest import fail_nth_replace, snapshot, write_tree

TICKET = """\
```yaml
job_ticket:
  target: string           # the page or file to work on
  urgency: low | high
```
"""

HANDBACK = """\
```text
## HANDBACK
**State:** <done or stuck>
**Notes:** <what happened, one line>
```
"""

PING = """\
```yaml
progress_ping:
  percent: integer         # 0 to 100
  stage: reading | writing
```
"""

PING_EXAMPLE = """\
For example:

```yaml
progress_ping:
  percent: 40
  stage: reading
```
"""


def _alert(agent: str) -> str:
    return f'```json\n{{"alert": "{agent}", "level": "<low|high>", "text": "<one line>"}}\n```\n'


FIRST = {
    "skills/relay/SKILL.md": f"# Relay\n\nDispatches `fetcher` and `summarizer`.\n\n## Ticket\n\n{TICKET}\n## Hand-back\n\nEach agent returns with:\n\n{HANDBACK}",
    "agents/fetcher.md": f"# Fetcher\n\n## Ticket\n\n{TICKET}\n## Hand-back\n\n{HANDBACK}",
    "agents/summarizer.md": f"# Summarizer\n\n## Ticket\n\n{TICKET}\n## Hand-back\n\n{HANDBACK}",
}
"""A plugin of two shapes, adopted first."""

ADDED = {
    # a new shape pasted into two agents since, beside an instance of another new shape and a worked example
    "agents/fetcher.md": f"\n## Progress\n\n{PING}\n## Alert\n\n{_alert('fetcher')}",
    "agents/summarizer.md": f"\n## Progress\n\n{PING}\n## Alert\n\n{_alert('summarizer')}\n{PING_EXAMPLE}",
}
CHECKER = f"# Checker\n\n## Ticket\n\n{TICKET}\n## Hand-back\n\n{HANDBACK.replace('<done or stuck>', '<done, stuck or waiting>')}"
"""A new agent: an identical copy of job_ticket and a drifted copy of the handback template."""


@pytest.fixture
def adopted(tmp_path, run_cli):
    root = write_tree(tmp_path / "relay", FIRST)
    first = run_cli("adopt", str(root), "--write")
    assert first.code == 0, first.err
    return root


def _paste(root, added=ADDED, checker=True):
    for rel, text in added.items():
        with (root / rel).open("a", encoding="utf-8") as f:
            f.write(text)
    if checker:
        (root / "agents/checker.md").write_text(CHECKER)


def _block_hashes(root, *needles: str) -> dict[tuple[str, str], str]:
    """The SHA-256 of every fenced block holding one of ``needles``, by (file, needle): the instances and examples."""
    found = {}
    for path in sorted(root.rglob("*.md")):
        text = path.read_text()
        for block in re.findall(r"^```.*?^```\n", text, re.M | re.S):
            for needle in needles:
                if needle in block:
                    found[(path.relative_to(root).as_posix(), needle)] = hashlib.sha256(block.encode()).hexdigest()
    return found


def test_adopting_again_appends_the_new_shapes_and_check_reports_only_the_drift_left(adopted, run_cli):
    contract = (adopted / "contracts/relay.md").read_bytes()
    config = (adopted / "contractc.yaml").read_bytes()
    _paste(adopted)
    kept = _block_hashes(adopted, '"alert": "summarizer"', "percent: 40")
    assert len(kept) == 2
    plan = run_cli("adopt", str(adopted), "--no-diff")
    assert plan.code == 0, plan.err
    assert "new shapes (alert, progress_ping): appended to contracts/relay.md, the contract contractc.yaml names, as new sections" in plan.out
    assert "agents/summarizer.md:34: alert: the same structure with its own values" in plan.out  # an instance region
    assert "agents/summarizer.md:40: progress_ping: none of its values is notation" in plan.out  # an example
    assert "agents/checker.md:14: handback: the notation of state differs from the owner's" in plan.out
    assert "the contract holds handback: if this copy is right, carry its difference into contracts/relay.md:" in plan.out
    assert plan.out.rstrip().endswith("run `contractc adopt --write` to apply")
    # the drifted copy's diff is in the plan, against the contract's block
    diff = run_cli("adopt", str(adopted)).out
    assert "+++ contracts/relay.md:" in diff and "-**State:** <done, stuck or waiting>" in diff

    run = run_cli("adopt", str(adopted), "--write")
    assert run.code == 0, run.err
    written = (adopted / "contracts/relay.md").read_bytes()
    assert written.startswith(contract)  # appended: every byte it had is kept
    assert written.count(b"```yaml\nprogress_ping:") == 1 and b'"alert": "fetcher"' in written
    # its targets already reach every copy: the one line added records the drifted copy, left as it is
    merged = (adopted / "contractc.yaml").read_bytes()
    assert merged.startswith(config) and merged[len(config) :].startswith(b'unresolved:\n  - { path: "agents/checker.md", line: 16, shape: "handback"')
    assert _block_hashes(adopted, '"alert": "summarizer"', "percent: 40") == kept  # never rewritten
    checker = (adopted / "agents/checker.md").read_text()
    assert "<!-- contractc:begin shape=job_ticket sha256=" in checker  # an identical copy: a managed region
    assert "shape=handback" not in checker and CHECKER.split("## Hand-back\n\n")[1] in checker  # the drifted one: as it was
    assert checker.splitlines()[15] == "## HANDBACK"  # line 16, where the entry says (two marker lines above it)
    assert "<!-- contractc:begin instance=alert -->" in (adopted / "agents/summarizer.md").read_text()

    check = run_cli("check", "--root", str(adopted), "--no-cache")
    assert check.code == 1
    errors = [line for line in check.out.splitlines() if ": error[" in line]
    assert errors == ["agents/checker.md:16:1: error[drift-unresolved]: unresolved drift that adopt left as it is: drifted copy of handback (the notation of state differs from the owner's)"]

    before = snapshot(adopted)
    again = run_cli("adopt", str(adopted), "--write")
    assert again.code == 0 and "nothing to adopt: 1 drifted copy is left as it is until you choose" in again.out
    assert snapshot(adopted) == before  # recorded once: a second run adds nothing


def test_accept_drift_on_an_adopted_plugin_fills_the_regions_left_with_drift(adopted, run_cli):
    _paste(adopted)
    assert run_cli("adopt", str(adopted), "--write").code == 0
    # the drifted copy in a region never filled, as an adopt before 2026-12 left it (and its entry gone)
    checker = adopted / "agents/checker.md"
    drifted = CHECKER.split("## Hand-back\n\n")[1]
    checker.write_text(checker.read_text().replace(drifted, f"<!-- contractc:begin shape=handback -->\n{drifted}<!-- contractc:end -->\n"))
    config = adopted / "contractc.yaml"
    config.write_text(config.read_text().split("unresolved:\n")[0])
    kept = _block_hashes(adopted, '"alert": "summarizer"', "percent: 40")
    plan = run_cli("adopt", str(adopted), "--accept-drift")
    assert plan.code == 0, plan.err
    assert "agents/checker.md:15: shape=handback" in plan.out
    assert "-**State:** <done, stuck or waiting>" in plan.out and "+**State:** <done or stuck>" in plan.out
    assert run_cli("adopt", str(adopted), "--accept-drift", "--write").code == 0
    assert "<done or stuck>" in (adopted / "agents/checker.md").read_text()
    assert _block_hashes(adopted, '"alert": "summarizer"', "percent: 40") == kept
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


def test_accept_drift_rewrites_a_new_drifted_copy_of_a_held_shape_to_the_contract(adopted, run_cli):
    (adopted / "agents/checker.md").write_text(CHECKER)
    run = run_cli("adopt", str(adopted), "--accept-drift", "--write")
    assert run.code == 0, run.err
    assert "agents/checker.md:14: handback: drifted from the owning copy at contracts/relay.md:" in run.out
    text = (adopted / "agents/checker.md").read_text()
    assert "<done or stuck>" in text and "waiting" not in text
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


def test_resolve_may_name_the_contracts_block_never_rewrite_the_contract_to_a_copy(adopted, run_cli):
    (adopted / "agents/checker.md").write_text(CHECKER)
    before = snapshot(adopted)
    refused = run_cli("adopt", str(adopted), "--write", "--resolve", "handback=agents/checker.md:14")
    assert refused.code == 2
    assert "--resolve:1:1: error[adopt-resolve]: --resolve handback=agents/checker.md:14: handback is a shape of contracts/relay.md" in refused.err
    assert snapshot(adopted) == before
    line = next(n for n, text in enumerate((adopted / "contracts/relay.md").read_text().splitlines(), 1) if text == "```text")
    run = run_cli("adopt", str(adopted), "--write", "--resolve", f"handback=contracts/relay.md:{line}")
    assert run.code == 0, run.err
    assert "waiting" not in (adopted / "agents/checker.md").read_text()
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


def test_a_new_shape_never_reuses_a_title_anchor_or_id_the_contract_has(adopted, run_cli):
    contract = (adopted / "contracts/relay.md").read_text()
    assert "## Shapes {#shapes}" in contract
    # a template titled "Shapes" (its id `shapes` is the contract's section anchor already), in two agents
    template = "```text\n## SHAPES\n**Count:** <how many>\n**Kinds:** <which>\n```\n"
    _paste(adopted, {"agents/fetcher.md": f"\n## Shapes\n\n{template}\n## Progress\n\n{PING}", "agents/summarizer.md": f"\n## Shapes\n\n{template}\n## Progress\n\n{PING}"}, checker=False)
    run = run_cli("adopt", str(adopted), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "Shapes {#shapes} -> Shapes (2) {#shapes-2}" in run.out
    assert "Shapes {#shapes} -> Shapes (3) {#shapes-3}" in run.out
    written = (adopted / "contracts/relay.md").read_text()
    assert written.startswith(contract)
    anchors = re.findall(r"\{#([^}]+)\}", written)
    assert len(anchors) == len(set(anchors))
    assert "<!-- contractc:begin shape=shapes-3" in (adopted / "agents/fetcher.md").read_text()
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


def test_a_new_shape_that_would_rename_one_the_contract_has_is_refused_at_its_owning_copy(adopted, run_cli):
    other = "```yaml\njob_ticket:\n  owner: string\n  opened: \"YYYY-MM-DD\"\n  tags: [ ...words... ]\n```\n"
    _paste(adopted, {"agents/fetcher.md": f"\n## Queue\n\n{other}", "agents/summarizer.md": f"\n## Queue\n\n{other}"}, checker=False)
    before = snapshot(adopted)
    run = run_cli("adopt", str(adopted), "--write")
    assert run.code == 2
    assert re.search(r"^agents/fetcher\.md:\d+:1: error\[adopt-configured\]: shape [\w.-]+: its key job_ticket is already the shape job_ticket", run.err, re.M)
    assert "rename the key in these copies" in run.err
    assert snapshot(adopted) == before


USER_CONFIG = """\
# our project: edited by hand since adopt wrote it
targets:
  - "agents/*.md"        # every agent
  - "skills/*/SKILL.md"

contracts:
  - path: "contracts/relay.md"   # the only one

# keep scans away from drafts
scan:
  exclude: ["drafts/*.md"]
"""


def test_contractc_yaml_is_merged_every_line_of_the_users_kept(adopted, run_cli):
    (adopted / "contractc.yaml").write_text(USER_CONFIG)
    assert run_cli("build", "--root", str(adopted)).code == 0
    write_tree(adopted, {"commands/go.md": f"# Go\n\n{PING}", "notes/todo.md": f"# Todo\n\n{PING}"})
    _paste(adopted, {"agents/fetcher.md": f"\n## Progress\n\n{PING}"}, checker=False)
    run = run_cli("adopt", str(adopted), "--write", "--exclude", "notes/*.md")
    assert run.code == 0, run.err
    merged = (adopted / "contractc.yaml").read_text()
    old = USER_CONFIG.splitlines(keepends=True)
    new = merged.splitlines(keepends=True)
    # every line of the user's is there, byte for byte and in order, but the one-line flow list that gained an item
    assert [line for line in new if line in old] == [line for line in old if "exclude:" not in line]
    assert '  exclude: ["drafts/*.md", "notes/*.md"]\n' in new
    added = [line for line in new if line not in old]
    assert added == ['  - "commands/*.md"\n', '  exclude: ["drafts/*.md", "notes/*.md"]\n']
    assert new.index('  - "commands/*.md"\n') == new.index('  - "skills/*/SKILL.md"\n') + 1
    assert "PING" not in (adopted / "notes/todo.md").read_text() and "contractc:" not in (adopted / "notes/todo.md").read_text()
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0
    before = snapshot(adopted)
    again = run_cli("adopt", str(adopted), "--write")  # the recorded --exclude applies again
    assert again.code == 0 and "nothing to adopt" in again.out
    assert snapshot(adopted) == before


def test_a_flow_list_in_contractc_yaml_gets_the_new_items_before_its_bracket(adopted, run_cli):
    (adopted / "contractc.yaml").write_text('contracts: [{path: "contracts/relay.md"}]\ntargets: ["agents/*.md", "skills/*/SKILL.md"]  # ours\n')
    write_tree(adopted, {"commands/go.md": f"# Go\n\n{PING}"})
    _paste(adopted, {"agents/fetcher.md": f"\n## Progress\n\n{PING}"}, checker=False)
    assert run_cli("adopt", str(adopted), "--write").code == 0
    assert (adopted / "contractc.yaml").read_text() == (
        'contracts: [{path: "contracts/relay.md"}]\ntargets: ["agents/*.md", "skills/*/SKILL.md", "commands/*.md"]  # ours\n'
    )
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


def test_a_configuration_of_several_contracts_gets_a_new_contract(adopted, run_cli):
    write_tree(adopted, {"contracts/extra.md": "# Extra\n\n## Notes {#notes}\n\nNothing yet.\n"})
    config = (adopted / "contractc.yaml").read_text()
    entry = 'contracts:\n  - path: "contracts/relay.md"\n'
    assert entry in config
    (adopted / "contractc.yaml").write_text(config.replace(entry, entry + '  - path: "contracts/extra.md"\n'))
    assert run_cli("build", "--root", str(adopted)).code == 0
    contracts = {p: (adopted / p).read_bytes() for p in ("contracts/relay.md", "contracts/extra.md")}
    _paste(adopted, checker=False)
    refused = run_cli("adopt", str(adopted), "--write")  # the plugin folder's name is taken by a contract
    assert refused.code == 2 and "contracts/relay.md: error[adopt-configured]: contracts/relay.md already exists: the new shapes go into a contract of their own" in refused.err
    run = run_cli("adopt", str(adopted), "--write", "--name", "relay-added", "--no-diff")
    assert run.code == 0, run.err
    assert "written to contracts/relay-added.md, a new contract added to contractc.yaml: contractc.yaml names 2 contracts" in run.out
    assert {p: (adopted / p).read_bytes() for p in contracts} == contracts
    assert '  - path: "contracts/relay-added.md"\n' in (adopted / "contractc.yaml").read_text()
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


def test_a_failed_write_on_an_adopted_plugin_changes_nothing(adopted, run_cli, monkeypatch):
    _paste(adopted)
    before = snapshot(adopted)
    fail_nth_replace(monkeypatch, 3, 13, "Permission denied")
    run = run_cli("adopt", str(adopted), "--write")
    monkeypatch.undo()
    assert run.code == 2 and "write-failed" in run.err
    assert snapshot(adopted) == before


def test_a_pinned_contract_is_never_appended_to(adopted, run_cli):
    contract = (adopted / "contracts/relay.md").read_bytes()
    config = (adopted / "contractc.yaml").read_text()
    pin = f'  - path: "contracts/relay.md"\n    sha256: {hashlib.sha256(contract).hexdigest()}\n'
    (adopted / "contractc.yaml").write_text(config.replace('  - path: "contracts/relay.md"\n', pin))
    _paste(adopted, checker=False)
    run = run_cli("adopt", str(adopted), "--write", "--name", "relay-more", "--no-diff")
    assert run.code == 0, run.err
    assert "a new contract added to contractc.yaml: contracts/relay.md is pinned (sha256:)" in run.out
    assert (adopted / "contracts/relay.md").read_bytes() == contract
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


def test_the_json_plan_on_an_adopted_plugin_is_one_located_document(adopted, run_cli):
    import json

    from test_adopt import _report_schema

    _paste(adopted)
    before = snapshot(adopted)
    run = run_cli("adopt", str(adopted), "--format", "json")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    _report_schema().validate(doc)
    said = {d["message"] for d in doc["diagnostics"] if d["path"] == "contracts/relay.md"}
    assert any("new shapes alert, progress_ping appended to contracts/relay.md" in m for m in said)
    kept = {(d["path"], d["line"]) for d in doc["diagnostics"] if d["code"] == "adopt-kept"}
    assert {("agents/summarizer.md", 34), ("agents/summarizer.md", 40), ("agents/checker.md", 14)} <= kept
    assert snapshot(adopted) == before


def test_a_lone_new_copy_of_a_held_template_becomes_its_region(adopted, run_cli):
    (adopted / "agents/new.md").write_text(f"# New\n\n## Back\n\n{HANDBACK}")
    run = run_cli("adopt", str(adopted), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "new copies of 1 shape the contracts hold" in run.out and "new shape" not in run.out
    assert "<!-- contractc:begin shape=handback sha256=" in (adopted / "agents/new.md").read_text()
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


@pytest.mark.parametrize(
    ("old", "merged"),
    [
        pytest.param(
            'contracts:\n  - path: "c.md"\ntargets:\n    - "a/*.md"   # ours\n    # more later\n\n# site\nsite_url: "https://x.invalid/"\n',
            'contracts:\n  - path: "c.md"\ntargets:\n    - "a/*.md"   # ours\n    # more later\n    - "b/*.md"\n\n# site\nsite_url: "https://x.invalid/"\n',
            id="block list, its indentation, comments",
        ),
        pytest.param('contracts: [{path: "c.md"}]\ntargets: []\n', 'contracts: [{path: "c.md"}]\ntargets: ["b/*.md"]\n', id="empty flow list"),
        pytest.param('contracts:\r\n  - path: "c.md"\r\n', 'contracts:\r\n  - path: "c.md"\r\ntargets:\r\n  - "b/*.md"\r\n', id="CRLF, key missing"),
        pytest.param('contracts:\n  - path: "c.md"\ntargets:\n  - "a/*.md"', 'contracts:\n  - path: "c.md"\ntargets:\n  - "a/*.md"\n  - "b/*.md"\n', id="no final newline"),
    ],
)
def test_merge_config_adds_lines_and_keeps_every_line_of_yours(old, merged):
    from contractc.adopt.contract import merge_config

    assert merge_config(old.encode(), [], ["b/*.md"], [], {}).decode() == merged


def test_merge_config_refuses_a_form_it_cannot_add_to_line_by_line():
    from contractc.adopt.contract import merge_config
    from contractc.report.diagnostics import ContractcError

    with pytest.raises(ContractcError) as raised:
        merge_config(b'contracts: [{path: "c.md"}]\ntargets: [\n  "a/*.md",\n]\n', [], ["b/*.md"], [], {})
    (d,) = raised.value.diagnostics
    assert (d.path, d.line, d.code) == ("contractc.yaml", 2, "adopt-configured")
    assert "write targets as a block list" in d.hint


def test_adopt_refreshes_a_region_the_appended_contract_made_stale_and_never_a_hand_edit(adopted, run_cli):
    # a region of the contract's level-1 section (the whole file): appending makes it stale, build would refresh it
    config = (adopted / "contractc.yaml").read_text()
    (adopted / "contractc.yaml").write_text(config.replace('targets:\n', 'targets:\n  - "docs/*.md"\n'))
    write_tree(adopted, {"docs/whole.md": "# All\n\n<!-- contractc:begin section=relay-hand-offs -->\n<!-- contractc:end -->\n"})
    assert run_cli("build", "--root", str(adopted)).code == 0
    edited = (adopted / "agents/fetcher.md").read_text().replace("# the page or file to work on", "# edited here")
    (adopted / "agents/fetcher.md").write_text(edited)
    _paste(adopted, {"agents/summarizer.md": ADDED["agents/summarizer.md"], "skills/relay/SKILL.md": f"\n## Progress\n\n{PING}"}, checker=False)
    run = run_cli("adopt", str(adopted), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "progress_ping" in (adopted / "docs/whole.md").read_text()  # refreshed, as build would
    assert "# edited here" in (adopted / "agents/fetcher.md").read_text()  # a hand edit is build --force's to decide
    check = run_cli("check", "--root", str(adopted), "--no-cache")
    assert [line.split(": ")[0:2] for line in check.out.splitlines() if ": error[" in line] == [["agents/fetcher.md:5:1", "error[drift-region-edited]"]]


def test_a_section_appended_after_an_html_block_is_its_own_heading(adopted, run_cli):
    """A contract ending in `<details>` ... with no blank line after it: the appended heading must not join the block."""
    contract = adopted / "contracts/relay.md"
    tail = "\n<details>\n<summary>Why two shapes</summary>\nThe relay keeps them apart.\n</details>\n"
    contract.write_text(contract.read_text() + tail)
    assert run_cli("build", "--root", str(adopted)).code == 0
    _paste(adopted, checker=False)
    assert run_cli("adopt", str(adopted), "--write").code == 0
    written = contract.read_text()
    assert "</details>\n\n## " in written  # the one blank line that closes the HTML block
    from contractc.load import load_project

    ids = {s.id for _, s in load_project(adopted).shapes()}
    assert {"progress_ping", "alert"} <= ids  # the appended sections are read as sections
    assert run_cli("check", "--root", str(adopted), "--no-cache").code == 0


ROAD = "```\nActivity: <name> | <date>\nZones: <share per zone>\nRecovery: <hours of rest>\nCoaching: <two sentences>\n```\n"
TRAIL = (
    "```\nActivity: <name> | <date> | <climb>m gain\nZones: <share per zone>\nTrail: <vertical speed>\nSlope: <grade>\n"
    "Recovery: <hours of rest, more after climbs>\nCoaching: <two sentences>\n```\n"
)


def _indented(block: str) -> str:
    return "".join(f"   {line}" if line.strip() else line for line in block.splitlines(keepends=True))


def _adopted_twice(run_cli, root):
    """adopt --write, then again: both runs, each asserted to exit 0, and whether the second changed any byte."""
    first = run_cli("adopt", str(root), "--write")
    assert first.code == 0, first.err
    adopted = snapshot(root)
    second = run_cli("adopt", str(root), "--write")
    assert second.code == 0, second.err
    return first, second, snapshot(root) != adopted


def test_a_variant_beside_the_owner_is_judged_the_same_way_by_a_second_adoption(tmp_path, run_cli):
    # the first adoption leaves the trail variant beside the road form, which becomes a region: the second one
    # judges the variant against the contract's block, and it is still beside the owner (its region) in its file
    root = write_tree(
        tmp_path / "coach",
        {
            "skills/coach/SKILL.md": f"# Coach\n\n1. Report:\n\n   **Road:**\n{_indented(ROAD)}\n   **Trail:**\n{_indented(TRAIL)}",
            "agents/reporter.md": f"# Reporter\n\nReport each run as:\n\n{ROAD}",
            "agents/echo.md": f"# Echo\n\nReport each run as:\n\n{ROAD}",
        },
    )
    first, second, changed = _adopted_twice(run_cli, root)
    assert "skills/coach/SKILL.md:15: activity: beside the owner in the same file" in first.out
    assert not changed  # no unresolved entry for the variant, nothing rewritten
    assert "skills/coach/SKILL.md:17: activity: beside the owner in the same file" in second.out
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0


def test_a_shape_left_as_it_is_never_refuses_a_second_adoption_for_its_key(tmp_path, run_cli):
    # two shapes share the key `phases`: the first is adopted; the second's blocks open with a comment line no
    # region could keep, so it is left. Adopting again leaves it again: it renames nothing, so nothing is refused
    counts = "```yaml\nphases:\n  count: integer     # how many\n  names: [ string ]\n```\n"
    gates = "```yaml\n# In the workflow file\nphases:\n  gate: string       # the script to run\n  retries: integer\n```\n"
    root = write_tree(
        tmp_path / "flow",
        {"agents/a.md": f"# A\n\n{counts}", "agents/b.md": f"# B\n\n{counts}", "agents/c.md": f"# C\n\n{gates}", "agents/d.md": f"# D\n\n{gates}"},
    )
    first, second, changed = _adopted_twice(run_cli, root)
    assert "agents/c.md:5: phases-gate: a copy of this shape sits in a block a region cannot replace as a whole" in first.out
    assert "nothing to adopt" in second.out
    assert not changed
