"""A ```yaml fence that is a text shape's template: the text its copies hold, not a data shape.

Most plugins write their hand-off blocks in YAML with `<placeholder>` values or several top-level keys, which no
data shape can be. adopt holds them as templates (byte-managed copies, instance regions held to the structure, no
JSON Schema) instead of leaving them out or refusing the whole plugin."""

from __future__ import annotations

import json
import re

from conftest import snapshot, write_tree

RECORD = "```yaml\nstatus: <ok | failed>\nsummary: <one line>\ncount: <integer>\n```\n"
"""A flat record of three top-level keys, its values placeholders: no data shape can hold it."""

NESTED = "```yaml\nreport:\n  status: <ok | failed>\n  findings:\n    - id: <finding id>\n      severity: <low | high>\n```\n"
"""One top-level key, its values placeholders, not the notation."""

CONTRACT = f"""\
# Hand-offs

## Reviews {{#reviews}}

### Review {{#review}}

Produced by `reviewer`; consumed by `lead`.

{RECORD}"""


def _project(tmp_path, agents: dict[str, str]):
    files = {
        "contractc.yaml": 'contracts:\n  - path: "contracts/hand-offs.md"\ntargets:\n  - "agents/*.md"\n',
        "contracts/hand-offs.md": CONTRACT,
        **agents,
    }
    return write_tree(tmp_path, files)


def test_a_yaml_template_of_several_keys_and_placeholders_compiles_and_its_regions_hold_it_byte_for_byte(tmp_path, run_cli):
    root = _project(tmp_path, {"agents/reviewer.md": "# Reviewer\n\nReturn:\n\n<!-- contractc:begin shape=review -->\n<!-- contractc:end -->\n"})
    built = run_cli("build", "--root", str(root))
    assert built.code == 0, built.err
    assert RECORD in (root / "agents/reviewer.md").read_text()
    assert not list(root.glob("schemas/**/review*.json"))  # a template, not a data shape: no schema
    assert run_cli("check", "--root", str(root)).code == 0
    # a copy that drifts inside its region is reported
    path = root / "agents/reviewer.md"
    path.write_text(path.read_text().replace("count: <integer>", "total: <integer>"))
    checked = run_cli("check", "--root", str(root))
    assert checked.code == 1 and "agents/reviewer.md" in checked.out


def test_an_instance_of_a_yaml_template_is_held_to_its_keys_not_its_values(tmp_path, run_cli):
    instance = "```yaml\nstatus: failed\nsummary: <why it stopped>\ncount: 0\n```\n"
    region = f"# Lead\n\nWhen it stops:\n\n<!-- contractc:begin instance=review -->\n{instance}<!-- contractc:end -->\n"
    root = _project(tmp_path, {"agents/lead.md": region})
    assert run_cli("build", "--root", str(root)).code == 0  # the dispatch snippets
    assert run_cli("check", "--root", str(root)).code == 0  # values of its own
    (root / "agents/lead.md").write_text(region.replace("summary: <why it stopped>", "reason: <why it stopped>"))
    checked = run_cli("check", "--root", str(root))
    assert checked.code == 1
    assert "agents/lead.md:8:1: error[drift-instance-reshaped]: region instance=review lacks summary: and holds reason:" in checked.out


def test_a_yaml_shape_no_data_shape_can_be_is_adopted_as_a_template(tmp_path, run_cli):
    files = {
        "agents/alpha.md": f"# Alpha\n\nReturn:\n\n{RECORD}",
        "agents/beta.md": f"# Beta\n\nReturn:\n\n{RECORD}",
        "agents/gamma.md": f"# Gamma\n\nHand back:\n\n{NESTED}",
        "agents/delta.md": f"# Delta\n\nHand back:\n\n{NESTED}",
    }
    root = write_tree(tmp_path, files)
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "YAML shapes written as templates, not data shapes" in run.out
    assert "  status: its block holds 3 top-level keys as one record (a data shape is one key per block)\n" in run.out
    assert "  report: its values are not notation a data shape can hold (agents/delta.md:7: report: $.status: `<ok | failed>` is not an enum" in run.out
    contract = next((root / "contracts").glob("*.md")).read_text()
    assert contract.count("Produced by `") == 2 and RECORD in contract and NESTED in contract
    for path, text in files.items():  # every copy is in a region, its bytes unchanged
        now = (root / path).read_text()
        block = text.split("\n\n", 2)[2]
        assert block in now and now.count("<!-- contractc:begin shape=") == 1
        assert re.sub(r"(?m)^<!-- contractc:(?:begin|end)\b.*-->\n", "", now) == text  # nothing but the markers added
    assert not list(root.glob("schemas/**/*.schema.json"))
    assert run_cli("check", "--root", str(root)).code == 0
    adopted = snapshot(root)
    again = run_cli("adopt", str(root), "--write")
    assert again.code == 0 and snapshot(root) == adopted  # a second adoption offers nothing


def test_the_json_plan_says_which_shapes_are_templates(tmp_path, run_cli):
    root = write_tree(tmp_path, {f"agents/{n}.md": f"# {n}\n\nReturn:\n\n{NESTED}" for n in ("alpha", "beta")})
    run = run_cli("adopt", str(root), "--format", "json")
    assert run.code == 0, run.err
    notes = [d["message"] for d in json.loads(run.out)["diagnostics"] if d["code"] == "adopt-file" and d["path"].startswith("contracts/")]
    assert len(notes) == 1 and "written as templates, with no JSON Schema: report (its values are not notation" in notes[0]
