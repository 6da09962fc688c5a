"""The approval file: --accept writes entries, accepted changes pass, stale acceptances fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diff_repo import commit, edit, make_repo

REVIEW = "contracts/review-returns.md"
ADD_CHECK = (
    "4. The whole return is at most 60 lines.",
    "4. Every bullet names one problem only.\n5. The whole return is at most 60 lines.",
)
CHANGES = "contractc.changes.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "project")


def diff(run_cli, repo: Path, *extra: str):
    return run_cli("diff", "--root", str(repo), "--against", "HEAD", *extra)


def test_accept_writes_one_entry_per_breaking_change_and_the_diff_then_passes(repo, run_cli):
    edit(repo, REVIEW, *ADD_CHECK)
    accepted = diff(run_cli, repo, "--accept", "--why", "every reviewer prompt is regenerated in this PR")
    assert accepted.code == 0
    assert accepted.out.startswith("contractc: accepted 2 change(s) in contractc.changes.yaml\n")
    text = (repo / CHANGES).read_text()
    assert text.startswith("# Breaking contract changes accepted on purpose")
    assert (
        "  - change: check-added:findingsreturn:check-4\n    contract: contracts/review-returns.md\n    verdict: breaking for producers\n    why: every reviewer prompt is regenerated in this PR\n"
        in text
    )
    assert "  - change: check-renumbered:findingsreturn:check-4\n" in text
    again = diff(run_cli, repo)
    assert again.code == 0
    assert "note[change-accepted]" in again.out
    assert again.out.endswith("contractc: 2 change(s) since HEAD, 0 breaking, 2 accepted\n")


def test_accept_keeps_every_byte_of_an_existing_file_and_adds_after_the_last_entry(repo, run_cli):
    existing = (
        "# our approvals -- keep this comment\n"
        "accepted:\n"
        "  - change: field-removed:old:$.x   # an old one\n"
        "    why: long ago\n"
        "\n"
        "redirects:\n"
        "  old-anchor: shared-forms\n"
    )
    (repo / CHANGES).write_text(existing)
    commit(repo, "approvals")
    edit(repo, "contracts/handoffs.md", "kind: feature | fix | chore", "kind: feature | fix")
    assert diff(run_cli, repo, "--accept", "--why", "chore was never used").code == 0
    text = (repo / CHANGES).read_text()
    head, tail = existing.split("\n\nredirects:")
    assert text.startswith(head + "\n  - change: enum-values-removed:planning-stage.task_brief:$.kind\n")
    assert text.endswith(
        "    why: chore was never used\n    date: "
        + text.rsplit("date: ", 1)[1].split("\n")[0]
        + "\n\nredirects:"
        + tail
    )


def test_accept_with_nothing_breaking_writes_nothing(repo, run_cli):
    result = diff(run_cli, repo, "--accept", "--why", "nothing")
    assert result.code == 0
    assert not (repo / CHANGES).exists()


def test_an_acceptance_added_since_ref_that_matches_no_change_is_stale(repo, run_cli):
    (repo / CHANGES).write_text("accepted:\n  - change: field-removed:task_brief:$.goal\n    why: goal moved\n")
    result = diff(run_cli, repo)
    assert result.code == 1
    assert (
        "contractc.changes.yaml:2:1: error[acceptance-stale]: acceptance of field-removed:task_brief:$.goal "
        "matches no change since HEAD\n"
    ) in result.out
    assert "1 stale acceptance(s)" in result.out


def test_acceptances_already_on_the_older_side_are_history_not_stale_and_accept_nothing_new(repo, run_cli):
    edit(repo, REVIEW, *ADD_CHECK)
    assert diff(run_cli, repo, "--accept", "--why", "first time").code == 0
    commit(repo, "check 4 added, accepted")
    assert diff(run_cli, repo).code == 0  # the committed entries are history: not stale
    # the same change made again later is judged afresh: history does not pre-approve it
    edit(
        repo,
        REVIEW,
        "4. Every bullet names one problem only.\n5. The whole return is at most 60 lines.",
        "4. The whole return is at most 60 lines.",
    )
    commit(repo, "reverted")
    edit(repo, REVIEW, *ADD_CHECK)
    assert diff(run_cli, repo).code == 1


def test_an_acceptance_only_covers_its_own_contract(repo, run_cli):
    edit(repo, REVIEW, *ADD_CHECK)
    (repo / CHANGES).write_text(
        "accepted:\n"
        "  - change: check-added:findingsreturn:check-4\n    contract: contracts/other.md\n    why: wrong file\n"
        "  - change: check-renumbered:findingsreturn:check-4\n    why: any contract\n"
    )
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD", "--format", "json")
    document = json.loads(result.out)
    assert {r["id"]: r["accepted"] for r in document["records"]} == {
        "check-added:findingsreturn:check-4": False,
        "check-renumbered:findingsreturn:check-4": True,
    }
    assert {d["code"] for d in document["diagnostics"]} == {"breaking-producers", "change-accepted", "acceptance-stale"}


@pytest.mark.parametrize(
    "text,line,message",
    [
        ("accepted:\n  - change: x\n", 2, "$.accepted[0]: 'why' is a required property"),
        ("accepted: [\n", 2, "YAML: "),
        ("accepted: []\nredirect:\n  a: b\n", 2, "$.redirect: unknown key; allowed keys: accepted, redirects"),
    ],
)
def test_a_malformed_approval_file_is_bad_input_located(repo, run_cli, text, line, message):
    (repo / CHANGES).write_text(text)
    result = diff(run_cli, repo)
    assert result.code == 2
    assert result.err.startswith(f"contractc.changes.yaml:{line}:1: error[changes-invalid]: {message}")


def test_accept_in_json_keeps_stdout_one_document(repo, run_cli):
    edit(repo, REVIEW, *ADD_CHECK)
    result = diff(run_cli, repo, "--accept", "--why", "prompts regenerated", "--format", "json")
    assert result.code == 0
    assert result.err == "contractc: accepted 2 change(s) in contractc.changes.yaml\n"
    assert json.loads(result.out)["status"] == "compatible"
