"""A plugin holding every trap of issue 24, and the label ``scan`` must give each block planted in it.

Written in this project's own words. Each block is planted with what it is: a copy of
its shape's owner, a drifted copy, an instance (the shape's structure, its own values
by design) or an example; :data:`PLANTED` maps (path, shape id) to the labels of that
file's members of the shape, in line order, and :data:`DIVERGENT` lists the members
that must be reported. :func:`write_traps` writes the tree; :func:`write_history`
makes a git work tree whose history shows which of two copies is the newer.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def fence(body: str, info: str = "") -> str:
    return f"```{info}\n{body}```\n"


def front(name: str) -> str:
    return f"---\nname: {name}\ndescription: A helper of the ticket desk.\n---\n\n"


# -- templates, one per placeholder style ------------------------------------------------------------

ANGLE = "## Triage note\n\n**Ticket:** <ticket id>\n**Severity:** <low | high>\n**Next step:** <one sentence>\n"
CURLY = "## Shift summary\n\n**Queue:** {queue name}\n**Closed:** {count}\n**Carried over:** {count}\n"
SQUARE = "## Escalation\n\n**Owner:** [team]\n**Reason:** [one line]\n**Deadline:** [date]\n"
MUSTACHE = "## Customer reply\n\n**Greeting:** {{customer_name}}\n**Answer:** {{answer}}\n**Sign-off:** {{agent_name}}\n"
DOTS = "## Call log\n\n**Caller:** ...\n**Topic:** ...\n**Outcome:** ...\n"
ELLIPSIS = "## Handover\n\n**From:** …\n**To:** …\n**Open items:** …\n"
# an HTML comment is not a placeholder: this block has none, and no label lines, so it is no template
COMMENT_ONLY = "## Notes\n\n<!-- write the notes here -->\n"

# -- a heading skeleton (no placeholder style at all) and a label template --------------------------

ROOT_CAUSE = "## ROOT CAUSE FOUND\n\n**Symptom:** what the customer saw\n**Cause:** the component at fault\n**Fix:** the change made\n"
ROOT_CAUSE_STALE = "## ROOT CAUSE FOUND\n\n**Symptom:** what the customer saw\n**Cause:** the component at fault\n"
USAGE = "Usage: /{cmd} <ticket>\nEffect: {effect}\n"

# -- adapter envelopes: a success and a failure variant per adapter ----------------------------------

SUCCESS = '{{\n  "status": "success",\n  "adapter": "{name}",\n  "result": {{"ticket": "<id>", "summary": "<text>"}}\n}}\n'
FAILURE = '{{\n  "status": "failed",\n  "adapter": "{name}",\n  "error": {{"code": "<code>", "retryable": "<true | false>"}}\n}}\n'
FAILURE_NO_RETRY = '{{\n  "status": "failed",\n  "adapter": "{name}",\n  "error": {{"code": "<code>"}}\n}}\n'

# -- per-outcome blocks, side by side in one skill -----------------------------------------------------

OUTCOMES = [
    "result: pass\nticket: <id>\n",
    "result: skipped\nticket: <id>\nreason: <why>\n",
    "result: blocked\nticket: <id>\nblocker: <what>\n",
    "result: issue\nticket: <id>\nissue: <link>\n",
]

# -- a nested shape pasted elsewhere, and prose comments ---------------------------------------------

BATCH = (
    "review_batch:\n  batch: string\n  per_reviewer_results:\n"
    "    - reviewer: string\n      verdict: approve | reject\n      notes: string\n"
)
REVIEWER = "reviewer_result:\n  reviewer: string\n  verdict: approve | reject\n  notes: string\n"
SETTINGS = "settings:\n  notify: boolean   # Default: true. Set false to stay quiet on weekends.\n  queue: string\n"

# -- front matter in a fence (a new agent's skeleton) ----------------------------------------------

FRONT = "---\nname: <agent-name>\ndescription: <one line>\ntools: <tool list>\n---\n\n# <Agent title>\n\n**Role:** <one line>\n**Returns:** <shape id>\n"

# -- an example block with the three traps of issue 24 item 6 -------------------------------------------

TRIAGE = "triage:\n  ticket: string\n  pattern: string\n  notes: string\n  owner: string\n"
TRIAGE_EXAMPLE = 'triage:\n  ticket: T-1042\n  pattern: "timeout || refused"\n  notes: |\n    The gateway dropped the call twice.\n  owner:\n'
GOOD = "reviewer_result:\n  reviewer: ana\n  verdict: approve\n  notes: reads well\n"
BAD = "reviewer_result:\n  reviewer: ana\n  verdict: maybe\n"


def traps() -> dict[str, str]:
    files: dict[str, str] = {}
    files["README.md"] = "# ticket-desk\n\nA support plugin: triage, escalation, replies.\n"
    files["templates/root-cause.md"] = "# Root cause\n\nThe debugger produces the following format:\n\n" + fence(ROOT_CAUSE, "markdown")
    files["agents/debugger.md"] = front("debugger") + "# Debugger\n\nReturn:\n\n" + fence(ROOT_CAUSE_STALE, "markdown")
    files["agents/triager.md"] = (
        front("triager")
        + "# Triager\n\nWrite:\n\n" + fence(ANGLE, "markdown")
        + "\nand at the end of a shift:\n\n" + fence(CURLY)
        + "\nKeep the triage record:\n\n" + fence(TRIAGE, "yaml")
        + "\nFor example, a filled-in record:\n\n" + fence(TRIAGE_EXAMPLE, "yaml")
    )
    files["agents/escalator.md"] = (
        front("escalator")
        + "# Escalator\n\n" + fence(SQUARE, "markdown")
        + "\nReply with:\n\n" + fence(MUSTACHE, "text")
        + "\nNotes:\n\n" + fence(COMMENT_ONLY, "markdown")
    )
    files["agents/phone-agent.md"] = (
        front("phone-agent") + "# Phone agent\n\n" + fence(DOTS) + "\nAt handover:\n\n" + fence(ELLIPSIS)
    )
    files["skills/desk/SKILL.md"] = (
        front("desk")
        + "# Desk\n\n## Phase 1: triage\n\nThe triager returns:\n\n" + fence(ANGLE, "markdown")
        + "\n## Stage 3: end of shift\n\n" + fence(CURLY)
        + "\nEscalations:\n\n" + fence(SQUARE, "markdown")
        + "\nReplies:\n\n" + fence(MUSTACHE.replace("{{answer}}", "{{reply_text}}"), "text")
        + "\nCalls:\n\n" + fence(DOTS) + "\nHandover:\n\n" + fence(ELLIPSIS)
        + "\nTriage record:\n\n" + fence(TRIAGE, "yaml")
        + "\n## Outcomes\n\n" + "".join(fence(o, "yaml") + "\n" for o in OUTCOMES)
        + "## Settings\n\n" + fence(SETTINGS, "yaml")
        + "\n## Review\n\n" + fence(BATCH, "yaml")
    )
    files["references/adapter-envelopes.md"] = (
        "# Adapter envelopes\n\nEvery adapter produces the following format on success:\n\n" + fence(SUCCESS.format(name="<adapter>"), "json")
        + "\nand on failure:\n\n" + fence(FAILURE.format(name="<adapter>"), "json")
    )
    for name, failure in (("mail", FAILURE), ("chat", FAILURE), ("phone", FAILURE_NO_RETRY)):
        files[f"agents/{name}-adapter.md"] = (
            front(f"{name}-adapter")
            + f"# {name.title()} adapter\n\nOn success return:\n\n" + fence(SUCCESS.format(name=name), "json")
            + "\nOn failure return:\n\n" + fence(failure.format(name=name), "json")
        )
    files["agents/reviewer.md"] = (
        front("reviewer")
        + "# Reviewer\n\nReturn one:\n\n" + fence(REVIEWER, "yaml")
        + "\nGood:\n\n" + fence(GOOD, "yaml")
        + "\nBad:\n\n" + fence(BAD, "yaml")
        + "\nSettings you read:\n\n" + fence(SETTINGS, "yaml")
    )
    for cmd, effect in (("close", "closed"), ("reopen", "reopened")):
        files[f"commands/{cmd}.md"] = (
            front(cmd) + f"# /{cmd}\n\n" + fence(USAGE.format(cmd=cmd, effect=effect))
            + "\nA new agent starts from:\n\n" + fence(FRONT, "markdown")
        )
    return files


# (path, shape id) -> the labels of that file's members of the shape, in line order
PLANTED: dict[tuple[str, str], list[str]] = {
    ("agents/triager.md", "triage-note"): ["copy"],
    ("skills/desk/SKILL.md", "triage-note"): ["copy"],
    ("agents/triager.md", "shift-summary"): ["copy"],
    ("skills/desk/SKILL.md", "shift-summary"): ["copy"],
    ("agents/escalator.md", "escalation"): ["copy"],
    ("skills/desk/SKILL.md", "escalation"): ["copy"],
    ("agents/escalator.md", "customer-reply"): ["drifted"],  # its placeholder {{answer}} was renamed in the skill
    ("skills/desk/SKILL.md", "customer-reply"): ["copy"],
    ("agents/phone-agent.md", "call-log"): ["copy"],
    ("skills/desk/SKILL.md", "call-log"): ["copy"],
    ("agents/phone-agent.md", "handover"): ["copy"],
    ("skills/desk/SKILL.md", "handover"): ["copy"],
    ("templates/root-cause.md", "root-cause-found"): ["copy"],  # the declared definition owns it
    ("agents/debugger.md", "root-cause-found"): ["drifted"],  # the stale copy lacks **Fix:**
    ("agents/triager.md", "triage"): ["copy", "example"],
    ("skills/desk/SKILL.md", "triage"): ["copy"],
    ("references/adapter-envelopes.md", "success-envelope"): ["copy"],  # the declared definition owns it
    ("agents/chat-adapter.md", "success-envelope"): ["instance"],
    ("agents/mail-adapter.md", "success-envelope"): ["instance"],
    ("agents/phone-adapter.md", "success-envelope"): ["instance"],
    ("references/adapter-envelopes.md", "failed-envelope"): ["copy"],
    ("agents/chat-adapter.md", "failed-envelope"): ["instance"],
    ("agents/mail-adapter.md", "failed-envelope"): ["instance"],
    ("agents/phone-adapter.md", "failed-envelope"): ["instance"],  # its own adapter name, but it lost "retryable"
    ("agents/reviewer.md", "reviewer_result"): ["copy", "example", "example"],  # Good and Bad: examples
    ("skills/desk/SKILL.md", "reviewer_result"): ["copy"],  # the element of per_reviewer_results
    ("agents/reviewer.md", "settings"): ["copy"],
    ("skills/desk/SKILL.md", "settings"): ["copy"],
    ("commands/close.md", "usage"): ["copy"],  # the owner (a tie between two commands: the first)
    ("commands/reopen.md", "usage"): ["instance"],  # another command's own name in the same Usage: line
    ("commands/close.md", "front-matter"): ["copy"],
    ("commands/reopen.md", "front-matter"): ["copy"],
    ("commands/close.md", "role"): ["copy"],
    ("commands/reopen.md", "role"): ["copy"],
}
DIVERGENT = {
    ("agents/escalator.md", "customer-reply"),
    ("agents/debugger.md", "root-cause-found"),
    ("agents/phone-adapter.md", "failed-envelope"),
}
"""The members ``scan`` must report (exit 1), and no other."""
OWNERS = {
    "root-cause-found": "templates/root-cause.md",
    "customer-reply": "skills/desk/SKILL.md",
    "failed-envelope": "references/adapter-envelopes.md",
}


def write_traps(root: Path) -> Path:
    for rel, text in traps().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def git(root: Path, *args: str, when: str = "2026-01-01T10:00:00+00:00") -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(root),
    }
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def write_history(root: Path) -> Path:
    """Two agents hold one shape and no file declares it; the history shows which copy was edited last.

    ``agents/planner.md`` and ``agents/worker.md`` were committed with the same copy; a later
    commit added ``deadline`` to the worker's copy only. The newer copy owns the shape.
    """
    old = "plan_step:\n  step: string\n  owner: string\n"
    new = "plan_step:\n  step: string\n  owner: string\n  deadline: YYYY-MM-DD\n"
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    for name in ("planner", "worker"):
        (root / "agents").mkdir(exist_ok=True)
        (root / f"agents/{name}.md").write_text(f"# {name}\n\n" + fence(old, "yaml"), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "both copies")
    (root / "agents/worker.md").write_text("# worker\n\n" + fence(new, "yaml"), encoding="utf-8")
    git(root, "commit", "-q", "-am", "the worker's copy gains a deadline", when="2026-03-01T10:00:00+00:00")
    # a hook that would prove scan ran one: scan must never run the scanned repository's hooks
    hooks = root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in ("post-checkout", "pre-commit", "fsmonitor-watchman"):
        script = hooks / hook
        script.write_text(f"#!/bin/sh\ntouch '{root}/HOOK-RAN'\n")
        script.chmod(0o755)
    git(root, "config", "core.fsmonitor", str(hooks / "fsmonitor-watchman"))
    return root


# -- second round (issue 24, measured misses and false errors): one small tree per trap ---------------------------

MIGRATION_DB = (
    "## Migration plan: [Service]\n\n**Target:** [store name]\n**Kept:** [what stays as it is]\n**Moved:** [tables to copy]\n"
    "**Order:** copy rows first, then switch reads\n**Check:** row counts match\n"
)
MIGRATION_QUEUE = (
    "## Migration plan: [Service]\n\n**Target:** [store name]\n**Kept:** [what stays as it is]\n**Moved:** [topics to add]\n"
    "**Order:** [when consumers switch]\n**Check:** [lag bound]\n"
)
"""Two skills' plans, one per kind of store: one title, most lines their own. No file defines the shape."""
SCOUT = "## SCOUT REPORT\n\n**Area:** <where it looked>\n**Finding:** <what it saw>\n**Confidence:** <low | high>\n"
SCOUT_QUOTED = "## SCOUT REPORT\n\n**Area:** <region searched>\n**Finding:** <observation>\n"
"""The scout's return, and a stale quotation of it in a page that says the scout returns it."""
DIGEST = "## Weekly digest\n\n### Shipped\n- <one-line item>\n- <one-line item>\n- <one-line item>\n\n### Blocked\n- <item and why>\n"
DIGEST_SHORT = "## Weekly digest\n\n### Shipped\n- <one-line item>\n\n### Blocked\n- <item and why>\n"
"""One digest in a skill and its reference page: the list line stated three times or once."""
IDEA = "Idea: <short name>\nOrigin: sibling-brainstorm\nNeed: <who asks for it>\nProof: <what was observed, one line>\nCost: <small | large>\n"
IDEA_GATE = "Idea: <short name>\nOrigin: manual | scheduled | sibling-brainstorm\nNeed: <who asks for it>\nProof: <observation>\nCost: <small | large>\n"
"""The gate's idea block (its history is newest), and the same block pasted in three sibling plugins, one edited."""
PROBE_LOOP = "Probe: <derived from the alert>\nLevel: 2\nSource: watch\n"
PROBE = (
    "Probe: <name>\nLevel: <1|2|3>\nSource: watch | pager | manual\nOrigin: own | external\nReason: <summary>\n"
    "Runs: <R-1, R-2> (or \"none\")\nHost: <host name>\nLog: <file> (optional)\n"
)
"""A loop skill's filled probe, its batch form, and the checker agent's input: batch form and input all but one line alike."""
SETTINGS_EN = (
    '{\n  "queue": {\n    "size": "integer",\n    "retry": "boolean",\n    "backoff": "string"\n  },\n'
    '  "notify": {\n    "channel": "string",\n    "quiet": "boolean"\n  }\n}\n'
)
SETTINGS_STALE = '{\n  "queue": {\n    "size": "integer",\n    "retry": "boolean"\n  },\n  "notify": {\n    "channel": "string"\n  }\n}\n'
"""A settings page's JSON and its translations: keys are never translated, so a lost key is a stale translation."""


RUNBOOK = "# [Runbook title]\n\n## Trigger\n[What alert starts it]\n\n## Steps\n[Numbered actions]\n\n## Rollback\n[How to undo]\n"
RUNBOOK_BARE = "# [Runbook title]\n\n## Trigger\n\n## Steps\n\n## Rollback\n"
"""A skill's runbook template and a guide's copy of it that lost the text under every heading."""
SIGNOFF = "Signed-off-by: <reviewer name>\nSigned-off-by: <reviewer address>\n"
SIGNED_MESSAGE = (
    "fix: retry the upload\n\nWritten with a helper tool.\n\nSent from the desk bot\nSigned-off-by: Desk Bot <bot@desk.example>\n"
)
"""A skill's trailer template, and a guide's filled commit message whose address sits in angle brackets."""


VERDICT = "verdict:\n  ticket: string\n  decision: approve | reject\n  notes: string\n"
VERDICT_FILLED = "verdict:\n  ticket: T-7\n  decision: approve | reject | defer\n  notes: the refund waits for finance\n"
VERDICT_KEPT = "verdict:\n  ticket: T-9\n  decision: reject | approve\n  notes: a duplicate of T-3\n"
SHIFT = "## Shift report\n\n**Desk:** <desk name>\n**Load:** <low | normal | high>\n**Notes:** <one line>\n"
SHIFT_FILLED = "## Shift report\n\n**Desk:** billing\n**Load:** <low | normal | high | overload>\n**Notes:** quiet morning\n"
"""A definition and two filled-in instances of it: one whose enum gained a member (divergent), one that only reorders it."""


STATUS_JSON = '{{"agent": "{name}", "status": "{status}", "progress": {{"done": {done}, "left": 2}}}}\n'
"""Each worker's own status message, only ever written filled in (no copy in the notation)."""
REPLY_FORM = "<reply_form>\n**Answer:** [the answer]\n**{tone}:** [friendly or formal]\n**Sign-off:** [name]\n</reply_form>\n"
"""A tag-wrapped template of label lines, pasted in an xml fence."""
SKELETON = "---\nname: helper\ndescription: does things\n---\n\n## Section A\n[fill {this}]\n## Section B\n[fill that]\n"
"""A new file's skeleton: a fenced front matter of plain values, then a template body."""


AUDIT = (
    "# Audit report: <service>\n\n## Summary\n<two lines>\n\n### Finding\n**Severity:** <low | high>\n**Where:** <file:line>\n"
    "**Fix:** <one line>\n\n## Sign-off\n**Auditor:** <name>\n**Date:** <YYYY-MM-DD>\n"
)
FINDING = "## Finding\n**Severity:** <low | high>\n**Where:** <file:line>\n**Fix:** <one line>\n"
"""A skill's report template, and its Finding section pasted on its own (a heading level up) into two agents."""


DONE_BLOCK = "---\nagent: <name>\nticket: <id>\nstate: done | failed\nused: <minutes>\n---\n"
HEADER_BLOCK = "---\nproject: <name>\nagent: <name>\nticket: <id>\nwhen: <YYYY-MM-DD>\nstate: draft | final\n---\n"
"""Two front-matter shapes sharing three of their six keys, always side by side: two shapes, not one."""


RUN_LOG = '{"status": "success | failed", "tokens": "<total>", "input": "<input tokens>", "summary": "<one line>"}\n'
RUN_LOG_COPY = '{"status": "success | failed", "tokens": 5, "summary": "the run went fine"}\n'
"""The skill that writes a run log, and two pages that quote it filled in, the input tokens lost."""


DEFAULTS = "---\nowner: <team>\nreview: <days>\nscope: <area>\nlevel: low | high\n---\n"
PLAN = "# Plan: [Task]\n\n## Goal\n[one line]\n## Steps\n[numbered]\n## Risks\n[what may break]\n## Tests\n[what proves it]\n## Rollout\n[when]\n## Owner\n[who]\n"
METHOD = '{"method": "A | B | C", "method_name": "<name>"}\n'
ENTRY = '{"method": "A | B | C", "method_name": "<name>", "complete": "boolean", "recurrence_of": "<id> | null"}\n'


FEATURE_PLAN = "# Plan: [Task Name]\n\n## Goal\n[goal]\n## Dependencies\n[deps]\n## Acceptance\n[criteria]\n## Steps\n[steps]\n"
REFACTOR_PLAN = "# Plan: [Task Name]\n\n## Current State\n[now]\n## Target State\n[target]\n## Steps\n[steps]\n"
"""Two variants of a plan template sharing the title and a heading, side by side in two definition files."""


TICKET = (
    "# [Title]\n\n**State**: open | working | closed\n**Urgency**: high | low\n**Owner**: @Agent\n\n"
    "## Ask\nWhat is wanted.\n\n## Done when\n- [ ] Check 1\n\n## Notes\nAnything else.\n"
)
TICKET_WRITTEN = (
    "# [Short Title]\n\n**State**: open\n**Urgency**: high | low\n**Owner**: @Agent\n**Follows**: 001 (optional)\n"
    "**Waits on**: none | 002\n\n## Ask\nWhat is wanted.\n\n## Done when\n- [ ] Check 1\n"
)
TICKET_SHORT = "# [Title]\n\n**State**: closed\n**Urgency**: high | low\n**Owner**: @Agent\n\n## Ask\nWhat is wanted.\n"
"""A queue's item format; the item a planning skill writes (its state filled in, two labels added, Notes gone);
an archive skill's item (its state filled in, sections left out: nothing added)."""


GAP = '{{"status": "incomplete", "reason": "r", "missing": [{{"kind": "data | library | other", "note": "n", "tests": ["{tests}"]}}]}}\n'
SCORE = (
    '{{\n  "type": "case_score",\n  "case_id": "{name}-judge",\n  "final_status": {status},\n  "metrics": [\n    {{\n'
    '      "metric_name": "{name}_score",\n      "threshold": 0.8,\n      "score": {score},\n'
    '      "justification": "<string: analysis>"\n    }}\n  ]\n}}\n'
)


SHIPMENT = (
    '{{\n  "status": "success",\n  "carrier": "north-freight",\n  "parcels": 12,\n  "held": 3,\n  "weight_kg": 40,\n'
    '  "depot": "east"{tail}\n}}\n'
)
"""A skill's filled return, restated further down (the same values): whole, two keys lost, or keys elided with ``...``."""
HANDOFF = '{{"status": "success", "step": "<step name>", "{key}": "<id>", "count": "<number>"{more}}}\n'
"""A return in notation, and its restatement beside it in the same file that lost ``step``."""
REFUSAL = '{{"status": "failure", "operation": "{op}", "error": "tool not installed", "fixes": ["install it", "check the path"]{more}}}\n'
"""Each skill's own failure envelope (its own operation); one adds a key of its own (the address it fetched)."""
HANDLER_CALL = '{{"direction": "{way}", "source_repo": "<repo>", "target": "<where>", "options": {{"{option}": true}}}}\n'
"""A handler called in two directions, each with its own options."""
BRIEF = "# Brief: [Topic]\n\n## Aim\n[aim]\n## Context\n[context]\n## Plan\n[plan]\n## Risks\n[risks]\n## Checks\n[checks]\n"
"""One template in two definition files; the newer one dropped the Risks section and reworded the plan."""
ARCHIVE_ENTRY = '{{"id": "{id}", "file": "{file}", "date": "{date}", "state": "complete", "kind": "{kind}", "notes": ["{note}"]}}\n'
"""A record two skills state in {{x}} notation, a reference page writes with format tokens, another fills in."""
DESK_RULES = (
    "## DESK RULES (ALWAYS)\n\nREPLY RULES:\n1. You MUST answer in one message.\n2. You MUST NOT quote the ticket.\n"
    "3. You MUST sign with the desk name.\n4. You MUST close with a next step.\n\n{section}"
)
"""A short template of two labelled sections; a second page swapped the last section for one of its own."""

# -- third round (blind rounds D and later): one small tree per cause ------------------------------------------------

INTAKE = "INTAKE DONE: <ticket>\nQueue: <billing | tech>\nWaiting since: <hours>\nPriority: <low | high>\nReply by: <date>\n- <note>\n"
INTAKE_FILLED = "INTAKE DONE: T-31\nQueue: billing\nWaiting since: 3\nPriority: high\nReply by: Friday\n- card declined twice\n"
INTAKE_STALE = "INTAKE DONE: T-8\nQueue: tech\nWaiting since: 12\nReply by: Monday\n- router reboots\n"
TONE_RUBRIC = (
    "- **WARM ({n})**: The reply greets the customer by name and thanks them for waiting.\n\n"
    "- **COLD ({n})**: The reply answers without a greeting and reads like a form letter.\n"
)
OUTCOME_FORMS = (
    "Resolved:\n## Ticket closed\n**Ticket:** <id>\n**Fix:** <what changed>\n**Customer told:** <yes | no>\n\n"
    "Escalated:\n## Ticket escalated\n**Ticket:** <id>\n**Team:** <billing | tech>\n**Reason:** <one line>\n- <log line>\n\n"
    "Waiting:\n## Ticket on hold\n**Ticket:** <id>\n**Waiting for:** <customer | vendor>\n**Next check:** <date>\n"
)
ESCALATED = "## Ticket escalated\n**Ticket:** <id>\n**Team:** <billing | tech>\n**Reason:** <one line>\n- <log line>\n"
ROLE_LINES = "Triage: sort the new tickets\nBilling: refund the double charge\nkeep each request short\n"


def second_round() -> dict[str, dict[str, str]]:
    """Tree name -> files. Each tree holds one trap; tests/test_scan_traps.py asserts the label of the planted block."""
    return {
        "low-share": {
            "skills/db-move/SKILL.md": front("db-move") + "Show the plan:\n\n" + fence(MIGRATION_DB),
            "skills/queue-move/SKILL.md": front("queue-move") + "Show the plan:\n\n" + fence(MIGRATION_QUEUE),
        },
        "quoted-return": {
            "agents/scout.md": front("scout") + "Report with:\n\n" + fence(SCOUT),
            "docs/flow.md": "# Flow\n\nThe scout returns:\n\n" + fence(SCOUT_QUOTED),
        },
        "list-line": {
            "skills/digest/SKILL.md": front("digest") + "Write:\n\n" + fence(DIGEST),
            "skills/digest/reference.md": "# Digest reference\n\nThe digest:\n\n" + fence(DIGEST_SHORT),
        },
        "peers": {
            "agents/gate.md": front("gate") + "Ideas arrive in the following format:\n\n" + fence(IDEA_GATE),
            "plugins/shop/skills/brainstorm/SKILL.md": front("brainstorm") + "Emit:\n\n" + fence(IDEA),
            "plugins/farm/skills/brainstorm/SKILL.md": front("brainstorm") + "Emit:\n\n" + fence(IDEA),
            "plugins/gym/skills/brainstorm/SKILL.md": front("brainstorm") + "Emit:\n\n"
            + fence(IDEA.replace("<what was observed, one line>", "<what was measured, one line>")),
        },
        "twins": {
            "skills/watch/SKILL.md": front("watch") + "Raise one:\n\n" + fence(PROBE_LOOP)
            + "\nPass them as blocks:\n\n" + fence(PROBE),
            "agents/checker.md": front("checker") + "## Input\n\nYou receive:\n\n"
            + fence(PROBE.replace('(or "none")', '(or "none" when no run is cited)')),
        },
        "emptied": {
            "skills/runbook/SKILL.md": front("runbook") + "Write each runbook as:\n\n" + fence(RUNBOOK, "markdown"),
            "docs/guide.md": "# Guide\n\nUse this template:\n\n" + fence(RUNBOOK_BARE, "markdown"),
        },
        "address": {
            "skills/sign/SKILL.md": front("sign") + "Add the trailers:\n\n" + fence(SIGNOFF),
            "docs/commits.md": "# Commits\n\n**Input message**:\n" + fence(SIGNED_MESSAGE),
        },
        "retyped": {
            "templates/verdict.md": "# Verdict\n\nThe reviewer produces the following format:\n\n" + fence(VERDICT, "yaml")
            + "\nand each shift:\n\n" + fence(SHIFT, "markdown"),
            "agents/refunds.md": front("refunds") + "Return:\n\n" + fence(VERDICT_FILLED, "yaml")
            + "\nAt the end of the shift:\n\n" + fence(SHIFT_FILLED, "markdown"),
            "agents/duplicates.md": front("duplicates") + "Return:\n\n" + fence(VERDICT_KEPT, "yaml"),
        },
        "filled-only": {
            **{
                f"agents/worker-{n}.md": front(f"worker-{n}") + "Report progress:\n\n"
                + fence(STATUS_JSON.format(name=f"worker-{n}", status="busy", done=n), "json")
                for n in range(1, 7)
            },
            "agents/worker-7.md": front("worker-7") + "Report progress:\n\n"
            + fence(STATUS_JSON.format(name="worker-7", status="busy", done=7).replace('"progress"', '"p_progress"'), "json"),
        },
        "free-status": {
            f"agents/{name}.md": front(name) + "Report:\n\n"
            + fence(STATUS_JSON.format(name=name, status=status, done=1).replace('"agent"', '"agnt"' if name == "c" else '"agent"'), "json")
            for name, status in (("a", "implementing"), ("b", "designing"), ("c", "testing"), ("d", "reviewing"), ("e", "implementing"))
        },
        "xml-template": {
            f"agents/{name}.md": front(name) + "Reply with:\n\n" + fence(REPLY_FORM.format(tone="Voice" if name == "c" else "Tone"), "xml")
            for name in ("a", "b", "c")
        },
        "tag-section": {
            **{
                f"agents/{name}.md": front(name) + "Reply with:\n\n" + REPLY_FORM.format(tone="Voice" if name == "c" else "Tone")
                + "\n<objective>\n**Purpose:** answer the " + name + " queue\n**Output:** one reply per ticket\n</objective>\n"
                for name in ("a", "b", "c")
            },
        },
        "section": {
            "skills/audit/SKILL.md": front("audit") + "Write the report:\n\n" + fence(AUDIT, "markdown"),
            "agents/checker.md": front("checker") + "Return each finding:\n\n" + fence(FINDING, "markdown"),
            "agents/scanner.md": front("scanner") + "Return each finding:\n\n" + fence(FINDING, "markdown"),
            "agents/linter.md": front("linter") + "Return each finding:\n\n" + fence(FINDING.replace("<one line>", "<one line, imperative>"), "markdown"),
        },
        "side-by-side": {
            "defs/defaults.md": "# Defaults\n\n## Completion\n\n" + fence(DONE_BLOCK, "yaml") + "\n" + fence(HEADER_BLOCK, "yaml")
            + "\n## Documents\n\n" + fence(DONE_BLOCK, "yaml") + "\n" + fence(HEADER_BLOCK, "yaml"),
            **{
                f"agents/{name}.md": front(name) + "Close with:\n\n" + fence(DONE_BLOCK, "yaml") + "\nHead each page with:\n\n"
                + fence(HEADER_BLOCK.replace("when: <YYYY-MM-DD>\n", "") if name == "gamma" else HEADER_BLOCK, "yaml")
                for name in ("alpha", "beta", "gamma")
            },
        },
        "owner-option": {
            "skills/run/SKILL.md": front("run") + "Append:\n\n" + fence(RUN_LOG, "json"),
            "concepts/logs.md": "# Logs\n\n" + fence(RUN_LOG_COPY, "json"),
            "concepts/costs.md": "# Costs\n\n" + fence(RUN_LOG_COPY, "json"),
        },
        "under-templates": {
            "templates/.claude/data/defaults.md": "# Defaults\n\n" + fence(DEFAULTS, "yaml"),
            **{
                f"templates/.claude/agents/{name}.md": f"# {name}\n\n" + fence(DEFAULTS.replace("review: <days>\n", ""), "yaml")
                for name in ("alpha", "beta", "gamma")
            },
        },
        "two-definitions": {
            "templates/a.md": "# A\n\n" + fence(PLAN, "markdown"),
            "templates/b.md": "# B\n\n" + fence(PLAN.replace("## Risks\n[what may break]\n", "").replace("## Owner", "## Contact"), "markdown"),
        },
        "excerpts": {
            "skills/s/SKILL.md": front("s") + "Record the method used:\n\n" + fence(METHOD, "json"),
            "skills/s/SPEC.md": "# Spec\n\nAdd to each entry:\n\n" + fence(ENTRY, "json"),
        },
        "plan-variants": {
            "templates/plan.md": "# Plans\n\nFeature:\n\n" + fence(FEATURE_PLAN, "markdown") + "\nRefactor:\n\n" + fence(REFACTOR_PLAN, "markdown"),
            "templates/task-plan.md": "# Task plans\n\nFeature:\n\n" + fence(FEATURE_PLAN, "markdown") + "\nRefactor:\n\n"
            + fence(REFACTOR_PLAN.replace("[target]", "[target shape]"), "markdown"),
        },
        "queue-item": {
            "skills/queue/SKILL.md": front("queue") + "Each item is a file:\n\n" + fence(TICKET, "markdown"),
            "skills/plan/SKILL.md": front("plan") + "For each item, write:\n\n" + fence(TICKET_WRITTEN, "markdown"),
            "skills/archive/SKILL.md": front("archive") + "Closed items keep:\n\n" + fence(TICKET_SHORT, "markdown"),
        },
        "front-skeleton": {
            "docs/one.md": "# One\n\n" + fence(SKELETON.format(this="this"), "yaml"),
            "docs/two.md": "# Two\n\n" + fence(SKELETON.format(this="this in"), "yaml"),
        },
        "translation": {
            "docs/settings.md": "# Settings\n\n" + fence(SETTINGS_EN, "json"),
            "docs/de-DE/settings.md": "# Einstellungen\n\n" + fence(SETTINGS_STALE, "json"),
            "docs/fr-FR/settings.md": "# Réglages\n\n" + fence(SETTINGS_EN, "json"),
        },
        "array-values": {  # blind3-1: each agent fills in its own file name inside an array
            f"agents/{name}.md": front(name) + "Return:\n\n" + fence(GAP.format(tests=tests), "json")
            for name, tests in (("alpha", "alpha-tests"), ("beta", "beta.test.ts"), ("gamma", "<test file>"), ("delta", "<test path>"))
        },
        "restated-return": {  # blind4-1: a filled return and its restatements in one skill
            "skills/ship/SKILL.md": front("ship") + "## Step 6: Return\n\n" + fence(SHIPMENT.format(tail=""), "json")
            + "\n## Outputs\n\n" + fence(SHIPMENT.format(tail="").replace('  "held": 3,\n', "").replace(',\n  "depot": "east"', ""), "json")
            + "\n## Summary\n\n" + fence(SHIPMENT.format(tail="").replace('  "held": 3,\n', '  ...\n'), "json"),
        },
        "beside-owner": {  # blind4-2: the same values, one key lost, in the owner's own file
            "skills/hand/SKILL.md": front("hand") + "## Process the reply\n\n" + fence(HANDOFF.format(key="project", more=""), "json")
            + "\n## Success output\n\n" + fence(HANDOFF.format(key="project", more="").replace('"step": "<step name>", ', ""), "json"),
        },
        "context-keys": {  # blind4-6: each operation's failure; one with a context key of its own
            f"skills/{op}/SKILL.md": front(op) + "On failure return:\n\n"
            + fence(REFUSAL.format(op=op, more=', "address": "https://example.org/x"' if op == "fetch" else ""), "json")
            for op in ("clear", "list", "stats", "check", "fetch")
        },
        "directions": {  # blind4-7: a handler called in both directions
            f"workflow/{way}-{n}.md": f"# {way} {n}\n\nInvoke the handler with:\n\n"
            + fence(HANDLER_CALL.format(way=f"{way}-cache", option="push" if way == "to" else "cache_mode"), "json")
            for way in ("to", "from") for n in (1, 2)
        },
        "definition-files": {  # blind1-7: one template in two definition files (tests/test_scan_traps.py adds git history)
            "templates/a.md": "# A\n\n" + fence(BRIEF, "markdown"),
            "templates/b.md": "# B\n\n" + fence(BRIEF.replace("## Risks\n[risks]\n", "").replace("[plan]", "[numbered steps]"), "markdown"),
        },
        "token-example": {  # blind3-5: an example written with format tokens must not own the {{x}} templates
            **{
                f"skills/{k}/SKILL.md": front(k) + "Append:\n\n"
                + fence(ARCHIVE_ENTRY.format(id="{{SLUG}}-{{DATE}}", file="{{DATE}}_{{SLUG}}.md", date="{{DATE}}", kind=k, note="Finding 1"), "json")
                for k in ("alpha", "beta")
            },
            "skills/gamma/references/session.md": "# Session\n\n"
            + fence(ARCHIVE_ENTRY.format(id="T####-slug", file="path", date="YYYY-MM-DD", kind="gamma", note="Finding 1"), "json"),
            "skills/delta/references/chain.md": "# Chain\n\n"
            + fence(ARCHIVE_ENTRY.format(id="T0042-login", file="login.md", date="", kind="delta", note="Found it").replace(', "date": ""', ""), "json"),
        },
        "swapped-section": {  # blind3-4: four rule lines alike, the second labelled section swapped
            "refs/desk-rules.md": "# Desk rules\n\n" + fence(DESK_RULES.format(section="LOG FORMAT:\n- one line per reply\n")),
            "refs/handover.md": "# Handover\n\n" + fence(DESK_RULES.format(section="HANDOVER STEPS:\n1. read the queue\n2. pick the oldest\n"), "markdown"),
        },
        "filled-form": {  # a form filled in (no placeholder left) is compared with its template: one lost a label
            "agents/intake.md": front("intake") + "Close each ticket with:\n\n" + fence(INTAKE),
            "skills/queue/SKILL.md": front("queue") + "The intake agent replies with:\n\n" + fence(INTAKE_FILLED),
            "docs/desk.md": "# Desk\n\nThe intake agent replies with:\n\n" + fence(INTAKE_STALE),
            # no form: sentences after each label (a rubric), prose lines between labels (a list of requests)
            "agents/tone-a.md": "# Tone A\n\n" + fence(TONE_RUBRIC.format(n="1")),
            "agents/tone-b.md": "# Tone B\n\n" + fence(TONE_RUBRIC.format(n="1").replace("by name", "warmly")),
            "docs/roles.md": "# Roles\n\n" + fence(ROLE_LINES),
            "docs/start.md": "# Start\n\n" + fence(ROLE_LINES.replace("keep each request short\n", "")),
        },
        "template-parts": {  # a fence of three labelled templates; one of them restated on its own, twice
            "skills/desk/SKILL.md": front("desk") + "Answer with one of:\n\n" + fence(OUTCOME_FORMS),
            "agents/router.md": front("router") + "When you escalate, say:\n\n" + fence(ESCALATED),
            "agents/old.md": front("old") + "When you escalate, say:\n\n" + fence(ESCALATED.replace("tech>", "tech | sales>")),
        },
        "typed-enum": {  # blind4-4: `1 | 2 | 3` and `<integer: 1=pass, 2=fail, 3=error>` say one thing
            f"agents/{name}-judge.md": f"# {name} judge\n\n### Schema\n\n" + fence(SCORE.format(name=name, status=status, score=score), "json")
            for name, status, score in (
                ("alpha", "<integer: 1=pass, 2=fail, 3=error>", "<float: 0.0-1.0>"),
                ("beta", "1 | 2 | 3", "0.0 | 0.5 | 1.0"),
                ("gamma", "1 | 2", "0.0 | 0.5 | 1.0"),  # another enum: still a notation change
            )
        },
    }
