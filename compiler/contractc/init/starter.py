"""The starter project ``contractc init`` writes: project-relative path -> text.

One contract with a shared section, a data shape (the brief the lead sends) and a
text shape (the worker's return, with receiver checks every one of which compiles
to a rule), the configuration naming it, two agent files whose copies of the
shapes are managed regions (empty: the first build fills them), and an mkdocs
site whose home page links to the generated contract pages.
"""

from contractc.load.mkdocs import DEFAULT_DOCS_DIR

CONTRACT = """\
# Hand-offs: what the lead sends and what the worker returns

The lead dispatches one task at a time to the worker and accepts only a
return of the shape below. A return that fails a receiver check is discarded
and the task is dispatched once more, with the evidence of the failed check.

## Conventions {#conventions}

**Status line.** The first line of every return is `status: <value>`: `done`
when the worker finished the task, `blocked` when it could not.

**Place form.** A place in the code is named in backticks as `` `<path>:<line>` ``.

## Task brief {#task-brief}

The lead fills every field before it dispatches the worker. The comments are
part of the contract: every copy keeps them byte for byte.

```yaml
task_brief:
  goal: string                      # one sentence: what is true when the task is done
  files: [ string ]                 # paths the worker may read and change
  kind: feature | fix | chore       # feature: new behaviour; fix: a defect repaired; chore: upkeep that changes no behaviour
  due: "YYYY-MM-DD"
  attempt: 1                        # ← TRANSIENT, counted by the lead
```

## WorkReturn {#workreturn}

Produced by `worker`; consumed by `lead`.

```
status: done

- `<path>:<line>`: <what changed there, one sentence>
- ...

Open questions: <what the lead should decide, or "none">
```

Receiver checks:

1. Line 1 is `status: done` or `status: blocked`.
2. Every bullet carries the place form.
3. The last line begins `Open questions: `.
"""

CONFIG = """\
# contractc's configuration: `contractc --help` lists the commands, `contractc explain CODE` each message.
contracts:
  - path: contracts/handoffs.md
    shared: [conventions]           # section anchors sent with every dispatch
targets:                            # files whose managed regions build fills and check compares
  - agents/*.md
out:
  prompts: prompts                  # dispatch snippets and their manifest.json
  schemas: schemas                  # JSON Schemas of the data shapes
# site_url: https://docs.example.com/   # where the site is published (else mkdocs.yml's site_url)
"""

WORKER = """\
---
name: worker
description: Does one task the lead hands over and reports what it changed.
---
You are the worker. Read and change only the files the brief names.

The brief you receive has this shape:

<!-- contractc:begin shape=task_brief -->
<!-- contractc:end -->

Return exactly this form, and nothing before its first line:

<!-- contractc:begin shape=workreturn -->
<!-- contractc:end -->
"""

LEAD = """\
---
name: lead
description: Splits the work into tasks, dispatches the worker and judges each return.
---
You dispatch `worker` once per task, with the snippet `prompts/worker/workreturn.md`
and a brief of exactly this shape:

<!-- contractc:begin shape=task_brief -->
<!-- contractc:end -->

Judge each return with `contractc validate workreturn RETURN`: on exit 1,
discard it and dispatch once more with the output of `--evidence` appended.
"""

MKDOCS = """\
# The contract site: `mkdocs build --strict`. It needs contractc's site extra
# (mkdocs, mkdocs-material, pymdown-extensions): `pip install -e '.[site]'` in a
# checkout of contractc.
site_name: {name}
# site_url: https://docs.example.com/   # contractc uses it too, unless contractc.yaml names one
theme:
  name: material
  font: false                       # no web fonts: no page fetches from another host
  features: [content.code.copy, navigation.indexes]
plugins:
  - search                          # listing plugins replaces the defaults: keep search
  - contractc                       # the contract pages, made in memory on every build
markdown_extensions:
  - attr_list                       # the compiler's anchors are written as {{#id}}
  - tables
  - toc:
      permalink: true
  - pymdownx.highlight
  - pymdownx.superfences
"""

HOME = """\
# {name}

The hand-offs between this plugin's agents, compiled from
`contracts/handoffs.md` by contractc.

- [The contracts](contracts/index.md): every shape, who produces and receives
  it, and the graph of who hands what to whom.
- [Hand-offs](contracts/handoffs.md): the contract itself, with an anchor on
  every section and receiver check.

Edit the contract, then run `contractc build`; `contractc check` fails CI when
any copy drifts from it.
"""


def starter_files(name: str) -> dict[str, str]:
    """Every file of the starter, ``name`` (the project folder's name) as the site's title."""
    return {
        "contracts/handoffs.md": CONTRACT,
        "contractc.yaml": CONFIG,
        "agents/worker.md": WORKER,
        "agents/lead.md": LEAD,
        "mkdocs.yml": MKDOCS.format(name=_yaml_text(name)),
        f"{DEFAULT_DOCS_DIR}/index.md": HOME.format(name=name),  # the folder mkdocs.yml leaves to its default
    }


def _yaml_text(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (a folder name may hold ``:`` or ``#``)."""
    import json

    return json.dumps(text, ensure_ascii=False)
