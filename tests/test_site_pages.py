"""The page emitter: anchors written into the pages, anchors.json, escaping, overrides, stored pages."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
SPACE = (
    '<span class="contractc-space" title="a space" style="white-space:pre;border-bottom:1px dotted currentColor"> </span>'
)


@pytest.fixture
def project(tmp_path):
    return write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/echo.md": CONTRACT})


def render_bytes(root):
    from contractc.load import load_project
    from contractc.diff.release import since_last_release
    from contractc.emit.site import render_site

    return render_site(load_project(root), root, since=since_last_release(root))


def render(root):
    return {path: data.decode("utf-8") for path, data in render_bytes(root).items()}


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
        "contracts/snippets/echoer/echoreturn.md.txt",
        "contracts/snippets/echoer/echoreturn.md.txt.sha256",
        "schemas/echo/echo_brief.artifact.schema.json",
        "schemas/echo/echo_brief.artifact.schema.json.sha256",
        "schemas/echo/echo_brief.schema.json",
        "schemas/echo/echo_brief.schema.json.sha256",
    ]


def test_snippets_and_schemas_are_published_byte_for_byte_with_their_sha256_beside_them(project, run_cli):
    import hashlib

    assert run_cli("build", "--root", str(project)).code == 0
    pages = {path: data for path, data in render_bytes(project).items()}
    snippet = pages["contracts/snippets/echoer/echoreturn.md.txt"]
    assert snippet == (project / "prompts/echoer/echoreturn.md").read_bytes()  # the very bytes the prompt holds
    manifest = json.loads((project / "prompts/manifest.json").read_text())
    (entry,) = manifest["snippets"]
    digest = hashlib.sha256(snippet).hexdigest()
    assert entry["sha256"] == digest
    assert pages["contracts/snippets/echoer/echoreturn.md.txt.sha256"] == f"{digest}  echoreturn.md.txt\n".encode()
    schema = pages["schemas/echo/echo_brief.schema.json"]
    assert schema == (project / "schemas/echo/echo_brief.schema.json").read_bytes()
    assert pages["schemas/echo/echo_brief.schema.json.sha256"].split()[0].decode() == hashlib.sha256(schema).hexdigest()


def test_contract_page_is_the_contract_with_explicit_ids_on_headings_and_checks(project):
    page = render(project)["contracts/echo.md"]
    assert page.startswith(
        "# Echo contract {#echo-contract}\n\n## Shared {#shared}\n\nRead me.\n\n## EchoReturn {#echoreturn}\n"
    )
    # a blank line is added before the list (Python-Markdown needs one), then the mark saying whether
    # `contractc validate` runs the check with a visible permalink, and the id on the item's last line;
    # the code span's trailing space is kept and shown
    assert (
        "Receiver checks:\n\n1. Line 1 begins <code>echo&#58;" + SPACE + "</code>.\n"
        '   *mechanised* [§](#echoreturn-check-1 "Permanent link to this check")\n   {#echoreturn-check-1}\n'
    ) in page
    assert (
        "2. The return is one line,\n   never two.\n   **not mechanised** (the receiver judges it by reading) "
        '[§](#echoreturn-check-2 "Permanent link to this check")\n   {#echoreturn-check-2}\n'
    ) in page
    # each section that defines a shape links its shape page and its producer's agent page, mode included
    assert (
        "## EchoReturn {#echoreturn}\n\n*Shape page:* [EchoReturn](shapes/echoreturn.md), "
        "produced by [`echoer`](agents/echoer.md) in loud mode\n\n"
    ) in page
    assert "## Hand-off {#handoff}\n\n*Shape page:* [echo&#95;brief](shapes/echo_brief.md)\n\n" in page
    assert "*Source:* `contracts/echo.md`" in page


def test_text_shape_page_has_producer_consumers_template_checks_and_snippet(project):
    page = render(project)["contracts/shapes/echoreturn.md"]
    assert page.startswith("# EchoReturn {#echoreturn}\n")
    assert "| Producer | [`echoer`](../agents/echoer.md) in loud mode |" in page
    assert "| Consumers | [`echo-skill`](../agents/echo-skill.md), [`auditor`](../agents/auditor.md) |" in page
    assert "## Template {#shape-template}\n\n```\necho: <text>\n```\n" in page
    # a check's § links to itself on this page; the contract's copy is a second link
    assert (
        "1. Line 1 begins <code>echo&#58;" + SPACE + '</code>. [§](#echoreturn-check-1 "Permanent link to this check")'
        " · [in the contract](../echo.md#echoreturn-check-1)\n"
        "    *mechanised* (`line-begins`)\n    {#echoreturn-check-1}\n"
    ) in page
    assert (
        "    **not mechanised**: `contractc validate` skips it; the receiver judges it by reading\n"
        "    {#echoreturn-check-2}\n"
    ) in page
    assert "`prompts/echoer/echoreturn.md`" in page
    assert "| Dispatch snippet | 220 bytes, ~55 tokens (estimated: bytes ÷ 4, rounded up) |" in page
    assert "- Raw file: [`echoreturn.md.txt`](../snippets/echoer/echoreturn.md.txt)\n" in page


def test_the_copy_button_carries_the_snippets_exact_bytes_final_newline_included(project):
    import html
    import re

    page = render(project)["contracts/shapes/echoreturn.md"]
    snippet = render_bytes(project)["contracts/snippets/echoer/echoreturn.md.txt"]
    assert snippet.endswith(b"`echo: `.\n2. The return is one line,\n   never two.\n\n")  # up to the next section
    (block,) = [line for line in page.splitlines() if line.startswith('<div class="contractc-snippet no-copy">')]
    (copied,) = re.findall(r'data-clipboard-text="([^"]*)"', block)
    assert "\n" not in copied  # one line: no Markdown rule can read inside the block
    assert html.unescape(copied).encode() == snippet
    shown = re.search(r"<code>(.*)</code>", block).group(1)
    assert html.unescape(shown) + "\n" == snippet.decode()


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
    assert "- [`echo_brief.schema.json`](../../schemas/echo/echo_brief.schema.json): wire schema; SHA-256 `" in page
    schema = json.loads(pages["schemas/echo/echo_brief.schema.json"])
    assert schema["$id"] == "https://example.invalid/contracts/schemas/echo/echo_brief.schema.json"
    assert "trace" not in json.loads(pages["schemas/echo/echo_brief.artifact.schema.json"])["properties"]


def test_agent_pages_list_what_they_produce_and_receive(project):
    pages = render(project)
    assert "## Returns {#agent-produces}" in pages["contracts/agents/echoer.md"]
    assert "[EchoReturn](../shapes/echoreturn.md) | in loud mode |" in pages["contracts/agents/echoer.md"]
    write_tree(project, {"contracts/echo.md": CONTRACT.replace(" in loud mode", "")})
    assert "[EchoReturn](../shapes/echoreturn.md) | *none named: every dispatch* |" in render(project)["contracts/agents/echoer.md"]
    write_tree(project, {"contracts/echo.md": CONTRACT})
    assert "## Receives" not in pages["contracts/agents/echoer.md"]
    assert (
        "[EchoReturn](../shapes/echoreturn.md) | [`echoer`](echoer.md) in loud mode | [2](../shapes/echoreturn.md#shape-checks) |"
        in pages["contracts/agents/auditor.md"]
    )


def test_index_draws_the_producer_consumer_graph_as_inline_svg_linking_every_node(project):
    import re

    page = render(project)["contracts/index.md"]
    assert "mermaid" not in page and "<script" not in page
    graph = page[page.index('<div class="contractc-graph"') : page.index("</div>") + 6]
    assert "\n\n" not in graph  # one raw HTML block
    assert "http://" not in graph.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in graph
    nodes = re.findall(r'<a href="([^"]+)" class="cc-node [^"]+" data-node="([^"]+)">', graph)
    assert sorted(nodes) == [
        ("agents/auditor.md", "agent:auditor"),
        ("agents/echo-skill.md", "agent:echo-skill"),
        ("agents/echoer.md", "agent:echoer"),
        ("shapes/echo_brief.md", "shape:echo_brief"),  # a data shape is on the graph too, held by no file yet
        ("shapes/echoreturn.md", "shape:echoreturn"),
    ]
    assert 'class="cc-node cc-data" data-node="shape:echo_brief"' in graph
    assert graph.count('class="cc-edge"') == 3  # echoer -> EchoReturn -> auditor, echo-skill
    assert '<text class="cc-mode"' in graph and ">in loud mode</text>" in graph  # the producer's mode
    # left to right: producer, shape, consumers
    xs = {key: float(x) for key, x in re.findall(r'data-node="([^"]+)"><title>[^<]*</title><rect x="([\d.]+)"', graph)}
    assert xs["agent:echoer"] < xs["shape:echoreturn"] < xs["agent:auditor"] == xs["agent:echo-skill"]


def test_the_index_names_modes_and_says_why_a_cell_is_empty(project):
    page = render(project)["contracts/index.md"]
    assert "| [EchoReturn](shapes/echoreturn.md) | text | [`echoer`](agents/echoer.md) in loud mode |" in page
    row = next(line for line in page.splitlines() if line.startswith("| [echo_brief]"))
    assert row == (
        "| [echo_brief](shapes/echo_brief.md) | data | *a data shape: it travels inside a dispatch* "
        "| *see the agents it is copied into* | *none yet* |"
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
        "url": "https://example.invalid/contracts/echo/#echo-contract",
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
        ("contractc.yaml:5:3: error[site-template]: template folder 'missing' does not exist\n  hint: create it or remove site.templates; more: `contractc explain site-template`\n"),
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
        "  hint: rename the contract file: its name without .md names its site page; more: `contractc explain site-collision`",
        "contractc.yaml:5:5: error[site-collision]: the site page of other/index.md would be contracts/index.md, already used by the generated pages",
        "  hint: rename the contract file: its name without .md names its site page; more: `contractc explain site-collision`",
    ]


def test_site_pages_are_written_on_request_and_then_checked_as_outputs(project, run_cli):
    result = run_cli("build", "--root", str(project), "--site-pages", "docs")
    assert result.code == 0
    assert "wrote docs/contracts/echo.md" in result.out and "wrote docs/anchors.json" in result.out
    assert (project / "docs/contracts/echo.md").read_text("utf-8") == render(project)["contracts/echo.md"]
    # without --site-pages (and no out.site) nothing is stored, so nothing is compared
    assert run_cli("check", "--root", str(project)).out == "contractc: 5 files checked, all current\n"

    write_tree(project, {"contractc.yaml": CONFIG + "out:\n  site: docs\n"})
    assert run_cli("check", "--root", str(project)).code == 0
    (project / "docs/contracts/shapes/echoreturn.md").write_text("edited\n")
    write_tree(project, {"docs/contracts/stale.md": "old\n", "docs/index.md": "# the user's own page\n"})
    before = snapshot(project)
    result = run_cli("check", "--root", str(project), "--no-diff")
    assert result.code == 1
    assert result.out.splitlines() == [
        "docs/contracts/shapes/echoreturn.md:1:1: error[drift-output]: differs from what the contracts compile to",
        "  hint: run `contractc build` to regenerate it; edit the contract, not the copy; more: `contractc explain drift-output`",
        "docs/contracts/stale.md: error[drift-orphan]: no contract produces this file, and contractc has no record of writing it",
        "  hint: build removes only files it wrote: remove it by hand, or move it out of the output folder; more: `contractc explain drift-orphan`",
        "contractc: 2 drifted, 20 checked; fix each as its hint says (`contractc build`)",
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
        ("--site-pages:1:1: error[unsafe-path]: path '../elsewhere' contains '..'\n  hint: use a path inside the project; more: `contractc explain unsafe-path`\n"),
    )


def test_the_shipped_templates_are_found_where_the_package_is():
    # contractc/site_templates/ of an installed wheel (tests/test_site_build.py builds one), else the
    # checkout's site_templates/ (an editable install, PYTHONPATH=compiler)
    from contractc.emit.site import shipped_templates

    shipped = shipped_templates()
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


def test_code_spans_with_an_edge_space_become_html_that_keeps_it_and_others_stay_as_written():
    import html
    import re

    from contractc.site.code_spans import visible_code_spans
    from contractc.emit.site import code_span

    text = (
        "1. Line 1 is exactly `status: ` then `ok`; `` `tick ``, ` padded ` and `*star* ` too.\n\n"
        "| form | example |\n|---|---|\n| prefix | `- ` |\n\n```\nfenced `code ` stays\n```\n"
    )
    out = visible_code_spans(text)
    spans = re.findall(r"<code>(.*?)</code>", out)
    plain = [html.unescape(re.sub(r"<[^>]+>", "", s)) for s in spans]
    assert plain == ["status: ", "*star* ", "- "]  # every character, in order; `*` is not emphasis
    assert all(s.count(SPACE) == 1 for s in spans)
    assert "`ok`" in out and "`` `tick ``" in out and "` padded `" in out  # CommonMark strips those: left alone
    assert "```\nfenced `code ` stays\n```\n" in out  # code blocks are not prose
    assert visible_code_spans("no spans here `x`\n") == "no spans here `x`\n"
    assert str(code_span("done ")) == "<code>done" + SPACE + "</code>"
    assert str(code_span("``a``")) == "``` ``a`` ```"


def test_a_spaced_code_span_repeated_in_a_table_row_is_shown_in_every_cell():
    from contractc.site.code_spans import visible_code_spans

    text = "| form | again |\n|---|---|\n| `- ` | `- ` |\n| `- ` | `ok` |\n\nLine 1 is `- ` then `- `.\n"
    out = visible_code_spans(text)
    cell = "<code>&#45;" + SPACE + "</code>"
    # The cells of one row share their line: each finds its own copy of the span, none is spliced twice.
    assert out == (
        f"| form | again |\n|---|---|\n| {cell} | {cell} |\n| {cell} | `ok` |\n\nLine 1 is {cell} then {cell}.\n"
    )


def test_every_spaced_code_span_of_a_long_contract_is_rewritten_in_place():
    from contractc.site.code_spans import visible_code_spans

    sections = [f"## Return {i}\n\nLine 1 is exactly `status{i}: ` then `ok`.\n" for i in range(300)]
    out = visible_code_spans("\n".join(sections))
    assert out == "\n".join(
        f"## Return {i}\n\nLine 1 is exactly <code>status{i}&#58;{SPACE}</code> then `ok`.\n" for i in range(300)
    )


def test_the_graph_of_an_orchestrator_that_dispatches_and_receives_places_every_node(tmp_path):
    import re

    contract = """\
# Loop

## PlanReturn

Produced by `planner`; consumed by `orchestrating`.

```
plan: <steps>
```

Receiver checks:

1. Line 1 begins `plan:`.

## BriefReturn

Produced by `orchestrating` in replan mode; consumed by `planner` and `reviewer`.

```
brief: <text>
```

Receiver checks:

1. Line 1 begins `brief:`.
"""
    root = write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/loop.md\n", "contracts/loop.md": contract})
    graph = render(root)["contracts/index.md"]
    boxes = dict(re.findall(r'data-node="([^"]+)"><title>[^<]*</title><rect x="([\d.]+)"', graph))
    assert set(boxes) == {
        "agent:orchestrating",
        "agent:planner",
        "agent:reviewer",
        "shape:briefreturn",
        "shape:planreturn",
    }
    assert graph.count('class="cc-edge"') == 5  # planner->Plan->orchestrating->Brief->planner, Brief->reviewer
    x = {k: float(v) for k, v in boxes.items()}
    # the cycle is cut once: every arrow but the one closing it (PlanReturn -> orchestrating) runs left to right
    assert x["agent:orchestrating"] < x["shape:briefreturn"] < x["agent:planner"] == x["agent:reviewer"]
    assert x["agent:planner"] < x["shape:planreturn"]
    assert ">in replan mode</text>" in graph


ROLE_FILE = (
    "---\nname: echoer\ndescription: Echoes, <b>carefully</b>.\n---\n"
    'You are the echoer.  \t\n\nQuote "exactly" & keep <tags> and trailing blanks.   \n'
)


def test_role_file_prompts_are_published_byte_for_byte_with_sha256_and_an_exact_copy_button(project, run_cli):
    import hashlib
    import html
    import re

    write_tree(
        project,
        {"contractc.yaml": CONFIG + "agents:\n  echoer: agents/echoer.md\n", "agents/echoer.md": ROLE_FILE},
    )
    assert run_cli("build", "--root", str(project)).code == 0
    pages = render_bytes(project)
    prompt = pages["contracts/snippets/echoer/echoreturn.full.md.txt"]
    assert prompt == (project / "prompts/echoer/echoreturn.full.md").read_bytes()  # the very bytes build wrote
    digest = hashlib.sha256(prompt).hexdigest()
    assert pages["contracts/snippets/echoer/echoreturn.full.md.txt.sha256"] == f"{digest}  echoreturn.full.md.txt\n".encode()
    page = pages["contracts/shapes/echoreturn.md"].decode("utf-8")
    section = page[page.index("## Role-file prompt {#shape-role-prompt}") :]
    assert "`prompts/echoer/echoreturn.full.md`: the role file of `echoer` without its front matter" in section
    assert "- Raw file: [`echoreturn.full.md.txt`](../snippets/echoer/echoreturn.full.md.txt)\n" in section
    assert f"- SHA-256: `{digest}` ([`echoreturn.full.md.txt.sha256`](../snippets/echoer/echoreturn.full.md.txt.sha256))" in section
    (block,) = [line for line in section.splitlines() if line.startswith('<div class="contractc-snippet no-copy">')]
    (copied,) = re.findall(r'data-clipboard-text="([^"]*)"', block)
    assert html.unescape(copied).encode() == prompt  # blanks, quotes, tags and the final newline included
    assert "<tags>" not in block  # escaped, never markup
    # a shape whose producer has no role file has no such section
    assert "shape-role-prompt" not in pages["contracts/shapes/echo_brief.md"].decode("utf-8")


def test_the_graph_ranks_a_pipeline_of_thousands_of_stages_without_recursion_error():
    """A chain longer than Python's recursion limit, closed by one back edge, gets one column a stage."""
    import sys

    from contractc.site.graph import _columns

    n = sys.getrecursionlimit() * 3
    nodes = {f"n{i}": None for i in range(n)}
    edges = [(f"n{i}", f"n{i + 1}", "") for i in range(n - 1)] + [(f"n{n - 1}", "n0", "")]
    assert _columns(nodes, edges) == [[f"n{i}"] for i in range(n)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20))
def test_the_graph_walk_keeps_the_recursive_walks_ranking(pairs):
    """The stack walk drops the same cycle-closing edges, in the same order, as a depth-first recursion."""
    from contractc.site.graph import _columns

    nodes = {f"n{i}": None for i in range(8)}
    edges = [(f"n{a}", f"n{b}", "") for a, b in pairs]
    succ = {k: [t for s, t, _ in edges if s == k] for k in nodes}
    state, forward = {}, {k: [] for k in nodes}

    def visit(key):
        state[key] = 1
        for nxt in succ[key]:
            if state.get(nxt) == 1:
                continue
            forward[key].append(nxt)
            if nxt not in state:
                visit(nxt)
        state[key] = 2

    pointed_at = {t for _, t, _ in edges}
    for key in [k for k in nodes if k not in pointed_at] + list(nodes):
        if key not in state:
            visit(key)
    rank = {k: 0 for k in nodes}
    for _ in nodes:  # longest path over the forward edges, which form no cycle
        for key in nodes:
            for nxt in forward[key]:
                rank[nxt] = max(rank[nxt], rank[key] + 1)
    columns = _columns(nodes, edges)
    assert {k: i for i, column in enumerate(columns) for k in column} == rank


def test_a_broken_agent_file_stops_the_site_with_its_located_error(tmp_path):
    """The pages show every target's regions (who copies each shape), so a marker problem in any target
    stops the site with that file's located error rather than leave its copies out; the pages of a
    clean project publish the role file's prompt."""
    import shutil

    from conftest import REPO
    from contractc.report.diagnostics import ContractcError

    root = tmp_path / "plugin"
    shutil.copytree(REPO / "examples" / "review-plugin", root)
    clean = render_bytes(root)
    assert any(path.endswith(".full.md.txt") for path in clean)  # the role file's prompt is published
    broken = "\n<!-- contractc:begin shape=no-such-shape -->\n"
    for name in ("review-orchestrator.md", "code-reviewer.md"):  # another target, then the role file
        original = (root / "agents" / name).read_bytes()
        with open(root / "agents" / name, "a", encoding="utf-8") as agent:
            agent.write(broken)
        with pytest.raises(ContractcError) as stopped:
            render_bytes(root)
        assert [(d.path, d.code) for d in stopped.value.diagnostics] == [(f"agents/{name}", "marker-unclosed")]
        (root / "agents" / name).write_bytes(original)
    assert render_bytes(root) == clean
