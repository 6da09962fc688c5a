"""The ``scan`` benchmark: a plugin of P Markdown files with pasted shapes, and the read-and-compare floor.

The plugin has three stages; each file is about 4 KB of prose holding the
stage's hand-off brief (the same key, ``task_brief``, with other fields in each
stage), a return shape and a report template, as orchestrators and specialists
paste them.  One copy in 25 has drifted by a comment (one in 4 for a small P).  The floor
(``scan_floor.py``) is the least a script could do to find that drift: read
every file once, cut out the fenced blocks with ``str.find``, and compare each
block byte for byte with the first block that starts with the same line.
"""

from __future__ import annotations

import random
from pathlib import Path

STAGES = ("survey", "drafting", "review")
BRIEFS = {
    "survey": "task_brief:\n  topic: string                # the subject\n  depth: quick | thorough\n  due: \"YYYY-MM-DD\"\n",
    "drafting": "task_brief:\n  outline: [ { heading, intent } ]\n  audience: developers | operators\n  word_budget: 800\n",
    "review": "task_brief:\n  draft: { ...draft_section... }\n  strictness: lenient | strict\n  checklist: [ string ]\n",
}
RETURNS = {
    "survey": "survey_findings:\n  - source: string\n    claim: string              # one sentence\n    confidence: high | low\n",
    "drafting": "draft_section:\n  heading: string\n  word_count: 0\n  cites: [ string ]           # ← TRANSIENT\n",
    "review": "critique_report:\n  gate: pass | fail\n  notes: [ string ]\n",
}
TEMPLATE = "```\nSTAGE_STATUS: complete | partial\n## Done\n- <item>\n## Open\n- <question>\n```\n"
PROSE = (
    "The specialist reads the brief once, does the work the stage asks for and returns exactly the shape "
    "below; anything else is a re-dispatch. Keep the return short and cite every source you used.\n\n"
)


def write_scan_corpus(base: Path, files: int, drift_every: int = 25) -> Path:
    """Write the plugin under ``base/scan-<files>`` and return its root (a small one still gets a drifted copy)."""
    drift_every = drift_every if files >= 3 * drift_every else 4  # never a multiple of the 3 stages
    root = base / f"scan-{files}"
    rng = random.Random(files)
    for i in range(files):
        stage = STAGES[i % 3]
        folder = "agents" if i % 5 else "skills"
        name = f"{folder}/{stage}-{i:04d}.md" if folder == "agents" else f"skills/{stage}-{i:04d}/SKILL.md"
        brief, ret = BRIEFS[stage], RETURNS[stage]
        if i % drift_every == drift_every - 1:
            lines = brief.splitlines(keepends=True)
            lines[2] = lines[2].replace("\n", "   # drifted\n")
            brief = "".join(lines)
        body = [f"# {stage} agent {i}\n\n## {stage.capitalize()} stage\n\n"]
        body += [PROSE * rng.randint(4, 8), "You receive:\n\n", f"```yaml\n{brief}```\n\n"]
        body += [PROSE * rng.randint(4, 8), "You return:\n\n", f"```yaml\n{ret}```\n\n", "Then report:\n\n", TEMPLATE]
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(body), "utf-8")
    return root


def clean(root: Path) -> dict[Path, bytes]:
    """Remove every planted drift (returning the drifted bytes, for :func:`restore`)."""
    saved = {}
    for path in root.rglob("*.md"):
        data = path.read_bytes()
        if b"   # drifted" in data:
            saved[path] = data
            path.write_bytes(data.replace(b"   # drifted", b""))
    return saved


def restore(saved: dict[Path, bytes]) -> None:
    for path, data in saved.items():
        path.write_bytes(data)
