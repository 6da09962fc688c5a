"""The contract site's per-contract Changes page: the diff since the last release tag and the accepted entries."""

from __future__ import annotations

from pathlib import Path

from diff_repo import commit, edit, git, line_of, make_repo

HANDOFFS = "contracts/handoffs.md"


def changes_page(run_cli, root: Path, stem: str) -> str:
    assert run_cli("build", "--root", str(root), "--site-pages", "site").code == 0
    return (root / "site/contracts/changes" / f"{stem}.md").read_text("utf-8")


def test_without_a_release_tag_the_page_says_so(tmp_path, run_cli):
    root = make_repo(tmp_path / "p")
    page = changes_page(run_cli, root, "handoffs")
    assert page.startswith("# Changes: Hand-offs — the YAML blocks between pipeline stages\n")
    assert "*Contract:* [`contracts/handoffs.md`](../handoffs.md)" in page
    assert "No release tag yet: once the repository has a tag, every change since it is listed here." in page
    assert "## Accepted breaking changes {#accepted}\n\nNone accepted yet." in page


def test_the_page_lists_every_change_since_the_last_tag_and_the_accepted_entries(tmp_path, run_cli):
    root = make_repo(tmp_path / "p")
    git(root, "tag", "v1.0.0")
    edit(root, HANDOFFS, "kind: feature | fix | chore", "kind: feature | fix")
    edit(
        root, HANDOFFS, "  budget_hours: 8\n", "  budget_hours: 8\n  labels: [ string ]       # optional — for search\n"
    )
    assert (
        run_cli(
            "diff", "--root", str(root), "--against", "v1.0.0", "--accept", "--why", "chore | was never | used"
        ).code
        == 0
    )
    commit(root, "narrow kind")
    page = changes_page(run_cli, root, "handoffs")
    assert "Every change since `v1.0.0`, in line order:" in page
    assert (
        "| `enum-values-removed:planning-stage.task_brief:$.kind`: planning-stage.task_brief $.kind: "
        f"value(s) chore no longer allowed | breaking for producers (accepted) | {line_of('handoffs.md', '  kind:')} |"
    ) in page
    assert (
        "| `field-added-optional:planning-stage.task_brief:$.labels`:" in page
        and f"| compatible | {line_of('handoffs.md', '  budget_hours:') + 1} |" in page
    )
    # the entry added since the tag accepts the change; the table lists it with its reason, cells escaped
    assert (
        "| `enum-values-removed:planning-stage.task_brief:$.kind` | breaking for producers | chore \\| was never \\| used |"
        in page
    )
    # the other contract changed in nothing
    other = (root / "site/contracts/changes/review-returns.md").read_text("utf-8")
    assert "No change to this contract since `v1.0.0`." in other
    assert "None accepted yet." in other


def test_a_tag_whose_contracts_do_not_load_is_said_on_the_page_not_a_failed_build(tmp_path, run_cli):
    root = make_repo(tmp_path / "p")
    edit(root, HANDOFFS, "## Building stage", "## Planning stage")
    commit(root, "broken")
    git(root, "tag", "v0.9")
    edit(
        root,
        HANDOFFS,
        "## Planning stage\n\n```yaml\ntask_brief:\n  plan:",
        "## Building stage\n\n```yaml\ntask_brief:\n  plan:",
    )
    page = changes_page(run_cli, root, "handoffs")
    assert "Could not compare with `v0.9`: `v0.9:contracts/handoffs.md:" in page


def test_each_contract_page_links_its_changes_page(tmp_path, run_cli):
    root = make_repo(tmp_path / "p")
    changes_page(run_cli, root, "handoffs")
    for stem in ("handoffs", "review-returns"):
        page = (root / "site/contracts" / f"{stem}.md").read_text("utf-8")
        footer = page[page.index("*Source:*") :]
        assert (
            f" · [*Changes*](changes/{stem}.md): since the last release, and the accepted breaking changes\n" in footer
        )
        assert (root / "site/contracts/changes" / f"{stem}.md").is_file()  # the link resolves


def test_the_changes_pages_read_todays_contracts_once_and_list_what_a_fresh_diff_finds(tmp_path, monkeypatch):
    """The site's build has loaded today's project: the diff since the tag compares that one, not a second load."""
    from contractc.diff.gate import run_diff
    from contractc.load import contract as contract_module
    from contractc.load import load_project
    from contractc.diff.release import since_last_release

    root = make_repo(tmp_path / "p")
    git(root, "tag", "v1.0.0")
    edit(root, HANDOFFS, "kind: feature | fix | chore", "kind: feature | fix")
    edit(root, HANDOFFS, "  budget_hours: 8\n", "  budget_hours: 8\n  labels: [ string ]       # optional\n")
    commit(root, "narrow kind, add labels")
    project = load_project(root)
    listed = len(project.contracts)
    fresh = run_diff(root, "v1.0.0", None)  # today's side read from disk, as `contractc diff` does

    parsed: list[str] = []
    real_parse = contract_module.parse_contract

    def counting_parse(src, *args, **kwargs):
        parsed.append(src.path)
        return real_parse(src, *args, **kwargs)

    monkeypatch.setattr("contractc.load.parse_contract", counting_parse)
    monkeypatch.setattr("contractc.load.contract.parse_contract", counting_parse)
    since = since_last_release(root, project)
    # only the tag's revision is parsed: once per contract, none of today's a second time
    assert len(parsed) == listed
    assert since.tag == "v1.0.0"
    assert [(c.contract, c.id, c.verdict, c.line) for c in since.changes] == [
        (r.contract, r.id, r.verdict_text, r.new.line if r.new else 0) for r in fresh.records
    ]
    assert any(c.id == "enum-values-removed:planning-stage.task_brief:$.kind" for c in since.changes)
    assert any(c.id == "field-added-optional:planning-stage.task_brief:$.labels" for c in since.changes)


def test_a_removal_is_listed_as_gone_with_the_line_where_it_stood(tmp_path, run_cli):
    root = make_repo(tmp_path / "p")
    git(root, "tag", "v1.0.0")
    edit(root, "contracts/review-returns.md", "3. If `changes`, a `**Not checked**:` line is present.\n", "")
    edit(root, "contracts/review-returns.md", "4. The whole return is at most 60", "3. The whole return is at most 60")
    page = changes_page(run_cli, root, "review-returns")
    stood = line_of("review-returns.md", "4. The whole return is at most 60") - 1  # the check that now follows it
    assert f"| breaking for receivers | gone (stood at {stood}) |" in page
