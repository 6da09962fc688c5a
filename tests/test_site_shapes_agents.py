"""Every shape and every agent on the site: data shapes on the graph and the agent pages, who copies each
shape (file, line, region), what refers to it, its example payload, its enum values' meanings, its field
tree; agent pages with their description, their file and what they return, receive and hold."""

from __future__ import annotations

import json
import re
import shutil

from conftest import REPO, write_tree


def pages_of(root) -> dict[str, str]:
    from contractc.load import load_project
    from contractc.diff.release import since_last_release
    from contractc.emit.site import render_site

    files = render_site(load_project(root), root, since=since_last_release(root))
    return {p: d.decode("utf-8") for p, d in files.items()}


def starter(tmp_path, run_cli):
    root = tmp_path / "p"
    assert run_cli("init", str(root)).code == 0
    return root


def graph_of(index: str) -> tuple[set[str], list[str]]:
    graph = index[index.index('<div class="contractc-graph"') : index.index("</div>")]
    nodes = set(re.findall(r'data-node="([^"]+)"', graph))
    return nodes, re.findall(r'<path class="([^"]+)"', graph)


def test_a_data_shape_is_on_the_graph_with_a_dashed_arrow_to_each_agent_that_holds_it(tmp_path, run_cli):
    index = pages_of(starter(tmp_path, run_cli))["contracts/index.md"]
    nodes, edges = graph_of(index)
    assert nodes == {"agent:lead", "agent:worker", "shape:task_brief", "shape:workreturn"}
    assert 'class="cc-node cc-data" data-node="shape:task_brief"' in index
    assert edges.count("cc-edge cc-held") == 2  # task_brief -> lead, task_brief -> worker
    assert edges.count("cc-edge") == 2  # worker -> WorkReturn -> lead
    row = next(line for line in index.splitlines() if line.startswith("| [task_brief]"))
    assert row.endswith("| [`lead`](agents/lead.md), [`worker`](agents/worker.md) |")


def test_every_shape_of_this_repository_is_on_its_graph(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(REPO / "contracts", root / "contracts")
    shutil.copy(REPO / "contractc.yaml", root / "contractc.yaml")
    pages = pages_of(root)
    nodes, _ = graph_of(pages["contracts/index.md"])
    from contractc.load import load_project

    shapes = {f"shape:{s.id}" for _, s in load_project(root).shapes()}
    assert len(shapes) >= 6 and shapes <= nodes


def test_an_agent_that_only_holds_a_data_shape_gets_a_page_and_a_node(tmp_path, run_cli):
    contract = "# C\n\n## Brief\n\n```yaml\nbrief:\n  goal: string\n```\n"
    root = write_tree(
        tmp_path / "p",
        {
            "contractc.yaml": "contracts:\n  - path: contracts/c.md\ntargets:\n  - skills/*/SKILL.md\n",
            "contracts/c.md": contract,
            "skills/planner/SKILL.md": "---\nname: planner\ndescription: Plans the\n  work.\n---\nSend:\n\n"
            "<!-- contractc:begin shape=brief -->\n<!-- contractc:end -->\n",
        },
    )
    assert run_cli("build", "--root", str(root)).code == 0
    pages = pages_of(root)
    agent = pages["contracts/agents/planner.md"]
    assert agent.startswith("# planner {#planner}\n\nPlans the work.\n\n")
    assert "*File:* `skills/planner/SKILL.md` ([as it is](../files/planner.md.txt))" in agent
    assert "| [brief](../shapes/brief.md) | data | `skills/planner/SKILL.md` `shape=brief` | a copy of the shape |" in agent
    assert pages["contracts/files/planner.md.txt"] == (root / "skills/planner/SKILL.md").read_text()
    nodes, edges = graph_of(pages["contracts/index.md"])
    assert nodes == {"agent:planner", "shape:brief"} and edges == ["cc-edge cc-held"]


def test_a_shape_page_says_where_it_is_copied_and_what_refers_to_it(tmp_path):
    contract = (
        "# C\n\n## Plan\n\n```yaml\nplan:\n  steps: [ string ]\n```\n\n"
        "## Review\n\n```yaml\nreview:\n  of: { ...full plan... }\n```\n\n"
        "## Report\n\nProduced by `worker`; consumed by `lead`.\n\n```\nstatus: done\n```\n\n"
        "Receiver checks:\n\n1. Line 1 is `status: done` or `status: blocked`.\n"
    )
    root = write_tree(
        tmp_path / "p",
        {
            "contractc.yaml": "contracts:\n  - path: contracts/c.md\ntargets:\n  - agents/*.md\n",
            "contracts/c.md": contract,
            "agents/lead.md": "Plan:\n\n<!-- contractc:begin section=plan -->\n<!-- contractc:end -->\n"
            "<!-- contractc:begin bundle=report -->\n<!-- contractc:end -->\n",
        },
    )
    pages = pages_of(root)
    plan = pages["contracts/shapes/plan.md"]
    assert "| Copied into | [`lead`](../agents/lead.md) ([where](#shape-copies)) |" in plan
    assert "| [`lead`](../agents/lead.md) | `agents/lead.md` `section=plan` | the section that defines it |" in plan
    assert "## Referenced by {#shape-referenced-by}\n\n- [review](review.md#review-of), field `of`\n" in plan
    report = pages["contracts/shapes/report.md"]
    assert "| [`lead`](../agents/lead.md) | `agents/lead.md` `bundle=report` | its dispatch snippet |" in report
    assert "## Referenced by" not in pages["contracts/shapes/review.md"]


def test_a_data_shape_page_shows_its_example_payload_enum_meanings_and_field_tree(tmp_path, run_cli):
    root = starter(tmp_path, run_cli)
    page = pages_of(root)["contracts/shapes/task_brief.md"]
    schema = json.loads((root / "schemas/handoffs/task_brief.schema.json").read_text())
    example = page[page.index("## Example payload") :]
    start = example.index("```json\n") + 8
    shown = example[start : example.index("\n```", start)]
    assert json.loads(shown) == schema["examples"][0]
    assert "| [`kind`](#task_brief-kind) | `fix` | a defect repaired |" in page
    assert "| [`kind`](#task_brief-kind) | `chore` | upkeep that changes no behaviour |" in page
    tree = page[page.index("## Field tree") : page.index("## Enum values")]
    assert "- `task_brief`\n    - [`goal`](#task_brief-goal): string\n" in tree
    assert "    - [`attempt`](#task_brief-attempt): integer · transient\n" in tree


def test_an_enum_comment_that_explains_no_value_says_so(tmp_path):
    from contractc.model.fields import enum_meanings

    assert enum_meanings(("a", "b"), "the kind of thing") == (("a", ""), ("b", ""))
    assert enum_meanings(("open", "done"), "open = not started, done — finished") == (
        ("open", "not started"),
        ("done", "finished"),
    )
    assert enum_meanings(("x", "y"), "x: the first; z: not a value") == (("x", "the first"), ("y", ""))


def test_an_agent_page_lists_what_it_returns_and_receives_and_links_its_file(tmp_path, run_cli):
    root = starter(tmp_path, run_cli)
    pages = pages_of(root)
    worker = pages["contracts/agents/worker.md"]
    assert "Does one task the lead hands over and reports what it changed." in worker
    assert "## Returns {#agent-produces}" in worker and "[WorkReturn](../shapes/workreturn.md)" in worker
    lead = pages["contracts/agents/lead.md"]
    assert "## Receives {#agent-receives}" in lead
    assert "| [task_brief](../shapes/task_brief.md) | data | `agents/lead.md` `shape=task_brief` | a copy of the shape |" in lead
    assert pages["contracts/files/lead.md.txt"] == (root / "agents/lead.md").read_text()


def test_stored_pages_of_a_project_with_regions_are_current_right_after_build(tmp_path, run_cli):
    """The pages show each agent's file as build writes it, and no line a build's filling would move:
    build then check is clean, and a second build writes nothing."""
    root = tmp_path / "p"
    assert run_cli("init", str(root)).code == 0
    config = root / "contractc.yaml"
    config.write_text(config.read_text().replace("  schemas: schemas ", "  site: docs\n  schemas: schemas "))
    assert "site: docs" in config.read_text()
    for name in ("worker", "lead"):  # regions not yet filled, as in a fresh project
        agent = root / f"agents/{name}.md"
        agent.write_text(re.sub(r"(<!-- contractc:begin [^ ]+) sha256=\w+ -->\n.*?(<!-- contractc:end -->)", r"\1 -->\n\2", agent.read_text(), flags=re.S))
    assert "sha256=" not in (root / "agents/lead.md").read_text()
    build = run_cli("build", "--root", str(root))
    assert build.code == 0 and "wrote docs/contracts/files/lead.md.txt" in build.out
    check = run_cli("check", "--root", str(root), "--no-cache")
    assert check.code == 0, check.out
    assert (root / "docs/contracts/files/lead.md.txt").read_bytes() == (root / "agents/lead.md").read_bytes()
    assert "wrote" not in run_cli("build", "--root", str(root)).out
