"""diff on text shapes and sections: templates, receiver checks, shared sections, anchors."""

from __future__ import annotations

from pathlib import Path

import pytest

from contractc.diff.gate import run_diff
from diff_repo import commit, edit, line_of, make_repo

REVIEW = "contracts/review-returns.md"
CHECK_3 = "3. If `changes`, a `**Not checked**:` line is present.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def diff(root: Path) -> dict[str, object]:
    """id -> record of a diff against HEAD."""
    return {r.id: r for r in run_diff(root, "HEAD", None).records}


def test_a_template_change_is_breaking_for_the_producer_and_names_it(repo):
    edit(repo, REVIEW, "**Not checked**: <what the reviewer", "**Not checked:** <what the reviewer")
    [record] = diff(repo).values()
    assert record.id == "template-changed:findingsreturn"
    assert record.verdict_text == "breaking for producers"
    assert record.agents == ("code-reviewer",)
    fence = line_of("review-returns.md", "```\nverdict: changes")
    assert (record.old.line, record.new.line) == (fence, fence)  # the fence's opening line


def test_a_check_added_in_the_middle_is_one_addition_and_renumbers_the_checks_after_it(repo):
    edit(
        repo,
        REVIEW,
        "4. The whole return is at most 60 lines.",
        "4. Every bullet names one problem only.\n5. The whole return is at most 60 lines.",
    )
    found = diff(repo)
    assert found["check-added:findingsreturn:check-4"].verdicts == ("producers",)
    renumbered = found["check-renumbered:findingsreturn:check-4"]
    assert renumbered.verdicts == ("links",)
    assert "#findingsreturn-check-4 now lands on another check" in renumbered.message
    assert set(found) == {"check-added:findingsreturn:check-4", "check-renumbered:findingsreturn:check-4"}


def test_a_check_removed_is_breaking_for_receivers_and_takes_its_anchor(repo):
    edit(repo, REVIEW, CHECK_3, "")
    edit(repo, REVIEW, "4. The whole return is at most 60 lines.", "3. The whole return is at most 60 lines.")
    found = diff(repo)
    assert found["check-removed:findingsreturn:check-3"].verdicts == ("receivers",)
    assert found["check-removed:findingsreturn:check-3"].new is None
    assert found["check-renumbered:findingsreturn:check-4"].verdicts == ("links",)
    assert found["anchor-removed:findingsreturn-check-4"].verdicts == ("links",)
    assert "contracts/review-returns/" in found["anchor-removed:findingsreturn-check-4"].message


def test_a_reworded_check_is_changed_unclassified_never_compatible(repo):
    edit(repo, REVIEW, CHECK_3, "3. If `changes`, a `**Not checked**:` line is present and is the last line.\n")
    [record] = diff(repo).values()
    assert record.id == "check-reworded:findingsreturn:check-3"
    assert record.verdicts == ("unclassified",)
    assert record.verdict_text == "changed, unclassified"
    assert record.breaking


def test_a_check_rewrapped_without_new_words_is_no_change(repo):
    edit(
        repo,
        REVIEW,
        "2. If `changes`, every bullet begins `- **` and carries a location in the\n   evidence form.",
        "2. If `changes`, every bullet begins `- **` and carries a\n   location in the evidence form.",
    )
    assert diff(repo) == {}


def test_producer_and_consumer_changes(repo):
    edit(
        repo,
        REVIEW,
        "consumed by\n`writing-release-notes` and `reviewing-changes`.",
        "consumed by\n`writing-release-notes`.",
    )
    edit(repo, REVIEW, "Produced by `code-reviewer`;", "Produced by `security-reviewer`;")
    found = diff(repo)
    assert found["consumer-removed:summaryreturn:reviewing-changes"].verdicts == ()
    assert found["producer-changed:findingsreturn"].verdicts == ("producers",)


def test_a_shared_section_change_names_every_agent_whose_snippet_carries_it(repo):
    edit(repo, REVIEW, "range in backticks", "range (inclusive) in backticks")
    [record] = diff(repo).values()
    assert record.id == "shared-section-changed:shared-forms"
    assert record.verdict_text == "changed, unclassified"
    assert record.agents == ("change-summarizer", "code-reviewer")


def test_a_prose_change_in_a_section_no_dispatch_carries_is_compatible(repo):
    edit(
        repo,
        "contracts/handoffs.md",
        "The release pipeline runs in two stages",
        "The release pipeline always runs in two stages",
    )
    [record] = diff(repo).values()
    assert (record.id, record.verdicts) == ("section-changed:hand-offs-the-yaml-blocks-between-pipeline-stages", ())


def test_a_section_made_shared_is_new_to_every_producer(repo):
    edit(repo, "contractc.yaml", "shared: [shared-forms, scope-rules]", "shared: [shared-forms]")
    commit(repo, "scope rules not shared yet")
    edit(repo, "contractc.yaml", "shared: [shared-forms]", "shared: [shared-forms, scope-rules]")
    [record] = diff(repo).values()
    assert record.id == "section-now-shared:scope-rules"
    assert record.verdicts == ("producers",)
    assert record.agents == ("change-summarizer", "code-reviewer")


def test_a_shared_section_added_and_one_removed(repo):
    edit(repo, "contractc.yaml", "shared: [shared-forms, scope-rules]", "shared: [shared-forms, scope-rules, tone]")
    edit(repo, REVIEW, "## FindingsReturn", "## Tone\n\nPlain words; no praise, no blame.\n\n## FindingsReturn")
    found = diff(repo)
    assert found["shared-section-added:tone"].verdicts == ("producers",)
    assert found["shared-section-added:tone"].agents == ("change-summarizer", "code-reviewer")
    commit(repo, "tone")
    edit(repo, "contractc.yaml", "shared: [shared-forms, scope-rules, tone]", "shared: [shared-forms, scope-rules]")
    edit(repo, REVIEW, "## Tone\n\nPlain words; no praise, no blame.\n\n", "")
    found = diff(repo)
    assert found["shared-section-removed:tone"].verdicts == ("receivers",)
    assert found["anchor-removed:tone"].verdicts == ("links",)


def test_a_renamed_heading_is_one_anchor_rename_and_a_broken_link_unless_redirected(repo):
    edit(repo, REVIEW, "## Scope rules", "## Reading scope")
    edit(repo, "contractc.yaml", "shared: [shared-forms, scope-rules]", "shared: [shared-forms, reading-scope]")
    found = diff(repo)
    assert found["section-anchor-renamed:scope-rules"].verdicts == ()
    assert "is now #reading-scope" in found["section-anchor-renamed:scope-rules"].message
    assert found["anchor-removed:scope-rules"].verdicts == ("links",)
    assert set(found) == {"section-anchor-renamed:scope-rules", "anchor-removed:scope-rules"}
    (repo / "contractc.changes.yaml").write_text("redirects:\n  scope-rules: reading-scope\n")
    found = diff(repo)
    assert found["anchor-redirected:scope-rules"].verdicts == ()
    assert "anchor-removed:scope-rules" not in found


def test_a_redirect_to_an_anchor_that_does_not_exist_does_not_count(repo):
    edit(repo, REVIEW, "## Scope rules", "## Reading scope")
    edit(repo, "contractc.yaml", "shared: [shared-forms, scope-rules]", "shared: [shared-forms, reading-scope]")
    (repo / "contractc.changes.yaml").write_text("redirects:\n  scope-rules: reading-scopes\n")
    record = diff(repo)["anchor-removed:scope-rules"]
    assert record.verdicts == ("links",)
    assert "#reading-scopes, which does not exist" in record.message


def test_shapes_and_contracts_added_and_removed(repo):
    edit(repo, REVIEW, "## SummaryReturn", "## SummaryReturnGone")
    (repo / "contracts/extra.md").write_text("# Extra\n\n## Note\n\nNothing yet.\n")
    edit(repo, "contractc.yaml", "  - path: contracts/handoffs.md\n", "  - path: contracts/extra.md\n")
    found = diff(repo)
    assert found["contract-added:contracts/extra.md"].verdicts == ()
    assert found["contract-removed:contracts/handoffs.md"].verdicts == ("producers", "receivers")
    # a renamed shape section keeps its shape (paired through the rename): one shape-renamed record says it
    assert found["shape-renamed:summaryreturn"].verdicts == ("receivers", "links")
    assert not any(k.startswith(("shape-removed", "section-anchor-renamed")) for k in found)


def test_a_heading_retitled_under_an_explicit_anchor_keeps_its_links(repo):
    edit(repo, REVIEW, "## Scope rules", "## Scope rules {#scope}")
    commit(repo, "explicit anchor")
    edit(repo, REVIEW, "## Scope rules {#scope}", "## Reading scope {#scope}")
    edit(repo, "contractc.yaml", "shared: [shared-forms, scope-rules]", "shared: [shared-forms, scope]")
    commit(repo, "shared by its explicit anchor")
    edit(repo, REVIEW, "## Reading scope {#scope}", "## What a reviewer reads {#scope}")
    [record] = diff(repo).values()
    assert (record.id, record.verdicts) == ("section-retitled:scope", ())
    assert 'now titled "What a reviewer reads" (was "Reading scope")' in record.message


def test_a_new_site_url_breaks_every_published_link(repo):
    edit(repo, "contractc.yaml", "site_url: https://contractc.dev/", "site_url: https://contracts.example.org/")
    [record] = diff(repo).values()
    assert (record.id, record.verdicts) == ("site-url-changed:site_url", ("links",))
    line = line_of("contractc.yaml", "site_url:")
    assert (record.old.path, record.old.line, record.new.line) == ("contractc.yaml", line, line)


# -- receiver checks classified by their compiled rules (contractc.model.checks) ----------------------------------

CHECK_1 = "1. Line 1 is exactly `verdict: ` followed by one of `approve` / `changes` /\n   `blocked`."
CHECK_2 = "2. If `changes`, every bullet begins `- **` and carries a location in the\n   evidence form."
CHECK_4 = "4. The whole return is at most 60 lines."


def only(repo: Path):
    [record] = diff(repo).values()
    return record


def test_a_status_value_added_is_looser_for_receivers(repo):
    edit(repo, REVIEW, CHECK_1, CHECK_1[:-1] + " / `deferred`.")
    record = only(repo)
    assert (record.id, record.verdicts) == ("check-looser:findingsreturn:check-1", ("receivers",))
    assert record.message == "FindingsReturn: check 1: reworded looser: status value(s) `deferred` now allowed"


def test_a_status_value_removed_is_stricter_for_producers(repo):
    edit(repo, REVIEW, CHECK_1, "1. Line 1 is exactly `verdict: ` followed by one of `approve` / `changes`.")
    record = only(repo)
    assert (record.id, record.verdicts) == ("check-stricter:findingsreturn:check-1", ("producers",))
    assert record.message.endswith("reworded stricter: status value(s) `blocked` no longer allowed")


@pytest.mark.parametrize("limit,kind,verdict", [(40, "check-stricter", "producers"), (80, "check-looser", "receivers")])
def test_a_line_limit_changed_is_stricter_or_looser(repo, limit, kind, verdict):
    edit(repo, REVIEW, CHECK_4, f"4. The whole return is at most {limit} lines.")
    record = only(repo)
    assert (record.kind, record.verdicts) == (kind, (verdict,))
    assert record.message.endswith(f"line limit 60 -> {limit}")


def test_a_new_required_form_is_stricter(repo):
    edit(repo, REVIEW, CHECK_2, "2. If `changes`, every bullet begins `- **`.")
    commit(repo, "no location form required yet")
    edit(repo, REVIEW, "2. If `changes`, every bullet begins `- **`.", CHECK_2)
    record = only(repo)
    assert (record.kind, record.verdicts) == ("check-stricter", ("producers",))
    assert record.message.endswith("reworded stricter: a new required form: the evidence form")


def test_a_condition_dropped_makes_a_check_apply_always(repo):
    edit(repo, REVIEW, CHECK_3, "3. Whatever the verdict, a `**Not checked**:` line is present.\n")
    record = only(repo)
    assert (record.kind, record.verdicts) == ("check-stricter", ("producers",))
    assert record.message.endswith("now applies always (was only `changes`)")


def test_a_rewording_that_compiles_to_the_same_rules_is_compatible(repo):
    edit(repo, REVIEW, CHECK_4, "4. The whole return is no more than 60 lines.")
    record = only(repo)
    assert (record.id, record.verdicts) == ("check-reworded:findingsreturn:check-4", ())
    assert record.message.endswith("reworded; it compiles to the same rules")


def test_stricter_and_looser_at_once_breaks_both(repo):
    edit(repo, REVIEW, CHECK_1, CHECK_1[:-1] + " / `deferred`.")
    edit(
        repo,
        REVIEW,
        "followed by one of `approve` / `changes` /\n   `blocked` / `deferred`.",
        "followed by one of `approve` / `changes` /\n   `deferred`.",
    )
    record = only(repo)
    assert (record.kind, record.verdicts) == ("check-changed", ("producers", "receivers"))
    assert "`blocked` no longer allowed" in record.message and "`deferred` now allowed" in record.message


def test_a_form_redefined_changes_every_check_that_requires_it_though_its_words_stay(repo):
    edit(repo, REVIEW, "`` `<path>:<first>-<last>` ``", "`` `<path>#L<first>-L<last>` ``")
    found = diff(repo)
    changed = found["check-changed:findingsreturn:check-2"]
    assert changed.verdicts == ("producers", "receivers")
    assert (
        "same words, but what it requires: the required form is now the evidence form `<path>#L<first>-L<last>` "
        "(was the evidence form `<path>:<first>-<last>`)" in changed.message
    )
    assert found["shared-section-changed:shared-forms"].verdicts == ("unclassified",)


def test_a_check_no_longer_mechanised_is_looser_for_receivers(repo):
    # the condition names a status no status line allows any more: the check cannot be enforced
    edit(repo, REVIEW, CHECK_1, "1. Line 1 is exactly `verdict: ` followed by one of `approve` /\n   `blocked`.")
    found = diff(repo)
    assert found["check-stricter:findingsreturn:check-1"].verdicts == ("producers",)
    for n in (2, 3):
        record = found[f"check-unmechanised:findingsreturn:check-{n}"]
        assert record.verdicts == ("receivers",)
        assert "no longer mechanised: `contractc validate` stops enforcing it" in record.message
