"""The writer's all-or-nothing promise, at the edge where files change under it."""

from __future__ import annotations

import os

from contractc.output import outputs as output
from contractc.report.diagnostics import ContractcError
from contractc.output.outputs import Change


def test_rollback_restores_a_file_that_appeared_after_staging(tmp_path, monkeypatch):
    (tmp_path / "b.md").write_bytes(b"old b")
    changes = [Change("a.md", b"new a", None, None), Change("b.md", b"new b", b"old b", None)]
    real_commit, real_replace = output._commit, os.replace

    def commit_after_someone_writes_a(*args):
        (tmp_path / "a.md").write_bytes(b"written by a person meanwhile")
        return real_commit(*args)

    def replace_failing_on_b(src, dst):
        if str(dst).endswith("b.md") and "contractc-tmp" in str(src):
            raise OSError(28, "No space left on device", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(output, "_commit", commit_after_someone_writes_a)
    monkeypatch.setattr(os, "replace", replace_failing_on_b)
    try:
        output.write_changes(tmp_path, changes)
    except ContractcError as exc:  # the person's file stops the write before b fails: no lost update
        assert exc.diagnostics[0].code == "file-changed" and exc.diagnostics[0].path == "a.md"
    else:
        raise AssertionError("the failed write was not reported")
    monkeypatch.setattr(os, "replace", real_replace)
    assert (tmp_path / "a.md").read_bytes() == b"written by a person meanwhile"
    assert (tmp_path / "b.md").read_bytes() == b"old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".contractc", "a.md", "b.md"]  # no staged or backup file left
    assert sorted(p.name for p in (tmp_path / ".contractc").iterdir()) == [".gitignore"]  # nor a journal


def _interrupt_on(monkeypatch, name: str, exc: BaseException):
    real = os.replace

    def replace(src, dst):
        if str(dst).endswith(name) and "contractc-tmp" in str(src):
            raise exc
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)


def test_ctrl_c_during_commit_rolls_back_and_removes_the_folders_it_created(tmp_path, monkeypatch):
    (tmp_path / "old.md").write_bytes(b"old")
    changes = [
        Change("old.md", b"new", b"old", None),
        Change("deep/er/new.md", b"brand new", None, None),
        Change("zzz.md", b"last", None, None),
    ]
    _interrupt_on(monkeypatch, "zzz.md", KeyboardInterrupt())
    try:
        output.write_changes(tmp_path, changes)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("Ctrl-C was swallowed")
    assert (tmp_path / "old.md").read_bytes() == b"old"
    assert not (tmp_path / "deep").exists()  # the folders the build created are gone again
    assert sorted(p.name for p in tmp_path.iterdir()) == [".contractc", "old.md"]
    assert not (tmp_path / ".contractc/journal.json").exists()


def test_ctrl_c_exits_130_after_rollback(tmp_path, monkeypatch, run_cli):
    from conftest import ECHO_CONFIG, ECHO_CONTRACT, snapshot, write_tree

    root = write_tree(tmp_path, {"contractc.yaml": ECHO_CONFIG, "contracts/c.md": ECHO_CONTRACT})
    before = snapshot(root)
    _interrupt_on(monkeypatch, "manifest.json", KeyboardInterrupt())
    result = run_cli("build", "--root", str(root))
    assert result.code == 130
    assert result.err.strip() == "contractc: interrupted; every file is as it was before this run"
    assert snapshot(root) == before and not (root / "prompts").exists()


def test_backups_fall_back_to_copies_where_hard_links_fail(tmp_path, monkeypatch):
    (tmp_path / "a.md").write_bytes(b"old a")
    (tmp_path / "b.md").write_bytes(b"old b")

    def no_links(src, dst):
        raise PermissionError(1, "Operation not permitted", src)

    monkeypatch.setattr(os, "link", no_links)
    _interrupt_on(monkeypatch, "b.md", OSError(28, "No space left on device", str(tmp_path / "b.md")))
    try:
        output.write_changes(tmp_path, [Change("a.md", b"new a", b"old a", None), Change("b.md", b"new b", b"old b", None)])
    except ContractcError as exc:
        assert exc.diagnostics[0].format().startswith("b.md:1:1: error[write-failed]: could not write b.md: No space left on device")
    else:
        raise AssertionError("the failed write was not reported")
    assert (tmp_path / "a.md").read_bytes() == b"old a"  # restored from the copy
    assert sorted(p.name for p in tmp_path.iterdir()) == [".contractc", "a.md", "b.md"]


def test_write_failed_names_the_users_file_not_a_temporary_one(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    real_open = os.open

    def refuse(path, flags, mode=0o777, **kw):
        if "contractc-tmp" in str(path):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, mode, **kw)

    monkeypatch.setattr(os, "open", refuse)
    try:
        output.write_changes(tmp_path, [Change("sub/x.md", b"x", None, None)])
    except ContractcError as exc:
        assert exc.diagnostics[0].format().startswith("sub/x.md:1:1: error[write-failed]: could not write sub/x.md: Permission denied")
    else:
        raise AssertionError("the failed write was not reported")
    assert sorted(p.name for p in (tmp_path / "sub").iterdir()) == []
