"""A project whose one contract holds many shapes: how ``check`` scales with the shape count.

S text shapes, each a section with a ``Produced by ...; consumed by ...`` line, a
fenced return template and numbered receiver checks, spread over a few dozen
agents and skills; S/4 data shapes in stage sections; target files holding
``shape=`` and ``bundle=`` regions, one of them also a hand-made restatement of a
template; and the contract site.  Only the standard library is used.
"""

from __future__ import annotations

from pathlib import Path

CONFIG = """\
site_url: https://example.org/handoffs/
contracts:
  - path: contracts/returns.md
    shared: [return-forms]
targets: [docs/*.md]
out:
  prompts: prompts
  schemas: schemas
  site: site
allow_restatements:
  - path: docs/notes.md   # a worked example, on purpose: the finder still weighs it
    shape: return-0
"""


def _text_shape(i: int) -> str:
    return f"""
## Return {i}

Produced by `agent-{i % 40}`; consumed by `skill-{i % 60}` and `skill-{(i + 7) % 60}`.

```
verdict: changes

- **<problem {i}, one line>** `<path>:<first>-<last>`
  — why it matters for change {i}, in one to three sentences.

**Not checked**: <what the reviewer could not judge, or "nothing">
```

With `verdict: approve`, the body is one paragraph naming the files read.

Receiver checks:

1. Line 1 is exactly `verdict: ` followed by one of `approve` / `changes` /
   `blocked`.
2. If `changes`, a `**Not checked**:` line is present.
3. The whole return is at most {20 + i % 40} lines.
"""


def _data_shape(j: int) -> str:
    return f"""
```yaml
record_{j}:
  id: string                      # stable id, e.g. R-{j:04d}
  kind: note | task | risk
  owners: [ string ]
  estimate_hours: 3
  done: false                     # true once the receiver accepts it
```
"""


def write_shapes_corpus(root: Path, shapes: int) -> Path:
    """Write the project of ``shapes`` text shapes (and ``shapes // 4`` data shapes) under ``root``."""
    data = max(shapes // 4, 1)
    parts = [
        "# Returns\n\nEvery return the agents of this plugin hand back.\n\n",
        "## Return forms\n\nA return starts with the line `verdict: <value>`.\n",
        *(_text_shape(i) for i in range(shapes)),
    ]
    for stage in range(0, data, 25):
        parts.append(f"\n## Stage {stage // 25}\n\nThe records of this stage.\n")
        parts.extend(_data_shape(j) for j in range(stage, min(stage + 25, data)))
    files = {"contractc.yaml": CONFIG, "contracts/returns.md": "".join(parts)}
    for k in range(max(shapes // 20, 1)):
        files[f"docs/guide-{k}.md"] = (
            f"# Guide {k}\n\nHow stage {k} hands its records on.\n\n"
            f"<!-- contractc:begin shape=record_{k % data} -->\n<!-- contractc:end -->\n\n"
            f"What the dispatch carries:\n\n<!-- contractc:begin bundle=return-{k} -->\n<!-- contractc:end -->\n"
        )
    files["docs/notes.md"] = "# Notes\n\nA copy pasted by hand:\n\n```\nverdict: changes\n\n" \
        "- **<problem 0, one line>** `<path>:<first>-<last>`\n\n**Not checked**: <what>\n```\n"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8", newline="\n")
    return root
