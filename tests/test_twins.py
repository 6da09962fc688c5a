"""Two instances of a shape in two files that open with the same line (the same instance, named: `Task: spawn
frontend-reviewer`) and read nearly alike are one text pasted twice: the one that lacks what the other holds
drifted. Instances named apart, or the same name with a text of its own, are instances by design."""

from __future__ import annotations

from conftest import write_tree

FRONTEND = """Task: spawn frontend-reviewer
Prompt: |
  Review the frontend changes for this feature:
  Feature: $FEATURE_NAME
  Description: $FEATURE_DESCRIPTION

  Report:
  - Component patterns that fit
  - State management approach
  - UI/UX consistency problems
  - Existing patterns to follow
"""
# the same hand-off pasted into the skill and reworded there in four lines: a line share under three quarters
REWORDED = (
    FRONTEND.replace(" for this feature:", ":")
    .replace("$FEATURE_DESCRIPTION", "$DESCRIPTION")
    .replace("UI/UX consistency", "UI consistency")
    .replace("  - Existing patterns to follow\n", "")
)
BACKEND = """Task: spawn backend-reviewer
Prompt: |
  Review the backend changes for this feature:
  Feature: $FEATURE_NAME
  Description: $FEATURE_DESCRIPTION

  Report:
  - API design problems
  - Database schema changes
  - Security concerns
  - Existing services to reuse
"""


def _fence(text: str) -> str:
    return f"```\n{text}```\n"


def _plugin(tmp_path, skill_frontend: str, skill_backend: str = BACKEND):
    return write_tree(
        tmp_path / "p",
        {
            "agents/planner.md": "# Planner\n\n## Frontend\n\n" + _fence(FRONTEND) + "\n## Backend\n\n" + _fence(BACKEND),
            "skills/planning/SKILL.md": "# Planning\n\n## Frontend\n\n" + _fence(skill_frontend) + "\n## Backend\n\n" + _fence(skill_backend),
        },
    )


def test_the_same_named_instance_reworded_in_another_file_is_drift_reported_at_the_less_full_copy(tmp_path, run_cli):
    root = _plugin(tmp_path, REWORDED)
    run = run_cli("scan", str(root))
    assert run.code == 1, run.out
    errors = [line for line in run.out.splitlines() if "error[" in line]
    assert len(errors) == 1 and errors[0].startswith("skills/planning/SKILL.md:6:1: error[scan-divergent]"), run.out
    assert "3 of its lines differ from the near-identical copy in agents/planner.md" in errors[0]
    assert "against its near-identical twin at agents/planner.md:6" in errors[0]
    assert "-  Review the frontend changes:" in run.out and "+  - Existing patterns to follow" in run.out
    # the diff names the side it is taken against as the message does: a twin, not the shape's owner
    assert "--- skills/planning/SKILL.md:6 (this copy)\n+++ agents/planner.md:6 (near-identical twin)\n" in run.out, run.out


def test_instances_named_apart_or_with_a_text_of_their_own_are_no_drift(tmp_path, run_cli):
    # the backend hand-off reads like the frontend one but names another agent: instances by design
    assert "error[" not in run_cli("scan", str(_plugin(tmp_path / "a", FRONTEND))).out
    # the same agent spawned for another job, in words of its own
    other = "Task: spawn frontend-reviewer\nPrompt: |\n  Check that the release notes name every screen changed.\n  Release: $VERSION\n\n  Report:\n  - Screens missing from the notes\n  - Notes naming no screen\n  - Wording to fix\n  - Links that are broken\n"
    run = run_cli("scan", str(_plugin(tmp_path / "b", other)))
    assert "error[" not in run.out, run.out
