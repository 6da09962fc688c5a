"""The page emitter: anchors written into the pages, anchors.json, escaping, overrides, stored pages."""

from __future__ import annotations

import json

import pytest

from conftest import snapshot, write_tree

CONTRACT = """\
# Echo contract

## Shared

Read me.

## EchoReturn

Produced by `echoer` in loud mode; consumed by `echo-skill` and `auditor`.

```
echo: <text>
```

Receiver checks:
1. Line 1 begins `echo: `.
2. The return is one line,
   never two.

## Hand-off {#handoff}

```yaml
echo_brief:
  text: string                 # what to echo <script>alert(1)</script>
  mode: loud | quiet
  trace: [ string ]            # ← TRANSIENT, dropped before writing
  extra:
    - name: string
      note: string             # optional
```
"""
CONFIG = "contracts:\n  - path: contracts/echo.md\n    shared: [shared]\n"


@pytest.fixture
def project(tmp_path):
    return write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/echo.md": CONTRACT})


def render(root):
    from contractc.load import load_project
    from contractc.site.pages import render_site

    return {path: data.decode("utf-8") for path, data in render_site(load_project(root), root).items()}


def test_one_page_per_contract_shape_and_agent_plus_index_and_anchors(project):
    assert sorted(render(project)) == [
        "anchors.json",
        "contracts/agents/auditor.md",
        "contracts/agents/echo-skill.md",
        "contracts/agents/echoer.md",
        "contracts/changes/echo.md",  # the contract's Changes page (tests/test_diff_site.py)
        "contracts/echo.md",
        "contracts/index.md",
        "contracts/shapes/echo_brief.md",
        "contracts/shapes/echoreturn.md",
        "schemas/echo/echo_brief.artifact.schema.json",
        "schemas/echo/echo_brief.schema.json",
    ]


def test_contract_page_is_the_contract_with_explicit_ids_on_headings_and_checks(project):
    page = render(project)["contracts/echo.md"]
    assert page.startswith(
        "# Echo contract {#echo-contract}\n\n## Shared {#shared}\n\nRead me.\n\n## EchoReturn {#echoreturn}\n"
    )
    # a blank line is added before the list (Python-Markdown needs one), the id goes on the item's last line,
    # after the mark saying whether `contractc validate` runs the check
    assert "Receiver checks:\n\n1. Line 1 begins `echo: `.\n   *mechanised*\n   {#echoreturn-check-1}\n" in page
    assert (
        "2. The return is one line,\n   never two.\n   **not mechanised** (the receiver judges it by reading)\n"
        "   {#echoreturn-check-2}\n"
    ) in page
    assert "## Hand-off {#handoff}\n" in page
    assert "*Source:* `contracts/echo.md`" in page


def test_text_shape_page_has_producer_consumers_template_checks_and_snippet(project):
    page = render(project)["contracts/shapes/echoreturn.md"]
    assert page.startswith("# EchoReturn {#echoreturn}\n")
    assert "| Producer | [`echoer`](../agents/echoer.md) in loud mode |" in page
    assert "| Consumers | [`echo-skill`](../agents/echo-skill.md), [`auditor`](../agents/auditor.md) |" in page
    assert "## Template {#shape-template}\n\n```\necho: <text>\n```\n" in page
    assert (
        '1. Line 1 begins `echo: `. [§](../echo.md#echoreturn-check-1 "the check in the contract")\n'
        "    *mechanised* (`line-begins`)\n    {#echoreturn-check-1}\n"
    ) in page
    assert (
        "    **not mechanised**: `contractc validate` skips it; the receiver judges it by reading\n"
        "    {#echoreturn-check-2}\n"
    ) in page
    assert "`prompts/echoer/echoreturn.md`" in page
    assert "```markdown\n## Shared\n\nRead me.\n\n## EchoReturn\n" in page


def test_data_shape_page_escapes_comments_and_anchors_every_field(project):
    page = render(project)["contracts/shapes/echo_brief.md"]
    table = page[page.index("<table") : page.index("</table>")]
    assert "<script>" not in table
    assert "<td>what to echo &lt;script&gt;alert(1)&lt;/script&gt;</td>" in table
    ids = [line.split('"')[1] for line in page.splitlines() if line.startswith("<tr id=")]
    assert ids == [
        "echo_brief-text",
        "echo_brief-mode",
        "echo_brief-trace",
        "echo_brief-extra",
        "echo_brief-extra.name",
        "echo_brief-extra.note",
    ]
    trace = next(line for line in page.splitlines() if 'id="echo_brief-trace"' in line)
    assert "<td>array of string</td><td>yes</td><td>yes</td>" in trace  # in flight it is required
    note = next(line for line in page.splitlines() if 'id="echo_brief-extra.note"' in line)
    assert '<td>string</td><td><span title="optional">no</span></td><td></td><td>optional</td>' in note
    mode = next(line for line in page.splitlines() if 'id="echo_brief-mode"' in line)
    assert "<td>enum: loud | quiet</td>" in mode


def test_data_shape_page_links_its_schemas_copied_where_their_id_points(project):
    pages = render(project)
    page = pages["contracts/shapes/echo_brief.md"]
    assert "- [`echo_brief.schema.json`](../../schemas/echo/echo_brief.schema.json): wire schema" in page
    schema = json.loads(pages["schemas/echo/echo_brief.schema.json"])
    assert schema["$id"] == "https://example.invalid/contracts/schemas/echo/echo_brief.schema.json"
    assert "trace" not in json.loads(pages["schemas/echo/echo_brief.artifact.schema.json"])["properties"]


def test_agent_pages_list_what_they_produce_and_receive(project):
    pages = render(project)
    assert "## Produces {#agent-produces}" in pages["contracts/agents/echoer.md"]
    assert "[EchoReturn](../shapes/echoreturn.md) | in loud mode |" in pages["contracts/agents/echoer.md"]
    assert "## Receives" not in pages["contracts/agents/echoer.md"]
    assert (
        "[EchoReturn](../shapes/echoreturn.md) | [`echoer`](echoer.md) in loud mode | [2](../shapes/echoreturn.md#shape-checks) |"
        in pages["contracts/agents/auditor.md"]
    )


def test_index_has_a_mermaid_graph_of_producers_and_consumers(project):
    page = render(project)["contracts/index.md"]
    assert (
        '```mermaid\nflowchart LR\n  a0["auditor"]\n  a1["echo-skill"]\n  a2["echoer"]\n  a2 -->|"EchoReturn"| a0\n  a2 -->|"EchoReturn"| a1\n```'
        in page
    )


def test_anchors_json_lists_every_anchor_with_page_url_and_source_line(project):
    anchors = json.loads(render(project)["anchors.json"])
    rows = {(a["anchor"], a["page"]): (a["kind"], a["source"]) for a in anchors["anchors"]}
    assert rows[("echoreturn", "contracts/echo/")] == ("section", "contracts/echo.md:7")
    assert rows[("echoreturn-check-2", "contracts/echo/")] == ("check", "contracts/echo.md:17")
    assert rows[("echoreturn-check-2", "contracts/shapes/echoreturn/")] == ("check", "contracts/echo.md:17")
    assert rows[("echo_brief-extra.note", "contracts/shapes/echo_brief/")] == ("field", "contracts/echo.md:29")
    first = anchors["anchors"][0]
    assert first == {
        "anchor": "echo-contract",
        "kind": "section",
        "page": "contracts/echo/",
        "url": "https://example.invalid/contracts/contracts/echo/#echo-contract",
        "source": "contracts/echo.md:1",
    }


def test_prefix_and_directory_urls_are_configurable(project):
    write_tree(project, {"contractc.yaml": CONFIG + "site:\n  prefix: ref/api\n  directory_urls: false\n"})
    pages = render(project)
    assert "ref/api/echo.md" in pages and "ref/api/shapes/echoreturn.md" in pages
    anchors = json.loads(pages["anchors.json"])["anchors"]
    assert anchors[0]["page"] == "ref/api/echo.html"


def test_a_template_is_overridden_by_name_from_the_project_folder(project):
    write_tree(
        project,
        {
            "contractc.yaml": CONFIG + "site:\n  templates: site_overrides\n",
            "site_overrides/agent.md": "# Agent {{ agent.name }} {{ agent.name | anchor }}\n\nOurs.\n",
        },
    )
    pages = render(project)
    assert pages["contracts/agents/echoer.md"] == "# Agent echoer {#echoer}\n\nOurs.\n"
    assert pages["contracts/shapes/echoreturn.md"].startswith("# EchoReturn {#echoreturn}")  # others: shipped


def test_a_broken_override_is_a_located_error(project, run_cli):
    write_tree(
        project,
        {
            "contractc.yaml": CONFIG + "site:\n  templates: over\nout:\n  site: docs\n",
            "over/agent.md": "# {{ agent.name }\n",
        },
    )
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    assert result.err.startswith("over/agent.md:1:1: error[site-template]: template syntax: ")
    write_tree(project, {"contractc.yaml": CONFIG + "site:\n  templates: missing\nout:\n  site: docs\n"})
    result = run_cli("build", "--root", str(project))
    assert (result.code, result.err) == (
        2,
        ("contractc.yaml:5:3: error[site-template]: template folder 'missing' does not exist\n  hint: create it or remove site.templates\n"
        "  see: https://contractc.dev/drift-codes/#site-template\n"),
    )


def test_two_contracts_with_one_page_name_collide(project, run_cli):
    write_tree(
        project,
        {
            "contractc.yaml": CONFIG + "  - path: other/echo.md\n  - path: other/index.md\nout:\n  site: docs\n",
            "other/echo.md": "# Other\n",
            "other/index.md": "# Index\n",
        },
    )
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert result.err.splitlines() == [
        "contractc.yaml:4:5: error[site-collision]: the site page of other/echo.md would be contracts/echo.md, already used by contracts/echo.md",
        "  hint: rename the contract file: its name without .md names its site page",
        "  see: https://contractc.dev/drift-codes/#site-collision",
        "contractc.yaml:5:5: error[site-collision]: the site page of other/index.md would be contracts/index.md, already used by the generated pages",
        "  hint: rename the contract file: its name without .md names its site page",
        "  see: https://contractc.dev/drift-codes/#site-collision",
    ]


def test_site_pages_are_written_on_request_and_then_checked_as_outputs(project, run_cli):
    result = run_cli("build", "--root", str(project), "--site-pages", "docs")
    assert result.code == 0
    assert "wrote docs/contracts/echo.md" in result.out and "wrote docs/anchors.json" in result.out
    assert (project / "docs/contracts/echo.md").read_text("utf-8") == render(project)["contracts/echo.md"]
    # without --site-pages (and no out.site) nothing is stored, so nothing is compared
    assert run_cli("check", "--root", str(project)).out == "contractc: 4 files checked, all current\n"

    write_tree(project, {"contractc.yaml": CONFIG + "out:\n  site: docs\n"})
    assert run_cli("check", "--root", str(project)).code == 0
    (project / "docs/contracts/shapes/echoreturn.md").write_text("edited\n")
    write_tree(project, {"docs/contracts/stale.md": "old\n", "docs/index.md": "# the user's own page\n"})
    before = snapshot(project)
    result = run_cli("check", "--root", str(project), "--no-diff")
    assert result.code == 1
    assert result.out.splitlines() == [
        "docs/contracts/shapes/echoreturn.md:1:1: error[drift-output]: differs from what the contracts compile to",
        "  hint: run `contractc build` to regenerate it; edit the contract, not the copy",
        "  see: https://contractc.dev/drift-codes/#drift-output",
        "docs/contracts/stale.md: error[drift-orphan]: no contract produces this file, and contractc has no record of writing it",
        "  hint: build removes only files it wrote: remove it by hand, or move it out of the output folder",
        "  see: https://contractc.dev/drift-codes/#drift-orphan",
        "contractc: 2 drifted, 15 checked; fix each as its hint says (`contractc build`)",
    ]
    assert snapshot(project) == before
    assert run_cli("build", "--root", str(project)).code == 1  # it wrote the page, and still names the file it did not write
    assert (project / "docs/index.md").read_text() == "# the user's own page\n"  # only <out.site>/<prefix> is owned
    assert (project / "docs/contracts/stale.md").read_text() == "old\n"  # never removed: contractc did not write it
    assert run_cli("check", "--root", str(project), "--no-diff").out.startswith("docs/contracts/stale.md: error[drift-orphan]")


def test_site_pages_outside_the_project_are_refused(project, run_cli):
    result = run_cli("build", "--root", str(project), "--site-pages", "../elsewhere")
    assert (result.code, result.err) == (
        2,
        ("--site-pages:1:1: error[unsafe-path]: path '../elsewhere' contains '..'\n  hint: use a path inside the project\n"
        "  see: https://contractc.dev/drift-codes/#unsafe-path\n"),
    )


def test_templates_load_through_importlib_resources():
    from importlib import resources

    shipped = resources.files("contractc") / "site_templates"
    assert sorted(p.name for p in shipped.iterdir()) == [
        "agent.md",
        "changes.md",
        "contract.md",
        "fields.html",
        "index.md",
        "shape.md",
    ]


def test_contract_values_in_templates_are_escaped_not_markup(tmp_path):
    evil = CONTRACT.replace("in loud mode;", "<img src=x onerror=alert(1)>;")
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/echo.md": evil})
    pages = render(root)
    producer = next(
        line for line in pages["contracts/shapes/echoreturn.md"].splitlines() if line.startswith("| Producer |")
    )
    assert producer == "| Producer | [`echoer`](../agents/echoer.md) &lt;img src=x onerror=alert(1)&gt; |"
    produced = next(
        line for line in pages["contracts/agents/echoer.md"].splitlines() if line.startswith("| [EchoReturn]")
    )
    assert "| &lt;img src=x onerror=alert(1)&gt; |" in produced and "<img" not in produced
