"""A research-desk plugin a team runs for weeks: the fixture of tests/test_trial_lifecycle.py.

Three stages (scoping, gathering, synthesis) hand one ``research_brief`` key each, in its
own shape; a ``query_plan`` the gathering brief refers to by ``$ref``; four return formats
with ``Receiver checks:``, one of them produced by an agent whose name is not ASCII
(``rédacteur``); two shared sections; a worked example under "For example" that looks
like the scoping brief.  Agents and skills hold managed regions, and one agent holds a
hand-pasted near-copy of the gathering brief; ``agents/source-scout.md`` has CRLF line
endings.  Nothing here is copied from the seeds or from other tests.
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_tree
from diff_repo import make_repo

CONTRACT = """\
# Research desk — hand-offs between the desk's agents

The desk answers one research question per run.  The lead scopes it, scouts and
readers gather sources, a fact-checker tests the claims and the rédacteur writes
the answer.  This page is the only place these hand-offs are defined.

## Shared conventions {#shared-conventions}

Every return starts with its status line and nothing before it: no greeting, no
preamble, no code fence around the whole return.

**Citation form.** A source is cited as `[<source-id>](<url>)`, where the id is the
one the scout gave it (`S-04`) and the URL is the one it was read at.

## Reading scope {#reading-scope}

Read only what the brief lists.  A source behind a login, a paywall or a cookie
wall is reported as unreadable, never summarised from its abstract alone.

## Scoping stage {#scoping-stage}

The lead turns the user's question into a brief for the query planner.

```yaml
research_brief:                      # what the lead hands the query planner
  question: string                   # the user's question, in their words
  depth: skim | survey | deep
  deadline: "YYYY-MM-DD"
  audience: string                   # who reads the answer
  exclusions: [ ...topics the user ruled out... ]
```

For example, a brief for a quick survey:

```{.yaml .example}
research_brief:
  question: Does spaced repetition help adult language learners?
  depth: survey
  deadline: "2026-12-04"
  audience: a language-school teacher
  exclusions: [ children, apps' marketing pages ]
```

## Gathering stage {#gathering-stage}

The planner's plan travels with the brief to every scout and reader.

```yaml
query_plan:
  queries:
    - text: string
      engine: scholar | web | library
  max_sources: 12
  languages: [ en, fr ]
```

```yaml
research_brief:                      # what the lead hands each scout and reader
  question: string
  plan: { ...full query_plan... }
  source_ids: [ S-01, S-02 ]        # ← TRANSIENT, allocated by the lead for this run
  reader_notes: string               # optional — what an earlier reader flagged
```

### SourceReturn {#sourcereturn}

Produced by `source-scout`; consumed by `gathering`.

```
status: found | none-found
- **<title>** — [<source-id>](<url>)
```

Receiver checks:

1. Line 1 is exactly `status: ` followed by one of `found` / `none-found`.
2. If `found`, every bullet begins `- **` and carries the citation form.
3. The return is at most 40 lines.

### ReadingNotes {#readingnotes}

Produced by `paper-reader`; consumed by `gathering`, `synthesis`.

```
status: read | unreadable
- **<claim>** — [<source-id>](<url>)
  quote: <the sentence it rests on>
```

Receiver checks:

1. Line 1 is exactly `status: ` followed by one of `read` / `unreadable`.
2. If `read`, every bullet begins `- **` and carries the citation form.
3. Every finding has a `quote:` line.
4. If `unreadable`, a `Reason:` line is present.

## Synthesis stage {#synthesis-stage}

```yaml
research_brief:                      # what the lead hands the rédacteur
  question: string
  claims: [ { claim, source_id, verdict } ]
  word_limit: 600
```

### FactCheckReturn {#factcheckreturn}

Produced by `fact-checker`; consumed by `synthesis`.

```
verdict: supported | disputed | unverifiable
- **<claim>** — [<source-id>](<url>)
**Counter-evidence**
- <what contradicts it>
```

Receiver checks:

1. Line 1 is exactly `verdict: ` followed by one of `supported` / `disputed` / `unverifiable`.
2. Every bullet carries the citation form.
3. If `disputed`, a `**Counter-evidence**` line is present.
4. The body names at least one file.

### Réponse rédigée

Produced by `redacteur`; consumed by `synthesis`.

```
status: drafted | blocked
## Answer
<the answer, at most the word limit>
## Sources
1. [<source-id>](<url>)
```

Receiver checks:

1. Line 1 is exactly `status: ` followed by one of `drafted` / `blocked`.
2. The second line begins `## Answer`.
3. The sources are a numbered list starting at `1.`, and every item carries the citation form.
4. The return reads well to a teacher.
"""

CONFIG = """\
# The research desk's contract and where its copies live.
contracts:
  - path: contracts/research.md
    shared: [shared-conventions, reading-scope]
targets:
  - agents/*.md
  - skills/*/SKILL.md
agents:
  source-scout: agents/source-scout.md
out:
  prompts: prompts
  schemas: schemas
"""


def front(name: str, description: str, nl: str = "\n") -> str:
    return f"---{nl}name: {name}{nl}description: {description}{nl}---{nl}{nl}"


def region(kind: str, ref: str, nl: str = "\n") -> str:
    return f"<!-- contractc:begin {kind}={ref} -->{nl}<!-- contractc:end -->{nl}"


# The gathering brief pasted by hand before the team adopted contractc; one comment reworded.
PASTED_BRIEF = """\
```yaml
research_brief:
  question: string
  plan: { ...full query_plan... }
  source_ids: [ S-01, S-02 ]        # ← TRANSIENT
  reader_notes: string               # optional — what an earlier reader flagged
```
"""


def sources() -> dict[str, str | bytes]:
    """path -> text (UTF-8) or bytes, the plugin as the team first commits it."""
    crlf = "\r\n"
    scout = (
        front("source-scout", "Finds sources for one research question.", crlf)
        + f"# Source scout{crlf}{crlf}You search; you never read a source in full.{crlf}{crlf}"
        + f"## What you receive{crlf}{crlf}"
        + region("shape", "gathering-stage.research_brief", crlf)
        + f"{crlf}## What you return{crlf}{crlf}"
        + region("shape", "sourcereturn", crlf)
    )
    return {
        ".gitignore": ".venv/\nsite/\n",
        "contractc.yaml": CONFIG,
        "contracts/research.md": CONTRACT,
        "README.md": "# Research desk\n\nSee `contracts/research.md` for the hand-offs.\n",
        "agents/research-lead.md": (
            front("research-lead", "Scopes the question and runs the desk.")
            + "# Research lead\n\nYou scope the question and dispatch every stage.\n\n"
            + "## Scoping\n\n"
            + region("shape", "scoping-stage.research_brief")
            + "\n## Gathering\n\n"
            + region("shape", "gathering-stage.research_brief")
            + "\n## Synthesis\n\n"
            + region("shape", "synthesis-stage.research_brief")
        ),
        "agents/query-planner.md": (
            front("query-planner", "Turns a brief into queries.")
            + "# Query planner\n\nYou receive the scoping brief and return a plan.\n\n"
            + region("shape", "scoping-stage.research_brief")
            + "\nReturn:\n\n"
            + region("shape", "query_plan")
        ),
        "agents/source-scout.md": scout.encode("utf-8"),
        "agents/paper-reader.md": (
            front("paper-reader", "Reads one source and notes its claims.")
            + "# Paper reader\n\nYou read one source at a time.\n\n"
            + "You receive the gathering brief (pasted here by hand last spring):\n\n"
            + PASTED_BRIEF
            + "\n"
            + region("bundle", "readingnotes")
        ),
        "agents/fact-checker.md": (
            front("fact-checker", "Tests each claim against a second source.")
            + "# Fact checker\n\n"
            + region("section", "reading-scope")
            + "\n"
            + region("shape", "factcheckreturn")
        ),
        "agents/rédacteur.md": (
            front("rédacteur", "Writes the answer.")
            + "# Rédacteur\n\nYou write the answer for the audience named in the brief.\n\n"
            + region("shape", "synthesis-stage.research_brief")
            + "\n"
            + region("shape", "reponse-redigee")
        ),
        "agents/citation-auditor.md": (
            front("citation-auditor", "Checks every citation resolves.")
            + "# Citation auditor\n\nYou open every URL cited in the draft.\n\n"
            + region("section", "shared-conventions")
        ),
        "skills/scoping/SKILL.md": (
            front("scoping", "Scope a research question.")
            + "# Scoping\n\nAsk the user for the question, then fill:\n\n"
            + region("shape", "scoping-stage.research_brief")
        ),
        "skills/gathering/SKILL.md": (
            front("gathering", "Dispatch scouts and readers.")
            + "# Gathering\n\nDispatch each scout with the bundle below and judge the return with\n"
            + "`contractc validate sourcereturn -`.\n\n"
            + region("bundle", "sourcereturn")
        ),
        "skills/synthesis/SKILL.md": (
            front("synthesis", "Check the claims and write the answer.")
            + "# Synthesis\n\nDispatch the fact-checker, then the rédacteur.\n\n"
            + region("section", "synthesis-stage")
        ),
    }


def write_plugin(root: Path) -> Path:
    """Write the plugin under ``root`` (created) and return it."""
    return write_tree(root, sources())


def init_repo(root: Path) -> Path:
    """The plugin as the first commit of a git repository."""
    return make_repo(root, sources(), "research desk, before contractc build")
