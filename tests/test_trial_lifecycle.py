"""A team's weeks with contractc, on a plugin the authors never saw (tests/lifecycle_plugin.py).

First configuration and build, the hand edits of each kind that check must name, agents'
returns judged by validate, the contract site, then the contract evolving over several
commits with `diff --against` and `--accept --why` at each step.  Each test asserts what the
user sees: the exact lines, exit codes, and which files changed (and that nothing else did).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import shutil

import pytest

from conftest import snapshot
from diff_repo import commit, git
from lifecycle_plugin import CONTRACT, init_repo, write_plugin


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}


def outside_regions(data: bytes) -> bytes:
    """A target's bytes with every region's inside (and the begin marker's sha256) cut out."""
    data = re.sub(rb"( sha256=[0-9a-f]{64})", b"", data)
    return re.sub(rb"(<!-- contractc:begin [^\n]*-->\r?\n).*?(<!-- contractc:end -->)", rb"\1\2", data, flags=re.S)


def wrap_pasted_brief(root) -> None:
    """What the drift-restatement hint says: markers above and below the pasted copy."""
    path = root / "agents/paper-reader.md"
    text = path.read_text("utf-8")
    start = text.index("```yaml\nresearch_brief:")
    end = text.index("```\n", start + 3) + 4
    begin = "<!-- contractc:begin shape=gathering-stage.research_brief -->\n"
    path.write_text(text[:start] + begin + text[start:end] + "<!-- contractc:end -->\n" + text[end:], "utf-8")


@pytest.fixture(scope="module")
def built_template(tmp_path_factory):
    """The plugin after its first week: the pasted brief under contract, built, committed."""
    from contractc.cli import main

    root = init_repo(tmp_path_factory.mktemp("template") / "desk")
    wrap_pasted_brief(root)
    assert main(["build", "--root", str(root), "--force"]) == 0
    commit(root, "built")
    return root


@pytest.fixture
def desk(built_template, tmp_path, monkeypatch):
    root = tmp_path / "desk"
    shutil.copytree(built_template, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def edit(root, rel: str, old: str, new: str) -> None:
    path = root / rel
    data = path.read_bytes().decode("utf-8")
    assert data.count(old) == 1, (rel, old)
    path.write_bytes(data.replace(old, new).encode("utf-8"))


# --- first configuration and build ----------------------------------------------------------


def test_without_contractc_yaml_the_hint_says_how_to_start(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    run = run_cli("build")
    assert run.code == 2
    assert run.err.splitlines()[0] == "contractc.yaml: error[config-missing]: no contractc.yaml in ."
    assert "`contractc init` starts one, and `contractc adopt` writes one for a plugin with pasted copies" in run.err
    explained = run_cli("explain", "config-missing")
    assert "starts with `contractc init`" in explained.out
    assert "contracts:\n  - path: contracts/handoffs.md\n" in explained.out


def test_a_producer_with_an_accent_is_refused_with_the_ascii_name_to_use(tmp_path, run_cli):
    root = write_plugin(tmp_path / "desk")
    edit(root, "contracts/research.md", "Produced by `redacteur`", "Produced by `rédacteur`")
    before = snapshot(root)
    run = run_cli("build", "--root", str(root))
    assert run.code == 2
    line = CONTRACT[: CONTRACT.index("Produced by `redacteur`")].count("\n") + 1
    assert run.err.splitlines() == [
        f"contracts/research.md:{line}:14: error[unsafe-name]: producer 'rédacteur' may hold only ASCII letters (a-z, A-Z), "
        "digits, '.', '_' and '-': it becomes part of an output path",
        "  hint: rename it with ASCII letters, digits, '.', '_' and '-' only, such as `redacteur`; "
        "more: `contractc explain unsafe-name`",
    ]
    assert snapshot(root) == before


def test_a_worked_example_in_the_contract_needs_the_example_fence(tmp_path, run_cli):
    root = write_plugin(tmp_path / "desk")
    edit(root, "contracts/research.md", "```{.yaml .example}\n", "```yaml\n")
    run = run_cli("check", "--root", str(root))
    assert run.code == 2
    line = CONTRACT.index("```{.yaml .example}")
    example, first = CONTRACT[:line].count("\n") + 1, CONTRACT[: CONTRACT.index("```yaml\nresearch_brief:")].count("\n") + 1
    assert run.err.splitlines()[:2] == [
        f"contracts/research.md:{example}:1: error[duplicate-shape]: shape id 'scoping-stage.research_brief' is already "
        f"defined at contracts/research.md:{first}",
        "  hint: rename the shape's key or section heading; if this block is a worked example, not a shape, open its fence "
        "with ```{.yaml .example}; more: `contractc explain duplicate-shape`",
    ]


def test_the_first_check_names_every_empty_region_and_the_pasted_copy(tmp_path, run_cli):
    root = init_repo(tmp_path / "desk")
    run = run_cli("check", "--root", str(root), "-q")
    assert run.code == 1
    located = re.findall(r"^(\S+?):(\d+):1: error\[([\w-]+)\]", run.out, re.M)
    assert len([c for _, _, c in located if c == "drift-region-new"]) == 16
    assert [(p, c) for p, _, c in located if c != "drift-region-new"] == [("agents/paper-reader.md", "drift-restatement")]
    missing = re.findall(r"^(\S+): error\[drift-missing\]", run.out, re.M)
    assert missing == [
        "prompts/fact-checker/factcheckreturn.md",
        "prompts/manifest.json",
        "prompts/paper-reader/readingnotes.md",
        "prompts/redacteur/reponse-redigee.md",
        "prompts/source-scout/sourcereturn.full.md",
        "prompts/source-scout/sourcereturn.md",
        "schemas/manifest.json",
        "schemas/research/gathering-stage.research_brief.artifact.schema.json",
        "schemas/research/gathering-stage.research_brief.schema.json",
        "schemas/research/query_plan.schema.json",
        "schemas/research/scoping-stage.research_brief.schema.json",
        "schemas/research/synthesis-stage.research_brief.schema.json",
    ]


def test_the_first_build_fills_the_regions_keeps_every_other_byte_and_still_names_the_pasted_copy(tmp_path, run_cli):
    root = init_repo(tmp_path / "desk")
    before = snapshot(root)
    run = run_cli("build", "--root", str(root))
    assert run.code == 1  # the restatement is drift build cannot fix
    after = snapshot(root)
    written = {line.removeprefix("wrote ") for line in run.out.splitlines() if line.startswith("wrote ")}
    assert written == changed(before, after)
    assert "agents/paper-reader.md" in written and "README.md" not in written and "contracts/research.md" not in written
    assert "contractc: 22 written, 0 already current" in run.out
    assert run.err.startswith("agents/paper-reader.md:12:1: error[drift-restatement]: unmanaged copy of "
                              "gathering-stage.research_brief, different from the contract\n")
    for rel in before:
        if rel.startswith(("agents/", "skills/")):
            assert outside_regions(after[rel]) == before[rel], rel  # the user's bytes, and the pasted copy, untouched
    scout = after["agents/source-scout.md"]
    assert scout.startswith(b"---\r\nname: source-scout\r\n")
    assert b"\r\n## What you return\r\n" in scout and b"status: found | none-found\n" in scout  # region: contract's LF
    again = run_cli("build", "--root", str(root))
    assert (again.code, again.out.splitlines()[0]) == (1, "contractc: 0 written, 22 already current")
    assert snapshot(root) == after  # idempotent: the second build writes nothing


def test_wrapping_the_pasted_copy_asks_for_a_decision_then_force_takes_the_contract(tmp_path, run_cli):
    root = init_repo(tmp_path / "desk")
    run_cli("build", "--root", str(root))
    wrap_pasted_brief(root)
    run = run_cli("check", "--root", str(root), "-q")
    assert run.code == 1
    assert run.out.splitlines() == [
        "agents/paper-reader.md:12:1: error[drift-region-new-differs]: region shape=gathering-stage.research_brief has "
        "not been filled by build yet and already holds bytes that differ from the contract"
    ]
    before = snapshot(root)
    refused = run_cli("build", "--root", str(root))
    assert refused.code == 1 and "contractc: nothing written; 1 region(s) need a decision" in refused.err
    assert snapshot(root) == before
    forced = run_cli("build", "--root", str(root), "--force")
    assert forced.code == 0
    assert changed(before, snapshot(root)) == {"agents/paper-reader.md"}
    assert run_cli("check", "--root", str(root)).out == "contractc: 22 files checked, all current\n"


# --- hand edits of each kind ------------------------------------------------------------------

SCOUT_RETURN = "status: found | none-found\n"

HAND_EDITS = [
    # (file, old, new, the located line check -q prints)
    (
        "agents/query-planner.md",
        "engine: scholar | web | library",
        "engine: scholar | web",
        "agents/query-planner.md:23:1: error[drift-region-edited]: region shape=query_plan was edited by hand since the "
        "last build (marker records sha256 cf3b8bed0c53, region holds 8d50039a66be)",
    ),
    (
        "prompts/paper-reader/readingnotes.md",
        "4. If `unreadable`, a `Reason:` line is present.\n",
        "4. If `unreadable`, a `Reason:` line is present.\nextra line\n",
        "prompts/paper-reader/readingnotes.md:30:1: error[drift-output]: differs from what the contracts compile to",
    ),
    (
        "schemas/research/query_plan.schema.json",
        '"max_sources": {\n      "type": "integer"',
        '"max_sources": {\n      "type": "number"',
        "schemas/research/query_plan.schema.json:34:1: error[drift-output]: differs from what the contracts compile to",
    ),
]


@pytest.mark.parametrize("rel, old, new, expected", HAND_EDITS, ids=["region", "prompt", "schema"])
def test_a_hand_edit_of_a_copy_is_named_at_its_line(desk, run_cli, rel, old, new, expected):
    edit(desk, rel, old, new)
    run = run_cli("check", "-q")
    assert run.code == 1
    assert run.out.splitlines() == [expected]


def test_an_edit_outside_every_region_is_the_users_own_but_a_role_file_feeds_its_full_prompt(desk, run_cli):
    edit(desk, "agents/fact-checker.md", "# Fact checker\n", "# Fact checker\n\nYou are patient; you never guess.\n")
    assert run_cli("check").out == "contractc: 22 files checked, all current\n"
    # source-scout.md is also the agent's role file (agents: in contractc.yaml): its body is the .full.md prompt
    (desk / "agents/source-scout.md").write_bytes((desk / "agents/source-scout.md").read_bytes() + b"Be brief.\r\n")
    run = run_cli("check", "-q")
    assert run.out.splitlines() == [
        "prompts/source-scout/sourcereturn.full.md:22:1: error[drift-output]: differs from what the contracts compile to"
    ]


def test_a_stray_file_in_an_output_folder_is_reported_and_left_alone(desk, run_cli):
    (desk / "prompts/notes.md").write_text("stray\n", "utf-8")
    run = run_cli("check", "-q")
    assert (run.code, run.out) == (
        1,
        "prompts/notes.md: error[drift-orphan]: no contract produces this file, and contractc has no record of writing it\n",
    )
    before = snapshot(desk)
    assert run_cli("build").code == 1
    assert snapshot(desk) == before


def test_a_contract_edit_makes_the_untouched_copy_stale_and_the_edited_one_needs_a_decision(desk, run_cli):
    edit(desk, "contracts/research.md", "  max_sources: 12\n", "  max_sources: 20\n")
    stale = run_cli("check", "-q")
    assert stale.out.splitlines()[0] == (
        "agents/query-planner.md:23:1: error[drift-region-stale]: region shape=query_plan is stale: its source in the "
        "contract changed since the last build"
    )
    edit(desk, "agents/query-planner.md", "engine: scholar | web | library", "engine: scholar | web")
    both = run_cli("check", "-q")
    assert both.out.splitlines()[0] == (
        "agents/query-planner.md:23:1: error[drift-region-stale-edited]: region shape=query_plan is stale and was edited "
        "by hand: both the contract and the copy changed since the last build"
    )
    before = snapshot(desk)
    refused = run_cli("build")
    assert refused.code == 1 and snapshot(desk) == before
    assert "-      engine: scholar | web\n-  max_sources: 12\n+      engine: scholar | web | library\n+  max_sources: 20\n" in refused.err


def remove_block(root, key: str, references: bool = True) -> None:
    """Remove data shape ``key``'s block from the research contract, and the fields that name it (``references``)."""
    text = (root / "contracts/research.md").read_text("utf-8")
    start = text.index(f"```yaml\n{key}:")
    text = text[:start] + text[text.index("```\n", start + 3) + 5 :]
    if references:
        text = text.replace(f"  plan: {{ ...full {key}... }}\n", "")
    (root / "contracts/research.md").write_text(text, "utf-8")


def test_removing_a_shape_another_one_names_is_a_located_warning_not_a_quiet_open_object(desk, run_cli):
    remove_block(desk, "query_plan", references=False)
    text = (desk / "contracts/research.md").read_text("utf-8").split("\n")
    lines = [n + 1 for n, line in enumerate(text) if line == "  plan: { ...full query_plan... }"]
    assert len(lines) == 1
    planner = desk / "agents/query-planner.md"
    planner.write_text(re.sub(r"<!-- contractc:begin shape=query_plan [^\n]*-->\n((?:(?!<!-- contractc:)[^\n]*\n)*)<!-- contractc:end [^\n]*-->\n",
                              r"\1", planner.read_text("utf-8")), "utf-8")
    run = run_cli("build")
    assert run.code == 0, run.err
    assert re.findall(r"^contracts/research\.md:(\d+):9: warning\[dangling-ref\]: [\w.-]+: \$\.plan: `\{ \.\.\.full query_plan\.\.\. \}` names shape "
                      r"'query_plan', which the project does not define: the schema leaves it an open object$", run.out, re.M) == [str(n) for n in lines]
    assert run_cli("explain", "dangling-ref").code == 0


def test_a_region_whose_shape_left_the_contract_is_orphaned(desk, run_cli):
    remove_block(desk, "query_plan")
    run = run_cli("check", "-q")
    assert run.code == 1
    assert (
        "agents/query-planner.md:23:1: error[drift-region-orphaned]: region shape=query_plan is orphaned: no shape 'query_plan'"
        in run.out
    )
    assert "schemas/research/query_plan.schema.json: error[drift-orphan]: no contract produces this file any more" in run.out


def test_a_lost_end_marker_is_bad_input_at_both_lines(desk, run_cli):
    edit(desk, "agents/query-planner.md", "```\n<!-- contractc:end -->\n\nReturn:", "```\n\nReturn:")
    before = snapshot(desk)
    run = run_cli("check")
    assert run.code == 2
    assert re.findall(r"^\S+ error\[[\w-]+\]", run.err, re.M) == [
        "agents/query-planner.md:10:1: error[marker-unclosed]",
        "agents/query-planner.md:22:1: error[marker-nested]",
    ]
    assert run_cli("build").code == 2 and snapshot(desk) == before


def test_a_worked_example_in_a_skill_is_left_alone_a_pasted_template_is_not_until_allowed(desk, run_cli):
    example = (
        "\nFor example, for a teacher who asked about spaced repetition:\n\n```yaml\nresearch_brief:\n"
        "  question: Does spaced repetition help adult learners?\n  depth: survey\n  deadline: \"2026-12-04\"\n"
        "  audience: a language-school teacher\n  exclusions: [ children ]\n```\n"
    )
    with (desk / "skills/scoping/SKILL.md").open("a", encoding="utf-8") as f:
        f.write(example)
    skill = desk / "skills/gathering/SKILL.md"
    line = skill.read_text("utf-8").count("\n") + 4
    with skill.open("a", encoding="utf-8") as f:
        f.write(f"\nA scout's return looks like this:\n\n```\n{SCOUT_RETURN}- **<title>** — [<source-id>](<url>)\n```\n")
    run = run_cli("check", "-q")
    assert run.out.splitlines() == [
        f"skills/gathering/SKILL.md:{line}:1: error[drift-restatement]: unmanaged copy of sourcereturn, identical to the contract"
    ]
    with (desk / "contractc.yaml").open("a", encoding="utf-8") as f:
        f.write(f"allow_restatements:\n  - path: skills/gathering/SKILL.md\n    shape: sourcereturn\n    line: {line}\n")
    assert run_cli("check").out == "contractc: 22 files checked, all current\n"


def test_every_code_the_walk_met_is_explained_offline(run_cli):
    codes = [
        "config-missing", "unsafe-name", "duplicate-shape", "drift-region-new", "drift-restatement", "drift-missing",
        "optional-inferred", "check-not-mechanised", "drift-region-new-differs", "drift-region-edited", "drift-output",
        "drift-orphan", "drift-region-stale", "drift-region-stale-edited", "drift-region-orphaned", "marker-unclosed",
        "marker-nested", "check-failed", "unknown-shape", "file-missing", "document-syntax", "invalid-document",
        "drift-allowance", "breaking-producers", "breaking-receivers", "breaking-producers-receivers", "breaking-links",
        "change-accepted", "change-compatible",
    ]  # fmt: skip
    for code in codes:
        run = run_cli("explain", code)
        assert run.code == 0 and run.out.startswith(f"{code}: "), code


# --- validate: the returns agents really write --------------------------------------------------

RETURNS = [
    # (shape as the skill names it, return, exit, the failed checks' located lines)
    ("sourcereturn", "status: found\n- **Spacing effects** — [S-01](https://example.org/a)\n", 0, []),
    ("sourcereturn", "status: found\r\n- **Spacing effects** — [S-01](https://example.org/a)\r\n", 0, []),
    ("sourcereturn", "status: none-found\n\nNothing matched the three queries.\n", 0, []),
    (
        "sourcereturn",
        "Sure! Here is what I found:\nstatus: found\n- **Spacing** — [S-01](https://example.org/a)\n",
        1,
        ["1:1: error[check-failed]: SourceReturn check 1 failed: the status line is line 2; nothing may come before it"],
    ),
    (
        "sourcereturn",
        "status: Found\n",
        1,
        ["1:1: error[check-failed]: SourceReturn check 1 failed: line 1 is not exactly `status: ` followed by one of "
         "`found` / `none-found`"],
    ),
    (
        "sourcereturn",
        "status: found\n- **Spacing** — S-01 (https://example.org/a)\n",
        1,
        ["2:1: error[check-failed]: SourceReturn check 2 failed: the bullet on line 2 does not carry the citation form"],
    ),
    (
        "readingnotes",
        "status: read\n- **Spacing beats massing** — [S-01](https://example.org/a)\n  quote: They recalled more.\n"
        "- **Gains persist** — [S-01](https://example.org/a)\n  The advantage held at 30 days.\n",
        1,
        ["4:1: error[check-failed]: ReadingNotes check 3 failed: the finding on line 4 has no `quote:` line"],
    ),
    ("readingnotes", "status: unreadable\nReason: behind a login\n", 0, []),
    (
        "readingnotes",
        "status: unreadable\n\nThe PDF is behind a login.\n",
        1,
        ["3:1: error[check-failed]: ReadingNotes check 4 failed: no line begins `Reason:`"],
    ),
    (
        "factcheckreturn",
        "verdict: disputed\n- **Spacing beats massing** — [S-01](https://example.org/a)\n"
        "- the 2019 replication found no effect, see notes/replication.md\n",
        1,
        [
            "3:1: error[check-failed]: FactCheckReturn check 2 failed: the bullet on line 3 does not carry the citation form",
            "3:1: error[check-failed]: FactCheckReturn check 3 failed: no line begins `**Counter-evidence**`",
        ],
    ),
    (
        "redacteur",
        "status: drafted\n## Answer\nYes.\n## Sources\n1. [S-01](https://example.org/a)\n",
        0,
        [],
    ),
    (
        "Réponse rédigée",
        "status: drafted\n## Answer\nYes.\n## Sources\n2. [S-01](https://example.org/a)\n3. S-02\n",
        1,
        ["5:1: error[check-failed]: Réponse rédigée check 3 failed: the numbered list does not start at `1.` (and 1 more)"],
    ),
]


@pytest.mark.parametrize("shape, text, code, failures", RETURNS)
def test_validate_judges_each_return_as_the_checks_say(desk, run_cli, shape, text, code, failures):
    (desk / "return.txt").write_bytes(text.encode("utf-8"))
    run = run_cli("validate", shape, "return.txt")
    assert run.code == code
    assert re.findall(r"^return\.txt:(\d+:\d+: error.*)$", run.out, re.M) == failures
    if shape in ("redacteur", "Réponse rédigée"):
        assert "not run (not mechanised), judge by reading: check 4" in run.out.splitlines()[-1]
    if shape == "readingnotes" and code:  # a name ending in s: no possessive in the summary
        assert re.match(r"contractc: return\.txt fails check \d of the 4 receiver checks of ReadingNotes; ", run.out.splitlines()[-1])
        assert "'s" not in run.out.splitlines()[-1]


def test_the_evidence_is_the_block_for_the_one_redispatch_and_is_byte_stable(desk, run_cli):
    (desk / "r.txt").write_text("verdict: disputed\n- **Claim** — [S-01](https://example.org/a), see notes/s01.md\n", "utf-8")
    first = run_cli("validate", "fact-checker", "r.txt", "--evidence")
    assert first.code == 1
    assert first.out.startswith(
        "## Failure evidence: the previous return was discarded\n\nIt failed receiver check 3 of FactCheckReturn."
    )
    assert "> If `disputed`, a `**Counter-evidence**` line is present.\n" in first.out
    assert run_cli("validate", "fact-checker", "r.txt", "--evidence").out == first.out


def test_validate_of_data_shapes_names_the_key_and_the_stage(desk, run_cli):
    (desk / "brief.yaml").write_text(
        "research_brief:\n  question: Q?\n  plan:\n    queries:\n      - text: spaced repetition\n"
        "        engine: google\n    max_sources: \"8\"\n    languages: [ en ]\n  source_ids: [ S-01 ]\n"
        "  reader_note: typo\n",
        "utf-8",
    )
    run = run_cli("validate", "gathering-stage.research_brief", "brief.yaml")
    assert (run.code, run.out.splitlines()) == (
        1,
        [
            'brief.yaml:6: $.research_brief.plan.queries[0].engine: "google" is not one of ["scholar", "web", "library"]',
            'brief.yaml:7: $.research_brief.plan.max_sources: "8" is not of type "integer"',
            "brief.yaml:10: $.research_brief.reader_note: unknown key 'reader_note'; allowed keys: question, plan, "
            "source_ids, reader_notes",
            "contractc: brief.yaml does not match gathering-stage.research_brief (wire schema): 3 errors",
        ],
    )
    ambiguous = run_cli("validate", "research_brief", "brief.yaml")
    assert ambiguous.code == 2
    assert "name one: gathering-stage.research_brief, scoping-stage.research_brief, synthesis-stage.research_brief" in ambiguous.err


def test_a_data_shape_on_standard_input_says_what_is_wrong_not_evidence(desk, run_cli):
    run = run_cli("validate", "gathering-stage.research_brief", "-")
    assert run.code == 2
    assert (
        "Error: gathering-stage.research_brief is a data shape: name the YAML, JSON or Markdown FILE to check "
        "(standard input is read only for a text shape's return)"
    ) in run.err
    assert "--evidence" not in run.err
    (desk / "b.yaml").write_text("research_brief:\n  question: Q\n", "utf-8")
    evidence = run_cli("validate", "gathering-stage.research_brief", "b.yaml", "--evidence")
    assert evidence.code == 2 and "Error: --evidence is for text shapes (returns);" in evidence.err


# --- the site ---------------------------------------------------------------------------------

def test_the_site_builds_strict_with_the_example_highlighted_and_every_stage_anchored(desk, tmp_path):
    from site_helpers import MKDOCS_YML, html_ids, mkdocs_build

    (desk / "mkdocs.yml").write_text(MKDOCS_YML.format(name="Research desk"), "utf-8")
    (desk / "docs").mkdir()
    (desk / "docs/index.md").write_text("# Research desk\n", "utf-8")
    site = mkdocs_build(desk, tmp_path / "site")
    page = site / "contracts/research/index.html"
    ids = html_ids(page)
    assert {"scoping-stage", "gathering-stage", "synthesis-stage", "reponse-redigee", "reponse-redigee-check-4"} <= ids
    html = page.read_text("utf-8")
    # the worked example is a highlighted YAML block, not text that swallows the next heading
    assert '<div class="example highlight"><pre><span></span><code><span class="nt">research_brief</span>' in html
    assert "## Gathering stage" not in html
    shape = (site / "contracts/shapes/reponse-redigee/index.html").read_text("utf-8")
    assert "Réponse rédigée" in shape and "not mechanised" in shape


# --- the contract evolves ----------------------------------------------------------------------


def test_a_few_weeks_of_contract_changes_through_diff_and_accept(desk, run_cli):
    git(desk, "tag", "v1.0")
    git(desk, "checkout", "-q", "-b", "evolve")

    def step(old: str, new: str) -> None:
        edit(desk, "contracts/research.md", old, new)

    # week 1: a required field
    step("  word_limit: 600\n", "  word_limit: 600\n  tone: plain | academic              # how the answer should read\n")
    run = run_cli("diff", "--against", "main", "-q")
    line = (desk / "contracts/research.md").read_text("utf-8").split("\n").index("  tone: plain | academic              # how the answer should read") + 1
    assert (run.code, run.out.splitlines()) == (
        1,
        [f"contracts/research.md:{line}:1: error[breaking-producers]: breaking for producers: synthesis-stage.research_brief "
         "$.tone: new required field [field-added-required:synthesis-stage.research_brief:$.tone]"],
    )
    assert run_cli("build").code == 0
    before = snapshot(desk)
    accepted = run_cli("diff", "--against", "main", "--accept", "--why", "the rédacteur's prompt is regenerated here")
    assert accepted.code == 0
    assert changed(before, snapshot(desk)) == {"contractc.changes.yaml"}
    assert (desk / "contractc.changes.yaml").read_text("utf-8").endswith(
        "accepted:\n  - change: field-added-required:synthesis-stage.research_brief:$.tone\n"
        "    contract: contracts/research.md\n    verdict: breaking for producers\n"
        "    why: the rédacteur's prompt is regenerated here\n"
        f"    date: '{datetime.datetime.now(datetime.UTC).date().isoformat()}'\n"
    )
    assert run_cli("check").code == 0
    commit(desk, "tone")

    # week 2: a field made optional, a field renamed, a check reworded
    step("  audience: string                   # who reads the answer\n", "  audience: string                   # optional — who reads the answer\n")
    step("  reader_notes: string               # optional", "  prior_notes: string                # optional")
    step("3. The return is at most 40 lines.", "3. The return is at most 30 lines.")
    step("3. If `disputed`, a `**Counter-evidence**`", "3. If `disputed` or `unverifiable`, a `**Counter-evidence**`")
    run = run_cli("diff", "--against", "main", "-q")
    assert run.code == 1
    ids = re.findall(r"error\[[\w-]+\]: (.*) \[([^\]]+)\]", run.out)
    assert [i for _, i in ids] == [
        "field-made-optional:scoping-stage.research_brief:$.audience",
        # gone, so located where it stood: the renamed field's line
        "anchor-removed:gathering-stage.research_brief-reader_notes",
        "field-renamed:gathering-stage.research_brief:$.reader_notes",
        "check-stricter:sourcereturn:check-3",
        "check-stricter:factcheckreturn:check-3",
    ]
    assert ids[0][0] == "breaking for receivers: scoping-stage.research_brief $.audience: now optional (rule: optional)"
    assert ids[3][0] == "breaking for producers: SourceReturn: check 3: reworded stricter: line limit 40 -> 30"
    assert run_cli("diff", "--against", "main").out.splitlines()[-1].endswith(
        "accept each on purpose with `contractc diff --against main --accept --why TEXT`, or undo it"
    )  # the ref this run compared with, ready to copy
    github = run_cli("diff", "--against", "main", "--format", "github")
    assert github.code == 1
    lines = (desk / "contracts/research.md").read_text("utf-8").split("\n")
    prior = next(n for n, text in enumerate(lines, 1) if text.startswith("  prior_notes: "))
    # gone: on the line where it stood
    assert f"::error file=contracts/research.md,line={prior},col=1,title=contractc breaking-links::" in github.out
    assert re.search(r"^::error file=contracts/research\.md,line=\d+,col=1,title=contractc breaking-receivers::", github.out, re.M)
    document = json.loads(run_cli("diff", "--against", "main", "--format", "json").out)
    assert document["status"] == "breaking" and document["exit_code"] == 1
    assert [r["id"] for r in document["records"] if r["accepted"]] == ["field-added-required:synthesis-stage.research_brief:$.tone"]
    run_cli("build")
    assert run_cli("diff", "--against", "main", "--accept", "--why", "agreed in the weekly review").code == 0
    commit(desk, "week 2")

    # week 3: a shape removed (its region must go too), then a shape section moved to another stage
    remove_block(desk, "query_plan")
    run = run_cli("diff", "--against", "HEAD", "-q")
    kinds = sorted(set(re.findall(r"\[([\w-]+):", run.out)))
    assert kinds == ["anchor-removed", "field-removed", "shape-removed"]
    assert run_cli("build").code == 1  # the planner's region is orphaned: a decision
    planner = desk / "agents/query-planner.md"
    planner.write_text(planner.read_text("utf-8").split("\nReturn:\n")[0] + "\n", "utf-8")
    assert run_cli("build").code == 0
    assert run_cli("diff", "--against", "HEAD", "--accept", "--why", "the planner returns prose now").code == 0
    commit(desk, "week 3")
    text = (desk / "contracts/research.md").read_text("utf-8")
    notes = text[text.index("### ReadingNotes") : text.index("## Synthesis stage")]
    text = text.replace(notes, "")
    text = text.replace("### FactCheckReturn", notes + "### FactCheckReturn")
    (desk / "contracts/research.md").write_text(text, "utf-8")
    moved = run_cli("diff", "--against", "HEAD", "-q")
    assert moved.code == 0
    line = text.split("\n").index("### ReadingNotes {#readingnotes}") + 1
    full = run_cli("diff", "--against", "HEAD")
    assert full.out.splitlines()[0] == (
        f"contracts/research.md:{line}:1: note[change-compatible]: compatible: section \"ReadingNotes\" moved from under "
        "#gathering-stage to under #synthesis-stage [section-moved:readingnotes]"
    )
    stale = run_cli("check", "-q")
    assert "skills/synthesis/SKILL.md:10:1: error[drift-region-stale]: region section=synthesis-stage is stale" in stale.out


def test_a_budget_for_a_name_nothing_has_is_bad_input_not_a_silent_no_op(desk, run_cli):
    with (desk / "contractc.yaml").open("a", encoding="utf-8") as f:
        f.write("budgets:\n  agents:\n    redacteur: 1000\n    redactor: 100\n  shapes:\n    sourcereturn: 5000\n    query_plan: 10\n")
    run = run_cli("check")
    assert run.code == 2
    lines = [line for line in run.err.splitlines() if not line.startswith("  ")]
    assert lines == [
        "contractc.yaml:16:5: error[unknown-agent]: budget for agent 'redactor' produces no shape in the contracts: it would limit nothing",
        "contractc.yaml:19:5: error[unknown-shape]: budget for 'query_plan' is no text shape of the contracts (only a text "
        "shape has a dispatch snippet): it would limit nothing",
    ]
    assert "  hint: budgets.agents takes one of: fact-checker, paper-reader, redacteur, source-scout;" in run.err


def test_a_copy_pasted_inside_a_numbered_step_is_still_a_restatement(desk, run_cli):
    skill = desk / "skills/synthesis/SKILL.md"
    line = skill.read_text("utf-8").count("\n") + 6
    with skill.open("a", encoding="utf-8") as f:
        f.write(
            "\nSteps:\n\n1. Send the rédacteur its brief:\n\n   ```yaml\n   research_brief:\n     question: string\n"
            "     claims: [ { claim, source_id, verdict } ]\n     word_limit: 500\n   ```\n\n2. Judge the return.\n"
        )
    run = run_cli("check", "-q")
    assert (run.code, run.out.splitlines()) == (
        1,
        [f"skills/synthesis/SKILL.md:{line}:4: error[drift-restatement]: unmanaged copy of synthesis-stage.research_brief, "
         "different from the contract"],
    )


def test_a_ref_git_does_not_know_is_located_at_the_option_like_check_does(desk, run_cli):
    diff = run_cli("diff", "--against", "origin/main")
    check = run_cli("check", "--changed-since", "origin/main")
    assert (diff.code, check.code) == (2, 2)
    assert diff.err.startswith("--against:1:1: error[bad-against]: --against origin/main: ")
    assert check.err.startswith("--changed-since:1:1: error[bad-ref]: --changed-since origin/main: ")


def test_a_return_on_standard_input_gets_annotations_without_a_file_github_cannot_find(desk, run_cli, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"verdict: disputed\n- **Claim** - S-01\n")))
    run = run_cli("validate", "factcheckreturn", "-", "--format", "github")
    assert run.code == 1
    annotations = [line for line in run.out.splitlines() if line.startswith("::")]
    assert annotations and all(line.startswith("::error title=contractc check-failed::") for line in annotations)


def test_a_check_reworded_past_what_validate_reads_is_unclassified_said_once(desk, run_cli):
    edit(desk, "contracts/research.md", "2. The second line begins `## Answer`.", "2. The second line is a heading that says Answer.")
    run = run_cli("diff", "--against", "HEAD", "-q")
    line = CONTRACT.split("\n").index("2. The second line begins `## Answer`.") + 1
    assert (run.code, run.out) == (
        1,
        f"contracts/research.md:{line}:1: error[changed-unclassified]: changed, unclassified: Réponse rédigée: check 2: "
        "reworded; unclassified: read it (the newer revision's check is not fully mechanised, so no direction is "
        "guessed) "
        "[check-reworded:reponse-redigee:check-2]; dispatches: redacteur\n",
    )


def test_a_heading_in_another_script_asks_for_an_explicit_anchor_without_calling_it_letterless(tmp_path, run_cli):
    root = write_plugin(tmp_path / "desk")
    with (root / "contracts/research.md").open("a", encoding="utf-8") as f:
        f.write("\n## Синтез\n\nТекст.\n")
    run = run_cli("check", "--root", str(root))
    line = CONTRACT.count("\n") + 2
    assert (run.code, run.err.splitlines()) == (
        2,
        [
            f"contracts/research.md:{line}:1: error[duplicate-anchor]: heading 'Синтез' has no ASCII letter or digit to "
            "derive an anchor from (the slug rule drops the others, so it would be empty)",
            "  hint: add an explicit anchor after the heading: `Синтез {#an-ascii-id}`; "
            "more: `contractc explain duplicate-anchor`",
        ],
    )
    (root / "contracts/research.md").write_text(
        (root / "contracts/research.md").read_text("utf-8").replace("## Синтез\n", "## Синтез {#sintez}\n"), "utf-8"
    )
    assert run_cli("check", "--root", str(root), "-q").code == 1  # loads: only the unbuilt copies drift


def test_a_marker_naming_a_shape_by_its_title_is_told_the_id(desk, run_cli):
    with (desk / "agents/citation-auditor.md").open("a", encoding="utf-8") as f:
        f.write("\n<!-- contractc:begin shape=SourceReturn -->\n<!-- contractc:end -->\n")
    run = run_cli("check")
    assert run.code == 2
    assert run.err.splitlines()[0] == (
        "agents/citation-auditor.md:21:1: error[marker-reference]: no shape id 'SourceReturn'; the shape titled "
        "'SourceReturn' has the id sourcereturn: write shape=sourcereturn"
    )


def test_a_mode_the_producer_does_not_have_says_so_instead_of_calling_it_unknown(desk, run_cli):
    (desk / "r.txt").write_text("status: drafted\n", "utf-8")
    run = run_cli("validate", "redacteur", "r.txt", "--mode", "audit")
    assert run.code == 2
    assert run.err.splitlines() == [
        "redacteur: error[unknown-shape]: 'redacteur' has no mode 'audit'",
        "  hint: it names no mode: drop --mode; more: `contractc explain unknown-shape`",
    ]


def test_a_redirect_added_after_accepting_a_removal_says_the_acceptance_can_go(desk, run_cli):
    # a section that is no shape: its lost anchor is all that breaks (a shape's new id would also break
    # `contractc validate`, which no redirect mends)
    edit(desk, "contracts/research.md", "## Reading scope {#reading-scope}", "## Reading scope {#readingscope}")
    edit(desk, "contractc.yaml", "shared: [shared-conventions, reading-scope]", "shared: [shared-conventions, readingscope]")
    assert run_cli("diff", "--against", "HEAD", "--accept", "--why", "renamed for the style guide").code == 0
    with (desk / "contractc.changes.yaml").open("a", encoding="utf-8") as f:
        f.write("redirects:\n  reading-scope: readingscope\n")
    run = run_cli("diff", "--against", "HEAD")
    assert run.code == 1
    stale = [line for line in run.out.splitlines() if "error[acceptance-stale]" in line]
    assert stale == [
        "contractc.changes.yaml:5:1: error[acceptance-stale]: acceptance of anchor-removed:reading-scope matches no "
        "change since HEAD: the redirect of #reading-scope to #readingscope makes that removal compatible"
    ]
    assert "  hint: remove the entry: the redirect is enough; more: `contractc explain acceptance-stale`" in run.out


# --- a fresh clone removes only the generated files its committed manifests prove ------------


def drop_query_plan(root) -> None:
    """Remove data shape query_plan: its block, the briefs' fields that name it, the planner's region."""
    path = root / "contracts/research.md"
    text = path.read_text("utf-8")
    start = text.index("```yaml\nquery_plan:")
    text = text[:start] + text[text.index("```\n", start + 3) + 5 :]
    path.write_text(text.replace("  plan: { ...full query_plan... }\n", ""), "utf-8")
    planner = root / "agents/query-planner.md"
    planner.write_text(planner.read_text("utf-8").split("\nReturn:\n")[0] + "\n", "utf-8")
    reader = root / "agents/paper-reader.md"
    reader.write_text(reader.read_text("utf-8").replace("  plan: { ...full query_plan... }\n", ""), "utf-8")


@pytest.fixture
def clone(desk, tmp_path, monkeypatch):
    """A fresh clone of the built plugin: no .contractc/ (it is git-ignored), only what was committed."""
    root = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(desk), str(root))
    assert not (root / ".contractc").exists() and (root / "schemas/manifest.json").is_file()
    monkeypatch.chdir(root)
    return root


STALE = "schemas/research/query_plan.schema.json"


def test_a_fresh_clone_removes_the_schema_of_a_removed_data_shape(clone, run_cli):
    drop_query_plan(clone)
    run = run_cli("build")
    assert run.code == 0, run.out + run.err
    assert not (clone / STALE).exists()
    assert STALE not in (clone / "schemas/manifest.json").read_text("utf-8")
    assert run_cli("check").code == 0


def test_a_fresh_clone_keeps_a_stale_schema_a_person_edited_and_says_why(clone, run_cli):
    (clone / STALE).write_text((clone / STALE).read_text("utf-8").replace('"title"', '"description": "ours", "title"', 1), "utf-8")
    drop_query_plan(clone)
    edited = (clone / STALE).read_bytes()
    run = run_cli("build")
    assert run.code == 1
    assert (
        f"{STALE}: error[drift-orphan]: no contract produces this file any more, and it was edited since contractc wrote it"
        in run.out + run.err
    )
    assert (clone / STALE).read_bytes() == edited


def test_a_fresh_clone_keeps_a_file_the_manifest_does_not_record(clone, run_cli):
    stray = clone / "schemas/research/notes.schema.json"
    stray.write_text('{"title": "ours"}\n', "utf-8")
    drop_query_plan(clone)
    run = run_cli("build")
    assert run.code == 1
    assert (
        "schemas/research/notes.schema.json: error[drift-orphan]: no contract produces this file, and contractc has no record of writing it"
        in run.out + run.err
    )
    assert stray.read_text("utf-8") == '{"title": "ours"}\n'
    assert not (clone / STALE).exists()  # the recorded one went


def test_a_manifest_vouches_only_for_its_own_folder(clone, run_cli):
    """A hand-written entry naming a file in another output folder (the prompts one) proves nothing there."""
    stray = clone / "prompts/notes.md"
    stray.write_text("ours\n", "utf-8")
    manifest = json.loads((clone / "schemas/manifest.json").read_text("utf-8"))
    manifest["files"].append({"path": "prompts/notes.md", "sha256": hashlib.sha256(b"ours\n").hexdigest()})
    manifest["files"].append({"path": "schemas/../prompts/notes.md", "sha256": hashlib.sha256(b"ours\n").hexdigest()})
    (clone / "schemas/manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    run = run_cli("build")
    assert run.code == 1
    assert "prompts/notes.md: error[drift-orphan]: no contract produces this file, and contractc has no record of writing it" in run.out + run.err
    assert stray.read_text("utf-8") == "ours\n"


def test_a_manifest_reached_through_a_symbolic_link_is_refused_and_nothing_is_removed(clone, tmp_path, run_cli):
    elsewhere = tmp_path / "elsewhere"
    shutil.move(clone / "schemas/research", elsewhere)
    (clone / "schemas/research").symlink_to(elsewhere)
    drop_query_plan(clone)
    before = snapshot(clone)
    run = run_cli("build")
    assert run.code == 2
    assert "error[unsafe-path]" in run.out + run.err and "symbolic link" in run.out + run.err
    assert snapshot(clone) == before and (elsewhere / "query_plan.schema.json").is_file()


def test_removing_a_shape_is_one_record_and_one_acceptance_with_its_anchors_inside(desk, run_cli):
    before_anchors = run_cli("diff", "--against", "HEAD", "--format", "json")
    assert before_anchors.code == 0
    remove_block(desk, "query_plan")
    document = json.loads(run_cli("diff", "--against", "HEAD", "--format", "json").out)
    mine = [r for r in document["records"] if r["subject"] == "query_plan" or r["subject"].startswith("query_plan-")]
    assert [r["kind"] for r in mine] == ["shape-removed"]  # not one anchor-removed per field besides
    (shape,) = mine
    assert shape["anchors"] == ["query_plan", "query_plan-languages", "query_plan-max_sources", "query_plan-queries",
                                "query_plan-queries.engine", "query_plan-queries.text"]
    assert shape["verdicts"] == ["producers", "receivers", "links"] and shape["code"] == "breaking-producers-receivers"
    assert "with its published anchors #query_plan, #query_plan-languages" in shape["message"]
    before = snapshot(desk)
    assert run_cli("diff", "--against", "HEAD", "--accept", "--why", "the planner returns prose now").code == 0
    entries = (desk / "contractc.changes.yaml").read_text("utf-8")
    assert entries.count("change: shape-removed:query_plan\n") == 1 and "anchor-removed:query_plan" not in entries
    assert changed(before, snapshot(desk)) == {"contractc.changes.yaml"}


def test_a_redirect_still_takes_one_anchor_of_a_removed_shape_out_of_its_record(desk, run_cli):
    remove_block(desk, "query_plan")
    (desk / "contractc.changes.yaml").write_text("redirects:\n  query_plan: gathering-stage\n", "utf-8")
    document = json.loads(run_cli("diff", "--against", "HEAD", "--format", "json").out)
    (shape,) = [r for r in document["records"] if r["kind"] == "shape-removed"]
    assert "query_plan" not in shape["anchors"] and "query_plan-queries" in shape["anchors"]
    assert [r["subject"] for r in document["records"] if r["kind"] == "anchor-redirected"] == ["query_plan"]


def test_the_site_warns_of_a_fence_label_it_cannot_render_and_of_two_site_urls(desk, tmp_path):
    from mkdocs.exceptions import Abort

    from site_helpers import MKDOCS_YML, mkdocs_build

    (desk / "mkdocs.yml").write_text(MKDOCS_YML.format(name="Research desk"), "utf-8")
    (desk / "docs").mkdir()
    (desk / "docs/index.md").write_text("# Research desk\n", "utf-8")
    sample = "```json example\n{\"question\": \"Which reviews cite the 2019 trial?\"}\n```\n\n"
    edit(desk, "contracts/research.md", "## Gathering stage", sample + "## Gathering stage")
    line = (desk / "contracts/research.md").read_text("utf-8").split("\n").index("```json example") + 1
    with pytest.raises(Abort):
        mkdocs_build(desk, tmp_path / "site")  # --strict: the warning fails the build
    from contractc.load import load_project
    from contractc.site.warnings import site_url_mismatch, unrendered_fences

    project = load_project(desk)
    (fence,) = unrendered_fences(project)
    assert fence.format(located=True) == (
        f"contracts/research.md:{line}:1: warning[site-fence]: the fence label `json example` is no code fence to the "
        "site's Markdown: the block is rendered as text, and the rest of the page with it"
    )
    assert fence.hint == "write the words as attributes: ```{.json .example}"
    assert site_url_mismatch(project, "https://example.invalid/") == []  # contractc.yaml leaves it to its default
    edit(desk, "contracts/research.md", "```json example\n", "```{.json .example}\n")
    config = (desk / "contractc.yaml").read_text("utf-8")
    (desk / "contractc.yaml").write_text("site_url: https://desk.example.org/\n" + config, "utf-8")
    (url,) = site_url_mismatch(load_project(desk), "https://example.invalid/")
    assert url.format(located=True).startswith(
        "contractc.yaml:1:1: warning[site-url]: site_url of contractc.yaml (https://desk.example.org/) differs from "
        "mkdocs.yml's (https://example.invalid/)"
    )
    with pytest.raises(Abort):
        mkdocs_build(desk, tmp_path / "site2")
    (desk / "mkdocs.yml").write_text(MKDOCS_YML.format(name="Research desk").replace("https://example.invalid/", "https://desk.example.org/"), "utf-8")
    assert (mkdocs_build(desk, tmp_path / "site3") / "index.html").is_file()


def test_the_full_prompt_leaves_out_the_role_files_markers_which_still_guard_the_role_file(desk, run_cli):
    role = (desk / "agents/source-scout.md").read_bytes()
    prompt = (desk / "prompts/source-scout/sourcereturn.full.md").read_bytes()
    assert role.count(b"<!-- contractc:begin ") >= 1 and b"sha256=" in role  # the role file keeps its markers
    assert b"contractc:begin" not in prompt and b"contractc:end" not in prompt and b"sha256=" not in prompt
    body = role[role.index(b"\r\n---\r\n", 3) + 7 :]  # after the front matter
    kept = b"".join(line for line in body.splitlines(keepends=True) if b"<!-- contractc:" not in line)
    assert prompt.startswith(kept)  # every other byte of the body, CRLF and all
    # the markers are what check reads in the role file: a hand edit inside its region is still named there
    edit(desk, "agents/source-scout.md", "status: found | none-found\n", "status: found | nothing\n")
    run = run_cli("check", "-q")
    assert run.out.splitlines()[0].startswith("agents/source-scout.md:") and "error[drift-region-edited]" in run.out.splitlines()[0]
