"""The check cache with managed regions: any edit to a target gives the verdict a full check gives."""

from __future__ import annotations

import os

import pytest

from conftest import write_tree

CONTRACT = """\
# C

## Brief

```yaml
echo_brief:
  text: string                 # what to echo
  mode: loud | quiet
```
"""
CONFIG = 'contracts:\n  - path: contracts/c.md\ntargets: [ "agents/*.md" ]\n'
AGENT = "# Echoer\n\nProse.\n\n<!-- contractc:begin shape=echo_brief -->\n<!-- contractc:end -->\n\nMore prose.\n"
RESTATED = "\n```yaml\necho_brief:\n  text: string                 # what to echo\n  mode: loud | quiet\n```\n"


def _edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


EDITS = {
    "prose outside the region edited": lambda r: _edit(r / "agents/echoer.md", "More prose.", "Other prose."),
    "region edited by hand": lambda r: _edit(r / "agents/echoer.md", "mode: loud", "mode: LOUD"),
    "shape restated outside the region": lambda r: _edit(
        r / "agents/echoer.md", "More prose.\n", "More prose.\n" + RESTATED
    ),
    "end marker deleted": lambda r: _edit(r / "agents/echoer.md", "<!-- contractc:end -->\n", ""),
    "new target with an unbuilt region": lambda r: write_tree(r, {"agents/new.md": AGENT}),
    "target deleted": lambda r: (r / "agents/echoer.md").unlink(),
    "targets glob changed": lambda r: _edit(r / "contractc.yaml", "agents/*.md", "other/*.md"),
}


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_a_stale_cache_never_hides_region_drift(tmp_path, run_cli, edit):
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/c.md": CONTRACT, "agents/echoer.md": AGENT})
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root)).code == 0
    assert (root / ".contractc/check.sha256").read_text().count("agents/echoer.md") == 1
    edit(root)
    cached = run_cli("check", "--root", str(root))
    fresh = run_cli("check", "--root", str(root), "--no-cache")
    assert (cached.code, cached.out, cached.err) == (fresh.code, fresh.out, fresh.err)


def test_a_target_name_that_is_not_unicode_means_no_cache_not_a_crash(tmp_path, run_cli):
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/c.md": CONTRACT, "agents/echoer.md": AGENT})
    (root / os.fsdecode(b"agents/bad-\xff.md")).write_bytes(b"# No region here\n")
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root)).out == "contractc: 4 files checked, all current\n"
    assert not (root / ".contractc/check.sha256").exists()
