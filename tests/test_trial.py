"""A new user's first hour: scan/adopt on a plugin the authors never saw, returns a model really writes.

The plugin is tests/trial_plugin.py (an SDLC pipeline modelled on a real hand-off page);
the returns are the ones a chatty model produces against ../shared/seeds/return-shapes.md.
"""

from __future__ import annotations

import re

import pytest

from test_seed_conformance import seed_project
from trial_plugin import DIVERGENT, write_plugin


@pytest.fixture
def plugin(tmp_path):
    return write_plugin(tmp_path / "sdlc")


@pytest.fixture
def seed_root(tmp_path, seeds):
    return seed_project(tmp_path / "seed", seeds)


# --- scan -------------------------------------------------------------------------------------------


def test_scan_finds_the_planted_divergences_and_no_other(plugin, run_cli):
    run = run_cli("scan", str(plugin), "-q")
    assert run.code == 1
    found = set(re.findall(r"^(\S+?):\d+:\d+: error\[scan-divergent\]: (?:drifted copy|instance) of (?:[\w-]+\.)?(\w+) ", run.out, re.M))
    assert found == DIVERGENT


def test_each_diff_header_names_the_file_and_line_of_its_side(plugin, run_cli):
    run = run_cli("scan", str(plugin))
    # the interface specialist's brief differs from the design orchestrator's
    assert "--- agents/interface-specialist.md:11 (this copy)\n+++ agents/design-orchestrator.md:11 (owning copy)\n" in run.out
    assert "+++ agents/interface-specialist.md" not in run.out


# --- validate ---------------------------------------------------------------------------------------


def test_a_status_line_with_trailing_blanks_says_so_in_the_evidence(seed_root):
    from contractc import Receiver

    receiver = Receiver.load(seed_root)
    verdict = receiver.validate("consultationreturn", "status: surface-unavailable  \n\natlas_read is not in this session.\n")
    assert verdict.failed == (1,)
    evidence = receiver.evidence(verdict)
    # the quoted line looks right to a reader; the evidence must name what is invisible
    assert "trailing blanks" in evidence and "`status: surface-unavailable`" in evidence
    bom = receiver.evidence(receiver.validate("consultationreturn", "\ufeffstatus: surface-unavailable\n\nno atlas\n"))
    assert "line 1 is `status: surface-unavailable` with a byte order mark (U+FEFF) before it;" in bom


def test_a_return_read_as_bytes_is_judged_like_its_text(seed_root):
    from contractc import Receiver

    receiver = Receiver.load(seed_root)
    text = "status: surface-unavailable\n\natlas_read is not in this session.\n"
    assert receiver.validate("consultationreturn", text.encode()) == receiver.validate("consultationreturn", text)


def test_a_return_of_bytes_that_are_not_utf8_is_a_located_error_not_a_traceback(seed_root):
    from contractc import ContractcError, Receiver

    receiver = Receiver.load(seed_root)
    with pytest.raises(ContractcError, match=r"not-utf8.*byte 0xff"):
        receiver.validate("consultationreturn", b"status: consulted\n\n\xff\n")


# --- adopt ------------------------------------------------------------------------------------------

BRIEF = "# {title}\n\n```yaml\nbrief:\n  goal: string\n  mode: {modes}\n```\n"


def test_a_file_whose_name_looks_like_a_glob_stays_under_check_after_adopt(tmp_path, run_cli):
    from conftest import write_tree

    root = write_tree(
        tmp_path / "plugin",
        {
            "agents/[old] writer.md": BRIEF.format(title="Writer", modes="a | b"),
            "agents/orchestrator.md": BRIEF.format(title="Orchestrator", modes="a | b | c"),
        },
    )
    assert run_cli("adopt", str(root), "--write", "--accept-drift").code == 0
    assert "sha256=" in (root / "agents/[old] writer.md").read_text()  # stamped as build stamps it
    path = root / "agents/[old] writer.md"
    path.write_text(path.read_text().replace("mode: a | b | c", "mode: a | b | c | d"))
    run = run_cli("check", "--root", str(root), "--no-cache")
    assert run.code == 1 and "agents/[old] writer.md:3:1: error[drift-region-edited]" in run.out


def test_a_legacy_file_that_is_not_utf8_names_the_exclude_that_gets_past_it(tmp_path, run_cli):
    from conftest import write_tree

    root = write_tree(
        tmp_path / "plugin",
        {
            "agents/orchestrator.md": BRIEF.format(title="Orchestrator", modes="a | b"),
            "agents/writer.md": BRIEF.format(title="Writer", modes="a | b"),
            "docs/old notes.md": b"# Notes\n\nCaf\xe9 notes from 2019\n",
        },
    )
    run = run_cli("scan", str(root))
    assert run.code == 2
    assert "docs/old notes.md:3:4: error[not-utf8]: byte 0xe9 is not valid UTF-8\n" in run.out + run.err
    assert "--exclude 'docs/old notes.md'" in run.out + run.err
    assert run_cli("scan", str(root), "--exclude", "docs/old notes.md").code == 0  # the hint works as written


def test_one_envelope_pasted_byte_for_byte_into_each_stage_skill_is_one_shape_and_adopt_manages_every_copy(plugin, run_cli):
    from contractc.scan import scan_plugin

    envelopes = [g for g in scan_plugin(plugin).groups if g.key == "dispatch-envelope"]
    assert [len(g.copies) for g in envelopes] == [4]  # the orchestrator and the three stage skills
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    for skill in ("requirements", "design", "qa"):
        text = (plugin / f"skills/{skill}/SKILL.md").read_text()
        assert text.count("<!-- contractc:begin shape=") == 2, skill  # the brief and the envelope
    assert "dispatch-envelope" not in (plugin / "contractc.yaml").read_text()


# --- a second plugin: Key: value templates ----------------------------------------------------------


@pytest.fixture
def orchestration(tmp_path):
    from trial_plugin import write_orchestration_plugin

    return write_orchestration_plugin(tmp_path / "orchestration")


def test_key_value_templates_are_one_shape_each_not_a_shape_per_line(orchestration):
    from contractc.scan import scan_plugin

    result = scan_plugin(orchestration)
    sizes = sorted((len(g.copies), len(g.owner.text.splitlines())) for g in result.groups)
    # the ledger entry (3 copies), the packet (3), the handoff (3, one CRLF), the report (3); 6 to 7 lines each
    assert sizes == [(3, 6), (3, 6), (3, 7), (3, 7)]
    assert len(result.examples) == 2  # the filled-in packet and its handoff in docs/protocol.md


def test_key_value_template_drift_is_found_and_nothing_else(orchestration, run_cli):
    from trial_plugin import ORCHESTRATION_DIVERGENT

    run = run_cli("scan", str(orchestration), "-q")
    assert run.code == 1
    assert set(re.findall(r"^(\S+?):\d+:\d+: error\[scan-divergent\]", run.out, re.M)) == ORCHESTRATION_DIVERGENT
    assert "-Status: OPEN | INCORPORATED | REJECTED | DEFERRED\n+Status: OPEN | INCORPORATED | REJECTED\n" in run_cli(
        "scan", str(orchestration)
    ).out


def test_adopting_key_value_templates_leaves_check_clean_and_build_idempotent(orchestration, run_cli):
    from conftest import snapshot

    assert run_cli("adopt", str(orchestration), "--write", "--accept-drift").code == 0
    assert run_cli("check", "--root", str(orchestration), "--no-cache").code == 0
    before = snapshot(orchestration)
    assert run_cli("build", "--root", str(orchestration)).code == 0
    assert snapshot(orchestration) == before
    assert "nothing to adopt" in run_cli("adopt", str(orchestration)).out


def test_markdown_reached_through_a_symbolic_link_is_not_read_and_scan_says_so(tmp_path, run_cli):
    from conftest import write_tree

    shared = write_tree(tmp_path / "shared", {"writer.md": BRIEF.format(title="Writer", modes="a | b | c")})
    root = write_tree(
        tmp_path / "plugin",
        {
            "agents/orchestrator.md": BRIEF.format(title="Orchestrator", modes="a | b"),
            "agents/critic.md": BRIEF.format(title="Critic", modes="a | b"),
        },
    )
    (root / "agents/writer.md").symlink_to(shared / "writer.md")  # shared agents linked into many plugins
    run = run_cli("scan", str(root))
    assert run.code == 0
    assert run.out.splitlines()[-1].endswith(
        "(1 symbolic link not read: agents/writer.md; adopt never writes through a link)"
    )


def test_counts_of_one_read_as_english(tmp_path, run_cli):
    from conftest import write_tree

    root = write_tree(
        tmp_path / "plugin",
        {
            "agents/orchestrator.md": BRIEF.format(title="Orchestrator", modes="a | b"),
            "agents/critic.md": BRIEF.format(title="Critic", modes="a | b | c"),
        },
    )
    assert "2 files, 1 shape stated more than once: 1 divergent (1 copy, 1 drifted," in run_cli("scan", str(root)).out
    assert "1 shape into contracts/plugin.md, 2 files rewritten" in run_cli("adopt", str(root), "--accept-drift").out
    assert "1 copy changes bytes" in run_cli("adopt", str(root), "--accept-drift").out


def test_adopt_then_check_build_and_adopt_again_on_the_sdlc_plugin(plugin, run_cli):
    from conftest import snapshot

    before = snapshot(plugin)
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    assert run_cli("check", "--root", str(plugin), "--no-cache").code == 0
    adopted = snapshot(plugin)
    assert run_cli("build", "--root", str(plugin)).code == 0 and snapshot(plugin) == adopted
    assert "nothing to adopt" in run_cli("adopt", str(plugin)).out and snapshot(plugin) == adopted
    # what the user wrote around the copies keeps its bytes
    assert adopted["agents/component-specialist.md"].startswith(b"\xef\xbb\xbf---\n")  # the BOM
    assert adopted["agents/interface-specialist.md"].endswith(b"\nReturn your interfaces and stop.")  # no final newline
    crlf = adopted["agents/nfr-specialist.md"]
    assert crlf.startswith(before["agents/nfr-specialist.md"][: before["agents/nfr-specialist.md"].index(b"```")])
    assert adopted["scratch/old-brief.md"] == before["scratch/old-brief.md"]  # gitignored: never touched


def test_editing_the_adopted_contract_then_build_refreshes_every_copy(plugin, run_cli):
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    contract = next((plugin / "contracts").glob("*.md"))
    text = contract.read_text()
    contract.write_text(text.replace("  target_category: component | interface\n", "  target_category: component | interface | decision\n"))
    run = run_cli("check", "--root", str(plugin), "--no-cache")
    stale = set(re.findall(r"^(\S+?):\d+:\d+: error\[drift-region-stale\]", run.out, re.M))
    assert stale == {"agents/design-orchestrator.md", "agents/component-specialist.md", "agents/interface-specialist.md", "skills/design/SKILL.md"}
    assert run_cli("build", "--root", str(plugin)).code == 0
    assert run_cli("check", "--root", str(plugin), "--no-cache").code == 0
    assert "target_category: component | interface | decision" in (plugin / "agents/interface-specialist.md").read_text()


def test_validating_against_an_adopted_template_with_no_checks_says_nothing_was_judged(orchestration, run_cli):
    assert run_cli("adopt", str(orchestration), "--write", "--accept-drift").code == 0
    returned = orchestration / "return.txt"
    returned.write_text("Packet ID: P-1\nStatus: COMPLETE\nWork completed: done\n")
    run = run_cli("validate", "--root", str(orchestration), "packet-id-status", str(returned))
    assert run.code == 2 and run.out == ""  # nothing checked is not a pass
    assert "error[nothing-checked]: Executor handoff cannot be validated: it states no receiver checks, so any return" in run.err
    assert "passes 0 of 0" not in run.err


# --- checks as a user words them: a sentence starts with a capital --------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The second line begins `Packet ID: `.",
        "A `Checks run:` line is present.",
        "An `Owner:` line is present.",
        "The first non-blank line after the status line begins `- **`.",
        "Every bullet carries the citation form.",
        "The body carries the citation form.",
        "At most 12 lines.",
        "No more than 40 lines, counting blank ones.",
    ],
)
def test_a_check_that_starts_its_sentence_with_a_capital_is_mechanised(text):
    from contractc.model.checks.compile import compile_check
    from contractc.model.checks.rules import Form

    forms = {"citation": Form("citation", "[<id> § <section>](https://atlas.example/<id>#<section>)", 0)}
    assert compile_check(text, forms, ("ok",)) is not None, text


def test_after_adopt_a_copy_pasted_into_a_new_agent_file_fails_check(plugin, run_cli):
    from trial_plugin import DRAFT_COMPONENTS, fence, front

    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    (plugin / "agents/adr-writer.md").write_text(front("adr-writer", "Writes ADRs.") + "# ADR writer\n\n" + fence(DRAFT_COMPONENTS))
    (plugin / "skills/adr").mkdir()
    (plugin / "skills/adr/SKILL.md").write_text("# ADR\n\n" + fence(DRAFT_COMPONENTS))
    run = run_cli("check", "--root", str(plugin), "--no-cache")
    assert run.code == 1
    assert "agents/adr-writer.md:8:1: error[drift-restatement]: unmanaged copy of draft_components, identical to the contract" in run.out
    assert "skills/adr/SKILL.md:3:1: error[drift-restatement]" in run.out


def test_adopt_never_targets_a_file_scan_did_not_read(plugin, run_cli):
    (plugin / ".gitignore").write_text("scratch/\nagents/*.draft.md\n")
    (plugin / "agents/old.draft.md").write_text("# Old\n\n```yaml\ndraft_components:\n  - id: string\n```\n")
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    assert run_cli("check", "--root", str(plugin), "--no-cache").code == 0
    (plugin / "agents/old.draft.md").unlink()  # an ignored file is not in the CI checkout
    assert run_cli("check", "--root", str(plugin), "--no-cache").code == 0


def test_a_folder_with_no_markdown_says_so(tmp_path, run_cli):
    from conftest import write_tree

    root = write_tree(tmp_path / "not-a-plugin", {"src/main.py": "print('hi')\n", "notes.txt": "todo\n"})
    run = run_cli("scan", str(root))
    assert run.code == 0
    assert run.out.splitlines()[-1] == "contractc: no Markdown file to scan in this folder (agents/, skills/*/SKILL.md, commands/, docs/ ...); is it the plugin's root?"
