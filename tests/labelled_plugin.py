"""A plugin full of blocks that look alike and must not be made alike, for ``adopt``'s labels.

A release pipeline: an orchestrator dispatches a packaging brief to three
package adapters (npm, pypi, crates) and a verifier; each adapter shows the
success and the failure envelope it returns, with its own values; the
verifier shows one block per outcome (``result: pass``, ``skipped``,
``blocked``, ``issue``); each command shows its own ``Usage:`` line; a style
guide shows a Good and a Bad example.  Only the packaging brief is a real
copy: the orchestrator owns it, the npm adapter holds it byte for byte, and
the crates adapter's copy drifted (a field of its own).  One data shape says
``# Default: true. Set false ...`` in a comment, which is prose.
"""

from __future__ import annotations

from pathlib import Path

BRIEF = """\
```yaml
package_brief:
  version: string                   # the version to publish, semver
  channel: stable | beta
  sign: boolean                     # Default: true. Set false to publish an unsigned dry run.
  notes: string
```
"""

DRIFTED_BRIEF = BRIEF.replace("  notes: string\n", "  notes: string\n  mirror: string                    # crates only\n")


def envelope(adapter: str, status: str) -> str:
    if status == "success":
        body = f'  "status": "success",\n  "adapter": "{adapter}",\n  "published": {{ "name": "<package>", "url": "https://{adapter}.example/<package>" }}\n'
    else:
        body = f'  "status": "failed",\n  "adapter": "{adapter}",\n  "error": {{ "code": "{adapter.upper()}_REJECTED", "message": "<why>" }}\n'
    return "```json\n{\n" + body + "}\n```\n"


def adapter(name: str, brief: str | None) -> str:
    out = [f"# {name} adapter\n\nYou publish one package to {name}.\n"]
    if brief is not None:
        out.append(f"\n## The brief you receive\n\n{brief}")
    out.append(f"\n## When it is published\n\n{envelope(name, 'success')}")
    out.append(f"\n## When it fails\n\n{envelope(name, 'failed')}")
    return "".join(out)


OUTCOMES = {
    "pass": "every check passed",
    "skipped": "nothing to verify in this release",
    "blocked": "the registry could not be reached",
    "issue": "the checksum does not match",
}


def verifier() -> str:
    out = ["# Verifier\n\nYou check a published package and answer with one block.\n"]
    for result, note in OUTCOMES.items():
        out.append(f"\n## If {note}\n\n```yaml\noutcome:\n  result: {result}\n  note: \"{note}\"\n```\n")
    return "".join(out)


def command(name: str, usage: str) -> str:
    return f"# /{name}\n\nRun the release step {name}.\n\n```text\nUsage: /{name} {usage}\n```\n\nThe orchestrator does the rest.\n"


GUIDE = """\
# Release notes style

Write one line per change.

Good:

```markdown
## Changes
- Fixed: the login form keeps its focus after an error
```

Bad:

```markdown
## Changes
- fixed stuff
```
"""

ORCHESTRATOR = f"""\
---
name: release-orchestrator
description: Publishes a release through the package adapters.
role: orchestrator
---
# Release orchestrator

Send each adapter this brief:

{BRIEF}
Then dispatch `verifier` and merge what the adapters return.
"""

FILES = {
    "agents/release-orchestrator.md": ORCHESTRATOR,
    "agents/npm.md": adapter("npm", BRIEF),
    "agents/pypi.md": adapter("pypi", None),
    "agents/crates.md": adapter("crates", DRIFTED_BRIEF),
    "agents/verifier.md": verifier(),
    "commands/publish.md": command("publish", "<version> [--beta]"),
    "commands/yank.md": command("yank", "<version> --reason <text>"),
    "commands/status.md": command("status", "[<version>]"),
    "skills/release-notes/SKILL.md": GUIDE,
}


def write_plugin(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
