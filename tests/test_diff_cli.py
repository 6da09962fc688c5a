"""contractc diff on the command line: exit codes, formats, the approval file."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from diff_repo import commit, edit, git, line_of, make_repo

REVIEW = "contracts/review-returns.md"
ADD_CHECK = (
    "4. The whole return is at most 60 lines.",
    "4. Every bullet names one problem only.\n5. The whole return is at most 60 lines.",
)
WIDEN = ("kind: feature | fix | chore", "kind: feature | fix | chore | docs")
KIND = line_of("handoffs.md", "  kind: feature")
BUDGET = line_of("handoffs.md", "  budget_hours: 8")
CHECK_4 = line_of("review-returns.md", "4. The whole return is at most 60 lines.")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "project")


def test_no_change_exits_0_with_one_line(repo, run_cli):
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert (result.code, result.out, result.err) == (0, "contractc: 0 change(s) since HEAD, 0 breaking\n", "")


def test_compatible_changes_exit_0_and_are_listed_as_notes(repo, run_cli):
    edit(
        repo,
        "contracts/handoffs.md",
        "  budget_hours: 8\n",
        "  budget_hours: 8\n  labels: [ string ]       # optional — for search\n",
    )
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert result.code == 0
    assert result.out.startswith(
        f"contracts/handoffs.md:{BUDGET + 1}:1: note[change-compatible]: compatible: planning-stage.task_brief $.labels: "
        "new optional field (rule: optional) [field-added-optional:planning-stage.task_brief:$.labels]\n"
    )
    assert result.out.endswith("contractc: 1 change(s) since HEAD, 0 breaking\n")


def test_a_breaking_change_exits_1_located_with_its_id_and_the_accept_command(repo, run_cli):
    edit(repo, REVIEW, *ADD_CHECK)
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert result.code == 1
    assert (
        f"contracts/review-returns.md:{CHECK_4}:1: error[breaking-producers]: breaking for producers: FindingsReturn: "
        "receiver check 4 is new: a return that passed before may now be refused [check-added:findingsreturn:check-4]"
        "; dispatches: code-reviewer\n"
        "  hint: if this is intended, say why in contractc.changes.yaml: `contractc diff --against HEAD --accept --why TEXT`"
        "; more: `contractc explain breaking-producers`\n"
    ) in result.out
    assert "error[breaking-links]: breaking for links: FindingsReturn: check 4 is now check 5" in result.out
    assert result.out.endswith(
        "contractc: 2 change(s) since HEAD, 2 breaking; accept each on purpose with "
        "`contractc diff --against HEAD --accept --why TEXT`, or undo it\n"
    )


def test_a_removed_thing_is_reported_on_todays_file_and_says_where_it_was(repo, run_cli):
    edit(repo, "contracts/handoffs.md", "  budget_hours: 8\n", "")
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD", "--format", "json")
    diagnostics = {d["code"]: d for d in json.loads(result.out)["diagnostics"]}
    removed = diagnostics["breaking-producers-receivers"]
    # located on today's file at the line where the removed text stood (the line that now follows it)
    assert (removed["path"], removed["line"]) == ("contracts/handoffs.md", BUDGET)
    assert removed["message"].endswith(f"(was at HEAD:contracts/handoffs.md:{BUDGET})")
    record = next(r for r in json.loads(result.out)["records"] if r["kind"] == "field-removed")
    assert (record["new"], record["stood"]) == (None, {"path": "contracts/handoffs.md", "line": BUDGET})


def test_json_holds_every_record_with_both_locations_and_matches_its_schema(repo, run_cli):
    edit(repo, "contracts/handoffs.md", *WIDEN)
    edit(repo, REVIEW, *ADD_CHECK)
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD", "--format", "json")
    document = json.loads(result.out)
    schema = json.loads(resources.files("contractc.data").joinpath("diff-report.schema.json").read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    assert list(Draft202012Validator(schema).iter_errors(document)) == []
    assert (result.code, document["status"], document["exit_code"], document["against"]) == (1, "breaking", 1, "HEAD")
    enum = next(r for r in document["records"] if r["kind"] == "enum-values-added")
    assert enum == {
        "id": "enum-values-added:planning-stage.task_brief:$.kind",
        "kind": "enum-values-added",
        "subject": "planning-stage.task_brief",
        "detail": "$.kind",
        "contract": "contracts/handoffs.md",
        "verdicts": ["receivers"],
        "verdict": "breaking for receivers",
        "direction": "",
        "code": "breaking-receivers",
        "accepted": False,
        "agents": [],
        "anchors": [],
        "old": {"path": "contracts/handoffs.md", "line": KIND},
        "new": {"path": "contracts/handoffs.md", "line": KIND},
        "stood": None,
        "message": "planning-stage.task_brief $.kind: new value(s) docs",
    }


def test_github_format_annotates_the_changed_lines(repo, run_cli, monkeypatch):
    edit(repo, "contracts/handoffs.md", *WIDEN)
    monkeypatch.chdir(repo.parent)
    result = run_cli("diff", "--root", "project", "--against", "HEAD", "--format", "github")
    assert result.code == 1
    assert result.out.startswith(
        f"::error file=project/contracts/handoffs.md,line={KIND},col=1,title=contractc breaking-receivers::breaking for receivers: "
    )


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_an_unknown_ref_exits_2_in_every_format(repo, run_cli, fmt):
    result = run_cli("diff", "--root", str(repo), "--against", "no-such-ref", "--format", fmt)
    assert result.code == 2
    message = "--against no-such-ref: 'no-such-ref' is not a commit"
    if fmt == "text":
        assert result.err.startswith(f"--against:1:1: error[bad-against]: {message}\n  hint: name a commit git knows")
    elif fmt == "github":
        assert result.out.startswith(f"::error title=contractc bad-against::{message}%0Ahint: ")
    else:
        document = json.loads(result.out)
        assert (document["status"], document["records"], document["diagnostics"][0]["message"]) == (
            "bad-input",
            [],
            message,
        )


def test_outside_a_git_repository_exits_2(tmp_path, run_cli):
    (tmp_path / "contractc.yaml").write_text("contracts:\n  - path: c.md\n")
    (tmp_path / "c.md").write_text("# C\n")
    result = run_cli("diff", "--root", str(tmp_path), "--against", "main")
    assert result.code == 2
    assert "--against:1:1: error[bad-against]: --against main:" in result.err
    assert "Traceback" not in result.err


def test_a_broken_contract_on_the_older_side_is_bad_input_named_by_the_ref(repo, run_cli):
    edit(repo, REVIEW, "## SummaryReturn", "## Scope rules")  # a duplicate anchor
    commit(repo, "broken")
    edit(
        repo,
        REVIEW,
        "## Scope rules\n\nProduced by `change-summarizer`",
        "## SummaryReturn\n\nProduced by `change-summarizer`",
    )
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert result.code == 2
    assert result.err.startswith("HEAD:contracts/review-returns.md:")
    assert "error[duplicate-anchor]" in result.err


def test_usage_errors_exit_2(repo, run_cli):
    assert run_cli("diff", "--root", str(repo)).code == 2
    both = run_cli("diff", "--root", str(repo), "--against", "HEAD", "--against-path", str(repo))
    assert (both.code, "give exactly one of --against REF and --against-path PATH" in both.err) == (2, True)
    no_why = run_cli("diff", "--root", str(repo), "--against", "HEAD", "--accept")
    assert (no_why.code, "--accept needs --why TEXT" in no_why.err) == (2, True)


def test_a_ref_without_contractc_yaml_is_an_empty_project_so_everything_is_added(tmp_path, run_cli):
    root = tmp_path / "p"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "empty")
    make_repo(root)  # adds the contracts in a second commit
    result = run_cli("diff", "--root", str(root), "--against", "HEAD~1", "--format", "json")
    kinds = {r["kind"] for r in json.loads(result.out)["records"]}
    assert (result.code, kinds) == (0, {"contract-added"})


def test_against_path_takes_an_older_project_folder_or_one_contract_file(repo, tmp_path, run_cli):
    old = tmp_path / "old"
    git(repo, "worktree", "add", "-q", str(old), "HEAD")
    edit(repo, "contracts/handoffs.md", *WIDEN)
    folder = run_cli("diff", "--root", str(repo), "--against-path", str(old), "--format", "json")
    single = run_cli(
        "diff", "--root", str(repo), "--against-path", str(old / "contracts/handoffs.md"), "--format", "json"
    )
    for result in (folder, single):
        assert result.code == 1
        assert [r["id"] for r in json.loads(result.out)["records"]] == [
            "enum-values-added:planning-stage.task_brief:$.kind"
        ]
    missing = run_cli("diff", "--root", str(repo), "--against-path", str(tmp_path / "nowhere.md"))
    assert (missing.code, "no such file or folder" in missing.err) == (2, True)
    stranger = tmp_path / "stranger.md"
    stranger.write_text("# S\n")
    unknown = run_cli("diff", "--root", str(repo), "--against-path", str(stranger))
    assert (unknown.code, "names none of today's contracts" in unknown.err) == (2, True)


def test_diff_writes_nothing_but_the_approval_file(repo, run_cli):
    from conftest import snapshot

    edit(repo, REVIEW, *ADD_CHECK)
    before = snapshot(repo)
    run_cli("diff", "--root", str(repo), "--against", "HEAD")
    run_cli("diff", "--root", str(repo), "--against", "HEAD", "--format", "json")
    assert snapshot(repo) == before


def test_quiet_prints_only_the_located_lines(repo, run_cli):
    edit(repo, "contracts/handoffs.md", *WIDEN)
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD", "-q")
    assert (result.code, result.out) == (
        1,
        f"contracts/handoffs.md:{KIND}:1: error[breaking-receivers]: breaking for receivers: planning-stage.task_brief "
        "$.kind: new value(s) docs [enum-values-added:planning-stage.task_brief:$.kind]\n",
    )


def test_a_broken_older_file_or_folder_is_located_at_its_own_path(repo, tmp_path, run_cli):
    old = tmp_path / "old"
    (old / "contracts").mkdir(parents=True)
    (old / "contractc.yaml").write_text("contracts: 3\n")
    folder = run_cli("diff", "--root", str(repo), "--against-path", str(old))
    assert folder.code == 2
    assert folder.err.startswith(f"{old.as_posix()}/contractc.yaml:1:1: error[config-invalid]: $.contracts: 3 is not")
    broken = old / "contracts" / "handoffs.md"
    broken.write_bytes(b"# Hand-offs\n\xff\n")
    single = run_cli("diff", "--root", str(repo), "--against-path", str(broken))
    assert single.code == 2
    assert single.err.startswith(f"{broken.as_posix()}:2:1: error[not-utf8]:")


def test_bad_notation_on_the_older_side_is_named_by_the_ref(repo, run_cli):
    edit(repo, "contracts/handoffs.md", "  budget_hours: 8\n", "  budget_hours: int\n")
    commit(repo, "a typo in the notation")
    edit(repo, "contracts/handoffs.md", "  budget_hours: int\n", "  budget_hours: 8\n")
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert result.code == 2
    assert result.err.startswith("HEAD:contracts/handoffs.md:23:17: error[bad-notation]: ")


def test_a_project_in_a_subfolder_of_the_repository_is_read_at_the_ref_from_that_folder(tmp_path, run_cli):
    from diff_repo import CONFIG, CONTRACTS

    repo = make_repo(
        tmp_path / "repo",
        {"plugin/contractc.yaml": CONFIG, **{f"plugin/contracts/{n}": t for n, t in CONTRACTS.items()}},
    )
    edit(repo, "plugin/contracts/handoffs.md", *WIDEN)
    result = run_cli("diff", "--root", str(repo / "plugin"), "--against", "HEAD", "--format", "json")
    assert result.code == 1
    assert [r["id"] for r in json.loads(result.out)["records"]] == [
        "enum-values-added:planning-stage.task_brief:$.kind"
    ]


def test_a_relative_against_path_is_relative_to_root_not_to_the_current_folder(repo, tmp_path, run_cli, monkeypatch):
    old = repo.parent / "old"
    git(repo, "worktree", "add", "-q", str(old), "HEAD")
    edit(repo, "contracts/handoffs.md", *WIDEN)
    elsewhere = tmp_path / "a" / "b"
    (tmp_path / "a" / "old").mkdir(parents=True)  # what `../old` names from the current folder: no project
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for path in ("../old", "../old/contracts/handoffs.md"):
        result = run_cli("diff", "--root", str(repo), "--against-path", path, "--format", "json")
        assert result.code == 1, result.err
        assert [r["id"] for r in json.loads(result.out)["records"]] == [
            "enum-values-added:planning-stage.task_brief:$.kind"
        ]
    missing = run_cli("diff", "--root", str(repo), "--against-path", "../nowhere")
    assert missing.code == 2
    assert "--against-path ../nowhere" in missing.err and "no such file or folder" in missing.err
