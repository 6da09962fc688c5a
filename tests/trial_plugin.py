"""A plugin the scan/adopt authors never saw: an SDLC pipeline modelled on real hand-off pages.

Three stages (requirements, design, QA), each with an orchestrator that states its
hand-off blocks under a ``## The <x> stage`` heading, specialists and critics that
were given pasted copies, a skill per stage, a command and a docs page that claims
to hold "the same bytes as the agent files".  The blocks use the notation real
pages use: ``a | b | c`` enums, ``{ ...design_context... }  `` placeholders,
``# ← TRANSIENT`` comments, multi-line comments, flow mappings.  Files come with
CRLF line endings, a byte order mark, no final newline, and one gitignored folder.

Planted drift (each a copy that must be reported divergent):

* ``agents/fr-specialist.md``: ``draft_requirements`` lost its ``# ← TRANSIENT`` comment;
* ``agents/interface-specialist.md``: the design ``generation_brief`` says ``target_category: component | interface | adr``;
* ``agents/requirements-critic.md``: ``critique_report`` gained a field (``severity``);
* ``agents/behavioural-specialist.md``: the QA ``generation_brief`` renamed a placeholder;
* ``docs/handoffs.md``: the design ``critique_report`` changed a type (``exit_code: "0"``).
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_tree

REQ_BRIEF = """\
generation_brief:
  context: { ...clarification_context... }     # shared, read-only
  target_category: functional | non_functional | constraint_and_business_rule
  assigned_needs:                                  # only the needs this specialist owns
    - tier: business | stakeholder | solution | transition
      summary: string
      source_field: string        # which context field this need came from
  id_block:                        # reserved IDs, in order
    prefix: FR | NFR | CON | BR | UC
    start: 1                       # next sequence number to use
  created_at: "YYYY-MM-DD"         # today's date, passed so all files agree
  global_id_index: [ ...all IDs allocated so far... ]
"""

DRAFT_REQS = """\
draft_requirements:
  - id: FR-001
    type: functional            # functional | non_functional | constraint | business_rule
    title: string
    description: string         # EARS-phrased for FRs
    priority: must | should | could | wont
    confidence: high | medium | low
    ears_pattern: ubiquitous | event | state | unwanted   # FRs only; omit otherwise
    traces_from: [ ...IDs... ]
    applies_to: [ ...IDs... ]        # ← TRANSIENT, constraint/business_rule only
    parent_scope: null               # reserved
    body_markdown: |
      # ...rendered body...
"""

REQ_CRITIQUE = """\
critique_report:
  gate: pass | fail
  validator:           # structural-gate result, folded back in from the formatter
    command: "python3 <scripts>/validate_requirements.py .sdlc/requirements"
    exit_code: 0
    summary: string
  per_requirement:
    - id: FR-001
      verdict: pass | revise
      findings: [ ...INCOSE notes... ]
"""

DESIGN_BRIEF = """\
generation_brief:
  context: { ...design_context... }
  requirements_digest:               # the FULL requirement set, not just the ASRs.
                                     # The orchestrator reads the files once; specialists never re-read.
    - id: NFR-002
      title: string
      measure: string                # fit_criterion (FR), response measure (NFR)
      priority: must | should | could | wont
  target_category: component | interface
  id_block: { prefix: CMP | IF, start: 1 }
  created_at: "YYYY-MM-DD"
  component_set: [ ... ]             # INTERFACE BRIEF ONLY: components + their capabilities
"""

DRAFT_COMPONENTS = """\
draft_components:
  - id: CMP-001
    title: string
    responsibility: string
    boundary: internal | external
    traces_from: [ FR-001, NFR-002 ]
    depends_on: []                   # left empty — the orchestrator fills it
    required_capabilities:           # ← TRANSIENT
      - capability: "take card payments"
        rationale: string
    status: draft
"""

DESIGN_CRITIQUE = """\
critique_report:
  gate: pass | fail
  validator:
    command: "python3 <scripts>/validate_design.py .sdlc/design"
    exit_code: 0
    summary: string
  per_artifact:
    - { id: CMP-001, verdict: pass | revise, findings: [ ...42010 notes... ] }
  asr_coverage:
    - requirement_id: NFR-002
      addressed_by: [ CMP-001, IF-001 ]
      verdict: addressed | deferred_to_decision | unaddressed
"""

QA_BRIEF = """\
generation_brief:
  qa_context: { ...the Stage 1 object, forwarded verbatim... }
  scripts_dir: string           # absolute; supplied by the skill
  requirement_digest:
    - id: FR-001
      title: string
      verification_method: test | inspection | analysis | demonstration
  id_block:
    behavioural: [TS-001, TS-002]
    quality_attribute: [TS-005]
  created_at: "YYYY-MM-DD"
"""

QA_STRATEGIES = """\
draft_test_strategies:
  items:
    - id: TS-001
      title: string
      test_level: unit | integration | contract | e2e   # required when verification_mode is test
      risk_level: high | medium | low
      traces_from: [ FR-001, CMP-013 ]
      status: draft
  assumptions: [ ...optional sibling statements... ]
"""

DISPATCH_ENVELOPE = """\
{
  "event": "dispatch",
  "stage": "requirements | design | qa",
  "agent": "<agent name>",
  "brief": "<the generation_brief block>"
}
"""

REPORT_TEMPLATE = """\
GATE: PASS | FAIL
## Findings
- <finding, one per line>
## Next step
<what the orchestrator does next>
"""


def fence(body: str, info: str = "yaml") -> str:
    return f"```{info}\n{body}```\n"


def front(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\n"


def _swap(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def sources() -> dict[str, str | bytes]:
    """path -> text (written as UTF-8) or bytes (written as is)."""
    files: dict[str, str | bytes] = {}
    files[".gitignore"] = "scratch/\n"
    files["scratch/old-brief.md"] = "# Old\n\n" + fence(_swap(REQ_BRIEF, "summary: string", "summary: text"))

    files["agents/requirements-orchestrator.md"] = (
        front("requirements-orchestrator", "Runs the requirements stage.")
        + "# Requirements orchestrator\n\nYou own every hand-off of this stage.\n\n"
        + "## The requirements stage\n\nDispatch each specialist with:\n\n"
        + fence(REQ_BRIEF)
        + "\nEach specialist returns:\n\n"
        + fence(DRAFT_REQS)
        + "\nThe critic returns:\n\n"
        + fence(REQ_CRITIQUE)
        + "\nThe dispatch envelope:\n\n"
        + fence(DISPATCH_ENVELOPE, "json")
        + "\nThe critic's report looks like:\n\n"
        + fence(REPORT_TEMPLATE, "text")
    )
    files["agents/fr-specialist.md"] = (
        front("fr-specialist", "Drafts functional requirements.")
        + "# FR specialist\n\nYou receive:\n\n"
        + fence(REQ_BRIEF)
        + "\nReturn exactly:\n\n"
        + fence(_swap(DRAFT_REQS, "# ← TRANSIENT, constraint/business_rule only", "# constraint/business_rule only"))
        + "\nFor example, a filled-in requirement:\n\n"
        + fence(
            "draft_requirements:\n  - id: FR-007\n    type: functional\n    title: Pet stats decay\n"
            "    description: When an hour elapses, the app shall reduce each stat by one.\n"
            "    priority: must\n    confidence: high\n"
        )
    )
    # CRLF throughout
    files["agents/nfr-specialist.md"] = (
        (
            front("nfr-specialist", "Drafts non-functional requirements.")
            + "# NFR specialist\n\nYou receive:\n\n"
            + fence(REQ_BRIEF)
            + "\nReturn:\n\n"
            + fence(DRAFT_REQS)
        )
        .replace("\n", "\r\n")
        .encode()
    )
    files["agents/requirements-critic.md"] = (
        front("requirements-critic", "Judges the requirement set.")
        + "# Requirements critic\n\nReturn:\n\n"
        + fence(_swap(REQ_CRITIQUE, "  gate: pass | fail\n", "  gate: pass | fail\n  severity: blocker | major | minor\n"))
        + "\nThen report:\n\n"
        + fence(REPORT_TEMPLATE, "text")
    )
    files["agents/design-orchestrator.md"] = (
        front("design-orchestrator", "Runs the design stage.")
        + "# Design orchestrator\n\n## The design stage\n\n"
        + fence(DESIGN_BRIEF)
        + "\n"
        + fence(DRAFT_COMPONENTS)
        + "\n"
        + fence(DESIGN_CRITIQUE)
    )
    # byte order mark
    files["agents/component-specialist.md"] = "\ufeff" + (
        front("component-specialist", "Decomposes into components.")
        + "# Component specialist\n\nYou receive:\n\n"
        + fence(DESIGN_BRIEF)
        + "\nReturn:\n\n"
        + fence(DRAFT_COMPONENTS)
    )
    # no final newline, and a divergent enum
    files["agents/interface-specialist.md"] = (
        front("interface-specialist", "Defines interfaces.")
        + "# Interface specialist\n\nYou receive:\n\n"
        + fence(_swap(DESIGN_BRIEF, "target_category: component | interface\n", "target_category: component | interface | adr\n"))
        + "\nReturn your interfaces and stop."
    )
    files["agents/design-critic.md"] = (
        front("design-critic", "Judges the design.") + "# Design critic\n\nReturn:\n\n" + fence(DESIGN_CRITIQUE)
    )
    files["agents/qa-orchestrator.md"] = (
        front("qa-orchestrator", "Runs the QA stage.")
        + "# QA orchestrator\n\n## The QA stage\n\n"
        + fence(QA_BRIEF)
        + "\n"
        + fence(QA_STRATEGIES)
    )
    files["agents/behavioural-specialist.md"] = (
        front("behavioural-specialist", "Writes behavioural test strategies.")
        + "# Behavioural specialist\n\nYou receive:\n\n"
        + fence(_swap(QA_BRIEF, "{ ...the Stage 1 object, forwarded verbatim... }", "{ ...full qa_context... }"))
        + "\nReturn:\n\n"
        + fence(QA_STRATEGIES)
    )
    files["agents/quality-specialist.md"] = (
        front("quality-specialist", "Writes quality-attribute strategies.")
        + "# Quality specialist\n\n"
        + fence(QA_BRIEF)
        + "\n"
        + fence(QA_STRATEGIES)
    )
    for stage, brief in (("requirements", REQ_BRIEF), ("design", DESIGN_BRIEF), ("qa", QA_BRIEF)):
        files[f"skills/{stage}/SKILL.md"] = (
            front(stage, f"The {stage} stage.")
            + f"# {stage.title()}\n\n## The {stage} stage\n\nSend the orchestrator's brief:\n\n"
            + fence(brief)
            + "\nWrapped in:\n\n"
            + fence(DISPATCH_ENVELOPE, "json")
        )
    files["commands/run-pipeline.md"] = (
        front("run-pipeline", "Run all three stages.")
        + "# Run the pipeline\n\nRun `requirements`, then `design`, then `qa`. Report with:\n\n"
        + fence(REPORT_TEMPLATE, "text")
    )
    files["docs/handoffs.md"] = (
        "# Hand-off contracts\n\nThe blocks below are the same bytes as the agent files.\n\n"
        "## The requirements stage\n\n"
        + fence(REQ_BRIEF)
        + "\n"
        + fence(REQ_CRITIQUE)
        + "\n## The design stage\n\n"
        + fence(_swap(DESIGN_CRITIQUE, "    exit_code: 0\n", '    exit_code: "0"\n'))
        + "\n## The QA stage\n\n"
        + fence(QA_STRATEGIES)
    )
    return files


DIVERGENT = {
    ("agents/fr-specialist.md", "draft_requirements"),
    ("agents/interface-specialist.md", "generation_brief"),
    ("agents/requirements-critic.md", "critique_report"),
    ("agents/behavioural-specialist.md", "generation_brief"),
    ("docs/handoffs.md", "critique_report"),
}


def write_plugin(root: Path) -> Path:
    return write_tree(root, sources())


# -- a second plugin: Key: value templates, as a bounded-orchestration skill writes them ------------

LEDGER_ENTRY = """\
ID: F-001
Status: OPEN | INCORPORATED | REJECTED
Summary:
Reason:
Plan version introduced:
Plan version disposed:
"""

PACKET = """\
Packet ID:
Objective:
Boundaries:
Owned files or read-only scope:
Stop conditions:
Acceptance criteria:
Required handoff:
"""

HANDOFF = """\
Packet ID:
Status: COMPLETE | BLOCKED | PARTIAL
Work completed:
Files or evidence:
Checks run:
Remaining risks:
"""

REPORT = """\
Plan: PLAN_APPROVED vN | NOT_APPROVED vN
Review rounds: N/5
Findings: incorporated N, rejected N, open N
Routes: <role> — route accepted | used and confirmed | unavailable
Execution: <packet statuses>
Root verification: <checks and result>
Remaining risks: <only material items>
"""


def orchestration_sources() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {}
    files["skills/bounded-orchestration/SKILL.md"] = (
        front("bounded-orchestration", "Planner, Reviewer and bounded Executors.")
        + "# Bounded orchestration\n\n## Findings ledger\n\nEach entry contains:\n\n"
        + fence(LEDGER_ENTRY, "")
        + "\n## Bounded executor packet\n\n"
        + fence(PACKET, "")
        + "\n## Executor handoff\n\nRequire a compact result:\n\n"
        + fence(HANDOFF, "")
        + "\n## Output\n\nKeep the user-facing report compact:\n\n"
        + fence(REPORT, "")
    )
    files["agents/planner.md"] = front("planner", "Plans.") + "# Planner\n\nKeep the ledger:\n\n" + fence(LEDGER_ENTRY, "")
    files["agents/reviewer.md"] = (
        front("reviewer", "Reviews.")
        + "# Reviewer\n\nRecord each finding as:\n\n"
        + fence(_swap(LEDGER_ENTRY, "REJECTED\n", "REJECTED | DEFERRED\n"), "")
    )
    files["agents/executor.md"] = (
        front("executor", "Executes one packet.")
        + "# Executor\n\nYou receive:\n\n"
        + fence(PACKET, "")
        + "\nReturn:\n\n"
        + fence(_swap(HANDOFF, "Checks run:\n", ""), "")
    )
    files["agents/executor-windows.md"] = (
        (front("executor-windows", "Executes on Windows hosts.") + "# Executor (Windows)\n\nReturn:\n\n" + fence(HANDOFF, ""))
        .replace("\n", "\r\n")
        .encode()
    )
    files["agents/root-verifier.md"] = (
        front("root-verifier", "Verifies.") + "# Root verifier\n\nReport:\n\n" + fence(_swap(REPORT, "N/5", "N/3"), "")
    )
    files["commands/orchestrate.md"] = (
        front("orchestrate", "Run the workflow.")
        + "# Orchestrate\n\nRelease each packet as:\n\n"
        + fence(PACKET, "")
        + "\nFinish with:\n\n"
        + fence(REPORT, "")
    )
    files["docs/protocol.md"] = (
        "# Protocol\n\nFor example, a filled-in packet:\n\n"
        + fence(
            "Packet ID: P-002\nObjective: Add a retry budget to the fetcher\nBoundaries: src/fetch/ only\n"
            "Owned files or read-only scope: src/fetch/retry.py\nStop conditions: any change outside src/fetch/\n"
            "Acceptance criteria: tests/test_retry.py passes\nRequired handoff: the executor handoff\n",
            "",
        )
        + "\nAnd its handoff:\n\n"
        + fence("Packet ID: P-002\nStatus: COMPLETE\nWork completed: retry budget added\n", "")
    )
    return files


ORCHESTRATION_DIVERGENT = {"agents/reviewer.md", "agents/executor.md", "agents/root-verifier.md"}


def write_orchestration_plugin(root: Path) -> Path:
    return write_tree(root, orchestration_sources())
