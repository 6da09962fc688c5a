"""``contractc init``: a starter that checks clean and builds its site at once, and never overwrites."""

from __future__ import annotations

import subprocess

import pytest

from conftest import snapshot, write_tree

STARTER = {
    "contracts/handoffs.md",
    "contractc.yaml",
    "agents/worker.md",
    "agents/lead.md",
    "mkdocs.yml",
    "docs/index.md",
}


def test_init_writes_the_starter_and_its_first_build_so_check_is_clean(tmp_path, run_cli):
    root = tmp_path / "my-plugin"
    run = run_cli("init", str(root))
    assert run.code == 0, run.err
    assert run.err == ""
    for rel in STARTER:
        assert (root / rel).is_file(), rel
        assert f"created {root.as_posix()}/{rel}" in run.out
    # the first build filled both agents' regions and wrote the snippet and the schemas
    worker = (root / "agents/worker.md").read_text()
    assert "task_brief:\n  goal: string" in worker and "Open questions: <" in worker
    assert "shape=task_brief sha256=" in (root / "agents/lead.md").read_text()
    assert (root / "prompts/worker/workreturn.md").is_file()
    assert (root / "schemas/handoffs/task_brief.schema.json").is_file()
    assert "contractc: 7 written, 0 already current" in run.out
    assert "check-not-mechanised" not in run.out  # every receiver check of the starter compiles to a rule
    check = run_cli("check", "--root", str(root), "--no-cache")
    assert (check.code, check.out) == (0, "contractc: 7 files checked, all current\n")
    again = run_cli("build", "--root", str(root))
    assert again.code == 0 and "wrote" not in again.out


def test_the_starter_has_one_data_shape_and_one_text_shape_with_mechanised_checks(tmp_path, run_cli):
    from contractc.load import load_project

    root = tmp_path / "p"
    assert run_cli("init", str(root)).code == 0
    project = load_project(root)
    kinds = sorted(s.kind for _, s in project.shapes())
    assert kinds == ["data", "text"]
    text = next(s for _, s in project.shapes() if s.kind == "text")
    assert len(text.checks) == 3 and all(c.rules for c in text.checks)


def test_a_return_in_the_starter_form_passes_validate_and_a_wrong_one_fails(tmp_path, run_cli):
    root = tmp_path / "p"
    assert run_cli("init", str(root)).code == 0
    good = tmp_path / "good.txt"
    good.write_text("status: done\n\n- `src/app.py:12`: the flag is read\n\nOpen questions: none\n")
    assert run_cli("validate", "--root", str(root), "workreturn", str(good)).code == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("status: fine\n\n- the flag is read\n")
    assert run_cli("validate", "--root", str(root), "workreturn", str(bad)).code == 1


def test_init_in_the_current_folder_says_the_next_commands(tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    run = run_cli("init")
    assert run.code == 0, run.err
    assert "created contractc.yaml" in run.out
    assert "contractc check" in run.out and "mkdocs build --strict" in run.out
    assert "cd " not in run.out


def test_init_never_overwrites_and_writes_nothing_when_one_file_exists(tmp_path, run_cli):
    root = write_tree(tmp_path / "p", {"mkdocs.yml": "site_name: mine\n", "docs/index.md": "# Mine\n"})
    before = snapshot(root)
    run = run_cli("init", str(root))
    assert run.code == 2
    lines = [line for line in run.err.splitlines() if "error[" in line]
    assert lines == [
        f"{root.as_posix()}/docs/index.md:1:1: error[init-exists]: the file already exists: init never overwrites a file, so it wrote nothing",
        f"{root.as_posix()}/mkdocs.yml:1:1: error[init-exists]: the file already exists: init never overwrites a file, so it wrote nothing",
    ]
    assert "contractc init NEW-FOLDER" in run.err
    assert snapshot(root) == before  # all-or-nothing: not one starter file was written
    assert not (root / ".contractc").exists()


def test_init_in_a_plugin_with_pasted_copies_points_to_scan_and_adopt(tmp_path, run_cli):
    root = write_tree(
        tmp_path / "plugin",
        {"skills/review/SKILL.md": "# Review\n\nSend this:\n\n```yaml\nbrief:\n  goal: string\n```\n"},
    )
    before = snapshot(root)
    run = run_cli("init", str(root))
    assert run.code == 2
    first = run.err.splitlines()[0]
    assert first.startswith(f"{root.as_posix()}/skills/review/SKILL.md:5:1: error[init-plugin]: ")
    assert "`contractc scan`" in run.err and "`contractc adopt --write`" in run.err
    assert snapshot(root) == before


def test_init_refuses_a_file_for_a_folder(tmp_path, run_cli):
    target = tmp_path / "file"
    target.write_text("x")
    run = run_cli("init", str(target))
    assert run.code == 2 and "is a file" in run.err
    assert target.read_text() == "x"


def test_init_help_names_every_file_and_the_way_for_an_existing_plugin(run_cli):
    run = run_cli("init", "--help")
    assert run.code == 0
    for rel in STARTER:
        assert rel in run.out
    assert "contractc scan" in run.out and "contractc adopt" in run.out
    assert "never over a file that exists" in run.out


def test_git_status_is_clean_after_init_and_a_build_that_writes_nothing(tmp_path, run_cli):
    root = tmp_path / "p"
    assert run_cli("init", str(root)).code == 0
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    try:
        subprocess.run([*git, "init", "-q"], check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git is not available")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root)).code == 0
    status = subprocess.run([*git, "status", "--porcelain", "--ignored=no"], check=True, capture_output=True, text=True)
    assert status.stdout == ""
    assert (root / ".contractc/.gitignore").is_file()


def test_the_starter_site_builds_strict_with_a_home_page(tmp_path, run_cli):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    from site_helpers import mkdocs_build

    root = tmp_path / "p"
    assert run_cli("init", str(root)).code == 0
    site = mkdocs_build(root, tmp_path / "site")
    assert (site / "index.html").is_file()
    assert (site / "contracts/index.html").is_file()
    assert (site / "contracts/shapes/task_brief/index.html").is_file()


def test_init_ignores_the_built_site_and_leaves_an_existing_gitignore_byte_identical(tmp_path, run_cli):
    fresh = tmp_path / "fresh"
    run = run_cli("init", str(fresh))
    assert run.code == 0, run.err
    assert f"created {fresh.as_posix()}/.gitignore" in run.out
    assert "/site/" in (fresh / ".gitignore").read_text().splitlines()
    mine = write_tree(tmp_path / "mine", {".gitignore": "node_modules/\n"})
    run = run_cli("init", str(mine))
    assert run.code == 0, run.err  # an ignore file of the user's own is no reason to refuse
    assert (mine / ".gitignore").read_bytes() == b"node_modules/\n"
    assert "left " in run.out and ".gitignore as it is: add `/site/` to it" in run.out
