"""A YAML record (a block with a field of its own at the top level) is one shape, read whole; what its definition
leaves open (an optional key, an object's keys, a string's placeholder, each file's own map entries) is no drift."""

from __future__ import annotations

from conftest import write_tree
from contractc.scan import scan_plugin


def _members(root) -> dict[str, tuple[str, bool, bool]]:
    """path:line -> (label, divergent, uncertain) of every member that does not own its shape."""
    return {
        f"{m.unit.block.path}:{m.unit.line}": (m.label, m.divergent, m.uncertain)
        for g in scan_plugin(root).groups
        for m in g.members
        if m.unit is not g.owner
    }


def _state(command: str, status_comment: str = "", extra: str = "") -> str:
    return (
        "```yaml\n"
        f'run_id: "<HHMMSS-id>"\ncommand: "{command}"\nstatus: running | done | failed{status_comment}\n\n'
        f'steps:\n  - step: <number>\n    name: "<step name>"\n    status: done | failed\n    finished_at: "<ISO 8601>"\n{extra}'
        "```\n"
    )


def test_a_record_with_its_own_values_and_comments_is_one_instance_not_drift_in_its_fields(tmp_path, run_cli):
    """Three commands keep a run-state file each: the same record (a run id, a status, a list of steps) with their
    own command name and comments. Read key by key, each shared scalar key was a one-key shape whose copies differ
    in a comment, and scan reported drift there; read whole, the record's instances agree in structure."""
    root = write_tree(
        tmp_path / "p",
        {
            "commands/ship.md": "# Ship\n\nKeep the state file:\n\n" + _state("ship", "  # the last step's outcome"),
            "commands/review.md": "# Review\n\nKeep the state file:\n\n" + _state("review"),
            "commands/fix.md": "# Fix\n\nKeep the state file:\n\n" + _state("fix", "  # see the state guide"),
        },
    )
    run = run_cli("scan", str(root))
    assert run.code == 0 and "error[" not in run.out, run.out
    groups = scan_plugin(root).groups
    assert [len(g.members) for g in groups] == [3]  # one shape, not one per key
    assert all(not m.divergent for m in groups[0].members)


def test_a_record_that_lost_a_field_of_its_definition_is_divergent(tmp_path, run_cli):
    definition = "# State\n\nThe state file has the following format:\n\n" + _state("<command>")
    lost = _state("ship").replace("status: running | done | failed\n", "")
    root = write_tree(tmp_path / "p", {"references/state.md": definition, "commands/ship.md": "# Ship\n\n" + lost})
    assert list(_members(root).values()) == [("instance", True, False)]
    run = run_cli("scan", str(root))
    assert run.code == 1 and "commands/ship.md:4:1: error[scan-divergent]" in run.out and "lacks status" in run.out, run.out


def test_a_block_whose_every_key_holds_a_mapping_is_that_many_shapes(tmp_path, run_cli):
    """Two hand-offs in one fence (a request and its answer): each key is a shape of its own, compared with its
    copies elsewhere, and adopt leaves the two-key fence whole."""
    pair = "```yaml\nask:\n  topic: string\n  depth: integer\nanswer:\n  verdict: yes | no\n  notes: string\n```\n"
    root = write_tree(
        tmp_path / "p",
        {
            "agents/desk.md": f"# Desk\n\n{pair}",
            "agents/clerk.md": "# Clerk\n\n```yaml\nask:\n  topic: string\n  depth: integer\n```\n",
            "agents/judge.md": "# Judge\n\n```yaml\nanswer:\n  verdict: yes | no | maybe\n  notes: string\n```\n",
        },
    )
    ids = sorted(g.id for g in scan_plugin(root).groups)
    assert ids == ["answer", "ask"]
    run = run_cli("scan", str(root))
    assert "error[scan-divergent]: drifted copy of answer" in run.out, run.out


def test_an_optional_key_an_open_object_and_a_named_string_placeholder_are_the_definitions_own_freedom(tmp_path):
    """A schema file writes `config: <object>  # Optional`, `items: <object>` and `name: <string>`; a command's
    template leaves config out, lists its own items and names its placeholder: an instance, no drift. A template
    that leaves out a key the schema does not call optional, or types a string as an integer, is divergent."""
    schema = (
        "# Job file\n\nThe job file has the following format:\n\n```yaml\n"
        "name: <string>          # Required\nkind: <string>          # Required\ndue: <string>           # Required\n"
        "plan: <string>          # Required\nitems: <object>         # Required\n"
        "owner: <string>         # optional\nconfig: <object>        # Optional\n```\n"
    )
    own = "```yaml\nname: <job-name>\nkind: <job-kind>\ndue: <due date>\nplan: <plan-name>\nitems:\n  step:\n    - <first step>\n```\n"
    root = write_tree(tmp_path / "p", {"references/job.md": schema, "commands/start.md": f"# Start\n\n{own}"})
    assert list(_members(root).values()) == [("instance", False, False)]
    lost = own.replace("plan: <plan-name>\n", "")
    retyped = own.replace("plan: <plan-name>", "plan: <integer>")
    for body in (lost, retyped):
        root = write_tree(tmp_path / str(len(body)), {"references/job.md": schema, "commands/start.md": f"# Start\n\n{body}"})
        assert [m[1] for m in _members(root).values()] == [True], body


def test_each_files_own_map_entries_are_an_instance_and_others_stay_uncertain(tmp_path):
    """Each configure skill records its own component (`components.docs` in configure-docs): an instance named for
    its file. An entry named for nothing the file is called stays a question (uncertain), never a copy."""
    block = '```yaml\nversion: "3"\nupdated: "<timestamp>"\nlevel: <low|high>\ncomponents:\n  {entry}: "3"\n```\n'
    files = {f"skills/configure-{x}/SKILL.md": f"# {x}\n\nRecord it:\n\n" + block.format(entry=x) for x in ("docs", "lint", "tests")}
    found = _members(write_tree(tmp_path / "p", files))
    assert list(found.values()) == [("instance", False, False)] * 2, found
    files["skills/configure-tests/SKILL.md"] = "# tests\n\nRecord it:\n\n" + block.format(entry="coverage")
    found = _members(write_tree(tmp_path / "q", files))
    assert found["skills/configure-tests/SKILL.md:6"] == ("instance", False, True), found


def test_a_moment_written_two_ways_and_an_optional_key_in_another_language_are_no_drift(tmp_path):
    """`{ISO 8601}` and `YYYY-MM-DDTHH:MM:SS` are one timestamp, written two ways; a key commented `# 任意`
    (Japanese for optional) may be left out. A date turned into an integer still is drift."""
    schema = (
        "# Record\n\nThe record has the following format:\n\n```yaml\n"
        'id: "<record id>"\nkind: "<kind>"\nowner: "<owner>"\nat: "YYYY-MM-DDTHH:MM:SS"\nnote: "<note>"  # 任意\n```\n'
    )
    own = '```yaml\nid: "<record id>"\nkind: "<kind>"\nowner: "<owner>"\nat: "{ISO 8601}"\n```\n'
    root = write_tree(tmp_path / "p", {"references/record.md": schema, "skills/keep/SKILL.md": f"# Keep\n\n{own}"})
    assert [m[1] for m in _members(root).values()] == [False]
    retyped = own.replace('"{ISO 8601}"', "<integer>")
    root = write_tree(tmp_path / "q", {"references/record.md": schema, "skills/keep/SKILL.md": f"# Keep\n\n{retyped}"})
    assert [m[1] for m in _members(root).values()] == [True]


def test_shell_style_placeholders_make_a_template_not_a_worked_example(tmp_path, run_cli):
    """`Feature: $FEATURE_NAME` is a placeholder, as `{feature}` is: two agents' copies of one dispatch block are a
    shape's copies (compared, their drift reported), not worked examples nobody compares."""
    block = "```\nTask: spawn the reviewer\nPrompt: |\n  Review the change:\n  Feature: $FEATURE_NAME\n  Scope: $SCOPE\n\n  Report:\n  - Risks\n  - Missing tests\n```\n"
    drifted = block.replace("  Scope: $SCOPE\n", "")
    root = write_tree(tmp_path / "p", {"agents/lead.md": f"# Lead\n\n{block}", "agents/planner.md": f"# Planner\n\n{block}", "skills/plan/SKILL.md": f"# Plan\n\n{drifted}"})
    groups = scan_plugin(root).groups
    assert len(groups) == 1 and not any(m.unit.block.example for m in groups[0].members)
    run = run_cli("scan", str(root))
    assert "skills/plan/SKILL.md:4:1: error[scan-divergent]: drifted copy of task" in run.out, run.out


def test_the_blocks_inside_a_four_backtick_file_template_are_read_and_never_written(tmp_path, run_cli):
    """A ````markdown body template holding its own ```yaml block, as CommonMark allows: the inner block is compared
    with its copies (its drift reported, located at its own line), the text around it is listed unread, and adopt
    writes no region inside the outer fence (so it leaves that shape, every copy, as it is)."""
    from conftest import snapshot

    shape = "```yaml\nreview:\n  verdict: pass | fail\n  notes: string\n```\n"
    drifted = shape.replace("pass | fail", "pass | fail | skip")
    body = f"````markdown\n# Repo config\n\nPaste this block:\n\n{drifted}\nThen commit.\n````\n"
    root = write_tree(
        tmp_path / "p",
        {"agents/a.md": f"# A\n\n{shape}", "agents/b.md": f"# B\n\n{shape}", "skills/setup/SKILL.md": f"# Setup\n\n{body}"},
    )
    run = run_cli("scan", "-v", str(root))
    assert "skills/setup/SKILL.md:9:1: error[scan-divergent]: drifted copy of review" in run.out, run.out
    assert "skills/setup/SKILL.md:3:1: note[scan-unread]: this ````markdown block is not read: it holds fenced blocks of its own" in run.out
    before = snapshot(root)
    adopted = run_cli("adopt", str(root), "--write", "--no-diff")
    assert adopted.code == 0 and "skills/setup/SKILL.md:9 in this shape is a block inside a longer fence" in adopted.out
    assert snapshot(root) == before  # a shape with a copy no region can hold is left as it is, every copy
    as_text = write_tree(tmp_path / "t", {"agents/a.md": f"# A\n\n{shape}", "skills/setup/SKILL.md": f"# Setup\n\n{body.replace('````markdown', '````text')}"})
    assert [len(g.members) for g in scan_plugin(as_text).groups] == []  # in a ````text fence the inner lines are its text
    open_body = body.removesuffix("````\n")
    unclosed = write_tree(tmp_path / "q", {"agents/a.md": f"# A\n\n{shape}", "skills/setup/SKILL.md": f"# Setup\n\n{open_body}"})
    assert [len(g.members) for g in scan_plugin(unclosed).groups] == []  # a fence never closed holds the rest as text


def test_an_example_the_text_calls_one_may_show_fewer_fields_even_beside_its_template(tmp_path, run_cli):
    """`**Example:**` under a template, filled in and without the template's title heading: an abridged illustration,
    not a filled-in copy that drifted (scan used to call it divergent and, in the same run, an example not scored)."""
    template = "````markdown\n## Review Notes\n\n**Problem:** [what went wrong]\n**Cause:** [why]\n**Fix:** [what changes]\n````\n"
    example = "````markdown\n**Problem:** the build failed\n**Cause:** a stale lock file\n**Fix:** delete it before the build\n````\n"
    root = write_tree(tmp_path / "p", {"skills/retro/SKILL.md": f"# Retro\n\n**Template:**\n\n{template}\n**Example:**\n\n{example}"})
    run = run_cli("scan", str(root))
    assert run.code == 0 and "error[" not in run.out, run.out
    assert list(_members(root).values()) == [("example", False, False)]


REGISTRY = (
    "```yaml\nfinders:\n  - agent: audit-finder      # an agent under agents/\n    dimension: security     # one of the closed set\n"
    "    label: injection        # a sub-category of its own\n    readonly: true          # must be true\n```\n"
)


def test_an_example_pasted_elsewhere_with_its_comments_reworded_is_a_drifted_copy(tmp_path, run_cli):
    """A worked example (no notation: every value filled in) restated in another file with every key and value the
    same is the same example: its comments, the fields' descriptions, reworded there are drift, not its own values."""
    reworded = REGISTRY.replace("# one of the closed set", "# closed set, see the guide").replace("# must be true", "# required")
    root = write_tree(
        tmp_path / "p",
        {"references/finders.md": "# Finders\n\nRegister a finder:\n\n" + REGISTRY, "skills/setup/SKILL.md": "# Setup\n\nRegister a finder:\n\n" + reworded},
    )
    assert list(_members(root).values()) == [("drifted", True, False)]
    run = run_cli("scan", str(root))
    assert run.code == 1 and "skills/setup/SKILL.md:6:1: error[scan-divergent]: drifted copy of finders" in run.out, run.out
    assert "with the comments of [].dimension, [].readonly reworded" in run.out
    # the same values under other comments in one file, or one more value of its own: an example, no drift
    own = reworded.replace("label: injection", "label: secrets")
    root = write_tree(tmp_path / "q", {"references/finders.md": "# Finders\n\n" + REGISTRY, "skills/setup/SKILL.md": "# Setup\n\n" + own})
    assert list(_members(root).values()) == [("example", False, False)]


def test_a_reworded_example_among_tied_definitions_is_uncertain(tmp_path, run_cli):
    reworded = REGISTRY.replace("# must be true", "# required")
    root = write_tree(tmp_path / "p", {"references/finders.md": "# A\n\n" + REGISTRY, "references/setup.md": "# B\n\n" + reworded})
    assert list(_members(root).values()) == [("example", False, True)]
    assert "error[" not in run_cli("scan", str(root)).out


def test_adopt_records_what_scan_found_divergent_in_a_shape_it_cannot_adopt_and_check_keeps_failing(tmp_path, run_cli, monkeypatch):
    """A shape written only filled in has nothing adopt can put under a contract; its divergent member is recorded
    under `unresolved`, so check does not turn green over drift scan reported."""
    reworded = REGISTRY.replace("# must be true", "# required")
    agent = "# A\n\nReturn:\n\n```yaml\nstatus: ok | failed\nsummary: <text>\nitems: <list>\n```\n"
    root = write_tree(
        tmp_path / "p",
        {"references/finders.md": "# F\n\n" + REGISTRY, "skills/setup/SKILL.md": "# S\n\n" + reworded, "agents/a.md": agent, "agents/b.md": agent},
    )
    before = {p: (root / p).read_bytes() for p in ("references/finders.md", "skills/setup/SKILL.md")}
    assert run_cli("adopt", str(root), "--write").code == 0
    assert {p: (root / p).read_bytes() for p in before} == before  # the example is left as it is
    monkeypatch.chdir(root)
    run = run_cli("check")
    assert run.code == 1 and "skills/setup/SKILL.md:4:1: error[drift-unresolved]" in run.out + run.err, run.out + run.err
