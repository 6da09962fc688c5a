"""The seed contract's history: an older revision derived from ../shared/seeds/return-shapes.md at test time.

The older revision had four receiver checks per shape, a prose paragraph where
the ConsultationReturn template now has **Tensions** bullets, and no Traversal
rules section.  It is made by cutting and renumbering a copy of the seed (the
only new prose is this file's own), committed, then the seed is put back:
the diff must name each of those changes and whom it breaks.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from diff_repo import commit, make_repo

SEED = "contracts/return-shapes.md"
OLD_CONFIG = "contracts:\n  - path: contracts/return-shapes.md\n    shared: [shared-forms]\n"
NEW_CONFIG = "contracts:\n  - path: contracts/return-shapes.md\n    shared: [shared-forms, traversal-rules]\n"
# The older template said it in one paragraph (this wording is ours, not the seed's).
OLD_TENSIONS = "**Tensions**: <a paragraph on where the patterns disagree for this design, with citations>\n"


def cut(text: str, start: str, end: str) -> str:
    """``text`` without the lines from the one starting ``start`` up to (not including) the one starting ``end``."""
    found = re.search(rf"^{re.escape(start)}.*?(?=^{re.escape(end)})", text, re.DOTALL | re.MULTILINE)
    assert found, f"{start!r} .. {end!r} not in the seed"
    return text[: found.start()] + text[found.end() :]


def older_revision(seed: str) -> str:
    """The revision before the seed: no traversal rules, a tensions paragraph, four checks per shape."""
    text = cut(seed, "## Traversal rules", "## ConsultationReturn")
    text = text.replace("(plus the\nShared forms and Traversal rules sections)", "(plus the\nShared forms section)")
    consultation, audit, plan = (
        text.index("## ConsultationReturn"),
        text.index("## AuditReturn"),
        text.index("## EditPlanReturn"),
    )
    degradation = text.index("## Degradation rules")
    parts = [
        text[:consultation],
        text[consultation:audit],
        text[audit:plan],
        text[plan:degradation],
        text[degradation:],
    ]
    # ConsultationReturn: the tensions bullets were a paragraph; no check on the tensions form yet
    parts[1] = cut(parts[1], "**Tensions**", "```")
    parts[1] = parts[1].replace(
        "\n```\n\nWith `status: nothing-bears`", "\n" + OLD_TENSIONS + "```\n\nWith `status: nothing-bears`"
    )
    for i in (1, 2, 3):  # each shape lacked its fourth check; the last one was number 4
        parts[i] = cut(parts[i], "4. ", "5. ").replace("\n5. The whole return", "\n4. The whole return")
    return "".join(parts)


@pytest.fixture
def history(tmp_path: Path, seeds: Path) -> Path:
    seed = (seeds / "return-shapes.md").read_text("utf-8")
    root = make_repo(tmp_path / "plugin", {"contractc.yaml": OLD_CONFIG, SEED: older_revision(seed)})
    (root / SEED).write_text(seed, "utf-8")
    (root / "contractc.yaml").write_text(NEW_CONFIG, "utf-8")
    return root


def test_the_older_revision_is_what_the_issue_describes(history):
    from diff_repo import git

    old = git(history, "show", f"HEAD:{SEED}")
    assert "## Traversal rules" not in old
    assert OLD_TENSIONS in old and "- **<one pull> versus <the other>**" not in old
    for shape in ("## ConsultationReturn", "## AuditReturn", "## EditPlanReturn"):
        section = old[old.index(shape) :].split("\n## ", 1)[0]
        checks = re.findall(r"^(\d)\. ", section.split("Receiver checks:")[1], re.MULTILINE)
        assert checks == ["1", "2", "3", "4"], shape


def test_the_diff_names_each_change_of_the_seed_and_whom_it_breaks(history, run_cli):
    result = run_cli("diff", "--root", str(history), "--against", "HEAD", "--format", "json")
    assert result.code == 1
    records = {r["id"]: r for r in json.loads(result.out)["records"]}
    said = {rid: (r["verdict"], r["agents"]) for rid, r in records.items()}
    assert said == {
        # the new section travels with every dispatch: new rules for both producing agents
        "shared-section-added:traversal-rules": ("breaking for producers", ["design-auditor", "pattern-librarian"]),
        # the intro now names it; the intro travels in no dispatch
        "section-changed:return-shapes-the-skillagent-contract": ("compatible", []),
        # the paragraph became bullets: the producer must emit the new form ...
        "template-changed:consultationreturn": ("breaking for producers", ["pattern-librarian"]),
        # ... and a receiver now checks it (check 4 is new; the old check 4 is now 5)
        "check-added:consultationreturn:check-4": ("breaking for producers", ["pattern-librarian"]),
        "check-renumbered:consultationreturn:check-4": ("breaking for links", ["pattern-librarian"]),
        "check-added:auditreturn:check-4": ("breaking for producers", ["design-auditor"]),
        "check-renumbered:auditreturn:check-4": ("breaking for links", ["design-auditor"]),
        "check-added:editplanreturn:check-4": ("breaking for producers", ["design-auditor"]),
        "check-renumbered:editplanreturn:check-4": ("breaking for links", ["design-auditor"]),
    }
    # nothing was removed, so no published anchor is gone
    assert not any(r["kind"] == "anchor-removed" for r in records.values())
    added = records["check-added:consultationreturn:check-4"]
    assert (added["old"], added["new"]) == (None, {"path": SEED, "line": 206})
    assert records["shared-section-added:traversal-rules"]["new"] == {"path": SEED, "line": 63}


def test_accepting_the_seed_history_passes_and_the_entries_name_each_change(history, run_cli):
    why = "the tensions form is checked now; both agents are re-dispatched with the traversal rules"
    assert run_cli("diff", "--root", str(history), "--against", "HEAD", "--accept", "--why", why).code == 0
    text = (history / "contractc.changes.yaml").read_text()
    assert text.count(f"    why: {why}\n") == 8
    commit(history, "the seed revision, accepted")
    assert run_cli("diff", "--root", str(history), "--against", "HEAD~1").code == 0


def test_reworded_seed_checks_are_classified_by_their_compiled_rules(tmp_path, seeds, run_cli):
    """An older AuditReturn whose checks differed in what they compile to: each rewording gets a direction."""
    seed = (seeds / "return-shapes.md").read_text("utf-8")
    older = older_revision(seed)
    audit = older.index("## AuditReturn")
    head, tail = older[:audit], older[audit:]
    tail = tail.replace(
        "`findings` / `clean` / `nothing-bears` / `surface-unavailable`",
        "`findings` / `clean` / `surface-unavailable`",
        1,
    )
    tail = tail.replace("has a `where:` line and a `prescription:` line.", "has a `where:` line.", 1)
    tail = tail.replace("The whole return is ≤100 lines", "The whole return is ≤120 lines", 1)
    root = make_repo(tmp_path / "plugin", {"contractc.yaml": OLD_CONFIG, SEED: head + tail})
    (root / SEED).write_text(older, "utf-8")
    result = run_cli("diff", "--root", str(root), "--against", "HEAD", "--format", "json")
    said = {r["id"]: (r["verdict"], r["message"]) for r in json.loads(result.out)["records"]}
    assert said == {
        "check-looser:auditreturn:check-1": (
            "breaking for receivers",
            "AuditReturn: check 1: reworded looser: status value(s) `nothing-bears` now allowed",
        ),
        "check-stricter:auditreturn:check-3": (
            "breaking for producers",
            "AuditReturn: check 3: reworded stricter: each item now needs `prescription:`",
        ),
        "check-stricter:auditreturn:check-4": (
            "breaking for producers",
            "AuditReturn: check 4: reworded stricter: line limit 120 -> 100",
        ),
    }
