"""Hostile inputs on the surfaces issue 22 tried: git in a scanned checkout, the approval file, the older
side of diff, links and terminal escapes in output, and the crashes that became located exit 2s."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pytest

from adopt_plugin import SURVEY_BRIEF, write_plugin, yaml
from conftest import ECHO_CONFIG, ECHO_CONTRACT, write_tree
from diff_repo import edit, make_repo
from test_bad_inputs import tree_state

CANARY_COMMAND = "touch {canary}; false"


def _hostile_git(root: Path, canary: Path) -> None:
    """A checkout whose .git/config would run code: an fsmonitor hook and a filter driver."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for key, value in (("core.fsmonitor", CANARY_COMMAND.format(canary=canary)), ("filter.evil.clean", f"touch {canary}; cat")):
        subprocess.run(["git", "-C", str(root), "config", key, value], check=True)
    (root / ".gitattributes").write_text("* filter=evil\n")


def test_scan_runs_no_code_from_the_checkout_it_reads(tmp_path, run_cli):
    plugin = write_plugin(tmp_path / "plugin")
    canary = tmp_path / "owned"
    _hostile_git(plugin, canary)
    subprocess.run(["git", "-C", str(plugin), "-c", "core.fsmonitor=false", "-c", "filter.evil.clean=", "add", "-A"], check=True)
    for command in (("scan", str(plugin)), ("scan", str(plugin), "--format", "json"), ("adopt", str(plugin))):
        result = run_cli(*command)
        assert result.code in (0, 1), result.err
        assert not canary.exists(), f"{command[0]} ran the checkout's git configuration"
    assert "agents/" in run_cli("scan", str(plugin), "--format", "json").out  # git still listed the files


def test_check_changed_since_and_diff_run_no_code_from_the_repository(tmp_path, run_cli):
    repo = make_repo(tmp_path / "project")
    canary = tmp_path / "owned"
    _hostile_git(repo, canary)
    edit(repo, "contracts/handoffs.md", "  budget_hours: 8\n", "  budget_hours: 8\n  labels: [ string ]       # optional\n")
    assert run_cli("diff", "--root", str(repo), "--against", "HEAD").code == 0
    assert run_cli("check", "--root", str(repo), "--changed-since", "HEAD").code in (0, 1)
    assert not canary.exists()


def _accepted_outside(repo: Path, tmp_path: Path, run_cli) -> Path:
    edit(repo, "contracts/review-returns.md", "4. The whole return is at most 60 lines.", "4. Every bullet names one problem only.\n5. The whole return is at most 60 lines.")
    assert run_cli("diff", "--root", str(repo), "--against", "HEAD").code == 1
    assert run_cli("diff", "--root", str(repo), "--against", "HEAD", "--accept", "--why", "intended").code == 0
    outside = tmp_path / "outside-approvals.yaml"
    os.replace(repo / "contractc.changes.yaml", outside)
    return outside


def test_an_approval_file_that_is_a_link_is_refused_and_its_entries_do_not_count(tmp_path, run_cli):
    repo = make_repo(tmp_path / "project")
    outside = _accepted_outside(repo, tmp_path, run_cli)
    (repo / "contractc.changes.yaml").symlink_to(outside)
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert result.code == 2, result.out + result.err
    assert "contractc.changes.yaml:1:1: error[unsafe-path]: contractc.changes.yaml is a symbolic link" in result.err


def test_against_path_refuses_a_huge_file_before_reading_it(tmp_path, run_cli, monkeypatch):
    repo = make_repo(tmp_path / "project")
    huge = tmp_path / "handoffs.md"
    with open(huge, "wb") as handle:
        handle.truncate(1 << 30)  # 1 GiB, sparse: no disk and, if read, a GiB of memory
    read = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(n) or real_read(fd, n))
    result = run_cli("diff", "--root", str(repo), "--against-path", str(huge))
    monkeypatch.undo()
    assert result.code == 2
    assert "error[file-unreadable]" in result.err and "larger than 16 MiB" in result.err, result.err
    assert all(n < 1 << 25 for n in read), "a read asked for the whole file"


def test_an_approval_file_at_a_ref_over_the_limit_is_refused_before_it_is_read(tmp_path, run_cli):
    from diff_repo import commit

    repo = make_repo(tmp_path / "project")
    (repo / "contractc.changes.yaml").write_bytes(b"#" * (17 << 20))
    commit(repo, "a huge approval file")
    (repo / "contractc.changes.yaml").unlink()
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert result.code == 2
    assert result.err.startswith("HEAD:contractc.changes.yaml:1:1: error[file-unreadable]: HEAD:contractc.changes.yaml is larger than 16 MiB"), result.err


def test_against_path_does_not_follow_a_link(tmp_path, run_cli):
    repo = make_repo(tmp_path / "project")
    (tmp_path / "old.md").write_bytes((repo / "contracts/handoffs.md").read_bytes())
    (tmp_path / "handoffs.md").symlink_to(tmp_path / "old.md")
    result = run_cli("diff", "--root", str(repo), "--against-path", str(tmp_path / "handoffs.md"))
    assert result.code == 2 and "is a symbolic link" in result.err, result.err


LINKS = (
    "See [a](javascript:alert(1)), [b](https://ok.example/), [c](data:text/html,<b>x</b>), "
    "![i](JaVa&#115;cript:alert(2)), [t](java\tscript:x), [v](vbscript:msgbox), [f](file:///etc/passwd), "
    "[rel](other.md#x), [m](mailto:a@b.example) and [r].\n\n[r]: javascript:evil()\n"
)


def test_unsafe_link_schemes_are_neutralised_on_the_site(tmp_path, run_cli):
    markdown = pytest.importorskip("markdown")
    root = write_tree(tmp_path, {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": ECHO_CONTRACT.replace("Read me.", LINKS)})
    assert run_cli("build", "--root", str(root), "--site-pages", "docs").code == 0
    page = (root / "docs/contracts/c.md").read_text("utf-8")
    # the stored page is what both engines render (Zensical reads it as it is; mkdocs through the plugin)
    html = markdown.markdown(page, extensions=["attr_list"])
    hrefs = [h.lower() for h in __import__("re").findall(r'(?:href|src)="([^"]*)"', html)]
    assert "https://ok.example/" in hrefs and "other.md#x" in hrefs and "mailto:a@b.example" in hrefs
    for href in hrefs:
        plain = "".join(ch for ch in __import__("html").unescape(href) if ch > " ")
        assert not plain.startswith(("javascript:", "data:", "vbscript:", "file:")), href
    assert page.count("#blocked-link") == 7


def test_validate_evidence_escapes_control_characters_of_the_return(tmp_path, run_cli, monkeypatch):
    root = write_tree(tmp_path, {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": ECHO_CONTRACT, "r.txt": "\x1b]0;owned\x07\x1b[2Jecho? \x1b[31mred\u202e\n"})
    assert run_cli("build", "--root", str(root)).code == 0
    monkeypatch.chdir(root)
    for options in (("--evidence",), ()):
        result = run_cli("validate", "--root", str(root), "echoreturn", "r.txt", *options)
        assert result.code == 1, result.err
        said = result.out + result.err
        assert "\x1b" not in said and "\x07" not in said and "\u202e" not in said
        assert "\\x1b]0;owned\\x07\\x1b[2Jecho? \\x1b[31mred\\u202e" in said


# --- crashes that are now located exit 2s


@pytest.mark.parametrize("depth", [65, 100_000])
def test_a_json_block_nested_too_deep_is_a_located_exit_2_not_a_crash(tmp_path, run_cli, depth):
    plugin = write_plugin(tmp_path / "plugin")
    (plugin / "agents/deep.md").write_text("# Deep\n\n```json\n" + "[" * depth + "]" * depth + "\n```\n")
    before = tree_state(plugin)
    for command in ("scan", "adopt"):
        result = run_cli(command, str(plugin))
        assert result.code == 2, result.err
        assert "agents/deep.md:3:1: error[scan-too-deep]: " in result.err
        assert "internal error" not in result.err
    assert tree_state(plugin) == before


def test_adopt_with_contracts_as_a_file_is_a_located_error(tmp_path, run_cli):
    plugin = write_plugin(tmp_path / "plugin")
    (plugin / "contracts").write_text("a file\n")
    before = tree_state(plugin)
    result = run_cli("adopt", str(plugin), "--write")
    assert result.code == 2 and result.err.startswith("contracts:1:1: error[unsafe-path]: contracts is not a folder"), result.err
    assert tree_state(plugin) == before


@pytest.mark.parametrize(
    "name, why", [("a" * 300, "is 300 characters long as a file name; at most 100"), ("../../escape", "is a path, not a name"), ("..", "is a path")]
)
def test_adopt_refuses_a_name_it_would_have_to_change(tmp_path, run_cli, name, why):
    plugin = write_plugin(tmp_path / "plugin")
    before = tree_state(tmp_path)
    result = run_cli("adopt", str(plugin), "--name", name, "--write")
    assert result.code == 2 and result.err.startswith("--name:1:1: error[unsafe-name]: --name ") and why in result.err, result.err
    assert tree_state(tmp_path) == before


@pytest.mark.parametrize("fmt", ["json", "github", "text"])
def test_a_file_name_that_is_not_utf8_is_a_located_error(tmp_path, run_cli, fmt):
    plugin = write_plugin(tmp_path / "plugin")
    (plugin / "agents" / os.fsdecode(b"bad\xff.md")).write_text("# x\n\n" + yaml(SURVEY_BRIEF.replace("topic", "topik")))
    for command in ("scan", "adopt"):
        result = run_cli(command, str(plugin), "--format", fmt)
        assert result.code == 2, result.err
        said = json.loads(result.out)["diagnostics"][0]["path"] if fmt == "json" else result.out + result.err
        assert "agents/bad\\xff.md" in said and (fmt == "json" or "unsafe-name" in said)


def test_an_unwritable_project_root_is_a_located_error(tmp_path, run_cli, monkeypatch):
    root = write_tree(tmp_path / "project", {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": ECHO_CONTRACT})
    real_mkdir = os.mkdir

    def read_only(path, *args, **kwargs):  # as root every folder is writable: the refusal is simulated
        if os.path.dirname(os.fspath(path)) == str(root):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", read_only)
    before = tree_state(tmp_path)
    result = run_cli("build", "--root", str(root))
    assert result.code == 2
    assert result.err.startswith(".contractc:1:1: error[write-failed]: cannot create .contractc/ in the project root: Permission denied"), result.err
    assert tree_state(tmp_path) == before
    assert run_cli("check", "--root", str(root), "--no-cache").code == 1  # check writes nothing: it still reports


def test_contractc_state_is_never_left_without_its_gitignore(tmp_path, run_cli, monkeypatch):
    root = write_tree(tmp_path / "project", {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": ECHO_CONTRACT})
    real_open = open

    def no_space(path, mode="r", *args, **kwargs):
        if os.fspath(path).endswith(".gitignore") and "x" in mode:
            raise OSError(errno.ENOSPC, "No space left on device", path)
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", no_space)
    assert run_cli("build", "--root", str(root)).code == 2
    monkeypatch.undo()
    assert not os.path.lexists(root / ".contractc") and [p.name for p in root.iterdir()] == ["contractc.yaml", "contracts"]
    (root / "contracts/c.md").write_text("# broken\n\n```yaml\nx: [\n```\n")
    assert run_cli("build", "--root", str(root)).code == 2  # a failed build...
    assert (root / ".contractc/.gitignore").read_text().endswith("*\n")  # ...leaves .contractc ignored


def test_adopt_compiles_its_plan_inside_contractc_and_the_next_run_removes_a_killed_copy(tmp_path, run_cli, monkeypatch):
    plugin = write_plugin(tmp_path / "plugin")
    stale = plugin / ".contractc/adopt-999999999-killed"  # no such process: a run that was killed
    (stale / "agents").mkdir(parents=True)
    (stale / "agents/copy.md").write_text("a copy of the plugin\n")
    from contractc import pipeline

    seen = []
    real = pipeline.compile_project
    monkeypatch.setattr(pipeline, "compile_project", lambda base, *a, **k: seen.append(Path(base)) or real(base, *a, **k))
    import tempfile

    made = []
    real_mkdtemp = tempfile.mkdtemp
    def mkdtemp(suffix=None, prefix=None, dir=None):
        made.append((prefix, dir))
        return real_mkdtemp(suffix, prefix, dir)

    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp)
    assert run_cli("adopt", str(plugin), "--write", "--accept-drift").code == 0
    assert seen and all(p.parent == plugin / ".contractc" and p.name.startswith(f"adopt-{os.getpid()}-") for p in seen)
    assert not stale.exists() and not any(p.name.startswith("adopt-") for p in (plugin / ".contractc").iterdir())
    copies = [d for prefix, d in made if prefix != "contractc-scan-"]  # scan's empty git folder is no copy
    assert copies and all(d == str(plugin / ".contractc") for d in copies)  # no copy in the system temp folder
    assert run_cli("check", "--root", str(plugin)).code == 0
