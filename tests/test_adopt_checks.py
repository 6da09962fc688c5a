"""`adopt` carries the `Receiver checks:` list that copies of a template carry into the contract's text shape."""

from __future__ import annotations

import json

from adopt_plugin import FILES, VERDICT, write_plugin

CHECKS = (
    "Receiver checks:\n\n"
    "1. Line 1 is exactly `VERDICT: ` followed by one of\n   `pass` / `revise`.\n"
    "2. If `revise`, the `## Findings` section lists at least one finding.\n"
    "3. The `## Reason` section is one line.\n"
)
REWRAPPED = CHECKS.replace("one of\n   `pass`", "one of `pass`")  # the same words, wrapped otherwise
STRICTER = CHECKS.replace("at least one finding", "at least two findings")


def _plugin(root):
    files = dict(FILES)
    orchestrator = files["agents/review-orchestrator.md"]
    files["agents/review-orchestrator.md"] = orchestrator.replace(
        VERDICT, VERDICT + "\nA verdict that does not parse is a re-dispatch.\n\n" + CHECKS
    )
    files["agents/style-critic.md"] = files["agents/style-critic.md"].replace(VERDICT, VERDICT + "\n" + REWRAPPED)
    files["skills/review/SKILL.md"] = files["skills/review/SKILL.md"] + "\n" + STRICTER
    return write_plugin(root, files)


def test_the_first_copys_list_becomes_the_shapes_receiver_checks_and_validate_runs_them(tmp_path, run_cli):
    root = _plugin(tmp_path / "docs-pipeline")
    assert run_cli("adopt", str(root), "--write", "--accept-drift").code == 0
    contract = (root / "contracts/docs-pipeline.md").read_text("utf-8")
    template = contract[contract.index(" {#verdict}\n") :]
    assert template.split("```\n", 2)[2].startswith("\n" + CHECKS)  # right after the template, verbatim
    from contractc.load import load_project

    project = load_project(root)
    shape = next(s for _, s in project.shapes() if s.id == "verdict")
    assert [c.number for c in shape.checks] == [1, 2, 3]
    assert shape.checks[1].text == "If `revise`, the `## Findings` section lists at least one finding."
    assert run_cli("check", "--root", str(root)).code == 0
    (root / "bad.txt").write_text("VERDICT: maybe\n## Findings\n- none\n## Reason\nunsure\n")
    result = run_cli("validate", "--root", str(root), "verdict", str(root / "bad.txt"))
    assert result.code == 1 and "verdict-check-1" in result.out


def test_a_copy_whose_list_says_something_else_is_reported_with_its_diff(tmp_path, run_cli):
    root = _plugin(tmp_path / "docs-pipeline")
    plan = run_cli("adopt", str(root))
    assert plan.code == 0
    skill_line = 1 + FILES["skills/review/SKILL.md"].count("\n") + 1
    section = plan.out[plan.out.index("receiver checks that differ") :].split("\n\n", 1)[0]
    assert section.splitlines()[1] == (
        f"  skills/review/SKILL.md:{skill_line}: verdict: its receiver checks differ from those at "
        f"agents/review-orchestrator.md:{_line(root, 'agents/review-orchestrator.md')}, which the contract holds"
    )
    assert "-2. If `revise`, the `## Findings` section lists at least two findings.\n" in section
    assert "+2. If `revise`, the `## Findings` section lists at least one finding.\n" in section
    assert "agents/style-critic.md" not in section  # rewrapped, not different

    doc = json.loads(run_cli("adopt", str(root), "--format", "json").out)
    [differ] = [d for d in doc["diagnostics"] if d["code"] == "adopt-checks-differ"]
    assert (differ["path"], differ["line"], differ["severity"]) == ("skills/review/SKILL.md", skill_line, "warning")
    assert any(c["path"] == f"skills/review/SKILL.md:{skill_line}" and "at least two" in c["diff"] for c in doc["changes"])


def _line(root, rel: str) -> int:
    text = (root / rel).read_text("utf-8")
    return text[: text.index("Receiver checks:")].count("\n") + 1


def test_a_copy_with_no_list_while_others_carry_one_is_reported_at_the_copy(tmp_path, run_cli):
    """fact-checker's copy of the verdict template carries no `Receiver checks:`: once adopted, the
    contract's list (the orchestrator's) applies to its receiver too, and the plan says so."""
    root = _plugin(tmp_path / "docs-pipeline")
    copy_line = _copy_line(root, "agents/fact-checker.md")
    chosen = f"agents/review-orchestrator.md:{_line(root, 'agents/review-orchestrator.md')}"
    plan = run_cli("adopt", str(root))
    assert plan.code == 0
    section = plan.out[plan.out.index("copies with no receiver checks") :]
    assert section.splitlines()[1] == (
        f"  agents/fact-checker.md:{copy_line}: verdict: no `Receiver checks:` list follows this copy; "
        f"those at {chosen}, which the contract holds, will apply to it too"
    )
    listed = section.split("\n\n")[0]
    assert "agents/style-critic.md" not in listed and "skills/review/SKILL.md" not in listed  # they carry lists

    doc = json.loads(run_cli("adopt", str(root), "--format", "json").out)
    [missing] = [d for d in doc["diagnostics"] if d["code"] == "adopt-checks-missing"]
    assert (missing["path"], missing["line"], missing["severity"]) == ("agents/fact-checker.md", copy_line, "warning")
    assert chosen in missing["message"]
    github = run_cli("adopt", str(root), "--format", "github").out
    assert f"::warning file=agents/fact-checker.md,line={copy_line}" in github and "adopt-checks-missing" in github


def test_no_copy_is_reported_missing_when_no_copy_carries_a_list(tmp_path, run_cli):
    root = write_plugin(tmp_path / "docs-pipeline", dict(FILES))
    plan = run_cli("adopt", str(root))
    assert plan.code == 0 and "copies with no receiver checks" not in plan.out
    doc = json.loads(run_cli("adopt", str(root), "--format", "json").out)
    assert not [d for d in doc["diagnostics"] if d["code"].startswith("adopt-checks")]


def _copy_line(root, rel: str) -> int:
    """The line scan locates a copy of the verdict template at: its fence's first content line."""
    text = (root / rel).read_text("utf-8")
    return text[: text.index("VERDICT: pass | revise")].count("\n") + 1
