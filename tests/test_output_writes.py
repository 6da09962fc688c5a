"""The writer's all-or-nothing promise, at the edge where files change under it."""

from __future__ import annotations

import os

from contractc import output
from contractc.diagnostics import ContractcError
from contractc.output import Change


def test_rollback_restores_a_file_that_appeared_after_staging(tmp_path, monkeypatch):
    (tmp_path / "b.md").write_bytes(b"old b")
    changes = [Change("a.md", b"new a", None, None), Change("b.md", b"new b", b"old b", None)]
    real_commit, real_replace = output._commit, os.replace

    def commit_after_someone_writes_a(staged):
        (tmp_path / "a.md").write_bytes(b"written by a person meanwhile")
        return real_commit(staged)

    def replace_failing_on_b(src, dst):
        if str(dst).endswith("b.md") and "contractc-tmp" in str(src):
            raise OSError(28, "No space left on device", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(output, "_commit", commit_after_someone_writes_a)
    monkeypatch.setattr(os, "replace", replace_failing_on_b)
    try:
        output.write_changes(tmp_path, changes)
    except ContractcError as exc:
        assert exc.diagnostics[0].code == "write-failed"
    else:
        raise AssertionError("the failed write was not reported")
    monkeypatch.setattr(os, "replace", real_replace)
    assert (tmp_path / "a.md").read_bytes() == b"written by a person meanwhile"
    assert (tmp_path / "b.md").read_bytes() == b"old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".contractc", "a.md", "b.md"]  # no staged or backup file left
    assert sorted(p.name for p in (tmp_path / ".contractc").iterdir()) == [".gitignore"]  # nor a journal
