"""`contractc scan` on a plugin holding every trap of issue 24 (tests/scan_traps.py): every block labelled as planted."""

from __future__ import annotations

import json
import re

import pytest

from scan_traps import DIVERGENT, OUTCOMES, OWNERS, PLANTED, write_history, write_traps
from contractc.scan import scan_plugin
from contractc.scan.shapes import Group

LOCATED = re.compile(r"^(?P<path>[^\s:]+):(?P<line>\d+):\d+: (?P<severity>\w+)\[(?P<code>[\w-]+)\]: (?P<message>.*)$", re.M)


@pytest.fixture
def traps(tmp_path):
    return write_traps(tmp_path / "desk")


def _labels(groups: tuple[Group, ...]) -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for g in groups:
        for m in g.members:
            found.setdefault((m.unit.block.path, g.id), []).append(m.label)
    return found


def test_every_block_is_labelled_as_planted(traps):
    result = scan_plugin(traps)
    assert _labels(result.groups) == PLANTED


def test_only_the_planted_divergences_are_divergent_and_each_says_why(traps):
    result = scan_plugin(traps)
    divergent = {(m.unit.block.path, g.id): m for g in result.groups for m in g.members if m.divergent}
    assert set(divergent) == DIVERGENT
    assert "lacks error.retryable" in divergent[("agents/phone-adapter.md", "failed-envelope")].reason
    assert "lacks fix" in divergent[("agents/debugger.md", "root-cause-found")].reason
    for m in (m for g in result.groups for m in g.members):
        assert m.reason and len(m.reason.split()) <= 30  # a few words, always


def test_owners_follow_the_documented_rule_and_say_why(traps):
    groups = {g.id: g for g in scan_plugin(traps).groups}
    assert {k: groups[k].owner.block.path for k in OWNERS} == OWNERS
    assert "declares it as the definition (a templates/ file)" in groups["root-cause-found"].owner_reason
    assert "dispatches" in groups["customer-reply"].owner_reason  # a tie: the dispatching file's copy


@pytest.mark.parametrize("shape", ["triage-note", "shift-summary", "escalation", "customer-reply", "call-log", "handover"])
def test_each_placeholder_style_makes_a_template(traps, shape):
    # <x>, {x}, [x], {{x}}, ... and … in turn
    assert shape in {g.id for g in scan_plugin(traps).groups}


def test_an_html_comment_is_not_a_placeholder(traps):
    units = [m.unit for g in (*scan_plugin(traps).groups, *scan_plugin(traps).single) for m in g.members]
    assert not [u for u in units if u.block.path == "agents/escalator.md" and u.key == "notes"]


def test_success_and_failure_envelopes_are_separate_shapes_and_adapters_are_instances(traps):
    groups = {g.id: g for g in scan_plugin(traps).groups}
    assert {u.variant for u in groups["success-envelope"].copies} == {"status=success"}
    assert {u.variant for u in groups["failed-envelope"].copies} == {"status=failed"}
    mail = next(m for m in groups["failed-envelope"].members if m.unit.block.path == "agents/mail-adapter.md")
    assert mail.label == "instance" and not mail.divergent and "adapter" in mail.reason


def test_per_outcome_blocks_are_never_one_anothers_copies(traps):
    result = scan_plugin(traps)
    outcomes = [g for g in result.single if g.owner.block.path == "skills/desk/SKILL.md" and g.key == "result"]
    assert sorted(g.owner.variant for g in outcomes) == sorted(f"result={o.split()[1]}" for o in OUTCOMES)
    assert not [g for g in result.groups if g.key == "result"]


def test_a_nested_element_pasted_elsewhere_is_found(traps):
    groups = {g.id: g for g in scan_plugin(traps).groups}
    nested = [m for m in groups["reviewer_result"].members if m.unit.within]
    assert [(m.unit.block.path, m.unit.within, m.label) for m in nested] == [
        ("skills/desk/SKILL.md", "review_batch.per_reviewer_results[]", "copy")
    ]
    assert nested[0].unit not in groups["reviewer_result"].copies  # a part of another block: adopt never manages it


def test_a_fenced_front_matter_is_a_shape_and_its_body_another(traps):
    groups = {g.id: g for g in scan_plugin(traps).groups}
    assert {u.block.path for u in groups["front-matter"].copies} == {"commands/close.md", "commands/reopen.md"}
    assert groups["front-matter"].copies[0].block.start == groups["role"].copies[0].block.start


def test_example_blocks_keep_their_traps_out(traps):
    # `"timeout || refused"` is no enum, `notes: |` is text, an empty `owner:` is no null: the block is an example
    groups = {g.id: g for g in scan_plugin(traps).groups}
    (example,) = groups["triage"].labelled("example")
    assert example.reason.startswith("none of its values is notation")


def test_good_and_bad_blocks_are_examples(traps):
    groups = {g.id: g for g in scan_plugin(traps).groups}
    assert [m.reason for m in groups["reviewer_result"].labelled("example")] == ["a Good/Bad illustration, not the shape itself"] * 2


def test_default_output_is_the_divergences_and_a_count_per_kind(traps, run_cli):
    run = run_cli("scan", str(traps))
    assert run.code == 1
    located = list(LOCATED.finditer(run.out))
    assert {m["code"] for m in located} == {"scan-divergent"}
    assert len(located) == len(DIVERGENT)
    assert "+**Fix:** the change made\n" in run.out  # the stale copy's diff shows the owner's missing line
    last = run.out.splitlines()[-1]
    assert re.search(r"3 divergent \(\d+ copies, 2 drifted, \d+ instances, 3 examples\)", last), last


def test_verbose_and_json_locate_every_member(traps, run_cli):
    result = scan_plugin(traps)
    members = {(m.unit.block.path, m.unit.line) for g in result.groups for m in g.members}
    verbose = run_cli("scan", "-v", str(traps))
    assert {(m["path"], int(m["line"])) for m in LOCATED.finditer(verbose.out)} >= members
    doc = json.loads(run_cli("scan", "--format", "json", str(traps)).out)
    assert {(d["path"], d["line"]) for d in doc["diagnostics"]} >= members


def test_git_history_names_the_newer_copy_and_runs_no_hook(tmp_path):
    root = write_history(tmp_path / "repo")
    (group,) = scan_plugin(root).groups
    assert group.owner.block.path == "agents/worker.md"
    assert group.owner_reason.startswith("its lines changed most recently in git history")
    assert [(m.unit.block.path, m.label) for m in group.members if m.divergent] == [("agents/planner.md", "drifted")]
    assert not (root / "HOOK-RAN").exists()


def test_owner_option_overrides_history(tmp_path):
    root = write_history(tmp_path / "repo")
    (group,) = scan_plugin(root, owners=("agents/planner.md",)).groups
    assert group.owner.block.path == "agents/planner.md" and "--owner" in group.owner_reason


def test_shape_ids_are_stable_across_runs(traps):
    assert [g.id for g in scan_plugin(traps).groups] == [g.id for g in scan_plugin(traps).groups]


def test_a_file_kept_under_two_trees_is_held_to_its_mirror(tmp_path):
    # the same skill for two agent runtimes: a value filled in one of them is drift, not an instance
    template = "```\nDigest: {date}\nShipped: {item} — <evidence>\nOpen: {count}\n```\n"
    from conftest import write_tree

    root = write_tree(
        tmp_path / "p",
        {
            ".agents/skills/digest/SKILL.md": "# Digest\n\n" + template,
            ".claude/skills/digest/SKILL.md": "# Digest\n\n" + template.replace("<evidence>", "the retry budget landed"),
            "docs/fr/skills/digest/SKILL.md": "# Résumé\n\n" + template.replace("<evidence>", "<preuve>"),
        },
    )
    (group,) = scan_plugin(root).groups
    labels = {m.unit.block.path: (m.label, m.divergent) for m in group.members}
    assert labels[".claude/skills/digest/SKILL.md"] == ("drifted", True)
    assert labels["docs/fr/skills/digest/SKILL.md"] == ("instance", False)  # a translation is no mirror


# --- second round: the causes of the misses and false errors measured on real plugins --------------------------


def _round(tmp_path, name: str) -> dict[str, list[tuple[str, bool]]]:
    from conftest import write_tree
    from scan_traps import second_round

    root = write_tree(tmp_path / name, second_round()[name])
    found: dict[str, list[tuple[str, bool]]] = {}
    for g in scan_plugin(root).groups:
        for m in g.members:
            found.setdefault(m.unit.block.path, []).append((m.label, m.divergent))
    return found


def test_two_plans_sharing_under_half_their_lines_are_instances_when_only_path_order_picks_an_owner(tmp_path):
    labels = _round(tmp_path, "low-share")
    assert sorted(labels.values()) == [[("copy", False)], [("instance", False)]]


def test_a_stale_quotation_of_another_agents_return_stays_drifted(tmp_path):
    # the page says the scout returns this block: it is meant to be the scout's bytes, however few lines it shares
    labels = _round(tmp_path, "quoted-return")
    assert labels["docs/flow.md"] == [("drifted", True)]


def test_a_list_line_stated_another_number_of_times_is_not_drift(tmp_path):
    labels = _round(tmp_path, "list-line")
    assert [d for pairs in labels.values() for _, d in pairs] == [False, False]
    assert ("instance", False) in labels["skills/digest/reference.md"] + labels["skills/digest/SKILL.md"]


def test_an_instance_edited_away_from_identical_peers_in_other_files_is_divergent(tmp_path, run_cli):
    labels = _round(tmp_path, "peers")
    assert labels["plugins/gym/skills/brainstorm/SKILL.md"] == [("instance", True)]
    assert labels["plugins/shop/skills/brainstorm/SKILL.md"] == [("instance", False)]
    assert labels["plugins/farm/skills/brainstorm/SKILL.md"] == [("instance", False)]
    run = run_cli("scan", str(tmp_path / "peers"))
    assert run.code == 1
    # the diff is taken against the identical peers, not the gate's block it was never a copy of
    assert "+++ plugins/farm/skills/brainstorm/SKILL.md:" in run.out and "against its identical peers" in run.out


def test_of_two_near_identical_instances_in_two_files_the_one_outside_the_dispatcher_is_reported(tmp_path):
    labels = _round(tmp_path, "twins")
    assert labels["agents/checker.md"] == [("instance", True)]
    assert all(not d for _, d in labels["skills/watch/SKILL.md"])


def test_a_translation_whose_json_lost_keys_is_divergent_and_a_faithful_one_is_not(tmp_path):
    labels = _round(tmp_path, "translation")
    assert labels["docs/de-DE/settings.md"] == [("instance", True)]
    assert [d for _, d in labels["docs/fr-FR/settings.md"]] == [False]


def test_a_copy_that_lost_the_text_under_every_heading_is_drifted_not_an_instance(tmp_path):
    # an empty field is text lost, not text of its own
    labels = _round(tmp_path, "emptied")
    assert labels["docs/guide.md"] == [("drifted", True)]


def test_an_address_in_angle_brackets_is_no_placeholder(tmp_path):
    # `Name <a@b.example>` is a filled value, not a placeholder: the message is no template of the trailers
    labels = _round(tmp_path, "address")
    assert "docs/commits.md" not in labels  # no member of the trailer shape, so never its drifted copy
    assert "<bot@desk.example>" in (tmp_path / "address" / "docs/commits.md").read_text()  # the address is there


def test_an_instance_whose_enum_gained_a_member_is_divergent_with_its_diff(tmp_path, run_cli):
    # an instance fills the shape with its own values; its types and enum members are the shape's
    labels = _round(tmp_path, "retyped")
    assert labels["agents/refunds.md"] == [("instance", True), ("instance", True)]
    assert labels["agents/duplicates.md"] == [("instance", False)]  # the same members in another order agree
    run = run_cli("scan", str(tmp_path / "retyped"))
    assert run.code == 1
    assert "its enum of decision adds defer" in run.out and "its enum of load adds overload" in run.out
    assert "-  decision: approve | reject | defer\n" in run.out and "+  decision: approve | reject\n" in run.out


def test_a_shape_only_ever_written_filled_in_is_held_to_the_structure_most_copies_share(tmp_path):
    # six workers paste their own status message, a seventh renamed a key: the only member reported
    labels = _round(tmp_path, "filled-only")
    assert labels.pop("agents/worker-7.md") == [("example", True)]
    assert set(map(tuple, labels.values())) == {(("example", False),)} and len(labels) == 6


def test_a_free_text_status_is_a_value_not_a_variant(tmp_path):
    # five status words over five blocks name no variants: the block with a renamed key is compared with the rest
    labels = _round(tmp_path, "free-status")
    assert [d for _, d in labels["agents/c.md"]] == [True]
    assert not [d for path, found in labels.items() if path != "agents/c.md" for _, d in found if d]


def test_a_tag_wrapped_template_in_an_xml_fence_is_read(tmp_path):
    labels = _round(tmp_path, "xml-template")
    assert labels["agents/c.md"] == [("drifted", True)]


def test_adopt_leaves_a_fenced_front_matter_and_its_body_alone_even_when_the_front_matter_is_an_example(tmp_path, run_cli):
    from conftest import write_tree
    from scan_traps import second_round

    root = write_tree(tmp_path / "p", second_round()["front-skeleton"])
    before = {p: (root / p).read_bytes() for p in ("docs/one.md", "docs/two.md")}
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.out + run.err  # its own contract compiles: the body is never written under a yaml fence
    assert {p: (root / p).read_bytes() for p in before} == before


def test_a_tag_wrapped_template_pasted_without_a_fence_is_read_and_adopt_leaves_it(tmp_path, run_cli):
    # `<reply_form>` ... `</reply_form>` of `**Label:** [x]` lines, unfenced, in three agents; one renamed a label.
    # Each agent's own `<objective>` (labels without placeholders) is the prompt's own text, no template.
    labels = _round(tmp_path, "tag-section")
    assert labels == {"agents/a.md": [("copy", False)], "agents/b.md": [("copy", False)], "agents/c.md": [("drifted", True)]}
    before = {p.name: p.read_bytes() for p in (tmp_path / "tag-section" / "agents").iterdir()}
    run = run_cli("adopt", str(tmp_path / "tag-section"), "--write")
    assert run.code == 0, run.out + run.err
    assert {p.name: p.read_bytes() for p in (tmp_path / "tag-section" / "agents").iterdir()} == before


def test_a_template_section_pasted_elsewhere_joins_that_shape_as_a_nested_member(tmp_path, run_cli):
    # the report's `### Finding` section is the agents' `## Finding` template: a member, never the owner
    from conftest import write_tree
    from scan_traps import second_round

    root = write_tree(tmp_path / "section", second_round()["section"])
    (group,) = [g for g in scan_plugin(root).groups if g.id == "finding"]
    nested = [m for m in group.members if m.unit.within]
    assert [(m.unit.block.path, m.unit.within, m.label, m.unit.line) for m in nested] == [
        ("skills/audit/SKILL.md", "audit-report.finding", "copy", 14)
    ]
    assert group.owner.block.path == "agents/checker.md" and nested[0].unit not in group.copies
    assert [m.unit.block.path for m in group.members if m.divergent] == ["agents/linter.md"]
    # the report's section drifts: the nested member is divergent, located at its heading, with its diff
    text = (root / "skills/audit/SKILL.md").read_text()
    (root / "skills/audit/SKILL.md").write_text(text.replace("**Where:** <file:line>\n", ""))
    run = run_cli("scan", str(root))
    assert "skills/audit/SKILL.md:14:1: error[scan-divergent]: drifted copy of finding (lacks where in audit-report.finding)" in run.out
    assert run_cli("adopt", str(root), "--write").code == 0
    assert (root / "skills/audit/SKILL.md").read_text() == text.replace("**Where:** <file:line>\n", "")  # never rewritten


def test_two_shapes_side_by_side_that_share_half_their_keys_are_two_shapes(tmp_path):
    from conftest import write_tree
    from scan_traps import second_round

    root = write_tree(tmp_path / "side", second_round()["side-by-side"])
    groups = [g for g in scan_plugin(root).groups if g.key == "front-matter"]
    assert sorted(len(g.members) for g in groups) == [5, 5]
    assert {frozenset(g.owner.paths) for g in groups} == {
        frozenset({"agent", "ticket", "state", "used"}), frozenset({"project", "agent", "ticket", "when", "state"})
    }
    divergent = [(m.unit.block.path, m.reason) for g in groups for m in g.members if m.divergent]
    assert divergent == [("agents/gamma.md", "lacks when")]


def test_an_owner_the_user_names_holds_instances_to_its_structure(tmp_path):
    # with no definition declared, instances that lost a key prove nothing; --owner makes the skill's block the shape
    from conftest import write_tree
    from scan_traps import second_round

    root = write_tree(tmp_path / "o", second_round()["owner-option"])
    (group,) = scan_plugin(root).groups
    assert not group.divergent
    (group,) = scan_plugin(root, owners=("skills/**",)).groups
    assert [(m.unit.block.path, m.divergent) for m in group.members] == [
        ("concepts/costs.md", True), ("concepts/logs.md", True), ("skills/run/SKILL.md", False)
    ]
    assert all("lacks input" in m.reason for m in group.members if m.divergent)


def test_a_plugin_kept_under_templates_is_no_definition_file_for_its_agents(tmp_path):
    labels = _round(tmp_path, "under-templates")
    assert labels["templates/.claude/data/defaults.md"] == [("copy", False)]
    assert [labels[f"templates/.claude/agents/{n}.md"] for n in ("alpha", "beta", "gamma")] == [[("drifted", True)]] * 3


def test_a_second_definition_file_whose_sections_differ_is_a_definition_of_its_own(tmp_path):
    # measured: a rule calling it drift made get-shit-done's summary-standard template a drifted summary-complex
    labels = _round(tmp_path, "two-definitions")
    assert labels == {"templates/a.md": [("copy", False)], "templates/b.md": [("instance", False)]}


def test_two_excerpts_sharing_two_keys_are_two_shapes(tmp_path):
    assert _round(tmp_path, "excerpts") == {}


def test_two_template_variants_side_by_side_are_two_shapes_and_check_reports_only_the_drift(tmp_path, run_cli):
    from conftest import write_tree
    from scan_traps import second_round

    root = write_tree(tmp_path / "plans", second_round()["plan-variants"])
    groups = scan_plugin(root).groups
    assert sorted(len(g.members) for g in groups) == [2, 2]
    assert [(m.unit.block.path, m.label) for g in groups for m in g.members if m.divergent] == [("templates/task-plan.md", "drifted")]
    assert run_cli("adopt", str(root), "--write").code == 0
    check = run_cli("check", "--root", str(root), "--no-cache")
    assert check.code == 1 and "drift-instance" not in check.out
    assert len(re.findall(r"error\[drift-unresolved\]", check.out)) == 1 and "drift-region" not in check.out


def test_a_copy_that_fills_in_anothers_enum_is_its_instance_and_may_not_add_fields(tmp_path):
    # `**State**: open` is a member of the queue's `open | working | closed`: no variant of its own, one shape; the
    # copy holding the enum owns it; the planning skill's item adds two labels (divergent), the archive's only omits
    from conftest import write_tree
    from scan_traps import second_round

    root = write_tree(tmp_path / "q", second_round()["queue-item"])
    (group,) = scan_plugin(root).groups
    assert group.owner.block.path == "skills/queue/SKILL.md" and "fill in its enum" in group.owner_reason
    labels = {m.unit.block.path: (m.label, m.divergent) for m in group.members}
    assert labels == {
        "skills/queue/SKILL.md": ("copy", False), "skills/plan/SKILL.md": ("instance", True), "skills/archive/SKILL.md": ("instance", False)
    }
    (planned,) = group.divergent
    assert "adds follows, waits on" in next(m.reason for m in group.members if m.unit is planned)


def test_a_filled_in_array_element_is_an_instances_own_value_and_a_renamed_one_in_notation_drifts(tmp_path):
    # blind3-1: `["beta.test.ts"]` against `["alpha-tests"]` is a value of its own, as the same string outside a list
    # is; a placeholder element renamed (`["<test path>"]` against `["<test file>"]`) still changes the notation
    from conftest import write_tree
    from scan_traps import second_round

    files = second_round()["array-values"]
    (group,) = scan_plugin(write_tree(tmp_path / "b", {k: v for k, v in files.items() if "delta" not in k})).groups
    assert [(m.unit.block.path, m.label, m.divergent) for m in group.members if m.divergent] == []
    (group,) = scan_plugin(write_tree(tmp_path / "c", {k: v for k, v in files.items() if k[7:12] in ("gamma", "delta")})).groups
    (drifted,) = group.divergent
    assert "missing[].tests" in next(m.reason for m in group.members if m.unit is drifted)


def test_an_enum_and_a_placeholder_naming_its_type_and_members_agree_and_another_type_or_set_differs(tmp_path):
    # blind4-4: `1 | 2 | 3` and `<integer: 1=pass, 2=fail, 3=error>`, `0.0 | 0.5 | 1.0` and `<float: 0.0-1.0>` say one
    # thing; `1 | 2` (other members) still changes the notation (another type: test_which_placeholders_agree_with_an_enum)
    labels = _round(tmp_path, "typed-enum")
    assert labels["agents/alpha-judge.md"] == [("copy", False)]
    assert labels["agents/beta-judge.md"] == [("instance", False)]
    assert labels["agents/gamma-judge.md"] == [("instance", True)]


@pytest.mark.parametrize(("enum", "placeholder", "same"), [
    ("1 | 2 | 3", "<integer: 1, 2, or 3>", True), ("1 | 2 | 3", "<integer>", True), ("0.0 | 0.5 | 1.0", "<float: 0.0 to 1.0>", True),
    ("pending | done", "<one of pending, done>", True), ("1 | 2 | 3", "<string>", False), ("1 | 2 | 3", "<integer: 1-2>", False),
    ("0.0 | 0.5 | 1.0", "<integer: 0-1>", False), ("pending | done", "<string>", False), ("1 | 2 | 3", "<score>", False),
])
def test_which_placeholders_agree_with_an_enum(enum, placeholder, same):
    from contractc.scan.shapes import _same_kind

    assert _same_kind(enum, placeholder) is same and _same_kind(placeholder, enum) is same


@pytest.mark.parametrize(("value", "notation"), [
    ('["alpha.test.ts"]', False), ('["a.md", "b.md"]', False), ('["<file>"]', True), ('["..."]', True), ("[]", True),
    ('["file paths inspected for the concern"]', True),  # a phrase standing for the items, not one of them
])
def test_a_list_is_notation_as_its_elements_are(value, notation):
    from contractc.scan.shapes import _notation

    assert _notation(value) is notation


# -- third round (blind4, blind1-7, blind3-5): examples held to the shape's keys, variants, owners, uncertain members ------


def _members(tmp_path, name: str, commits: int = 0):
    """(path, line) -> member of the ``name`` tree; ``commits``: 1 for a one-commit repository, 2 for one whose second
    commit edits templates/b.md (the newer copy)."""
    from conftest import write_tree
    from scan_traps import git, second_round

    root = write_tree(tmp_path / name, second_round()[name])
    if commits:
        late = root / "templates/b.md"
        text = late.read_text() if late.exists() else ""
        if commits > 1:  # first committed as a's copy, then edited
            late.write_text((root / "templates/a.md").read_text().replace("# A", "# B", 1))
        git(root, "init", "-q")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "one")
        if commits > 1:
            late.write_text(text)
            git(root, "commit", "-q", "-am", "b drops Risks", when="2026-04-01T10:00:00+00:00")
    return root, {(m.unit.block.path, m.unit.line): m for g in scan_plugin(root).groups for m in g.members}


def test_a_filled_restatement_that_lost_keys_is_divergent_and_an_elided_one_is_not(tmp_path):
    _, members = _members(tmp_path, "restated-return")
    lost, elided = members[("skills/ship/SKILL.md", 22)], members[("skills/ship/SKILL.md", 33)]
    assert (lost.label, lost.divergent) == ("example", True) and "lacks depot, held" in lost.reason
    assert (elided.label, elided.divergent, elided.uncertain) == ("example", False, False)  # `...` stands for what it leaves out


def test_a_restatement_beside_its_owner_that_lost_a_key_is_no_variant(tmp_path, run_cli):
    root, members = _members(tmp_path, "beside-owner")
    restated = members[("skills/hand/SKILL.md", 15)]
    assert (restated.label, restated.divergent) == ("drifted", True) and "lacks step" in restated.reason
    assert run_cli("scan", str(root)).code == 1


def test_a_failure_envelope_with_a_context_key_of_its_own_is_no_drift(tmp_path):
    _, members = _members(tmp_path, "context-keys")
    fetch = members[("skills/fetch/SKILL.md", 9)]
    assert not any(m.divergent or m.uncertain for m in members.values())
    assert "keys of its own (adds address)" in fetch.reason


def test_each_direction_of_a_call_is_a_shape_of_its_own(tmp_path):
    root, members = _members(tmp_path, "directions")
    groups = scan_plugin(root).groups
    assert sorted(len(g.members) for g in groups) == [2, 2]
    assert {frozenset(m.unit.block.path.split("/")[1].split("-")[0] for m in g.members) for g in groups} == {
        frozenset({"to"}), frozenset({"from"})
    }
    assert not any(m.divergent for m in members.values())


def test_between_two_definition_files_git_history_names_the_owner(tmp_path):
    root, members = _members(tmp_path, "definition-files", commits=2)
    (group,) = scan_plugin(root).groups
    assert group.owner.block.path == "templates/b.md" and "git history" in group.owner_reason
    stale = members[("templates/a.md", 4)]
    assert stale.divergent and "adds risks" in stale.reason


def test_without_history_two_definition_files_are_uncertain_never_divergent(tmp_path, run_cli):
    root, members = _members(tmp_path, "definition-files", commits=1)  # a one-commit clone: git cannot tell them apart
    assert not any(m.divergent for m in members.values())
    assert [(p, m.label) for (p, _), m in members.items() if m.uncertain] == [("templates/b.md", "instance")]
    run = run_cli("scan", str(root))
    assert run.code == 0  # a warning, not an error
    (line,) = [m for m in LOCATED.finditer(run.out)]
    assert (line["path"], line["severity"], line["code"]) == ("templates/b.md", "warning", "scan-uncertain")
    assert "-## Risks\n" in run.out or "+## Risks\n" in run.out  # its diff against the owner
    assert "0 divergent, 1 uncertain (" in run.out.splitlines()[-1]
    doc = json.loads(run_cli("scan", "--format", "json", str(root)).out)
    assert [d["code"] for d in doc["diagnostics"] if d["severity"] == "warning"] == ["scan-uncertain"]


def test_an_example_in_format_tokens_never_owns_templates_with_or_without_history(tmp_path):
    for commits in (0, 1):
        root, members = _members(tmp_path / str(commits), "token-example", commits=commits)
        (group,) = scan_plugin(root).groups
        assert group.owner.block.path in ("skills/alpha/SKILL.md", "skills/beta/SKILL.md")
        assert not [p for (p, _), m in members.items() if m.divergent]
        assert members[("skills/gamma/references/session.md", 4)].label == "example"


def test_a_short_template_with_one_section_swapped_is_compared_and_uncertain_without_a_definition(tmp_path):
    # most of its lines alike, two of its four labels: one shape; nothing says which section is the stale one
    _, members = _members(tmp_path, "swapped-section")
    swapped = [m for m in members.values() if m.uncertain]
    assert len(members) == 2 and len(swapped) == 1 and not any(m.divergent for m in members.values())
    assert "lacks log format and adds handover steps" in swapped[0].reason or "lacks handover steps and adds log format" in swapped[0].reason


def test_adopt_leaves_an_uncertain_member_byte_identical(tmp_path, run_cli):
    root, members = _members(tmp_path, "swapped-section")
    (uncertain,) = [m.unit.block.path for m in members.values() if m.uncertain]
    before = (root / uncertain).read_bytes()
    assert run_cli("adopt", str(root), "--write").code == 0
    assert (root / uncertain).read_bytes() == before  # no region, no rewrite: nothing decided what it should be


def test_a_key_renamed_with_all_it_holds_is_uncertain_and_adopt_then_check_stay_consistent(tmp_path, run_cli):
    """Not "a copy laid out differently" (its keys are not the owner's), and not an instance region check would fail
    straight after adopt: an uncertain member, left byte for byte in no region."""
    from conftest import snapshot, write_tree

    block = '```json\n{{"status": "<done|failed>", "summary": "<text>", "{key}": {{"path": "<file>", "kind": "<kind>"}}}}\n```\n'
    root = write_tree(tmp_path / "p", {"agents/a.md": "# A\n\nReturn:\n\n" + block.format(key="memory"),
                                       "agents/b.md": "# B\n\nReturn:\n\n" + block.format(key="tracker")})  # fmt: skip
    (group,) = scan_plugin(root).groups
    (other,) = [m for m in group.members if m.unit is not group.owner]
    assert (other.label, other.divergent, other.uncertain) == ("instance", False, True)
    assert "laid out differently" not in other.reason and "lacks memory" in other.reason
    before = snapshot(root)["agents/b.md"]
    assert run_cli("adopt", "--write", str(root)).code == 0
    assert snapshot(root)["agents/b.md"] == before
    check = run_cli("check", "--root", str(root))
    assert check.code == 0, check.out + check.err


# -- after blind round 5 (no longer blind): what nothing can decide is uncertain, never an error ---------------------


def _after_owner(root) -> dict[str, tuple[str, bool, bool]]:
    return {m.unit.block.path + f":{m.unit.line}": (m.label, m.divergent, m.uncertain) for g in scan_plugin(root).groups for m in g.members if m.unit is not g.owner}


def test_an_example_in_a_reference_folder_is_no_definition_of_another_example(tmp_path, run_cli):
    """An owner that states no notation is an example wherever it lives: another one with values of its own that
    shows fewer fields is uncertain (a warning with its diff), not a divergence."""
    from conftest import write_tree

    full = '```yaml\nphases:\n  - id: fix-0\n    status: pending\n    prompt: "Add checks..."\n    model: small\n    injected: true\n```\n'
    short = '```yaml\nphases:\n  - id: prepare\n    status: pending\n    prompt: "Write the plan..."\n```\n'
    root = write_tree(tmp_path / "p", {"skills/loop/references/progress.md": f"# Progress file\n\n{full}", "docs/concepts/loop.md": f"# Loop\n\n{short}"})
    assert list(_after_owner(root).values()) == [("instance", False, True)]
    run = run_cli("scan", str(root))
    assert run.code == 0 and "docs/concepts/loop.md:4:1: warning[scan-uncertain]" in run.out
    typed, stated = (b.replace("status: pending", "status: pending | done") for b in (full, short))
    declared = write_tree(tmp_path / "q", {"skills/loop/references/progress.md": f"# Progress file\n\n{typed}", "docs/concepts/loop.md": f"# Loop\n\n{stated}"})
    assert [m[1] for m in _after_owner(declared).values()] == [True]  # against a definition that states its notation: drift


def test_one_key_with_its_placeholder_worded_apart_is_uncertain_and_a_changed_type_is_drift(tmp_path):
    from conftest import write_tree

    root = write_tree(tmp_path / "p", {"agents/a.md": "# A\n\n```yaml\nname: <sprint-name>\n```\n", "skills/w/SKILL.md": "# W\n\n```yaml\nname: <name of the sprint>\n```\n"})
    assert [m[1:] for m in _after_owner(root).values()] == [(False, True)]
    typed = write_tree(tmp_path / "q", {"agents/a.md": "# A\n\n```yaml\nping:\n  at: string\n```\n", "agents/b.md": "# B\n\n```yaml\nping:\n  at: string\n```\n",
                                        "agents/c.md": "# C\n\n```yaml\nping:\n  at: integer\n```\n"})  # fmt: skip
    assert [m[1] for p, m in _after_owner(typed).items() if p.startswith("agents/c.md")] == [True]


def test_the_same_keys_in_another_order_beside_the_owner_are_uncertain(tmp_path):
    from conftest import write_tree

    first = "```yaml\nphases:\n  - id: <phase-id>\n    prompt: <text>\n```\n"
    second = "```yaml\nphases:\n  - prompt: <text>\n    id: <phase-id>\n```\n"
    root = write_tree(tmp_path / "p", {"skills/w/references/schema.md": f"# Schema\n\nMinimal:\n\n{first}\nReordered:\n\n{second}"})
    assert list(_after_owner(root).values()) == [("instance", False, True)]
    elsewhere = write_tree(tmp_path / "q", {"skills/w/references/schema.md": f"# Schema\n\n{first}", "agents/a.md": f"# A\n\n{second}"})
    assert [m[1] for m in _after_owner(elsewhere).values()] == [True]  # in another file it is the drift it always was


def test_two_flat_blocks_with_the_same_keys_in_another_order_are_one_shape(tmp_path, run_cli):
    """A flat block of scalar keys is one unit named by its first key; reordered, it is still the same shape."""
    from conftest import write_tree

    first = "```yaml\nname: <string>      # the workflow's name\nphases: <list>\ndescription: <string>\nowner: <string>\n```\n"
    second = "```yaml\nowner: <string>\nname: <string>      # the workflow's name\nphases: <list>\ndescription: <integer>\n```\n"
    root = write_tree(tmp_path / "p", {"docs/reference/workflow.md": f"# Workflow\n\n{first}", "skills/w/references/schema.md": f"# Schema\n\n{second}"})
    (group,) = scan_plugin(root).groups
    assert len(group.members) == 2
    assert run_cli("scan", str(root)).code == 1  # description's type changed: found, whichever key each block opens with


def test_a_docs_reference_page_is_no_definition_folder_but_a_schema_file_is(tmp_path):
    """`docs/reference/` holds a project's user documentation (its samples fill in the commands' templates); a
    skill's `references/` folder and a file named for a schema define their shapes."""
    from conftest import write_tree

    block = "```yaml\nsprint:\n  id: <sprint-id>\n  current: <phase>\n  progress: <percent>\n```\n"
    for docs, declared in (("docs/reference/commands.md", False), ("docs/reference/sprint-schema.md", True), ("skills/s/references/sprint.md", True)):
        root = write_tree(tmp_path / docs.replace("/", "_"), {docs: f"# Doc\n\n{block}", "commands/status.md": f"# Status\n\n{block.replace('  current: <phase>', '  current: <phase-name>')}"})
        (group,) = scan_plugin(root).groups
        assert ("declares it as the definition" in group.owner_reason) is declared, (docs, group.owner_reason)


def test_an_excerpt_with_elided_values_never_owns_the_whole_copies(tmp_path, run_cli):
    """A skill's parse shape that writes `[...]` and `"..."` for what each agent fills in is an excerpt: the agents'
    own concern fields are no keys it lost, and it does not own them."""
    from conftest import write_tree

    parse = '```json\n{\n  "stakeholder": "architect|tester",\n  "approval": "APPROVED|REJECTED",\n  "concerns": [...],\n  "summary": "..."\n}\n```\n'
    agent = '```json\n{{"stakeholder": "{who}", "approval": "APPROVED|REJECTED", "concerns": [{{"issue": "<text>", "{own}": "<x>"}}], "summary": "<one line>"}}\n```\n'
    root = write_tree(tmp_path / "p", {"skills/review/SKILL.md": f"# Review\n\nDispatches `architect` and `tester`. Parse each reply:\n\n{parse}",
                                       "agents/architect.md": "# Architect\n\nReturn:\n\n" + agent.format(who="architect", own="layer"),
                                       "agents/tester.md": "# Tester\n\nReturn:\n\n" + agent.format(who="tester", own="coverage")})  # fmt: skip
    (group,) = scan_plugin(root).groups
    assert group.owner.block.path != "skills/review/SKILL.md"
    assert run_cli("scan", str(root)).code == 0


def test_header_comments_above_a_templates_first_key_are_no_drift(tmp_path, run_cli):
    """A layout file's YAML block under `# Standards tracking` comments is the skills' block all the same; a comment
    on a key's own line still is drift (test_scan.py)."""
    from conftest import write_tree

    block = '```yaml\n{head}standards_version: "2025.1"\nlast_configured: "[timestamp]"\ncomponents:\n  {name}: "2025.1"\n```\n'
    files = {f"skills/{x}/SKILL.md": f"# {x}\n\n" + block.format(head="", name=x) for x in "abc"}
    files["skills/all/REFERENCE.md"] = "# All\n\n" + block.format(head="# Standards tracking\n# Written by the configure skills\n", name="a")
    root = write_tree(tmp_path / "p", files)
    run = run_cli("scan", "-v", str(root))
    assert run.code == 0, run.out
    assert "skills/all/REFERENCE.md:4:1: note[scan-member]: instance of standards_version: the owner's text under header comments" in run.out


# -- after blind round 6 (no longer blind): labels on the five causes of round C --------------------------------------


def test_a_restatement_beside_the_owner_that_only_lost_a_key_is_drift_not_a_variant(tmp_path, run_cli):
    """A block restated further down its owner's file, nothing of its own (no value filled in on either side, no key
    it adds), that lost a key and rewords a placeholder, drifted; two uses of one form where one fills in a value the
    other states as a placeholder are variants by design."""
    from conftest import write_tree

    block = "```yaml\nhandoff:\n  ticket: <ticket id>\n  verdict: <accept | reject>\n  notes: <one line>\n{extra}```\n"
    body = "# Triage\n\nReturn:\n\n" + block.format(extra="  queue: <queue name>\n") + "\n## Outputs\n\nThe same block:\n\n"
    root = write_tree(tmp_path / "p", {"skills/triage/SKILL.md": body + block.format(extra="").replace("<one line>", "<a line>")})
    assert list(_after_owner(root).values()) == [("drifted", True, False)]
    assert run_cli("scan", str(root)).code == 1
    filled = write_tree(tmp_path / "q", {"skills/triage/SKILL.md": body + block.format(extra="").replace("<one line>", "rejected on sight")})
    assert list(_after_owner(filled).values()) == [("instance", False, False)]


def test_a_failure_envelope_with_context_keys_of_its_own_is_a_variant_not_a_drifted_success_envelope(tmp_path, run_cli):
    """`status: failed` stated once beside a declared `status: success` envelope does not split off as a variant (one
    value per two blocks), but its error details are its own outcome's keys; the same block that keeps `success`
    and gains a key drifted."""
    from conftest import write_tree

    ok = '```json\n{"status": "success", "desk": "<name>", "summary": "<one line>", "next": "<step>"}\n```\n'
    failed = '```json\n{"status": "failed", "desk": "<name>", "summary": "<one line>", "error_code": "<code>", "error_detail": "<what broke>"}\n```\n'
    flag = '```json\n{"ok": false, "desk": "<name>", "summary": "<one line>", "next": "<step>", "error_detail": "<what broke>"}\n```\n'
    files = {"templates/envelope.md": f"# Envelope\n\n{ok}", "agents/b.md": f"# B\n\n{ok}", "agents/a.md": f"# A\n\nOn failure:\n\n{failed}"}
    assert run_cli("scan", str(write_tree(tmp_path / "p", files))).code == 0
    ok_flag = ok.replace('"status": "success"', '"ok": true')
    flagged = {"templates/envelope.md": f"# Envelope\n\n{ok_flag}", "agents/b.md": f"# B\n\n{ok_flag}", "agents/a.md": f"# A\n\n{flag}"}
    assert run_cli("scan", str(write_tree(tmp_path / "q", flagged))).code == 0
    grown = ok.replace('"next"', '"error_detail": "<x>", "next"')
    gained = {**files, "agents/a.md": f"# A\n\n{grown}"}
    assert run_cli("scan", str(write_tree(tmp_path / "r", gained))).code == 1


def test_several_definition_files_that_differ_hold_an_instance_only_as_far_as_what_chose_among_them(tmp_path, run_cli):
    """Three skills' references/ files state one shape, two of them alike: the declaration is the same for all three,
    so what chose the owner is the majority, and a peer instance with values of its own that lost a key is uncertain,
    not divergent; one definition file still holds it."""
    from conftest import write_tree

    shape = "```yaml\nticket:\n  id: <ticket id>\n  queue: <queue name>\n  priority: <low | high>\n```\n"
    filled = "```yaml\nticket:\n  id: <ticket id>\n  queue: billing\n```\n"
    files = {"skills/a/references/ticket.md": f"# Ticket\n\n{shape}", "skills/b/references/ticket.md": f"# Ticket\n\n{shape}",
             "skills/c/references/ticket.md": "# Ticket\n\n" + shape.replace("<queue name>", "<queue>"), "agents/x.md": f"# X\n\nReturn:\n\n{filled}"}  # fmt: skip
    root = write_tree(tmp_path / "p", files)
    run = run_cli("scan", str(root))
    assert run.code == 1 and "agents/x.md:6:1: warning[scan-uncertain]" in run.out  # c's reworded placeholder: drift of the majority
    one = write_tree(tmp_path / "q", {k: v for k, v in files.items() if "/b/" not in k and "/c/" not in k})
    assert "agents/x.md:6:1: error[scan-divergent]" in run_cli("scan", str(one)).out


def test_an_uncertain_member_of_a_one_key_shape_is_listed_only_with_verbose(tmp_path, run_cli):
    """`name: <sprint-name>` against `name: <name of the sprint>` is too little to weigh: the default output counts it
    on the last line and says -v lists it; -v and the JSON report still locate it with its diff. A larger shape's
    stays a warning."""
    from conftest import write_tree

    root = write_tree(tmp_path / "p", {"agents/a.md": "# A\n\n```yaml\nname: <sprint-name>\n```\n", "skills/w/SKILL.md": "# W\n\n```yaml\nname: <name of the sprint>\n```\n"})
    plain, verbose = run_cli("scan", str(root)), run_cli("scan", "-v", str(root))
    assert plain.code == verbose.code == 0
    assert "warning[scan-uncertain]" not in plain.out and "1 uncertain (1 of them in shapes of one key or the bytes of one listed: -v lists them)" in plain.out
    assert "warning[scan-uncertain]" in verbose.out and "in shapes of one key" not in verbose.out
    assert "scan-uncertain" in run_cli("scan", "--format", "json", str(root)).out


def test_uncertain_members_with_the_same_bytes_are_listed_once_by_default(tmp_path, run_cli):
    """A plugin kept under two trees repeats each uncertain member: the default output lists the first of the same
    bytes and counts the rest; -v lists every one."""
    from conftest import write_tree

    owner = "```yaml\nshift:\n  desk: <desk name>\n  load: <low | high>\n  notes: <one line>\n```\n"
    short = "```yaml\nshift:\n  desk: billing\n  load: <low | high>\n```\n"
    files = {f"agents/{x}.md": f"# {x}\n\n{owner}" for x in ("lead", "boss", "chief")}
    root = write_tree(tmp_path / "p", {**files, "demo/agents/clerk.md": f"# Clerk\n\n{short}", "kit/agents/clerk.md": f"# Clerk\n\n{short}"})
    plain, verbose = run_cli("scan", str(root)), run_cli("scan", "-v", str(root))
    assert plain.out.count("warning[scan-uncertain]") == 1 and "2 uncertain (1 of them" in plain.out
    assert verbose.out.count("warning[scan-uncertain]") == 2


def test_a_peer_instances_enum_with_none_of_the_owners_members_is_its_own_vocabulary(tmp_path, run_cli):
    """Each reviewer lists its own concern categories: with nothing but path order behind the owner, an enum that
    shares no member with the owner's is the instance's own list, not the owner's list changed; one that keeps some
    members and adds one is still uncertain."""
    from conftest import write_tree

    block = "```yaml\nconcern:\n  reviewer: {who}\n  category: {cats}\n  note: <one line>\n```\n"
    lists = {"billing": "refund | invoice | tax", "privacy": "consent | retention | export", "speed": "latency | queue | cache"}
    files = {f"agents/{who}.md": f"# {who}\n\n" + block.format(who=who, cats=cats) for who, cats in lists.items()}
    run = run_cli("scan", "-v", str(write_tree(tmp_path / "p", files)))
    assert run.code == 0 and "scan-uncertain" not in run.out and "an enum of its own" in run.out
    files["agents/speed.md"] = "# speed\n\n" + block.format(who="speed", cats="refund | invoice | tax | latency")
    assert "agents/speed.md:4:1: warning[scan-uncertain]" in run_cli("scan", str(write_tree(tmp_path / "q", files))).out

def test_a_form_filled_in_without_placeholders_is_compared_with_its_template(tmp_path):
    """A sample of a template with every value filled in is a unit of the shape: the one that lost a label is
    divergent, the whole one is not; label lines holding sentences, or prose between them, make no form."""
    labels = _round(tmp_path, "filled-form")
    assert labels["docs/desk.md"] == [("instance", True)]
    assert labels["skills/queue/SKILL.md"] == [("instance", False)]
    assert [p for p in labels if "tone" in p or p in ("docs/roles.md", "docs/start.md")] == []


def test_a_form_the_text_above_calls_an_example_is_an_example_when_every_value_is_filled_in(tmp_path):
    from conftest import write_tree
    from scan_traps import INTAKE, INTAKE_FILLED

    root = write_tree(tmp_path / "p", {"agents/intake.md": "# Intake\n\nClose each ticket with:\n\n```\n" + INTAKE + "```\n",
                                       "docs/desk.md": "# Desk\n\nFor example:\n\n```\n" + INTAKE_FILLED + "```\n"})  # fmt: skip
    (group,) = scan_plugin(root).groups
    assert [(m.unit.block.path, m.label) for m in group.members] == [("agents/intake.md", "copy"), ("docs/desk.md", "example")]


def test_a_yaml_list_is_read_as_a_json_list_is_its_own_arguments_a_value_and_a_renamed_placeholder_drift(tmp_path):
    """`[clear, <scope>]` (flow or `- item` lines) is a call's own arguments beside a placeholder, as the same JSON
    list is; `[<cmd>, <args>]` against `[<command>, <args>]` renames the notation."""
    from conftest import write_tree

    block = "```yaml\nrequest:\n  ticket: <id>\n  call: {call}\n  priority: low | high\n```\n"
    root = write_tree(tmp_path / "p", {
        "templates/request.md": "# Request\n\nThe desk produces the following format:\n\n" + block.format(call="[<command>, <args>]"),
        "agents/clear.md": "# Clear\n\nReturn:\n\n" + block.format(call="[clear, <scope>]"),
        "agents/show.md": "# Show\n\nReturn:\n\n" + block.format(call="\n    - show\n    - <filters>"),
        "agents/old.md": "# Old\n\nReturn:\n\n" + block.format(call="[<cmd>, <args>]"),
    })  # fmt: skip
    (group,) = scan_plugin(root).groups
    found = {m.unit.block.path: (m.label, m.divergent) for m in group.members}
    assert found["agents/clear.md"] == ("instance", False) and found["agents/show.md"] == ("instance", False)
    assert found["agents/old.md"] == ("drifted", True)


def test_a_fence_of_labelled_templates_is_cut_into_parts_and_a_part_restated_elsewhere_is_compared_with_that_part(tmp_path):
    """`Escalated:` and its heading, label and list lines is one part of the fence: the agent that restates it whole
    is a copy, the one that added an enum member drifted (not both 'drifted' against the three-part block)."""
    labels = _round(tmp_path, "template-parts")
    assert labels["agents/router.md"] == [("copy", False)]
    assert labels["agents/old.md"] == [("drifted", True)]


def test_a_plain_fence_whose_keys_are_labels_is_a_template_so_a_json_argument_reads_alike_in_either_layout(tmp_path):
    """`Parameters: {` parses as YAML, `Parameters:` with the `{` on the next line does not: read by YAML, two copies
    of one call were two kinds of block. Keys written for people (`Tool`) are a template's labels: one shape, each
    call's own arguments its own values."""
    from conftest import write_tree

    call = "```\n## Tool call\nTool: {tool}\nParameters:{gap}{{\n  \"{key}\": \"{command}\",\n  \"args\": [{args}]\n}}\n```\n"
    root = write_tree(tmp_path / "p", {
        "skills/s/SKILL.md": "# S\n\nCall the tool as:\n\n" + call.format(tool="<tool name>", gap=" ", key="command", command="<command>", args='"<sub>", ...flags'),
        "agents/cache.md": "# Cache\n\nCall the tool as:\n\n" + call.format(tool="cache", gap="\n", key="command", command="cache", args='"clear", ...scope'),
        "agents/index.md": "# Index\n\nCall the tool as:\n\n" + call.format(tool="index", gap=" ", key="command", command="index", args='"list", ...filters'),
    })  # fmt: skip
    (group,) = scan_plugin(root).groups
    found = {m.unit.block.path: m.divergent for m in group.members}
    assert found == {"skills/s/SKILL.md": False, "agents/cache.md": False, "agents/index.md": False}


def test_a_display_whose_values_are_lined_up_in_a_column_is_read_without_a_rule_line_or_titles(tmp_path):
    """`Phase:      build` rows padded into one column are printed output: the docs' sample that lost the
    `Blocked:` row drifted, its other values are a sample's own."""
    from conftest import write_tree

    shown = "```\nSprint status\nPhase:      {phase}\nProgress:   {done}/10\n{blocked}Next:       {step}\n```\n"
    root = write_tree(tmp_path / "p", {
        "commands/status.md": "# Status\n\nPrint:\n\n" + shown.format(phase="build", done=4, blocked="Blocked:    none\n", step="review"),
        "commands/board.md": "# Board\n\nPrint:\n\n" + shown.format(phase="plan", done=1, blocked="Blocked:    design sign-off\n", step="build"),
        "docs/usage.md": "# Usage\n\nThe status command prints:\n\n" + shown.format(phase="test", done=9, blocked="", step="ship"),
    })  # fmt: skip
    (group,) = scan_plugin(root).groups
    found = {m.unit.block.path: (m.label, m.divergent) for m in group.members}
    assert found["docs/usage.md"] == ("drifted", True)
    assert [d for p, (_, d) in found.items() if p.startswith("commands/")] == [False, False]


ENVELOPE = {
    "agent": "<agent name>",
    "status": "done|blocked",
    "scope": {"files_read": 3, "size": "small|large"},
    "findings": {"summary": "<one sentence>", "items": [{"kind": "<kind>", "where": "<file:line>"}], "counts": {"total": 2}},
    "blockers": [{"reason": "<why>"}],
}
"""A return envelope every worker fills in; each worker's findings are its own (tests below)."""


def _envelope_plugin(tmp_path, worker_findings: dict, dropped: str = ""):
    """The envelope in a references/ file, and two workers returning it filled in: ``worker_findings`` is the
    first worker's findings, the second keeps the envelope's; ``dropped``: a field the first worker leaves out."""
    def fence(doc: dict) -> str:
        return "```json\n" + json.dumps(doc, indent=2) + "\n```\n"

    mine = {**ENVELOPE, "agent": "auditor", "status": "done", "scope": {"files_read": 9, "size": "large"}, "findings": worker_findings, "blockers": []}
    mine.pop(dropped, None)
    theirs = {**ENVELOPE, "agent": "scout", "status": "blocked"}
    files = {
        "references/return-envelope.md": f"# Return envelope\n\nEvery worker returns the following format:\n\n{fence(ENVELOPE)}",
        "agents/auditor.md": f"# Auditor\n\nReturn:\n\n{fence(mine)}",
        "agents/scout.md": f"# Scout\n\nReturn:\n\n{fence(theirs)}",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


AUDIT = {"summary": "<one sentence>", "items": [{"rule": "<rule id>", "fix": "<how>"}], "score": 80}
"""The auditor's own findings: other item keys, a score in place of the counts."""


def test_a_worker_with_findings_of_its_own_inside_the_envelope_is_uncertain_not_divergent(tmp_path, run_cli):
    root = _envelope_plugin(tmp_path, AUDIT)
    run = run_cli("scan", str(root))
    assert run.code == 0, run.out  # no scan-divergent error
    (line,) = [m for m in LOCATED.finditer(run.out) if m["path"] == "agents/auditor.md"]
    assert (line["severity"], line["code"]) == ("warning", "scan-uncertain")
    assert "keeps its every field, with content of its own inside them" in line["message"]
    assert "blockers[]" not in line["message"]  # `blockers: []` lists no blocker; it loses no key


def test_a_worker_that_drops_a_field_of_the_envelope_is_still_divergent(tmp_path, run_cli):
    own = {**ENVELOPE["findings"], "items": [{"kind": "<kind>", "where": "<file:line>", "fix": "<how>"}]}  # adds fix
    root = _envelope_plugin(tmp_path, own, dropped="scope")
    run = run_cli("scan", str(root))
    assert run.code == 1
    (line,) = [m for m in LOCATED.finditer(run.out) if m["path"] == "agents/auditor.md"]
    assert (line["severity"], line["code"]) == ("error", "scan-divergent") and "lacks scope" in line["message"]
