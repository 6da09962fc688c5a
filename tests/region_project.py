"""A small project with two contracts and targets, shared by the managed-region tests."""

from __future__ import annotations

RETURNS = """\
# Returns

## Overview

Returns are judged by their receiver checks.

## Shared forms

Every return starts with `status: <value>`.

## EchoReturn

Produced by `echoer`; consumed by `echo-skill`.

```
status: ok
echo: <text>
note: <one line, optional>
```

Receiver checks:

1. Line 1 is `status: ok`.

## PingReturn

Produced by `pinger`; consumed by `ping-skill`.

Receiver checks:

1. The whole return is at most 2 lines.
"""

BRIEFS = """\
# Briefs

## Overview

Briefs travel from the orchestrator to its specialists.

## Planning

```yaml
task_brief:
  goal: string          # ← TRANSIENT
  kind: a | b
```

## Building

```yaml
task_brief:
  plan: string
  workspace: string
```

```yaml
report:
  outcome: passed | failed    # odd  spacing   kept
```
"""

CONFIG = """\
contracts:
  - path: contracts/returns.md
    shared: [shared-forms]
  - path: contracts/briefs.md
targets:
  - agents/*.md
  - skills/*/SKILL.md
"""


def project_files(**extra: str | bytes) -> dict[str, str | bytes]:
    return {"contractc.yaml": CONFIG, "contracts/returns.md": RETURNS, "contracts/briefs.md": BRIEFS, **extra}


def section(text: str, heading: str) -> str:
    """The bytes of a section of ``text``: its heading line up to the next heading of the same or higher level."""
    start = text.index(heading + "\n")
    level = heading.split(" ")[0]
    ends = [text.find(f"\n{'#' * n} ", start + 1) for n in range(1, len(level) + 1)]
    ends = [e + 1 for e in ends if e != -1]
    return text[start : min(ends, default=len(text))]
