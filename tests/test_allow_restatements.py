"""Prose edits around an adopted plugin's examples and allowed copies never break `check`; an edit inside an allowed copy does.

issue 11, found in trial: `allow_restatements` entries were pinned by line, so one line of
prose above a worked example failed CI twice.  Entries now name the copy by sha256
(docs/adopt.md, "Allowed copies"), and check shares scan's worked-example rule.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from adopt_plugin import EXAMPLES, SURVEY_BRIEF, write_plugin

PROSE = "A note a maintainer added later, with a sample value or two.\n\n"


def _adopted(tmp_path: Path, run_cli) -> Path:
    root = write_plugin(tmp_path / "plugin")
    assert run_cli("adopt", str(root), "--write", "--accept-drift").code == 0
    return root


def _allow(config: Path, entry: str) -> None:
    """``entry`` (``- {...}``) added to the configuration's allow_restatements (adopt wrote one already: the
    record of two keys it left whole)."""
    old = config.read_text()
    key = "allow_restatements:\n"
    config.write_text(old.replace(key, f"{key}  {entry}\n", 1) if key in old else f"{old}{key}  {entry}\n")


def _check(root: Path, run_cli, monkeypatch):
    monkeypatch.chdir(root)
    return run_cli("check")


def _pad_every_block(text: str) -> str:
    """Prose above and below every fenced block outside a region, and at the top and bottom of the file."""
    out, inside, region = [], False, False
    for line in text.splitlines(keepends=True):
        region = region or line.startswith("<!-- contractc:begin")
        fence = line.lstrip().startswith("```")
        if fence and not inside and not region:
            out.append(PROSE)
        out.append(line)
        if fence and inside and not region:
            out.append("\n" + PROSE)
        if fence and not region:
            inside = not inside
        if line.startswith("<!-- contractc:end"):
            region = False
    return PROSE + "".join(out) + "\n" + PROSE


def test_prose_around_every_worked_example_and_between_files_keeps_check_clean(tmp_path, run_cli, monkeypatch):
    root = _adopted(tmp_path, run_cli)
    before = {p: (root / p).read_text() for p in EXAMPLES}
    for rel, text in before.items():
        (root / rel).write_text(_pad_every_block(text))
    for rel in ("agents/survey-orchestrator.md", "agents/section-writer.md", "commands/review.md"):
        if (root / rel).exists():
            (root / rel).write_text(PROSE + (root / rel).read_text() + "\n" + PROSE)
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs/notes.md").write_text("# Notes\n\n" + PROSE)
    result = _check(root, run_cli, monkeypatch)
    assert result.code == 0, result.out
    assert "drift-restatement" not in result.out and "drift-allowance" not in result.out
    assert all((root / p).read_text() != before[p] for p in EXAMPLES)  # the edits really landed


def _copy_block() -> str:
    return "```yaml\n" + SURVEY_BRIEF + "```\n"


def test_an_allowed_copy_of_a_shape_survives_prose_but_an_edit_inside_it_is_reported(tmp_path, run_cli, monkeypatch):
    root = _adopted(tmp_path, run_cli)
    target = root / "agents/section-writer.md"
    target.write_text(target.read_text() + "\n## Kept for readers\n\n" + _copy_block())
    unallowed = _check(root, run_cli, monkeypatch)
    assert unallowed.code == 1
    shape = re.search(r"unmanaged copy of (\S+), identical", unallowed.out)[1]
    line = int(re.search(r"agents/section-writer\.md:(\d+):\d+: error\[drift-restatement\]", unallowed.out)[1])
    digest = hashlib.sha256(_copy_block().encode()).hexdigest()
    config = root / "contractc.yaml"
    _allow(config, f'- {{ path: "agents/section-writer.md", shape: "{shape}", sha256: {digest}, line: {line} }}')
    assert _check(root, run_cli, monkeypatch).code == 0

    # prose above the copy: the copy moves, the entry still matches it; the line hint is a note, not a failure
    text = target.read_text().replace("## Kept for readers\n", "## Kept for readers\n\n" + PROSE + PROSE)
    target.write_text(text)
    moved = _check(root, run_cli, monkeypatch)
    assert moved.code == 0, moved.out
    assert "note[drift-allowance]" in moved.out and f"now starts at agents/section-writer.md:{line + 5}" in moved.out
    assert "drift-restatement" not in moved.out

    # one field edited inside the allowed copy: reported, and the entry that no longer matches says so
    target.write_text(text.replace("  depth: quick | thorough\n  due:", "  depth: quick\n  due:"))
    edited = _check(root, run_cli, monkeypatch)
    assert edited.code == 1
    assert f"unmanaged copy of {shape}, different from the contract" in edited.out
    assert "error[drift-allowance]" in edited.out and "which no copy has" in edited.out


def test_an_entry_pinned_by_line_still_works_and_is_reported_when_the_copy_moves(tmp_path, run_cli, monkeypatch):
    root = _adopted(tmp_path, run_cli)
    target = root / "agents/section-writer.md"
    target.write_text(target.read_text() + "\n## Kept for readers\n\n" + _copy_block())
    line = int(re.search(r"agents/section-writer\.md:(\d+):\d+: error\[drift-restatement\]", _check(root, run_cli, monkeypatch).out)[1])
    config = root / "contractc.yaml"
    _allow(config, f'- {{ path: "agents/section-writer.md", line: {line} }}')
    assert _check(root, run_cli, monkeypatch).code == 0
    target.write_text(target.read_text().replace("## Kept for readers\n", "## Kept for readers\n\n" + PROSE))
    moved = _check(root, run_cli, monkeypatch)
    assert moved.code == 1
    assert "error[drift-allowance]" in moved.out and "sha256" in moved.out  # the hint offers the sturdy form


EXAMPLE_AND_COPY = """\
# Builder

For example, a filled-in brief:

```yaml
task_brief:
  plan: plans/42-migrate.md
  workspace: /srv/work/42
```

For example, the brief's shape with one comment changed (a copy, not an example: its values are notation):

```yaml
task_brief:
  plan: string
  workspace: string   # edited copy
```
"""


def test_check_and_scan_agree_a_filled_in_block_is_an_example_and_a_notation_block_is_a_copy(tmp_path, run_cli):
    from contractc.load.worked import example_reason
    from contractc.scan import blocks
    from test_restatements import check

    assert blocks.example_reason is example_reason  # one rule, called by both commands
    result = check(tmp_path, run_cli, {"agents/builder.md": EXAMPLE_AND_COPY})
    reported = [line for line in result.out.splitlines() if "error[drift-restatement]" in line]
    assert len(reported) == 1, result.out
    assert reported[0].startswith("agents/builder.md:13:1:") and "different from the contract" in reported[0]


def test_the_restatement_hint_prints_the_copys_sha256_as_an_entry_that_allows_it_when_pasted(tmp_path, run_cli, monkeypatch):
    root = _adopted(tmp_path, run_cli)
    target = root / "agents/section-writer.md"
    target.write_text(target.read_text() + "\n## Kept for readers\n\n" + _copy_block())
    unallowed = _check(root, run_cli, monkeypatch)
    assert unallowed.code == 1
    digest = hashlib.sha256(_copy_block().encode()).hexdigest()
    entry = re.search(r"add `(- \{path: [^`]*\})` under allow_restatements in contractc\.yaml", unallowed.out)[1]
    shape = re.search(r"unmanaged copy of (\S+), identical", unallowed.out)[1]
    assert entry == f'- {{path: "agents/section-writer.md", shape: {shape}, sha256: {digest}}}'
    config = root / "contractc.yaml"
    _allow(config, entry)
    allowed = _check(root, run_cli, monkeypatch)
    assert allowed.code == 0, allowed.out
    assert "drift-restatement" not in allowed.out
