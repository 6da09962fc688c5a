"""The check cache: it confirms "nothing changed" without compiling, and never hides drift."""

from __future__ import annotations

import importlib.util
import json
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ECHO_CONFIG as CONFIG
from conftest import ECHO_CONTRACT as CONTRACT
from conftest import snapshot, write_tree

CLEAN = "contractc: 2 files checked, all current\n"


@pytest.fixture
def project(tmp_path, run_cli):
    root = write_tree(tmp_path / "p", {"contractc.yaml": CONFIG, "contracts/c.md": CONTRACT})
    assert run_cli("build", "--root", str(root)).code == 0
    assert (run_cli("check", "--root", str(root)).code, (root / ".contractc/check.sha256").is_file()) == (0, True)
    return root


def _refuse(*args, **kwargs):
    raise AssertionError("the pipeline ran")


@pytest.fixture
def no_compiler(monkeypatch):
    """Make any full run fail loudly, to prove an answer came from the cache."""
    monkeypatch.setattr("contractc.pipeline.run", _refuse)


def test_second_clean_check_is_answered_from_the_cache_with_the_same_line(project, run_cli, no_compiler):
    result = run_cli("check", "--root", str(project))
    assert (result.code, result.out, result.err) == (0, CLEAN, "")


def test_the_cache_folder_ignores_itself_and_no_cache_neither_reads_nor_writes_it(tmp_path, run_cli):
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/c.md": CONTRACT})
    run_cli("build", "--root", str(root))
    before = snapshot(root)
    assert run_cli("check", "--root", str(root), "--no-cache").out == CLEAN
    assert snapshot(root) == before and not (root / ".contractc/check.sha256").exists()
    run_cli("check", "--root", str(root))
    assert (root / ".contractc/check.sha256").is_file()
    assert (root / ".contractc/.gitignore").read_text().endswith("never committed\n*\n")


def test_no_cache_compiles_even_when_the_cache_is_current(project, run_cli, no_compiler):
    ran = run_cli("check", "--root", str(project), "--no-cache")  # the refusing pipeline is an internal error: exit 3
    assert ran.code == 3 and "internal error (AssertionError)" in ran.err


def test_same_bytes_with_a_new_mtime_are_still_answered_from_the_cache(project, run_cli, no_compiler):
    snippet = project / "prompts/echoer/echoreturn.md"
    os.utime(snippet, ns=(1, 1))
    assert run_cli("check", "--root", str(project)).out == CLEAN


def _edit(path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new))


# Each edit a user can make after a clean, cached check; the cached check must say exactly
# what a check without the cache says.
EDITS = {
    "generated file edited": lambda r: _edit(r / "prompts/echoer/echoreturn.md", b"Read me.", b"Read me!"),
    "generated file deleted": lambda r: (r / "prompts/echoer/echoreturn.md").unlink(),
    "orphan added to an owned folder": lambda r: write_tree(r, {"prompts/old/gone.md": "stale\n"}),
    "contract edited": lambda r: _edit(r / "contracts/c.md", b"Read me.", b"Read me twice."),
    "contract deleted": lambda r: (r / "contracts/c.md").unlink(),
    "config edited": lambda r: _edit(r / "contractc.yaml", b"shared: [shared]", b"shared: []"),
    "config broken": lambda r: _edit(r / "contractc.yaml", b"contracts:", b"contracts: ["),
    "cache file garbled": lambda r: (r / ".contractc/check.sha256").write_text("{"),
    "cache file torn": lambda r: _edit(r / ".contractc/check.sha256", b"md\n", b"m"),
}


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_a_stale_cache_never_hides_drift(project, run_cli, edit):
    edit(project)
    cached = run_cli("check", "--root", str(project))
    fresh = run_cli("check", "--root", str(project), "--no-cache")
    assert (cached.code, cached.out, cached.err) == (fresh.code, fresh.out, fresh.err)
    assert cached.code != 0 or cached.out == CLEAN


def test_a_run_that_is_not_clean_writes_no_cache(tmp_path, run_cli):
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/c.md": CONTRACT})
    assert run_cli("check", "--root", str(root)).code == 1  # nothing built yet
    assert not (root / ".contractc/check.sha256").exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    which=st.sampled_from(
        [
            "contractc.yaml",
            "contracts/c.md",
            "prompts/echoer/echoreturn.md",
            "prompts/manifest.json",
            "prompts/new.md",
            "notes.md",
        ]
    ),
    at=st.integers(min_value=0, max_value=400),
    cut=st.integers(min_value=0, max_value=3),
    insert=st.binary(max_size=3),
)
def test_any_byte_edit_gives_the_same_verdict_with_and_without_the_cache(
    tmp_path_factory, run_cli, which, at, cut, insert
):
    root = write_tree(tmp_path_factory.mktemp("p"), {"contractc.yaml": CONFIG, "contracts/c.md": CONTRACT})
    run_cli("build", "--root", str(root))
    assert run_cli("check", "--root", str(root)).out == CLEAN
    path = root / which
    data = path.read_bytes() if path.exists() else b""
    at = min(at, len(data))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data[:at] + insert + data[at + cut :])
    cached = run_cli("check", "--root", str(root))
    fresh = run_cli("check", "--root", str(root), "--no-cache")
    assert (cached.code, cached.out, cached.err) == (fresh.code, fresh.out, fresh.err)


def test_a_changed_module_of_the_compiler_or_a_library_invalidates_the_cache(project, run_cli, monkeypatch, tmp_path):
    path = write_tree(tmp_path / "lib", {"probe_module.py": "VALUE = 1\n"}) / "probe_module.py"
    spec = importlib.util.spec_from_file_location("probe_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "probe_module", module)  # loaded when the cache is written
    (project / ".contractc/check.sha256").unlink()
    assert run_cli("check", "--root", str(project)).out == CLEAN
    os.utime(path, ns=(1, 1))  # a reinstall of the same code: new mtime, same bytes
    monkeypatch.setattr("contractc.pipeline.run", _refuse)
    assert run_cli("check", "--root", str(project)).out == CLEAN
    path.write_text("VALUE = 2\n")  # an upgrade: other bytes of the same size
    ran = run_cli("check", "--root", str(project))  # the refusing pipeline is an internal error: exit 3
    assert ran.code == 3 and "internal error (AssertionError)" in ran.err


def test_a_cache_written_under_other_options_is_not_used(project):
    from contractc.output.cache import confirm

    head = json.loads((project / ".contractc/check.sha256").read_text().splitlines()[0])
    options = json.loads(head["options"])  # what this check was run with
    assert confirm(project, options) == 2
    assert confirm(project, {**options, "format": "json"}) is None


def _forge(root) -> None:
    """What anyone who can write .contractc/ can do: re-hash the files as they are now."""
    import hashlib

    cache = root / ".contractc/check.sha256"
    head, *lines = cache.read_text().splitlines(keepends=True)
    forged = [f"{hashlib.sha256((root / line[66:-1]).read_bytes()).hexdigest()}  {line[66:]}" for line in lines]
    head = json.loads(head)
    head["folders"] = {}
    cache.write_text(json.dumps(head) + "\n" + "".join(forged))


def test_a_forged_cache_is_why_gates_run_no_cache(project, run_cli):
    snippet = project / "prompts/echoer/echoreturn.md"
    snippet.write_bytes(snippet.read_bytes().replace(b"Read me.", b"Read me, edited."))
    _forge(project)
    # the documented limit: a local cache is trusted, so a forged one passes ...
    assert run_cli("check", "--root", str(project)).code == 0
    # ... and a gate, which runs --no-cache, reports the drift
    result = run_cli("check", "--root", str(project), "--no-cache")
    assert result.code == 1 and "prompts/echoer/echoreturn.md:3:1: error[drift-output]" in result.out


def test_a_cache_of_another_contractc_version_is_ignored(project, run_cli):
    snippet = project / "prompts/echoer/echoreturn.md"
    snippet.write_bytes(snippet.read_bytes().replace(b"Read me.", b"Read me, edited."))
    _forge(project)
    cache = project / ".contractc/check.sha256"
    head, rest = cache.read_text().split("\n", 1)
    cache.write_text(json.dumps({**json.loads(head), "version": "0.0.0"}) + "\n" + rest)
    assert run_cli("check", "--root", str(project)).code == 1


def test_the_gates_do_not_trust_a_cache_unless_asked():
    from conftest import REPO

    hook = (REPO / ".pre-commit-hooks.yaml").read_text()
    assert "entry: contractc check --no-cache" in hook
    action = (REPO / "scripts/contractc-action.sh").read_text()
    assert 'if [ "${INPUT_CACHE:-false}" != "true" ]; then\n    args+=(--no-cache)' in action
    for page in ("README.md", "docs/guide.md", "docs/ci.md"):
        text = (REPO / page).read_text()
        assert "restored cache is safe" not in text and "is safe: files are compared" not in text
        assert "can make `check` pass" in text, page
