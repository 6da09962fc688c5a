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


def test_an_unfenced_tag_section_pasted_into_agents_is_a_unit_and_its_drift_is_reported(tmp_path, run_cli):
    files = {
        f"agents/{n}.md": f"# Agent {n}\n\nYou do things.\n\n{_form('Decision' if n == 'gamma' else 'Verdict')}\nMore prose.\n"
        for n in ("alpha", "beta", "gamma")
    }
    root = _write(tmp_path, files)
    (group,) = scan_plugin(root).groups
    assert group.id == "reply_form"  # named from its tag, as a tag-wrapped template is
    assert [f"{u.block.path}:{u.line}" for u in group.divergent] == ["agents/gamma.md:5"]
    run = run_cli("scan", str(root))
    assert run.code == 1 and "-**Decision:** [pass or fail]\n+**Verdict:** [pass or fail]" in run.out


def test_the_same_form_fenced_and_unfenced_is_one_shape(tmp_path):
    root = _write(
        tmp_path,
        {
            "agents/alpha.md": f"# Alpha\n\n{_form('Verdict')}",
            "agents/beta.md": f"# Beta\n\n```\n{_form('Verdict')}```\n",
            "agents/gamma.md": f"# Gamma\n\n```xml\n{_form('Decision')}```\n",
        },
    )
    (group,) = scan_plugin(root).groups
    assert [u.block.path for u in group.divergent] == ["agents/gamma.md"]


def _criteria(items: list[str]) -> str:
    return "<success_criteria>\n" + "".join(f"- [ ] {item}\n" for item in items) + "</success_criteria>\n"


def test_a_checklist_section_is_compared_item_by_item(tmp_path):
    same = ["Tests pass", "Docs updated", "Changelog entry written", "Reviewed by a peer"]
    own = ["Every finding fixed or skipped", "Each fix committed", "No file left broken", "Report written"]
    root = _write(
        tmp_path,
        {
            "agents/a.md": "# A\n\n" + _criteria(same),
            "agents/b.md": "# B\n\n" + _criteria(same),
            "agents/c.md": "# C\n\n" + _criteria([*same[:3], "Reviewed by two peers"]),
            "agents/d.md": "# D\n\n" + _criteria(own),  # its own checklist under the same tag: another shape
        },
    )
    (group,) = scan_plugin(root).groups
    assert sorted(u.block.path for u in group.copies) == ["agents/a.md", "agents/b.md", "agents/c.md"]
    assert [u.block.path for u in group.divergent] == ["agents/c.md"]


def test_a_section_of_prose_or_inside_code_is_no_unit(tmp_path):
    prose = "<instructions>\nRead the plan first.\nThen write the code, one step at a time.\n**Note:** be brief.\n</instructions>\n"
    inside = f"```text\n{_form('Verdict')}```\n"
    root = _write(tmp_path, {f"agents/{n}.md": f"# {n}\n\n{prose}\n" for n in "ab"} | {"agents/c.md": inside, "agents/d.md": inside.replace("text", "bash")})
    assert not [m for g in scan_plugin(root).groups for m in g.members if not m.unit.block.fence]


MINOR = "# Plan: v{{MAJOR}} - [Name]\n\n## Overview\n[What this release does]\n\n## Scope\n[In and out]\n\n## Tasks\n- [task one]\n\n## Risks\n[What may go wrong]\n\n## Gates\n[What must pass]\n"
STALE = MINOR.replace("## Tasks\n", "## Tasks Overview\n").split("\n## Gates")[0] + "\n"


def test_a_whole_template_file_is_the_definition_its_stale_fenced_copies_are_held_to(tmp_path, run_cli):
    root = _write(
        tmp_path,
        {
            "templates/minor.md": "---\ndescription: the minor plan\n---\n" + MINOR,
            "commands/one.md": f"# One\n\nWrite the plan:\n\n```markdown\n{STALE}```\n",
            "commands/two.md": f"# Two\n\nWrite the plan:\n\n```markdown\n{STALE}```\n",
        },
    )
    (group,) = scan_plugin(root).groups
    assert f"{group.owner.block.path}:{group.owner.line}" == "templates/minor.md:4"  # the body, after its front matter
    assert "declares it as the definition" in group.owner_reason
    assert sorted(u.block.path for u in group.divergent) == ["commands/one.md", "commands/two.md"]


def test_a_section_of_a_template_file_pasted_on_its_own_is_an_excerpt_not_drift(tmp_path):
    part = "## Overview\n[What this release does]\n\n## Scope\n[In and out]\n\n## Tasks\n- [task one]\n\n## Risks\n[What may go wrong]\n"
    root = _write(tmp_path, {"templates/minor.md": MINOR, "commands/one.md": f"# One\n\nWrite the section:\n\n```markdown\n{part}```\n"})
    (group,) = scan_plugin(root).groups
    (member,) = [m for m in group.members if m.unit.block.path == "commands/one.md"]
    assert member.label == "instance" and not member.divergent and "excerpt" in member.reason


def test_a_file_in_templates_with_fences_or_of_prose_is_no_whole_file_unit(tmp_path):
    root = _write(
        tmp_path,
        {
            "templates/guide.md": "# Guide\n\nSome prose about plans, and nothing to fill in.\n\nMore prose.\n",
            "templates/holder.md": f"# Holder\n\n```markdown\n{STALE}```\n",
            "commands/one.md": f"```markdown\n{STALE}```\n",
        },
    )
    (group,) = scan_plugin(root).groups
    assert sorted(f"{u.block.path}:{u.line}" for u in group.copies) == ["commands/one.md:2", "templates/holder.md:4"]


def test_adopt_leaves_every_unfenced_unit_byte_for_byte_and_says_why(tmp_path, run_cli):
    files = {f"agents/{n}.md": f"# Agent {n}\n\n{_form('Decision' if n == 'gamma' else 'Verdict')}" for n in ("alpha", "beta", "gamma")}
    files |= {"templates/minor.md": MINOR, "commands/one.md": f"```markdown\n{STALE}```\n", "commands/two.md": f"```markdown\n{STALE}```\n"}
    ping = "```yaml\nping:\n  at: string\n  from: string\n```\n"
    files |= {"agents/p.md": ping, "agents/q.md": ping}  # one ordinary shape, so adopt has something to write
    root = _write(tmp_path, files)
    before = _hashes(root)
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.out + run.err
    assert "is an unfenced <tag> section: adopt writes regions around fenced blocks only" in run.out
    assert "is a whole template file, not a fenced block" in run.out
    after = _hashes(root)
    changed = {p for p in before if before[p] != after.get(p)}
    assert changed == {"agents/p.md", "agents/q.md"}  # only the fenced shape's files got regions
    check = run_cli("check", "--root", str(root), "--no-cache")
    assert check.code == 1  # the drift adopt left is not hidden: check reports each divergent copy it left
    found = sorted(line.split(":")[0] for line in check.out.splitlines() if "error[drift-unresolved]" in line)
    assert found == ["agents/gamma.md", "commands/one.md", "commands/two.md"]
    assert run_cli("scan", str(root)).code == 1  # and scan still reports it


def test_an_unfenced_section_under_a_bad_label_is_an_example(tmp_path):
    root = _write(
        tmp_path,
        {
            "agents/a.md": f"# A\n\n{_form('Verdict')}",
            "agents/b.md": f"# B\n\n{_form('Verdict')}",
            "agents/c.md": f"# C\n\nBad:\n\n{_form('Decision')}",
        },
    )
    (group,) = scan_plugin(root).groups
    assert not group.divergent and [m.label for m in group.members if m.unit.block.path == "agents/c.md"] == ["example"]


def test_each_common_json_notation_is_read_and_strings_are_kept_as_written(tmp_path):
    block = (
        '```json\n{\n  "kind": "a" | "b",  // which one\n  "count": <int 1-10>,\n  "ids": [...],\n  "url": "https://x.io/{id}|y",\n'
        '  "when": {{DATE}},\n  "type": string,\n  ...\n  "last": null,\n}\n```\n'
    )
    root = _write(tmp_path, {"a.md": block, "b.md": block})
    (group,) = scan_plugin(root).groups
    slots = dict(group.owner.slots)
    assert slots == {
        "kind": '"a|b"', "count": '"<int 1-10>"', "ids": '["..."]', "url": '"https://x.io/{id}|y"', "when": '"{{DATE}}"',
        "type": '"string"', "last": "null",
    }  # fmt: skip


def test_a_huge_unreadable_json_block_is_refused_quickly_as_unread(tmp_path, run_cli):
    root = _write(tmp_path, {"a.md": "```json\n{\"a\": {a" + " " * 200_000 + "x\n```\n"})
    run = run_cli("scan", str(root), "-v")
    assert run.code == 0 and "note[scan-unread]: this ```json block is not read: not JSON" in run.out


def test_a_nested_project_with_its_own_config_is_not_read_and_adopt_leaves_every_byte_of_it(tmp_path, run_cli):
    ping = "```yaml\nping:\n  at: string\n  from: string\n```\n"
    drifted = ping.replace("from: string", "from: string   # who")
    root = _write(
        tmp_path,
        {
            "agents/p.md": ping, "agents/q.md": ping,
            "examples/demo/contractc.yaml": "contracts: []\n",
            "examples/demo/agents/p.md": drifted, "examples/demo/agents/q.md": ping,
            "examples/demo/prompts/x.md": ping,
        },
    )  # fmt: skip
    nested = {p: h for p, h in _hashes(root).items() if p.startswith("examples/demo/")}
    nested["examples/demo/contractc.yaml"] = hashlib.sha256((root / "examples/demo/contractc.yaml").read_bytes()).hexdigest()
    scan = run_cli("scan", str(root))
    assert scan.code == 0  # the nested project's drifted copy is its own business
    last = scan.out.splitlines()[-1]
    assert "1 nested project not read, each with its own contractc.yaml: examples/demo/; --include 'examples/demo/**' reads one" in last
    assert scan_plugin(root).files == ("agents/p.md", "agents/q.md")
    assert scan_plugin(root, include=("examples/demo/**",)).divergent == 1  # read when asked for by name
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.out + run.err
    after = _hashes(root)
    assert {p: after[p] for p in nested if p.endswith(".md")} == {p: h for p, h in nested.items() if p.endswith(".md")}
    assert hashlib.sha256((root / "examples/demo/contractc.yaml").read_bytes()).hexdigest() == nested["examples/demo/contractc.yaml"]
    assert not (root / "examples/demo/contracts").exists()
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0


def _stats(size_label: str = "Stored Size", section: str = "SPEED", entries: str = "812", when: str = "an hour ago") -> str:
    return (
        "```\n🧮 Store Report\n══════════════════════════════\n\nCOUNTS\n──────────────────────────────\n"
        f"Entries:        {entries}\n{size_label}:    4.5 MB\nOldest Entry:   3 days\nLast Sweep:     {when}\n\n"
        f"{section}\n──────────────────────────────\nHit Rate:       91%\nMean Lookup:    2 ms\n✓ store reachable\n```\n"
    )


def _shown(stale: str) -> dict[str, str]:
    return {
        "skills/store/SKILL.md": f"# Store skill\n\n## Printed report\n\n{_stats()}",
        "README.md": f"# Store\n\nWhat the skill prints:\n\n{_stats(entries='40', when='yesterday, before the sweep ran')}",
        "commands/report.md": f"# /report\n\n## Sample Output\n\n{stale.replace('```', '```output', 1)}",
    }


def test_a_stale_sample_of_a_printed_display_is_a_drifted_copy_with_its_diff(tmp_path, run_cli):
    root = _write(tmp_path, _shown(_stats(size_label="Disk Size", section="LATENCY")))
    (group,) = scan_plugin(root).groups
    assert group.id == "store-report"  # named from its title line
    assert "show:counts" in group.owner.paths and "show:stored size" in group.owner.paths  # titles and label rows
    labels = {f"{m.unit.block.path}": (m.label, m.divergent) for m in group.members}
    # the README's sample values are its own: the display's values are free, its rows and titles are the shape
    assert labels == {"skills/store/SKILL.md": ("copy", False), "README.md": ("instance", False), "commands/report.md": ("drifted", True)}
    run = run_cli("scan", str(root))
    assert run.code == 1
    assert "commands/report.md:6:1: error[scan-divergent]: drifted copy of store-report (lacks speed, stored size and adds disk size, latency" in run.out
    assert "-Disk Size:    4.5 MB\n+Stored Size:    4.5 MB" in run.out and "-LATENCY\n+SPEED" in run.out


def test_a_sample_display_with_values_of_its_own_only_is_no_divergence(tmp_path, run_cli):
    root = _write(tmp_path, _shown(_stats(entries="7 entries in the store today", when="two sweeps ago, at noon")))
    run = run_cli("scan", str(root), "-v")
    assert run.code == 0, run.out
    assert "0 divergent (1 copy, 0 drifted, 2 instances, 0 examples)" in run.out
    assert run.out.count("note[scan-member]: instance of store-report: the owner's rows and titles, with sample values of its own") == 2


def test_adopt_leaves_a_printed_display_as_it_is_and_says_why(tmp_path, run_cli):
    root = _write(tmp_path, _shown(_stats(size_label="Disk Size")))
    before = _hashes(root)
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.out + run.err
    assert "in this shape is a display sample" in run.out
    assert _hashes(root) == before  # a sample's values are its own: no region over them


SHELL_LIKE = {
    # shell output, a test runner's summary, a log and prose: plain fences, a rule line or two, some `Word:` lines
    "git": "```\n$ git status\nOn branch main\nChanges to be committed:\n  modified:   a.md\n\nUntracked files:\n  b.md\n```\n",
    "pytest": "```\n============ test session starts ============\nplatform linux -- Python 3.11\nrootdir: /src\ncollected 5 items\n\n"
              "tests/test_a.py .....\n============ 5 passed in 0.1s ============\n```\n",
    "log": "```\nINFO: starting the worker\nWARN: the cache is cold\n--------------------------------\nINFO: done\nERROR: none\n```\n",
    "prose": "```\nNote: keep the list short.\n----\nEach item says what to do.\nWhy: people skim.\nHow: one line per item.\n```\n",
    "records": "```\nPASS  the config parses\nWARN  two keys unused\nFAIL  the index is stale\nSKIP  network checks\n```\n",
    "diagram": "```\n┌────────────┐\n│  ROUTER    │\n│ Mode: fast │\n└─────┬──────┘\n      │\n┌─────▼──────┐\n│  WORKERS   │\n│ Pool: 4    │\n└────────────┘\n```\n",
    "table": "```\nResults:\n\n| Doc | Claims |\n|-----|--------|\n| a.md | 3 |\n\nReviewed:\nTotal: 3\nFailed: 0\n```\n",
    "waves": "```\nWave 0:\nT1 (Impact)\n│\n├──────┐\n▼      ▼\nWave 1:    │\nT3 (Module)\nWave 2:    │\nT6 (Adapter)\n```\n",
    "template": "```\nRun Report\n──────────\nRun:      {run_id}\nStatus:   {status}\nStarted:  {time}\nBy:       {user}\n```\n",
}


def test_shell_output_logs_prose_diagrams_and_templates_in_plain_fences_are_no_display(tmp_path, run_cli):
    files = {f"{d}/{name}.md": f"# {name}\n\n{body}" for name, body in SHELL_LIKE.items() for d in ("agents", "commands")}
    files["agents/git.md"] = files["agents/git.md"].replace("```", "```console", 1)  # printed output, read as a display only
    files["commands/log.md"] = files["commands/log.md"].replace("WARN:", "NOTE:")  # pasted twice, one line changed
    files["commands/prose.md"] = files["commands/prose.md"].replace("How:", "Where:")
    root = _write(tmp_path, files)
    result = scan_plugin(root)
    assert not [m.unit for g in result.groups for m in g.members if m.unit.block.display]
    template = next(g for g in result.groups if g.owner.block.path.endswith("template.md"))
    assert "label:status" in template.owner.paths  # a display's template (placeholders in its rows) stays a template
    assert run_cli("scan", str(root)).code == 0


def test_a_display_pasted_once_is_nothing(tmp_path, run_cli):
    root = _write(tmp_path, {"skills/store/SKILL.md": f"# Store\n\n{_stats()}", "commands/report.md": f"# R\n\n{_stats(size_label='Disk Size')[:40]}\n```\n"})
    run = run_cli("scan", str(root))
    assert run.code == 0 and "0 shapes stated more than once" in run.out


def _call(args: str) -> str:
    return f'# Skill\n\nInvoke the helper:\n\n```json\n{{\n  "command": "store",\n  "args": {args},\n  "parse_output": true\n}}\n```\n'


def test_a_calls_own_argument_list_with_spread_elements_is_an_instance_not_a_notation_change(tmp_path, run_cli):
    root = _write(tmp_path, {
        "skills/clear/SKILL.md": _call('["clear", ...scope_flags, ...dry_run_flag]'),
        "skills/list/SKILL.md": _call('["list", ...filters, ...sort]'),
        "skills/sweep/SKILL.md": _call('["sweep", "--older-than", "{days}"]'),
    })  # fmt: skip
    run = run_cli("scan", str(root), "-v")
    assert run.code == 0, run.out
    assert run.out.count("the same structure with its own values for args") == 2
    # a list of notation only is still notation: its change is drift
    root2 = _write(tmp_path / "two", {"skills/x/SKILL.md": _call('["<subcommand>", "<flag>"]'), "skills/y/SKILL.md": _call('["<action>"]')})
    assert run_cli("scan", str(root2)).code == 1


def _invoke(parameters: str, output: str = ".cfg/setup.yaml", flag: str = "parse_output") -> str:
    return (
        f'# Call\n\n```\nUSE SKILL: helper\nOperation: invoke\n{parameters}\n  "command": "setup",\n'
        f'  "args": ["--org", "{{organization}}", "--output", "{output}"],\n  "{flag}": true\n}}\n```\n'
    )


def test_a_json_document_after_a_label_is_read_as_json_wherever_its_brace_opens(tmp_path, run_cli):
    # `Parameters: {` and `Parameters:` + `{` on the next line are one notation; a filled-in argument is the call's own
    root = _write(tmp_path, {"commands/setup.md": _invoke("Parameters:\n{"), "agents/manager.md": _invoke("Parameters: {", "{config_path}")})
    (group,) = scan_plugin(root).groups
    assert {"label:parameters.command", "label:parameters.args", "label:parameters.parse_output"} <= group.owner.paths
    run = run_cli("scan", str(root), "-v")
    assert run.code == 0, run.out
    assert "agents/manager.md:4:1: note[scan-member]: instance of use-skill: the same structure with its own values for parameters.args" in run.out
    # a key renamed inside the document is structure: drift, with its diff (the copy holds the owner's values and
    # notation, so it drifted whatever chose the owner; --owner only says which way)
    (tmp_path / "agents/manager.md").write_text(_invoke("Parameters: {", flag="parse"), encoding="utf-8")
    for owner in ((), ("--owner", "commands/**")):
        run = run_cli("scan", str(root), *owner)
        assert run.code == 1 and "(lacks parameters.parse_output and adds parameters.parse)" in run.out
        assert '-  "parse": true\n+  "parse_output": true' in run.out


PARTS = (
    "# Flow\n\nUse these prompt shapes:\n\n```text\nFor either reader, pass exactly one source:\ndoc_path: [approved document path]\n"
    "or\nneeds: [confirmed needs verbatim]\n\nFor screen review only, add the screens:\nscreen_path: [existing screen path]\n"
    "mock_path: [decision-relevant path]\n\nSpec:\ncontext: [approved document path exactly]\nanalysis: [reader JSON]\n"
    "evidence: [applicable codebase evidence]\nmock_path: [decision-relevant path or absent]\n```\n"
)


def _restated(evidence: str = "evidence") -> str:
    return (
        "# A\n\nInvoke the designer with exact inputs:\n\n```text\ncontext: [the value fixed in Step 1]\n"
        f"analysis: [complete Step 3 reader JSON unchanged]\n{evidence}: [complete Step 2 evidence unchanged]\n"
        "mock_path: [path from Step 3 exactly, or absent]\n```\n"
    )


def test_a_block_of_labelled_parts_is_cut_so_a_part_restated_alone_is_an_instance_of_that_part(tmp_path, run_cli):
    root = _write(tmp_path, {"skills/b/references/flow.md": PARTS, "skills/a/SKILL.md": _restated()})
    (group,) = scan_plugin(root).groups
    assert group.id == "spec"  # named from its introduction, which is no structure of its own
    assert f"{group.owner.block.path}:{group.owner.line}" == "skills/b/references/flow.md:16"  # its first key line
    assert group.owner.paths == {"label:context", "label:analysis", "label:evidence", "label:mock_path"}
    run = run_cli("scan", str(root), "-v")
    assert run.code == 0, run.out
    assert "skills/a/SKILL.md:6:1: note[scan-member]: instance of spec: the same structure with its own text in every field" in run.out
    # a key renamed in the restated part is still drift of that part, with its diff
    (tmp_path / "skills/a/SKILL.md").write_text(_restated("proof"), encoding="utf-8")
    run = run_cli("scan", str(root))
    assert run.code == 1 and "drifted copy of spec (lacks evidence and adds proof)" in run.out
    assert "-proof: [complete Step 2 evidence unchanged]" in run.out


def test_adopt_leaves_a_block_of_parts_whole(tmp_path, run_cli):
    root = _write(tmp_path, {"skills/b/references/flow.md": PARTS, "skills/a/SKILL.md": _restated(), "skills/c/SKILL.md": PARTS})
    before = _hashes(root)
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.out + run.err
    assert "in this shape is one of the labelled parts of a fenced block" in run.out
    assert _hashes(root) == before  # a region around one part would replace the whole fence with that part


def test_a_label_block_without_introduced_parts_or_of_good_and_bad_parts_stays_one_unit(tmp_path, run_cli):
    two = "```\nReviewer: [name]\nVerdict: [pass or fail]\n\nNotes: [free text]\nNext Step: [what to do]\n```\n"
    root = _write(tmp_path, {"agents/a.md": f"# A\n\n{two}", "agents/b.md": f"# B\n\n{two}"})
    (group,) = scan_plugin(root).groups
    assert len(group.owner.paths) == 4  # two paragraphs, none introduced: one template, as before
    shown = "```text\nGOOD:\nItem 1: ...\nItem 2: ...\nItem 3: ...\n\nBAD (skipped):\nItem 1: ...\nItem 3: ...\n\nBAD (names):\nItem A: ...\nItem 2: ...\n```\n"
    root = _write(tmp_path / "two", {"skills/r/SKILL.md": f"# R\n\n{shown}"})
    assert len([u for g in (*scan_plugin(root).groups, *scan_plugin(root).single) for u in (g.owner,)]) <= 1
    assert run_cli("scan", str(root)).code == 0  # a Good/Bad illustration is one block, its parts never compared


ENTRY = '{"id": "{{SLUG}}", "file": "{{SLUG}}.md", "status": "complete", "findings": ["{{F}}"], "followup": [], "title": "{{T}}"}'


def test_a_one_line_json_entry_under_a_label_inside_a_template_fence_is_compared_with_its_json_shape(tmp_path, run_cli):
    stale = ENTRY.replace('"status": "complete", ', "")
    worker = (
        "# Worker\n\n```\n## WORKER PROTOCOL\n\nOUTPUT RULES:\n1. MUST write findings to: {{OUT}}/{topic}.md\n"
        f"2. MUST append one entry to the ledger\n\nLEDGER ENTRY FORMAT:\n{stale}\n```\n"
    )
    skill = f"# Skill\n\nAppend to the ledger:\n\n```json\n{ENTRY}\n```\n"
    root = _write(tmp_path, {"agents/worker.md": worker, "skills/a/SKILL.md": skill, "skills/b/SKILL.md": skill})
    run = run_cli("scan", str(root))
    assert run.code == 1
    assert "agents/worker.md:11:1: error[scan-divergent]: drifted copy of complete-envelope (lacks status in ledger-entry-format)" in run.out
    assert f"-{stale}\n+{ENTRY}" in run.out
    before = _hashes(root)["agents/worker.md"]
    assert run_cli("adopt", str(root), "--write").code == 0
    assert _hashes(root)["agents/worker.md"] == before  # a line of a template's fence: never a region of its own


def test_two_displays_of_other_titles_that_share_rows_are_two_outputs_and_titles_alone_make_no_display(tmp_path, run_cli):
    rows = "Branch:    main\nRemote:    origin\nAhead:     2\nCommits:   14\nTags:      3\nAuthor:    ann\n"
    status = f"```\nSync Status\n───────────\n{rows}Behind:    0\n```\n"
    health = f"```\nRepo Health\n───────────\n{rows}Stale:     none\n```\n"
    manual = "```\nNAME\n    tool - does things\nSYNOPSIS\n    tool run\nDESCRIPTION\n    Runs.\nOPTIONS\n    none\n```\n"
    root = _write(tmp_path, {
        "commands/status.md": f"# S\n\n{status}", "commands/health.md": f"# H\n\n{health}",
        "docs/a.md": f"# A\n\n{manual}", "docs/b.md": f"# B\n\n{manual.replace('OPTIONS', 'EXAMPLES')}",
    })  # fmt: skip
    run = run_cli("scan", str(root), "-v")
    assert run.code == 0, run.out
    assert "note[scan-member]: instance of repo-health: another display, titled its own way (lacks repo health, stale and adds" in run.out
    assert not [m for g in scan_plugin(root).groups for m in g.members if m.unit.block.path.startswith("docs/") and m.unit.block.display]


def test_displays_of_one_title_for_two_outcomes_are_two_variants(tmp_path, run_cli):
    def banner(status: str, rows: str) -> str:
        return f"```\nSync Run\n════════\nStatus:    {status}\nSource:    origin\nTarget:    cache\n{rows}```\n"

    ok, failed = banner("success", "Copied:    12\nSkipped:   0\n"), banner("failed", "Error:     timeout\nRetry:     yes\n")
    root = _write(tmp_path, {
        "skills/sync/SKILL.md": f"# Sync\n\n## On success\n\n{ok}\n## On failure\n\n{failed}",
        "commands/sync.md": f"# /sync\n\nSuccess:\n\n{ok}\nFailure:\n\n{failed}",
    })  # fmt: skip
    groups = scan_plugin(root).groups
    assert sorted(g.owner.variant for g in groups) == ["status=failed", "status=success"]
    assert run_cli("scan", str(root)).code == 0  # each outcome's display compared with its own, never with the other


def test_a_framed_title_names_a_display_and_a_count_in_a_row_label_is_a_value(tmp_path, run_cli):
    def gate(kind: str, fresh: int) -> str:
        return (
            f"```\n╔════════════════════════════╗\n║  GATE: {kind:<20}║\n╚════════════════════════════╝\n\n"
            f"Progress:         5/8\nFresh Entries ({fresh}):  ok\nTask:             layout\nOwner:            ann\n```\n"
        )

    root = _write(tmp_path, {"skills/g/SKILL.md": f"# G\n\n{gate('Review Needed', 38)}", "agents/a.md": f"# A\n\n{gate('Review Needed', 4)}"})
    (group,) = scan_plugin(root).groups
    assert group.id == "gate-review-needed" and "show:fresh entries" in group.owner.paths
    assert run_cli("scan", str(root)).code == 0  # another count is another sample value
    (tmp_path / "agents/a.md").write_text(f"# A\n\n{gate('Decision Needed', 4).replace('Owner:   ', 'Decider:')}", encoding="utf-8")
    assert run_cli("scan", str(root)).code == 0  # another gate's display (its own title) sharing rows: no drift


def test_a_small_display_a_title_a_rule_and_two_rows_still_shows_a_renamed_row(tmp_path, run_cli):
    root = _write(tmp_path, {
        "commands/m.md": "# M\n\n```\nTitle\n────\nCache Size:   45 MB\nAvg Hit:  1 ms\n```\n",
        "skills/m/SKILL.md": "# M\n\n```\nTitle\n──────────\nTotal Size:   45 MB\nAvg Hit:  1 ms\n```\n",
    })  # fmt: skip
    run = run_cli("scan", str(root))
    assert run.code == 1 and "(lacks cache size and adds total size: a display whose rows or titles differ" in run.out
    assert "\n-Total Size:   45 MB\n" in run.out and "\n+Cache Size:   45 MB\n" in run.out  # the rule's width is no drift


def test_a_json_object_in_a_plain_fence_is_read_as_json(tmp_path, run_cli):
    def plain(args: str, flag: str = "parse_output") -> str:
        return f'# S\n\n```\n{{"command": "cache", "args": {args}, "{flag}": true, "timeout": "<seconds>", "retries": "<count>"}}\n```\n'

    root = _write(tmp_path, {"skills/a/SKILL.md": plain('["clear", ...scope_flags]'), "skills/b/SKILL.md": plain('["list", ...filters, ...sort]')})
    (group,) = scan_plugin(root).groups
    assert group.kind == "json" and {"command", "args", "parse_output", "timeout", "retries"} == group.owner.paths
    assert run_cli("scan", str(root)).code == 0  # each call's own arguments
    # a lost key is structure: drift against the owner (named here: two copies alone say nothing of which is the shape)
    lost = plain('["clear", ...scope_flags]').replace('"parse_output": true, ', "")
    (tmp_path / "skills/b/SKILL.md").write_text(lost, encoding="utf-8")
    run = run_cli("scan", str(root), "--owner", "skills/a/**")
    assert run.code == 1 and "(lacks parse_output)" in run.out and '+{"command": "cache", "args": ["clear", ...scope_flags], "parse_output"' in run.out
    before = _hashes(root)
    assert run_cli("adopt", str(root), "--write").code == 0
    assert _hashes(root) == before  # no region over a fence that does not say json


def test_capitalised_section_titles_over_check_lines_are_a_display(tmp_path, run_cli):
    def review(second: str) -> str:
        return (
            f"```\nSECURITY REVIEW\n✓ no secrets in the diff\n✗ one query built by hand\n\n{second}\n✓ no N+1 query\n"
            "⚠ one loop allocates\n\nSTYLE REVIEW\n✓ names are clear\n```\n"
        )

    root = _write(tmp_path, {"skills/review/SKILL.md": f"# R\n\n{review('PERFORMANCE REVIEW')}", "commands/review.md": f"# C\n\n{review('SPEED REVIEW')}"})
    (group,) = scan_plugin(root).groups
    assert group.owner.block.display and "show:performance review" in group.owner.paths | group.members[1].unit.paths
    run = run_cli("scan", str(root))
    assert run.code == 1 and "a display whose rows or titles differ from the owner's" in run.out


def test_a_template_holding_an_indented_code_sample_is_read_and_compared(tmp_path, run_cli):
    """A fence line indented four spaces or more inside a plain fence is its text (CommonMark), not a nested fence
    that unbalances the file: the display around it is compared like any other."""
    sample = (
        "# {name}\n\n```\nSprint initialized!\n\nLocation: .sprints/<name>/\n{label}: <workflow>\n\nNext steps:\n"
        "  1. Edit the file and add your items:\n     ```yaml\n     items:\n       - prompt: \"<task>\"\n     ```\n  2. Run it\n```\n"
    )
    root = _write(tmp_path, {f"commands/{n}.md": sample.format(name=n, label="Pipeline" if n == "b" else "Workflow") for n in "abc"})
    run = run_cli("scan", str(root))
    assert run.code == 1 and "commands/b.md:4:1: error[scan-divergent]: drifted copy of location (lacks workflow and adds pipeline)" in run.out
    # a fence line at the margin inside is still refused: the block's own fences may not balance
    bad = _write(tmp_path / "bad", {"commands/a.md": "# a\n\n```markdown\nStatus: <s>\n~~~\nNote: <n>\n```\n"})
    assert "scan-unread" in run_cli("scan", "-v", str(bad)).out
