"""adopt and check never put a user's block where a later command overwrites it with another block's bytes.

A member whose bytes differ from its owner's is inside a byte-managed (``shape=``) region only when the user
chose that member's rewrite (``--accept-drift``, ``--resolve``); a drifted member left unresolved stays as it
is, outside any region, recorded under ``unresolved`` so that check reports it (docs/adopt.md, "What adopt
changes").  Each test runs the CLI as a user does and hashes the blocks that must not change.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from conftest import snapshot, write_tree

from contractc.scan import scan_plugin

BRIEF = """\
```yaml
work_order:
  ticket: string            # the tracker's id
  size: small | large
  notes: string
```
"""
STALE_BRIEF = BRIEF.replace("  notes: string\n", "  notes: string\n  deadline: string          # added by hand here\n")


def _delegation(*args: str) -> str:
    """A per-call tool invocation: each call has its own argument list (scan may call the second a drifted copy)."""
    listed = ", ".join(f'"{a}"' for a in args)
    return f'```json\n{{"command": "cache", "args": [{listed}], "parse_output": true}}\n```\n'


def _agent(title: str, *sections: str) -> str:
    return f"# {title}\n\nYou do one job.\n" + "".join(f"\n## Part {i}\n\n{body}" for i, body in enumerate(sections, 1))


TREE = {
    "agents/planner.md": _agent("Planner", BRIEF, _delegation("clear", "...scope_flags")),
    "agents/builder.md": _agent("Builder", BRIEF),
    "agents/tester.md": _agent("Tester", STALE_BRIEF),  # the drifted copy nobody chose to rewrite
    "skills/mirror/SKILL.md": _agent("Mirror", _delegation("list", "...filters", "...sort")),
}


@pytest.fixture
def plugin(tmp_path):
    return write_tree(tmp_path / "shop", TREE)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _differing_blocks(root) -> dict[tuple[str, str], str]:
    """(path, sha256) -> block bytes, of every grouped member whose text is not its owner's."""
    result = scan_plugin(root)
    found = {}
    for group in result.groups:
        for m in group.members:
            if m.unit.text != group.owner.text and not m.unit.within:
                data = result.data[m.unit.block.path][m.unit.block.start : m.unit.block.end]
                found[(m.unit.block.path, _sha(data))] = data
    return found


def _errors(run_cli, root) -> list[tuple[str, int, str]]:
    run = run_cli("check", "--root", str(root), "--no-cache", "--format", "json")
    return [(d["path"], d["line"], d["code"]) for d in json.loads(run.out)["diagnostics"] if d["severity"] == "error"]


def _byte_regions(root) -> list[tuple[str, bytes]]:
    """(path, bytes held) of every ``shape=`` region in the plugin's Markdown files."""
    from contractc.load.targets import region_held, scan_regions

    found = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("contracts/"):
            continue
        data = path.read_bytes()
        found += [(rel, region_held(data, r)) for r in scan_regions(rel, data, None) if r.kind == "shape"]
    return found


def test_an_unresolved_drifted_copy_stays_outside_any_region_through_adopt_and_build_force(plugin, run_cli):
    differing = _differing_blocks(plugin)
    assert ("agents/tester.md", _sha(STALE_BRIEF.encode())) in differing
    run = run_cli("adopt", str(plugin), "--write")
    assert run.code == 0, run.err
    tester = (plugin / "agents/tester.md").read_bytes()
    assert tester == TREE["agents/tester.md"].encode()  # not a byte changed, no marker line added
    assert '{ path: "agents/tester.md", line: 8, shape: "work_order"' in (plugin / "contractc.yaml").read_text()
    contract = (plugin / "contracts/shop.md").read_bytes()
    for path, held in _byte_regions(plugin):  # every byte-managed region holds the contract's bytes, nobody's own
        assert held in contract, path
    for force in ((), ("--force",)):
        run_cli("build", "--root", str(plugin), *force)
        for (path, digest), data in differing.items():
            now = (plugin / path).read_bytes()
            assert data in now and _sha(now[now.index(data) : now.index(data) + len(data)]) == digest, (path, force)
    assert (plugin / "agents/tester.md").read_bytes() == tester


def test_check_reports_the_unresolved_copy_once_with_its_diff_and_the_choice_to_make(plugin, run_cli):
    assert run_cli("adopt", str(plugin), "--write").code == 0
    errors = _errors(run_cli, plugin)
    assert [e for e in errors if e[0] == "agents/tester.md"] == [("agents/tester.md", 8, "drift-unresolved")]  # not also a restatement
    assert {code for _, _, code in errors} == {"drift-unresolved"}
    check = run_cli("check", "--root", str(plugin), "--no-cache")
    hint = check.out.split("agents/tester.md:8:1: error[drift-unresolved]", 1)[1].splitlines()[1]
    assert "`contractc adopt --resolve work_order=contracts/shop.md:" in hint and "--accept-drift" in hint
    assert "build --force" not in check.out  # nothing in check's output sends the user to overwrite it
    assert "-  deadline: string          # added by hand here" in check.out  # the diff, before any choice
    assert "--force" not in check.out.splitlines()[-1]


def test_the_choice_made_later_shows_the_diff_then_rewrites_the_copy_and_drops_its_entry(plugin, run_cli):
    assert run_cli("adopt", str(plugin), "--write").code == 0
    choice = re.search(r"--resolve (work_order=\S+:\d+)`", run_cli("check", "--root", str(plugin), "--no-cache").out).group(1)
    before = snapshot(plugin)
    dry = run_cli("adopt", str(plugin), "--resolve", choice)
    assert dry.code == 0 and snapshot(plugin) == before
    assert "agents/tester.md:8: work_order: drifted from the owning copy at contracts/shop.md:" in dry.out
    assert "-  deadline: string" in dry.out and '-  - { path: "agents/tester.md", line: 8' in dry.out
    assert run_cli("adopt", str(plugin), "--write", "--resolve", choice).code == 0
    assert "deadline" not in (plugin / "agents/tester.md").read_text()
    assert '"agents/tester.md"' not in (plugin / "contractc.yaml").read_text()
    assert [e for e in _errors(run_cli, plugin) if e[0] == "agents/tester.md"] == []


def test_carrying_the_copy_into_the_contract_then_adopting_again_keeps_the_copy_and_drops_its_entry(plugin, run_cli):
    assert run_cli("adopt", str(plugin), "--write").code == 0
    contract = plugin / "contracts/shop.md"
    contract.write_text(contract.read_text().replace("  notes: string\n", "  notes: string\n  deadline: string          # added by hand here\n"))
    again = run_cli("adopt", str(plugin), "--write")
    assert again.code == 0, again.err
    assert STALE_BRIEF in (plugin / "agents/tester.md").read_text() and '"agents/tester.md"' not in (plugin / "contractc.yaml").read_text()
    run_cli("build", "--root", str(plugin))  # the other copies take the contract's new field
    assert [e for e in _errors(run_cli, plugin) if e[0] != "agents/planner.md"] == []
    assert all("deadline" in (plugin / p).read_text() for p in ("agents/planner.md", "agents/builder.md", "agents/tester.md"))


def test_accept_drift_is_the_choice_for_every_drifted_copy_and_its_diff_is_in_the_plan(plugin, run_cli):
    dry = run_cli("adopt", str(plugin), "--accept-drift")
    assert "copies whose bytes will change" in dry.out and "-  deadline: string" in dry.out
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    assert "deadline" not in (plugin / "agents/tester.md").read_text()
    assert "unresolved" not in (plugin / "contractc.yaml").read_text()
    assert _errors(run_cli, plugin) == []


def test_a_region_holding_other_bytes_is_never_sent_to_build_force_without_its_diff_and_what_it_deletes(plugin, run_cli):
    # a user wraps a drifted copy in a shape= region by hand (or an adopt before 2026-12 did)
    assert run_cli("adopt", str(plugin), "--write").code == 0
    tester = plugin / "agents/tester.md"
    tester.write_text(tester.read_text().replace(STALE_BRIEF, f"<!-- contractc:begin shape=work_order -->\n{STALE_BRIEF}<!-- contractc:end -->\n"))
    config = plugin / "contractc.yaml"
    config.write_text(config.read_text().split("unresolved:\n")[0])
    check = run_cli("check", "--root", str(plugin), "--no-cache")
    assert "error[drift-region-new-differs]" in check.out
    hint = next(line for line in check.out.splitlines() if line.startswith("  hint:"))
    assert hint.index("`contractc build`") < hint.index("`contractc build --force`")  # keeping it is named first
    assert "overwrites them with the contract's bytes, deleting the lines check's diff shows with `-`" in hint
    assert "-  deadline: string" in check.out  # the diff is shown
    last = check.out.splitlines()[-1]
    assert "--force" not in last  # the summary never makes the overwrite the one fix
    assert json.loads(run_cli("check", "--root", str(plugin), "--no-cache", "--format", "json").out)["fix"] != "contractc build --force"


# -- members scan is uncertain about ---------------------------------------------------------------------

HAND_OFF = "```yaml\nhand_off:\n  ticket: string\n  stage: draft | review\n  note: string\n```\n"
WIDER_HAND_OFF = HAND_OFF.replace("draft | review", "draft | review | done")
"""Beside the owner in its own file, with its own enum: a variant by design, or a copy that drifted? Scan cannot tell."""

UNSURE = {
    "agents/alpha.md": f"# Alpha\n\n## Send\n\n{HAND_OFF}\n## Later\n\n{WIDER_HAND_OFF}",
    "agents/beta.md": f"# Beta\n\n## Send\n\n{HAND_OFF}",
}


def test_an_uncertain_member_is_left_byte_identical_in_no_region_listed_and_check_passes(tmp_path, run_cli):
    root = write_tree(tmp_path / "relay", UNSURE)
    flagged = [m for g in scan_plugin(root).groups for m in g.members if m.uncertain]
    assert [(m.unit.block.path, m.unit.line) for m in flagged] == [("agents/alpha.md", 15)]
    digest = _sha(WIDER_HAND_OFF.encode())
    run = run_cli("adopt", str(root), "--write", "--accept-drift")  # not a drifted copy to rewrite, even so
    assert run.code == 0, run.err
    listed = run.out[run.out.index("members scan is uncertain about") :]
    assert listed.splitlines()[1].startswith("  agents/alpha.md:15: hand_off: ")
    assert "scan cannot tell an instance from a drifted copy" in listed.splitlines()[1]
    alpha = (root / "agents/alpha.md").read_text()
    after = alpha[alpha.index("## Later\n\n") + len("## Later\n\n") :]
    assert after == WIDER_HAND_OFF and _sha(after.encode()) == digest  # not a byte changed, no marker line around it
    assert alpha.count("contractc:begin") == 1  # the owner's region only
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0
    run_cli("build", "--root", str(root), "--force")
    assert (root / "agents/alpha.md").read_text().endswith(WIDER_HAND_OFF)
    doc = json.loads(run_cli("adopt", str(root), "--format", "json").out)
    assert all(d["code"] != "adopt-rewritten" for d in doc["diagnostics"])


# -- a copy whose block's bytes are not the owner's, a record of several keys, a second adoption ---------------

TICKET = "```yaml\nticket:\n  id: string\n  lane: fast | slow\n```\n"
RESULT = "```yaml\nresult:\n  id: string\n  ok: boolean\n```\n"
RECORD = "```yaml\nticket:\n  id: string\n  lane: fast | slow\nresult:\n  id: string\n  ok: boolean\n```\n"
"""One fence, two keys: one record (or two hand-offs: adopt cannot tell), never cut into two fences."""
PLAIN_TICKET = TICKET.replace("lane: fast | slow\n", "lane: fast | slow\n\n", 1)
"""The owner's text with a blank line before its closing fence: the same copy, other bytes."""

RELAY = {
    "agents/dispatcher.md": f"# Dispatcher\n\nSend:\n\n{TICKET}\nReceive:\n\n{RESULT}",
    "agents/runner.md": f"# Runner\n\nYou get:\n\n{TICKET}\nYou answer:\n\n{RESULT}",
    "agents/logger.md": f"# Logger\n\nOne record per job:\n\n{RECORD}",
    "agents/verifier.md": f"# Verifier\n\nYou read:\n\n{PLAIN_TICKET}",
}


def _block_sha(root, path: str, block: str) -> str:
    data = (root / path).read_bytes()
    assert data.count(block.encode()) == 1, path
    return _sha(data[data.index(block.encode()) :][: len(block.encode())])


def test_a_copy_with_other_bytes_and_a_record_of_two_keys_keep_every_byte_through_adopt_and_build_force(tmp_path, run_cli):
    root = write_tree(tmp_path / "relay", RELAY)
    kept = {"agents/logger.md": RECORD, "agents/verifier.md": PLAIN_TICKET}
    digests = {p: _block_sha(root, p, b) for p, b in kept.items()}
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.err
    assert "copies whose bytes changed" not in run.out
    assert "agents/verifier.md:6: ticket: " in run.out and "its block's bytes are not the ones the contract holds" in run.out and "wrapped, byte for byte, in an instance region" in run.out
    assert "agents/logger.md:6: ticket: the block is one record of 2 keys" in run.out
    logger = (root / "agents/logger.md").read_text()
    assert "contractc:" not in logger and logger == RELAY["agents/logger.md"]  # no fence cut in, no marker
    assert "<!-- contractc:begin instance=ticket -->\n" + PLAIN_TICKET + "<!-- contractc:end -->" in (root / "agents/verifier.md").read_text()
    assert (root / "agents/runner.md").read_text().count("contractc:begin shape=") == 2
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0
    run_cli("build", "--root", str(root), "--force")
    assert {p: _block_sha(root, p, b) for p, b in kept.items()} == digests
    # the choice: --accept-drift makes the plain-fenced copy a managed copy of the owner's bytes, with the reason
    again = run_cli("adopt", str(write_tree(tmp_path / "chosen", RELAY)), "--accept-drift")
    assert "agents/verifier.md:6: ticket: its bytes (fence, blank lines or line endings) differ from the owning copy's block, which replaces it (--accept-drift)" in again.out


def test_a_second_adoption_changes_nothing_and_a_third_after_a_paste_keeps_the_drift_recorded_at_its_line(plugin, run_cli):
    assert run_cli("adopt", str(plugin), "--write").code == 0
    before = snapshot(plugin)
    again = run_cli("adopt", str(plugin), "--write")
    assert again.code == 0 and "nothing to adopt" in again.out
    assert snapshot(plugin) == before
    # a copy of another shape pasted above the drifted one: the paste moves it, and so do the marker lines of the
    # region adopt then writes around the paste; its entry follows it, once
    tester = plugin / "agents/tester.md"
    pasted = _delegation("list", "...filters", "...sort")  # the contract's part-1, byte for byte
    tester.write_text(tester.read_text().replace("## Part 1\n\n", f"## Part 0\n\n{pasted}\n## Part 1\n\n", 1))
    held = _block_sha(plugin, "agents/tester.md", STALE_BRIEF)
    assert run_cli("adopt", str(plugin), "--write").code == 0
    text = (plugin / "agents/tester.md").read_text()
    assert "<!-- contractc:begin shape=part-1 " in text and _block_sha(plugin, "agents/tester.md", STALE_BRIEF) == held
    line = text.splitlines().index("work_order:") + 1
    assert line == 8 + 6 + 2  # 6 lines pasted, 2 marker lines
    assert [e for e in _errors(run_cli, plugin) if e[0] == "agents/tester.md"] == [("agents/tester.md", line, "drift-unresolved")]
    assert (plugin / "contractc.yaml").read_text().count('path: "agents/tester.md"') == 1
    assert "allow_restatements" not in (plugin / "contractc.yaml").read_text()


# -- check holds an instance region's types and enum members to the shape's, by scan's rule ------------------

def _envelope(agent: str, status: str = "success | partial | failed") -> str:
    return f'```json\n{{"status": "{status}", "agent": "{agent}", "summary": "<one line>"}}\n```\n'


ENVELOPES = {
    "skills/relay/SKILL.md": "# Relay\n\nDispatch the agents; each returns the envelope in references/envelope.md.\n",
    "skills/relay/references/envelope.md": f"# Envelope\n\nEvery agent returns:\n\n{_envelope('<name>')}",
    "agents/alpha.md": f"# Alpha\n\nReturn:\n\n{_envelope('alpha')}",
    "agents/beta.md": f"# Beta\n\nReturn:\n\n{_envelope('beta', 'success | failed')}",  # drops a member
    "agents/gamma.md": f"# Gamma\n\nReturn:\n\n{_envelope('gamma', '<one of success, partial, failed>')}",  # says the same
}


def test_check_judges_an_instance_regions_enum_as_scan_does(tmp_path, run_cli):
    root = write_tree(tmp_path / "relay", ENVELOPES)
    scanned = json.loads(run_cli("scan", str(root), "--format", "json").out)
    divergent = {d["path"] for d in scanned["diagnostics"] if d["code"] == "scan-divergent"}
    assert divergent == {"agents/beta.md"}  # the definition file declares the shape: beta's narrower enum diverges
    before = {p: _block_sha(root, p, _envelope(a, s)) for p, a, s in (("agents/beta.md", "beta", "success | failed"), ("agents/gamma.md", "gamma", "<one of success, partial, failed>"))}
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0 and "(it reports the drift left)" in run.out
    for path in before:
        assert "<!-- contractc:begin instance=" in (root / path).read_text()
    check = run_cli("check", "--root", str(root), "--no-cache")
    errors = [line for line in check.out.splitlines() if ": error[" in line]
    assert errors == ["agents/beta.md:5:1: error[drift-instance-retyped]: region instance=envelope keeps the shape's structure, but its enum of status drops partial (the shape's notation)"]
    run_cli("build", "--root", str(root), "--force")
    assert {p: _block_sha(root, p, _envelope(p[7:-3], s)) for p, s in (("agents/beta.md", "success | failed"), ("agents/gamma.md", "<one of success, partial, failed>"))} == before
    # the same instance in a definition file of its own, with values of its own, defines its own list: scan and check agree
    (root / "agents/beta.md").unlink()
    write_tree(root, {"skills/relay/references/beta.md": f"# Beta's envelope\n\n<!-- contractc:begin instance=envelope -->\n{_envelope('beta', 'success | failed')}<!-- contractc:end -->\n"})
    assert "skills/relay/references/*.md" in (root / "contractc.yaml").read_text()  # a target already
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0


# -- a nested part that drifted ----------------------------------------------------------------------------

BATCH = "```yaml\nreview_batch:\n  batch: string\n  per_reviewer_results:\n    - reviewer: string\n      verdict: approve | reject | hold\n      notes: string\n```\n"
VERDICT = "```yaml\nreviewer_result:\n  reviewer: string\n  verdict: approve | reject\n  notes: string\n```\n"


def test_a_nested_part_that_drifted_is_recorded_and_check_reports_it(tmp_path, run_cli):
    files = {f"agents/{a}.md": f"# {a}\n\nReturn:\n\n{BATCH}" for a in ("lead", "second")}
    files |= {f"agents/{a}.md": f"# {a}\n\nEach reviewer returns:\n\n{VERDICT}" for a in ("ana", "bo", "cy")}
    root = write_tree(tmp_path / "review", files)
    scanned = json.loads(run_cli("scan", str(root), "--format", "json").out)
    assert {d["path"] for d in scanned["diagnostics"] if d["code"] == "scan-divergent"} == {"agents/lead.md", "agents/second.md"}
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0 and "a part of a larger block (review_batch.per_reviewer_results[])" in run.out
    check = run_cli("check", "--root", str(root), "--no-cache")
    errors = [line.split(": error[")[0] + " " + line.split("error[")[1].split("]")[0] for line in check.out.splitlines() if ": error[" in line]
    assert errors == ["agents/lead.md:11:1 drift-unresolved", "agents/second.md:11:1 drift-unresolved"]
    assert "adopt --resolve" not in check.out  # a part: no region can hold it, so the hint says to fix it by hand
    held = {p: _block_sha(root, p, BATCH) for p in ("agents/lead.md", "agents/second.md")}
    run_cli("build", "--root", str(root), "--force")
    assert {p: _block_sha(root, p, BATCH) for p in held} == held
