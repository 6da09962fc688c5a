"""diff on data shapes: each edit of the notation is one typed record with its verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from contractc.diff.gate import run_diff
from diff_repo import edit, line_of, make_repo

HANDOFFS = "contracts/handoffs.md"
PLANNING = "planning-stage.task_brief"
BUILDING = "building-stage.task_brief"
P = ("producers",)
R = ("receivers",)
PR = ("producers", "receivers")

# (name, old text, new text, expected (kind, subject, detail, verdicts))
EDITS = [
    (
        "required field added",
        "  budget_hours: 8\n",
        "  budget_hours: 8\n  priority: low | high\n",
        ("field-added-required", PLANNING, "$.priority", P),
    ),
    (
        "optional field added",
        "  budget_hours: 8\n",
        "  budget_hours: 8\n  labels: [ string ]                         # optional — for search\n",
        ("field-added-optional", PLANNING, "$.labels", ()),
    ),
    ("required field removed", "  budget_hours: 8\n", "", ("field-removed", PLANNING, "$.budget_hours", PR)),
    (
        "optional field removed",
        "  related: [ ...IDs of earlier plans... ]    # optional — for cross-references\n",
        "",
        ("field-removed", PLANNING, "$.related", P),
    ),
    (
        "field renamed",
        "  goal: string                               # one sentence",
        "  objective: string                          # one sentence",
        ("field-renamed", PLANNING, "$.goal", PR),
    ),
    (
        "integer widened to number",
        "  budget_hours: 8\n",
        "  budget_hours: 8.5\n",
        ("type-changed", PLANNING, "$.budget_hours", R),
    ),
    (
        "string narrowed to a date",
        "  workspace: string ",
        '  workspace: "YYYY-MM-DD"',
        ("type-changed", BUILDING, "$.workspace", P),
    ),
    (
        "enum value added",
        "kind: feature | fix | chore",
        "kind: feature | fix | chore | docs",
        ("enum-values-added", PLANNING, "$.kind", R),
    ),
    (
        "enum value removed",
        "kind: feature | fix | chore",
        "kind: feature | fix",
        ("enum-values-removed", PLANNING, "$.kind", P),
    ),
    (
        "transient flag dropped",
        "    blocked_by: [ PLAN-002 ]                 # ← TRANSIENT, resolved by the orchestrator\n",
        "    blocked_by: [ PLAN-002 ]                 # resolved by the orchestrator\n",
        ("transient-changed", "draft_plan", "$[*].blocked_by", P),
    ),
    (
        "transient flag added",
        "  changed_files: [ string ]\n",
        "  changed_files: [ string ]                  # ← TRANSIENT\n",
        ("transient-changed", "build_report", "$.changed_files", PR),
    ),
    (
        "an object became a list of objects",
        "  test_summary:\n    passed: 0\n    failed: 0\n",
        "  test_summary:\n    - passed: 0\n      failed: 0\n",
        ("nesting-changed", "build_report", "$.test_summary", PR),
    ),
    (
        "a field moved into another object",
        "  checks:\n    lint: true\n",
        "  checks:\n    lint: true\n    workspace: string\n",
        None,  # asserted in its own test below (two edits)
    ),
    (
        "optional field made required",
        "  reviewer: string                           # present only when review was requested\n",
        "  reviewer: string\n",
        ("field-made-required", BUILDING, "$.reviewer", P),
    ),
    (
        "required field made optional",
        '  finished_at: "YYYY-MM-DD"\n',
        '  finished_at: "YYYY-MM-DD"                 # optional — only when the run ended\n',
        ("field-made-optional", "build_report", "$.finished_at", R),
    ),
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def records(root: Path, anchors: bool = False) -> list[tuple]:
    """The shape records (or, with ``anchors``, the published-anchor records) of a diff against HEAD."""
    result = run_diff(root, "HEAD", None)
    return [
        (r.kind, r.subject, r.detail, r.verdicts) for r in result.records if r.kind.startswith("anchor-") == anchors
    ]


@pytest.mark.parametrize("name,old,new,expected", [e for e in EDITS if e[3]], ids=[e[0] for e in EDITS if e[3]])
def test_each_edit_of_a_data_shape_is_one_record_with_its_verdict(repo, name, old, new, expected):
    edit(repo, HANDOFFS, old, new)
    assert records(repo) == [expected]
    # a field that is gone from its place also takes its published anchor (shape page, field table) with it
    gone = expected[0] in ("field-removed", "field-renamed")
    anchor = f"{expected[1]}-{expected[2][2:]}"
    assert records(repo, anchors=True) == ([("anchor-removed", anchor, "", ("links",))] if gone else [])


def test_a_field_moved_into_another_object_is_a_nesting_change_not_a_removal(repo):
    edit(repo, HANDOFFS, "  workspace: string                          # absolute path, supplied by the skill\n", "")
    edit(
        repo,
        HANDOFFS,
        "  checks:\n    lint: true\n",
        "  checks:\n    lint: true\n    workspace: string                        # absolute path, supplied by the skill\n",
    )
    result = run_diff(repo, "HEAD", None)
    [anchor, moved] = sorted(result.records, key=lambda r: r.kind)
    assert (anchor.kind, anchor.subject) == ("anchor-removed", "building-stage.task_brief-workspace")
    assert (moved.kind, moved.detail, moved.verdicts) == ("nesting-changed", "$.workspace", PR)
    assert moved.message.endswith("moved to $.checks.workspace")
    # both sides located: the line it left and the line it landed on
    workspace, lint = line_of("handoffs.md", "  workspace: string"), line_of("handoffs.md", "    lint: true")
    assert moved.old is not None and moved.old.line == workspace
    assert (
        moved.new is not None and moved.new.path == HANDOFFS and moved.new.line == lint
    )  # one line up, then under lint


def test_a_near_copy_in_another_stage_is_compared_with_its_own_stage_only(repo):
    # task_brief exists in both stages; editing the building one must not touch the planning one
    edit(repo, HANDOFFS, '  created_at: "YYYY-MM-DD"\n  reviewer:', "  reviewer:")
    assert records(repo) == [("field-removed", BUILDING, "$.created_at", PR)]
    assert records(repo, anchors=True) == [("anchor-removed", f"{BUILDING}-created_at", "", ("links",))]


def test_a_comment_or_example_value_edit_is_no_change(repo):
    edit(repo, HANDOFFS, "# who signs off the plan", "# who approves the plan")
    edit(repo, HANDOFFS, "  - id: PLAN-001\n", "  - id: PLAN-007\n")
    assert records(repo) == []


def test_several_edits_are_reported_in_line_order_with_locations_on_both_sides(repo):
    edit(repo, HANDOFFS, "kind: feature | fix | chore", "kind: feature | fix | chore | docs")
    edit(repo, HANDOFFS, "  outcome: passed | failed\n", "  outcome: passed | failed | skipped\n")
    result = run_diff(repo, "HEAD", None)
    assert [(r.subject, r.old.line, r.new.line) for r in result.records] == [
        (PLANNING, line_of("handoffs.md", "  kind: feature"), line_of("handoffs.md", "  kind: feature")),
        ("build_report", line_of("handoffs.md", "  outcome:"), line_of("handoffs.md", "  outcome:")),
    ]


BUILDING_BRIEF = """```yaml
task_brief:
  plan: { ...full draft_plan... }
"""


def _one_stage_brief(tmp_path: Path) -> Path:
    """The repository as it was before the building stage had a task_brief of its own (so the planning
    one was plain `task_brief`), with build_report carrying the brief it was built from."""
    from diff_repo import CONFIG, CONTRACTS

    text = CONTRACTS["handoffs.md"]
    block = text[text.index(BUILDING_BRIEF) : text.index("```\n", text.index(BUILDING_BRIEF) + 8) + 4]
    older = text.replace(block + "\n", "").replace(
        "  outcome: passed | failed\n", "  outcome: passed | failed\n  brief: { ...full task_brief... }\n"
    )
    files = {"contractc.yaml": CONFIG, **{f"contracts/{n}": t for n, t in CONTRACTS.items()}, HANDOFFS: older}
    root = make_repo(tmp_path / "p", files)
    (root / HANDOFFS).write_text(older.replace("## Building stage\n\n", f"## Building stage\n\n{block}\n"), "utf-8")
    return root


def test_a_shape_whose_id_becomes_qualified_is_one_rename_and_a_ref_that_follows_it_is_no_change(tmp_path):
    root = _one_stage_brief(tmp_path)
    edit(root, HANDOFFS, "{ ...full task_brief... }", "{ ...full planning-stage.task_brief... }")
    assert records(root) == [
        ("shape-renamed", "task_brief", "", ("receivers", "links")),
        ("shape-added", BUILDING, "", ()),
    ]
    renamed = next(r for r in run_diff(root, "HEAD", None).records if r.kind == "shape-renamed")
    assert renamed.message.startswith(
        "shape task_brief is now planning-stage.task_brief: `contractc validate task_brief` now exits 2 "
        "(`contractc validate planning-stage.task_brief` is the command now); its schema (and its `$id`) "
        "schemas/handoffs/task_brief.schema.json is now schemas/handoffs/planning-stage.task_brief.schema.json; "
        "its page and published anchors move. Breaks whoever validates its documents, and every link to it: "
        "#task_brief, #task_brief-budget_hours,"
    )
    assert renamed.anchors[:2] == ("task_brief", "task_brief-budget_hours")
    assert renamed.old.line == renamed.new.line == line_of("handoffs.md", "```yaml\ntask_brief:\n  context")


def test_a_ref_left_unqualified_now_names_the_other_stage_and_says_where_its_old_target_went(tmp_path):
    root = _one_stage_brief(tmp_path)  # `{ ...full task_brief... }` in the building stage now finds its own stage's
    ref = next(r for r in run_diff(root, "HEAD", None).records if r.kind == "type-changed")
    assert (ref.subject, ref.detail, ref.verdicts) == ("build_report", "$.brief", PR)
    assert ref.message == (
        "build_report $.brief: now the shape building-stage.task_brief (was task_brief, since renamed "
        "planning-stage.task_brief)"
    )
