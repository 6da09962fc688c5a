"""Conformance: the hand-off contracts page (three pipeline stages of data shapes) compiles (reads ../shared/seeds).

The published page lost its code fences; :func:`rebuild` puts them back: each
top-level key at column 0 opens a YAML block that runs to the next blank line
followed by a line at column 0, and the three stage names become headings.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import write_tree

STAGES = ("The requirements stage", "The design stage", "The QA stage")
TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*:(\s|$)")
TRANSIENTS = {
    "draft_components": ["required_capabilities"],
    "draft_interfaces": ["consumed_by", "satisfies_capabilities"],
}


def rebuild(text: str) -> str:
    lines = text.split("\n")
    out = [f"# {lines[0]}"]
    in_block = False
    for i, line in enumerate(lines[1:], start=1):
        if in_block and line and not line[0].isspace() and not lines[i - 1].strip():
            out.insert(len(out) - 1, "```")  # close before the blank line that ends the block
            in_block = False
        if line in STAGES:
            out.append(f"## {line}")
        elif not in_block and TOP_KEY.match(line):
            out.extend(["```yaml", line])
            in_block = True
        else:
            out.append(line)
    if in_block:
        out.append("```")
    return "\n".join(out) + "\n"


UPSTREAM = re.compile(r"\{ \.\.\.full (clarification_context|design_context)\.\.\. \}")
"""The page's two references to shapes of an earlier stage that the page does not define."""


def described_elsewhere(contract: str) -> str:
    """What the dangling-ref hint says to write for an object defined outside the project: no `full`."""
    return UPSTREAM.sub(r"{ ...\1, from an earlier stage... }", contract)


@pytest.fixture
def handoffs(seeds, tmp_path):
    contract = described_elsewhere(rebuild((seeds / "page-handoff-contracts.txt").read_text("utf-8")))
    return write_tree(
        tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/handoffs.md\n", "contracts/handoffs.md": contract}
    )


def test_the_page_as_published_builds_and_warns_at_its_two_upstream_references(seeds, tmp_path, run_cli):
    contract = rebuild((seeds / "page-handoff-contracts.txt").read_text("utf-8"))
    root = write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/handoffs.md\n", "contracts/handoffs.md": contract})
    run = run_cli("build", "--root", str(root))
    found = re.findall(r"^(contracts/handoffs\.md:\d+:\d+): warning\[dangling-ref\]: [^:]+: \$\.context: `\{ \.\.\.full (\w+)\.\.\. \}`", run.out, re.M)
    assert run.code == 0 and [name for _, name in found] == ["clarification_context", "design_context"], run.out + run.err
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0


def test_rebuild_finds_every_block_of_the_three_stages(handoffs):
    from contractc.load import load_project

    (contract,) = load_project(handoffs).contracts
    by_section = {}
    for shape in contract.data_shapes:
        by_section.setdefault(shape.section, []).append(shape.id)
    assert by_section == {
        "the-requirements-stage": [
            "the-requirements-stage.generation_brief", "draft_requirements", "the-requirements-stage.critique_report",
            "context_artifact", "the-requirements-stage.formatter_result",
        ],
        "the-design-stage": [
            "the-design-stage.generation_brief", "draft_components", "draft_interfaces", "the-design-stage.critique_report",
            "design_context_artifact", "the-design-stage.formatter_result",
        ],
        "the-qa-stage": [
            "the-qa-stage.generation_brief", "draft_test_strategies", "the-qa-stage.critique_report",
            "qa_context_artifact", "the-qa-stage.formatter_result",
        ],
    }  # fmt: skip


def test_all_three_stages_compile_and_shared_keys_are_told_apart(handoffs, run_cli):
    result = run_cli("build", "--root", str(handoffs))
    assert result.code == 0, result.err
    briefs = sorted(p.name for p in (handoffs / "schemas/handoffs").glob("*generation_brief*"))
    assert briefs == [
        "the-design-stage.generation_brief.schema.json",
        "the-qa-stage.generation_brief.schema.json",
        "the-requirements-stage.generation_brief.schema.json",
    ]
    design = json.loads((handoffs / "schemas/handoffs/the-design-stage.generation_brief.schema.json").read_text())
    qa = json.loads((handoffs / "schemas/handoffs/the-qa-stage.generation_brief.schema.json").read_text())
    assert "requirements_digest" in design["properties"] and "requirement_digest" in qa["properties"]
    # 16 wire schemas, an artifact schema for each of the 3 shapes with transients, the two manifests
    assert run_cli("check", "--root", str(handoffs)).out == "contractc: 21 files checked, all current\n"


def test_build_lists_every_field_it_made_optional(handoffs, run_cli):
    out = run_cli("build", "--root", str(handoffs)).out
    notes = [line for line in out.splitlines() if "note[optional-inferred]" in line]
    assert notes == [
        'contracts/handoffs.md:37:5: note[optional-inferred]: draft_requirements $[*].ears_pattern made optional by "# FRs only; omit otherwise" (rule: omit otherwise / omitted when)',
        'contracts/handoffs.md:42:5: note[optional-inferred]: draft_requirements $[*].applies_to made optional by "# ← TRANSIENT, constraint/business_rule only" (rule: <who> only)',
        'contracts/handoffs.md:112:7: note[optional-inferred]: the-design-stage.generation_brief $.requirements_digest[*].measure made optional by "# fit_criterion (FR), response measure (NFR), or a CON/BR\'s own fit_criterion where it states one — omitted when the requirement genuinely has no measure" (rule: omit otherwise / omitted when)',
        'contracts/handoffs.md:126:3: note[optional-inferred]: the-design-stage.generation_brief $.component_set made optional by "# INTERFACE BRIEF ONLY: components + their capabilities" (rule: <who> only)',
        'contracts/handoffs.md:184:7: note[optional-inferred]: the-design-stage.critique_report $.asr_coverage[*].note made optional by "# optional — the evidence for this verdict" (rule: optional)',
        'contracts/handoffs.md:277:7: note[optional-inferred]: draft_test_strategies $.items[*].test_level made optional by "# required when verification_mode is test" (rule: required when)',
    ]


@pytest.mark.parametrize("shape", sorted(TRANSIENTS))
def test_design_transients_are_in_the_wire_schema_and_not_the_artifact_schema(handoffs, run_cli, shape):
    run_cli("build", "--root", str(handoffs))
    wire = json.loads((handoffs / f"schemas/handoffs/{shape}.schema.json").read_text())["items"]
    artifact = json.loads((handoffs / f"schemas/handoffs/{shape}.artifact.schema.json").read_text())["items"]
    for field in TRANSIENTS[shape]:
        assert field in wire["properties"] and field in wire["required"]
        assert field not in artifact["properties"] and field not in artifact["required"]
    assert set(wire["properties"]) - set(artifact["properties"]) == set(TRANSIENTS[shape])


COMPONENT = """\
---
id: CMP-001
type: component
title: Checkout
description: Takes the order.
responsibility: Orders.
boundary: internal
traces_from: [FR-001]
traces_to: { adr: [], diagrams: [], code: [], tests: [] }
depends_on: []
required_capabilities:
  - capability: "take card payments"
    rationale: Orders are paid by card.
status: draft
confidence: high
created_at: 2025-02-03
body_markdown: |
  # Checkout
---
# Checkout
"""


def test_a_document_carrying_a_transient_fails_artifact_validation_naming_it(handoffs, run_cli):
    write_tree(handoffs, {"CMP-001.md": COMPONENT})
    wire = run_cli("validate", "--root", str(handoffs), "draft_components", str(handoffs / "CMP-001.md"))
    assert wire.code == 0, wire.out
    artifact = run_cli(
        "validate", "--root", str(handoffs), "draft_components", str(handoffs / "CMP-001.md"), "--artifact"
    )
    assert artifact.code == 1
    assert artifact.out.splitlines()[0] == (
        f"{handoffs / 'CMP-001.md'}:11: $.required_capabilities: transient field 'required_capabilities'"
        " is in flight only and must not be in an artifact; strip it before writing"
    )
    stripped = COMPONENT.replace(COMPONENT[COMPONENT.index("required_capabilities") : COMPONENT.index("status:")], "")
    write_tree(handoffs, {"CMP-001.md": stripped})
    assert (
        run_cli(
            "validate", "--root", str(handoffs), "draft_components", str(handoffs / "CMP-001.md"), "--artifact"
        ).code
        == 0
    )
