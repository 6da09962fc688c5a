"""What `contractc scan` finds beyond plain fenced YAML, JSON and Markdown: every unit a plugin writes in the
habits of real plugins, or a located `scan-unread` note saying why not; and adopt leaves what it cannot write."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from contractc.scan import scan_plugin


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _hashes(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*.md")}


def _members(root: Path) -> dict[str, str]:
    return {f"{m.unit.block.path}:{m.unit.line}": m.label for g in scan_plugin(root).groups for m in g.members}


STATE_LINES = "- **Status:** {status}\n- **Owner:** {name}\n- **Started:** {date}\n"
YAML_LABELS = {
    "templates/state.md": f"# State file\n\n```yaml\n{STATE_LINES}- **Blocker:** {{blocker}}\n```\n",
    "agents/a.md": f"# Agent A\n\nWrite the state:\n\n```markdown\n{STATE_LINES}```\n",
}


def test_markdown_label_lines_under_a_yaml_fence_are_a_template_compared_with_its_copies(tmp_path, run_cli):
    root = _write(tmp_path, YAML_LABELS)
    (group,) = scan_plugin(root).groups
    assert group.owner.block.path == "templates/state.md"  # the definition, read although its fence says yaml
    assert [u.block.path for u in group.divergent] == ["agents/a.md"]
    run = run_cli("scan", str(root))
    assert run.code == 1 and "-- **Blocker:** {blocker}" not in run.out and "+- **Blocker:** {blocker}" in run.out


def test_adopt_leaves_a_yaml_fenced_markdown_template_and_says_why(tmp_path, run_cli):
    root = _write(tmp_path, YAML_LABELS)
    before = _hashes(root)
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.out + run.err
    assert "a ```yaml fence holding a Markdown template, not YAML" in run.out
    assert _hashes(root) == before  # nothing rewritten: a contract would read the template as YAML


NOTATION_SKILL = """# Skill x

Write the result file:

```json
{
  "status": "success|partial|failed",
  "tokens": {TOTAL},
  "input": {INPUT},
  "items": [...],
  "done": true|false,
  "summary": "..."
}
```
"""
CONCEPT = '# Concept\n\n```json\n{"status": "success|failure", "tokens": 5, "items": [], "done": true, "summary": "..."}\n```\n'


def test_json_written_in_notation_is_a_member_of_its_shape(tmp_path):
    root = _write(tmp_path, {"skills/x/SKILL.md": NOTATION_SKILL, "concepts/a.md": CONCEPT, "concepts/b.md": CONCEPT})
    (group,) = scan_plugin(root).groups
    skill = next(m.unit for m in group.members if m.unit.block.path == "skills/x/SKILL.md")
    assert {"tokens", "input", "items", "done"} <= skill.paths
    assert ("tokens", '"{TOTAL}"') in skill.slots  # the placeholder, as a placeholder: no worked example
    assert not skill.block.example


def test_adopt_leaves_a_shape_holding_json_in_notation(tmp_path, run_cli):
    root = _write(tmp_path, {"skills/x/SKILL.md": NOTATION_SKILL, "concepts/a.md": CONCEPT, "concepts/b.md": CONCEPT})
    before = _hashes(root)
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.out + run.err
    assert "skills/x/SKILL.md:6 in this shape is JSON written in notation" in run.out
    assert _hashes(root) == before and not (root / "contracts").exists()


def test_a_block_scan_cannot_read_is_counted_and_located_never_dropped_without_a_word(tmp_path, run_cli):
    root = _write(
        tmp_path,
        {
            "a.md": "# A\n\n```json\n{ this is not json, at all ]\n```\n\n```yaml\n- just\n- a list\n```\n\n```bash\necho hi\n```\n",
            "b.md": "# B\n\n```xml\n<task type=\"auto\">\n  <name>Build</name>\n</task>\n```\n",
        },
    )
    quiet = run_cli("scan", str(root))
    assert quiet.code == 0 and "3 blocks not read (-v lists them)" in quiet.out.splitlines()[-1]
    run = run_cli("scan", str(root), "-v")
    assert "a.md:3:1: note[scan-unread]: this ```json block is not read: not JSON, even with its notation quoted (line 1" in run.out
    assert "a.md:7:1: note[scan-unread]: this ```yaml block is not read: its YAML is a list" in run.out
    assert "b.md:3:1: note[scan-unread]: this ```xml block is not read: markup" in run.out
    assert "```bash" not in run.out  # another language's block is no candidate shape
    doc = json.loads(run_cli("scan", str(root), "--format", "json").out)
    assert sum(1 for d in doc["diagnostics"] if d["code"] == "scan-unread") == 3


def _form(label: str) -> str:
    return f"<reply_form>\n**Summary:** [one line]\n**{label}:** [pass or fail]\n**Next step:** [what to do]\n</reply_form>\n"


def test_a_placeholder_form_in_an_xml_fence_is_a_template(tmp_path):
    files = {f"agents/{n}.md": f"# Agent {n}\n\n```xml\n{_form('Decision' if n == 'gamma' else 'Verdict')}```\n" for n in ("alpha", "beta", "gamma")}
    root = _write(tmp_path, files)
    (group,) = scan_plugin(root).groups
    assert [u.block.path for u in group.divergent] == ["agents/gamma.md"]
    assert {"tag:reply_form", "label:summary", "label:verdict", "label:next step"} == group.owner.paths
