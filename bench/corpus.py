"""The benchmark corpora: the same N Markdown targets, one for contractc and one for cog.

Each target is about 5 KB of prose with one region in the middle holding a
40-line commented YAML block copied from one contract.  Both corpora read the
block from the same contract file: contractc through a managed region, cog
through a generator (``bench_shapes.py``) that slices the block out of the
contract.  Only the standard library is used, so the floor and the harness
need nothing installed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

SHAPE = "release_brief"
BEGIN = f"<!-- contractc:begin shape={SHAPE} -->\n"
END = "<!-- contractc:end -->\n"
COG_BEGIN = f'<!-- [[[cog import bench_shapes; bench_shapes.emit(cog, "{SHAPE}") ]]] -->\n'
COG_END = "<!-- [[[end]]] -->\n"

# Forty lines, written in the contract notation, comments included: the copies
# must keep every comment byte for byte.
BLOCK = f"""\
```yaml
{SHAPE}:
  release: string                          # semantic version, e.g. 2.4.0
  channel: stable | beta | nightly         # where the build is published
  created_at: "YYYY-MM-DD"
  owner:
    name: string                           # who signs the release off
    team: platform | product | infra
  budget_hours: 8                          # planning estimate, whole hours
  dry_run: false                           # true only for rehearsals
  targets: [ string ]                      # platforms the build ships to
  components:                              # one entry per shipped component
    - id: string
      version: string
      kind: service | library | tool
      owner: string
      risk: low | medium | high
      needs_review: true
  checks:
    lint: true
    unit_tests: true
    integration_tests: true
    smoke_tests: false                     # optional: staging only
    coverage_floor: 80                     # percent of lines
  notes: |
    # free text for the release manager
  approvals:
    - name: string
      role: author | reviewer | approver
      approved_at: "YYYY-MM-DD"
  rollout:
    strategy: canary | blue_green | all_at_once
    canary_percent: 5                      # first wave, in percent
    bake_minutes: 30                       # wait between waves
    waves: 3
  rollback:
    automatic: true                        # revert on failed health checks
    max_minutes: 15
  links:
    changelog: string                      # URL of the rendered changelog
    tracking_issue: string                 # URL of the release issue
```
"""
assert BLOCK.count("\n") == 42, "the block is 40 lines plus its two fences"

CONTRACT = f"""\
# Release hand-offs

The release orchestrator hands each publishing agent a `{SHAPE}`. The block
below is the normative shape; every agent file holds a generated copy of it.

## Release brief

{BLOCK}
The orchestrator fills every field before dispatch.
"""

COG_GENERATOR = '''\
"""Cog generator for the benchmark: the YAML block of one shape, sliced from the contract."""

from functools import cache
from pathlib import Path


@cache
def block(key):
    text = Path("contracts/release.md").read_text("utf-8")
    start = text.index("```yaml\\n" + key + ":\\n")
    end = text.index("```\\n", start + 8) + 4
    return text[start:end]


def emit(cog, key):
    cog.out(block(key))
'''

# A sentence of words reads better than sixty quoted ones.
_WORDS = (  # noqa: SIM905
    "agent release contract shape orchestrator region review build check target prompt copy drift plugin skill pipeline "
    "stage brief return field schema anchor section owner channel version the a of to and in "
    "is that for with as on by each every one which when its never always"
).split()


@dataclass(frozen=True)
class Corpus:
    """The two trees of one size, and the bytes needed to drift and restore them."""

    n: int
    contractc: Path
    cog: Path
    targets: tuple[str, ...]
    """Project-relative paths of the targets, the same in both trees."""


def prose(rng: random.Random, size: int) -> str:
    """About ``size`` bytes of wrapped Markdown prose: paragraphs and a heading now and then."""
    out: list[str] = []
    length = 0
    while length < size:
        if rng.random() < 0.15:
            para = "## " + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(2, 5))).capitalize()
        else:
            words = [rng.choice(_WORDS) for _ in range(rng.randint(40, 90))]
            lines, line = [], ""
            for word in words:
                if len(line) + len(word) + 1 > 72:
                    lines.append(line)
                    line = word
                else:
                    line = f"{line} {word}" if line else word
            lines.append(line + ".")
            para = "\n".join(lines).capitalize()
        out.append(para)
        length += len(para) + 2
    return "\n\n".join(out) + "\n"


def target_text(rng: random.Random, index: int, region: str) -> str:
    """One target: a title, ~2.5 KB of prose, the region, ~2.5 KB more prose."""
    return f"# Agent {index:05d}\n\n{prose(rng, 2500)}\n{region}\n{prose(rng, 2500)}"


def write_corpus(base: Path, n: int, seed: int = 7) -> Corpus:
    """Write both trees under ``base``; the contractc regions start empty (run ``build`` to fill them)."""
    cc, cg = base / f"contractc-{n}", base / f"cog-{n}"
    for root in (cc, cg):
        (root / "contracts").mkdir(parents=True)
        (root / "docs").mkdir()
        (root / "contracts/release.md").write_text(CONTRACT, "utf-8", newline="\n")
    (cc / "contractc.yaml").write_text(
        'contracts:\n  - path: contracts/release.md\ntargets: [ "docs/*.md" ]\n', "utf-8", newline="\n"
    )
    (cg / "bench_shapes.py").write_text(COG_GENERATOR, "utf-8", newline="\n")
    rng = random.Random(seed)
    names = []
    for i in range(n):
        name = f"docs/agent-{i:05d}.md"
        state = rng.getstate()
        (cc / name).write_text(target_text(rng, i, BEGIN + END), "utf-8", newline="\n")
        rng.setstate(state)  # the same prose in both trees
        (cg / name).write_text(target_text(rng, i, COG_BEGIN + BLOCK + COG_END), "utf-8", newline="\n")
        names.append(name)
    (cg / "files.txt").write_text("".join(f"{name}\n" for name in names), "utf-8", newline="\n")
    return Corpus(n, cc, cg, tuple(names))


DRIFT_FROM = b"    waves: 3\n"
DRIFT_TO = b"    waves: 4\n"


def drift(root: Path, names: tuple[str, ...], every: int = 1) -> dict[str, bytes]:
    """Edit the copied block in every ``every``-th target by hand; return the original bytes."""
    saved = {}
    for name in names[::every]:
        path = root / name
        data = path.read_bytes()
        assert DRIFT_FROM in data, f"{name} holds no copy of the block"
        saved[name] = data
        path.write_bytes(data.replace(DRIFT_FROM, DRIFT_TO, 1))
    return saved


def restore(root: Path, saved: dict[str, bytes]) -> None:
    for name, data in saved.items():
        (root / name).write_bytes(data)
