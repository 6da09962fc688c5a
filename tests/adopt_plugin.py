"""A realistic plugin that predates contractc, for ``scan`` and ``adopt``; and what they must find in it.

Three pipeline stages (survey, drafting, review), each with an orchestrator and
specialists, a skill per stage plus the pipeline skill, two commands and a docs
page.  Hand-off shapes are pasted into orchestrators and specialists as YAML
blocks, JSON envelopes and Markdown report templates, and some copies drifted:
by one comment, one field, one type and one placeholder (and one key of a
two-key block).  The plugin also holds what must *not* be scored as drift: one
key (``task_brief``) that is a different shape in each stage, the per-variant
instances of one JSON envelope, worked examples that look like shapes, an
ignored build folder and a near-copy under a misspelt key.

:data:`EXPECTED` is the verdict ``scan`` must reach, written down before scan was.
"""

from __future__ import annotations

from pathlib import Path

# -- the shapes, as their owners (the orchestrators) state them ------------------------------------

SURVEY_BRIEF = """\
task_brief:
  topic: string                     # the subject the survey covers
  sources: [ ...URLs or repository paths... ]
  depth: quick | thorough
  due: "YYYY-MM-DD"
"""

SURVEY_FINDINGS = """\
survey_findings:
  - source: string
    claim: string                   # one sentence, quoted where possible
    confidence: high | medium | low
    reviewer_note: string | null    # null until the review stage reads it
"""

DRAFT_BRIEF = """\
task_brief:
  outline: [ { heading, intent } ]
  findings: { ...survey_findings... }
  audience: developers | operators
  word_budget: 800                  # per section
"""

DRAFT_SECTION = """\
draft_section:
  heading: string
  body_markdown: |
    # ...the section text...
  word_count: 0
  cites: [ ...source URLs... ]      # ← TRANSIENT, dropped once the review passes
"""

REVIEW_BRIEF = """\
task_brief:
  draft: { ...draft_section... }
  checklist: [ accuracy, tone, citations ]
  strictness: lenient | strict
"""

CRITIQUE = """\
critique_report:
  gate: pass | fail
  notes: [ ...one finding per line... ]
"""

REVISION = """\
revision_request:
  section: string
  change: string                    # what to rewrite, in one imperative sentence
"""

VERDICT = """\
```
VERDICT: pass | revise
## Findings
- <finding, one per line>
## Reason
<one-line reason>
```
"""

DRAFT_REPORT = """\
```markdown
DRAFT_STATUS: complete | partial
## Sections written
- <heading> (<word count> words)
## Open questions
- <question for the orchestrator>
```
"""

DISPATCH_ENVELOPE = """\
```json
{
  "event": "dispatch",
  "stage": "<survey | drafting | review>",
  "agent": "<specialist name>",
  "brief": "<the stage's task_brief, as YAML text>"
}
```
"""

RETURN_ENVELOPE = """\
```json
{
  "event": "return",
  "stage": "<survey | drafting | review>",
  "agent": "<specialist name>",
  "status": "ok | failed",
  "payload": "<the specialist's return, as YAML text>"
}
```
"""


def yaml(body: str) -> str:
    return f"```yaml\n{body}```\n"


# -- the drifted copies ----------------------------------------------------------------------------

FINDINGS_ONE_COMMENT = SURVEY_FINDINGS.replace("# one sentence, quoted where possible", "# one sentence")
DRAFT_BRIEF_ONE_FIELD = DRAFT_BRIEF.replace("  audience:", "  tone: formal | casual\n  audience:")
SECTION_ONE_TYPE = DRAFT_SECTION.replace("word_count: 0", 'word_count: "0"')
VERDICT_ONE_PLACEHOLDER = VERDICT.replace("<one-line reason>", "<reason>")
REVISION_ONE_COMMENT = REVISION.replace("in one imperative sentence", "imperative")

# -- the files -------------------------------------------------------------------------------------


def _front(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\n"


FILES: dict[str, str] = {
    ".gitignore": "build/\n*.draft.md\n",
    "README.md": "# docs-pipeline\n\nA three-stage plugin that surveys, drafts and reviews documentation.\n",
    # -- survey stage
    "agents/survey-orchestrator.md": _front("survey-orchestrator", "Runs the survey stage.")
    + "# Survey orchestrator\n\nYou run the survey stage and dispatch two specialists.\n\n"
    + "## Survey stage\n\n### Brief you send\n\nDispatch each specialist with:\n\n"
    + yaml(SURVEY_BRIEF)
    + "\n### Return you expect\n\n"
    + yaml(SURVEY_FINDINGS)
    + "\nA finding with no source is a re-dispatch.\n",
    "agents/source-scout.md": _front("source-scout", "Finds sources for a topic.")
    + "# Source scout\n\n## Your input\n\n"
    + yaml(SURVEY_BRIEF)
    + "\n## What you return\n\n"
    + yaml(FINDINGS_ONE_COMMENT)
    + "\nReturn nothing else.\n",
    "agents/term-harvester.md": _front("term-harvester", "Collects the vocabulary of a topic.")
    + "# Term harvester\n\n## Your input\n\n"
    + yaml(SURVEY_BRIEF)
    + "\n## What you return\n\n"
    + yaml(SURVEY_FINDINGS)
    + "\nAn older draft of this page used a different key:\n\n"
    + yaml(SURVEY_FINDINGS.replace("survey_findings:", "survey_finding:"))
    + "\nDo not use it.\n",
    # -- drafting stage
    "agents/draft-orchestrator.md": _front("draft-orchestrator", "Runs the drafting stage.")
    + "# Draft orchestrator\n\n## Drafting stage\n\nDispatch one section-writer per outline entry with:\n\n"
    + yaml(DRAFT_BRIEF)
    + "\nEach writer returns:\n\n"
    + yaml(DRAFT_SECTION)
    + "\nWhen every section is in, report to the pipeline skill:\n\n"
    + DRAFT_REPORT
    + "\nEvery dispatch and return is logged as an envelope:\n\n"
    + DISPATCH_ENVELOPE
    + "\n"
    + RETURN_ENVELOPE,
    "agents/section-writer.md": _front("section-writer", "Writes one section.")
    + "# Section writer\n\n## Your input\n\n"
    + yaml(DRAFT_BRIEF_ONE_FIELD)
    + "\n## What you return\n\n"
    + yaml(DRAFT_SECTION)
    + "\nKeep within the word budget.\n",
    "agents/example-writer.md": _front("example-writer", "Writes the worked examples of a section.")
    + "# Example writer\n\n## Your input\n\n"
    + yaml(DRAFT_BRIEF)
    + "\n## What you return\n\n"
    + yaml(SECTION_ONE_TYPE)
    + "\nFor example, a filled-in return looks like this:\n\n"
    + yaml(
        'draft_section:\n  heading: "Installing the CLI"\n  body_markdown: |\n    Run pip install.\n'
        '  word_count: 212\n  cites: [ "https://example.org/install" ]\n'
    )
    + "\nThe orchestrator reports:\n\n"
    + DRAFT_REPORT,
    # -- review stage
    "agents/review-orchestrator.md": _front("review-orchestrator", "Runs the review stage.")
    + "# Review orchestrator\n\n## Review stage\n\nDispatch each reviewer with:\n\n"
    + yaml(REVIEW_BRIEF)
    + "\nReviewers return a verdict first:\n\n"
    + VERDICT
    + "\nthen the critique, and a revision request per section that needs one:\n\n"
    + yaml(CRITIQUE + REVISION),
    "agents/fact-checker.md": _front("fact-checker", "Checks every claim against its source.")
    + "# Fact checker\n\n## Your input\n\n"
    + yaml(REVIEW_BRIEF)
    + "\n## Your return\n\n"
    + VERDICT_ONE_PLACEHOLDER,
    "agents/style-critic.md": _front("style-critic", "Reviews tone and structure.")
    + "# Style critic\n\n## Your input\n\n"
    + yaml(REVIEW_BRIEF)
    + "\n## Your return\n\n"
    + VERDICT
    + "\nthen:\n\n"
    + yaml(CRITIQUE)
    + "\nand, per section to rewrite:\n\n"
    + yaml(REVISION_ONE_COMMENT),
    # -- skills: the pipeline skill and one per stage
    "skills/docs-pipeline/SKILL.md": _front("docs-pipeline", "Surveys, drafts and reviews a documentation topic.")
    + "# Docs pipeline\n\nRun the three stages in order. Log every dispatch as:\n\n"
    + DISPATCH_ENVELOPE
    + "\nand every return as:\n\n"
    + RETURN_ENVELOPE
    + "\nAn example of a logged dispatch:\n\n"
    + '```json\n{\n  "event": "dispatch",\n  "stage": "survey",\n  "agent": "source-scout",\n'
    + '  "brief": "task_brief:\\n  topic: caching\\n"\n}\n```\n',
    "skills/survey/SKILL.md": _front("survey", "The survey stage on its own.")
    + "# Survey\n\n## Survey stage\n\nDispatch source-scout and term-harvester with:\n\n"
    + yaml(SURVEY_BRIEF),
    "skills/drafting/SKILL.md": _front("drafting", "The drafting stage on its own.")
    + "# Drafting\n\n## Drafting stage\n\nThe orchestrator's report:\n\n"
    + DRAFT_REPORT,
    "skills/review/SKILL.md": _front("review", "The review stage on its own.")
    + "# Review\n\n## Review stage\n\nThe verdict each reviewer returns:\n\n"
    + VERDICT,
    # -- commands
    "commands/run-pipeline.md": "# /run-pipeline\n\nStarts the pipeline. The first log line is:\n\n" + DISPATCH_ENVELOPE,
    "commands/resume.md": "# /resume\n\nResumes after the last logged return:\n\n" + RETURN_ENVELOPE,
    # -- docs
    "docs/handoffs.md": "# Hand-offs\n\nThe review stage's critique, for readers:\n\n" + yaml(CRITIQUE),
    # -- ignored: never scanned
    "build/agents/survey-orchestrator.md": "# stale build output\n\n" + yaml(SURVEY_BRIEF.replace("string", "text")),
    "agents/notes.draft.md": "# scratch\n\n" + yaml(SURVEY_FINDINGS.replace("high", "very-high")),
}

# -- what scan must find ---------------------------------------------------------------------------
# shape id -> owner, identical copies (besides the owner), divergent copies with the line planted in each.

EXPECTED: dict[str, dict] = {
    "survey-stage.task_brief": {
        "owner": "agents/survey-orchestrator.md",
        "identical": ["agents/source-scout.md", "agents/term-harvester.md", "skills/survey/SKILL.md"],
        "divergent": {},
    },
    "drafting-stage.task_brief": {
        "owner": "agents/draft-orchestrator.md",
        "identical": ["agents/example-writer.md"],
        "divergent": {"agents/section-writer.md": "  tone: formal | casual"},
    },
    "review-stage.task_brief": {
        "owner": "agents/review-orchestrator.md",
        "identical": ["agents/fact-checker.md", "agents/style-critic.md"],
        "divergent": {},
    },
    "survey_findings": {
        "owner": "agents/survey-orchestrator.md",
        "identical": ["agents/term-harvester.md"],
        "divergent": {"agents/source-scout.md": "    claim: string                   # one sentence"},
    },
    "draft_section": {
        "owner": "agents/draft-orchestrator.md",
        "identical": ["agents/section-writer.md"],
        "divergent": {"agents/example-writer.md": '  word_count: "0"'},
    },
    "critique_report": {
        "owner": "agents/review-orchestrator.md",
        "identical": ["agents/style-critic.md", "docs/handoffs.md"],
        "divergent": {},
    },
    "revision_request": {
        "owner": "agents/review-orchestrator.md",
        "identical": [],
        "divergent": {"agents/style-critic.md": "  change: string                    # what to rewrite, imperative"},
    },
    "verdict": {
        "owner": "agents/review-orchestrator.md",
        "identical": ["agents/style-critic.md", "skills/review/SKILL.md"],
        "divergent": {"agents/fact-checker.md": "<reason>"},
    },
    "draft_status": {
        "owner": "agents/draft-orchestrator.md",
        "identical": ["agents/example-writer.md", "skills/drafting/SKILL.md"],
        "divergent": {},
    },
    "dispatch-envelope": {
        "owner": "agents/draft-orchestrator.md",
        "identical": ["commands/run-pipeline.md", "skills/docs-pipeline/SKILL.md"],
        "divergent": {},
    },
    "return-envelope": {
        "owner": "agents/draft-orchestrator.md",
        "identical": ["commands/resume.md", "skills/docs-pipeline/SKILL.md"],
        "divergent": {},
    },
}
EXAMPLES = {"agents/example-writer.md", "skills/docs-pipeline/SKILL.md"}
"""Files holding a worked example: reported as examples, never scored as copies."""
NEAR_COPIES = {"agents/term-harvester.md": "survey_findings"}
"""A block under another key that is nearly a shape's copy: reported, not scored."""
IGNORED = {"build/agents/survey-orchestrator.md", "agents/notes.draft.md"}
"""Matched by .gitignore: never read."""
DIVERGENCES = sum(len(g["divergent"]) for g in EXPECTED.values())


def write_plugin(root: Path, files: dict[str, str] | None = None) -> Path:
    """Write the plugin under ``root`` (the test's tmp_path) and return it."""
    for rel, text in (files or FILES).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return root


def count_by_kind(files: dict[str, str] | None = None) -> dict[str, int]:
    """How many agent, skill and command files the plugin has (the issue asks for at least 12)."""
    paths = list(files or FILES)
    return {
        "agents": sum(p.startswith("agents/") and p not in IGNORED for p in paths),
        "skills": sum(p.startswith("skills/") for p in paths),
        "commands": sum(p.startswith("commands/") for p in paths),
    }
