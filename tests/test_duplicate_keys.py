"""A pasted JSON block whose object names a key twice (`"task_type"` left over from a rename) is divergent: a JSON
parser keeps only the last of the two, without a word, so the copy does not say what it seems to."""

from __future__ import annotations

from conftest import snapshot, write_tree

CONTEXT = '```json\n{\n  "task": {\n    "number": 12,\n    "name": "{name}",\n    "task_type": "{type}"\n  },\n  "plan_path": "{path}",\n  "depth": 1\n}\n```\n'
TWICE = CONTEXT.replace('"task_type": "{type}"', '"task_type": "founder",\n    "task_type": "{type}"')


def _plugin(tmp_path, blocks: dict[str, str]):
    return write_tree(tmp_path / "p", {f"agents/{name}.md": f"# {name}\n\nYou receive:\n\n{block}" for name, block in blocks.items()})


def test_a_copy_naming_a_key_twice_is_divergent_and_never_the_owner(tmp_path, run_cli):
    # two copies hold the duplicate byte for byte, one does not: the one without it owns the shape
    root = _plugin(tmp_path, {"a": TWICE, "b": TWICE, "c": CONTEXT})
    run = run_cli("scan", str(root))
    assert run.code == 1, run.out
    errors = sorted(line.split(": error[")[0] for line in run.out.splitlines() if "error[" in line)
    assert errors == ["agents/a.md:6:1", "agents/b.md:6:1"], run.out
    assert "it holds task.task_type twice in one object, and a JSON parser keeps only the last" in run.out
    assert "against its owning copy at agents/c.md:6" in run.out and '-    "task_type": "founder",' in run.out


def test_copies_without_a_repeated_key_are_no_drift(tmp_path, run_cli):
    assert run_cli("scan", str(_plugin(tmp_path, {"a": CONTEXT, "b": CONTEXT}))).code == 0


def test_adopt_leaves_the_copy_that_names_a_key_twice_and_check_reports_it(tmp_path, run_cli, monkeypatch):
    root = _plugin(tmp_path, {"a": TWICE, "b": CONTEXT, "c": CONTEXT})
    assert run_cli("adopt", str(root), "--write").code == 0
    assert (root / "agents/a.md").read_bytes() == (f"# a\n\nYou receive:\n\n{TWICE}").encode()  # left as it is
    assert b'"task_type": "founder"' not in (root / "contracts/p.md").read_bytes()
    monkeypatch.chdir(root)
    before = snapshot(root)
    run = run_cli("check")
    assert run.code == 1 and "agents/a.md:6:1: error[drift-unresolved]" in run.out + run.err, run.out + run.err
    assert snapshot(root) == before
