"""The pass over the targets judges a current target from its bytes; what it reports never changes.

``compare_targets`` learns the begin-marker lines of current regions from the
targets it reads carefully, and passes a later target that holds only such
regions (the bytes each must hold, then an end marker) and that no finder
may find anything in, without finding its regions.  Property: on any mix of
current, stale, hand-edited, malformed, CRLF, BOM, fenced and linking targets,
each present twice (so the second copy meets what the first taught), the pass
returns exactly what the careful path returns for every target, in order.

And the work per target does not grow with the project: the lines of
contractc's code run for each further target (Python line events, as
``test_scaling.py`` counts them) are the same in a project of 20 shapes and in
one of 200, for a current target and for one holding a pasted copy and a link.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, write_tree
from contractc.report.diagnostics import ContractcError
from contractc.emit.filled import render_target
from contractc.load import load_project
from contractc.load.targets import scan_regions
from contractc.model.records import TargetFile
from contractc.drift import explain
from contractc.pipeline import compare_targets
from region_project import project_files
from test_scaling import _steps

sys.path.insert(0, str(REPO / "bench"))
from shapes_corpus import write_shapes_corpus  # noqa: E402

REFS = ["shape=report", "bundle=echoreturn", "section=contracts/returns.md#overview,building", "shape=planning.task_brief", "shape=echoreturn"]
BLANKS = ["", " ", "\t"]
PROSE = [
    "Some prose about the release.\n",
    "A mention of contractc: in the text.\n",
    "A marker named in prose: <!-- contractc:end -->\n",
    "```yaml\nreport:\n  outcome: passed | failed    # odd  spacing   kept\n```\n",  # a pasted copy: a restatement
    "~~~\nstatus: ok\necho: <text>\nnote: <one line, optional>\n~~~\n",
    "Inline `code` and a tilde ~ here.\n",
    "See [the overview](../contracts/returns.md#overview).\n",
    "See [nothing](../contracts/returns.md#no-such-anchor).\n",  # a dangling link
    "\r\n",
    "\r",
    "\n",
]


def _blocks() -> list[str]:
    """Every region of REFS, with blanks around its markers, filled and stamped as build leaves it."""
    seed = ""
    for ref in REFS:
        for lead in BLANKS:
            for trail in BLANKS:
                for end in ["", " " + ref] if ref.startswith("shape=") else [""]:
                    seed += f"{lead}<!-- contractc:begin {ref} -->{trail}\n{lead}<!-- contractc:end{end} -->{trail}\n"
    with tempfile.TemporaryDirectory() as folder:
        project = load_project(write_tree(Path(folder), project_files(**{"agents/seed.md": seed})))
        data = render_target(project, TargetFile("agents/seed.md", seed.encode(), scan_regions("s", seed.encode(), project.contracts)))
    blocks, done = [], 0
    for region in scan_regions("s", data, project.contracts):
        start = data.rfind(b"\n", 0, region.marker.start) + 1
        end = data.find(b"\n", region.content.end) + 1
        blocks.append(data[start:end].decode())
        done = end
    assert done == len(data) and len(blocks) > 40
    return blocks


BLOCKS = _blocks()
MUTATIONS = [
    lambda b: b,
    lambda b: b,
    lambda b: b,
    lambda b: b.replace("\n", "\r\n"),  # CRLF
    lambda b: re.sub("sha256=[0-9a-f]{64}", "sha256=" + "ab" * 32, b, count=1),  # stale: the contract moved on
    lambda b: b.replace("\n", "\nedited by hand\n", 1) if b.count("\n") > 2 else b,  # content edited
    lambda b: _edit_in_place(b),  # content edited, not one byte more or less
    lambda b: b.rsplit("<!--", 1)[0],  # end marker removed: unclosed
    lambda b: b.replace("contractc:end", "contractc:end shape=other", 1),  # closes another region
    lambda b: b.replace("contractc:begin", "contractc:begin  ", 1),  # a marker build would rewrite
    lambda b: "\ufeff" + b,
    lambda b: b + b,  # the same region twice
    lambda b: b.replace("-->", "", 1),  # malformed
]


def _edit_in_place(block: str) -> str:
    """One letter of the region's bytes in the other case: the edit keeps every offset after it."""
    start, end = block.index("\n") + 1, block.rindex("<!--")
    at = next((i for i in range(start, end) if block[i].isalpha()), None)
    return block if at is None else block[:at] + block[at].swapcase() + block[at + 1 :]


# Read first (paths sort before the others): every begin line is learnt before any other target is read,
# also one at the top of a file after a BOM, and lines ending in CRLF.
TEACHERS = {
    "agents/0-lf.md": "".join(BLOCKS),
    "agents/0-crlf.md": "".join(BLOCKS).replace("\n", "\r\n"),
    **{f"agents/0-bom-{i}.md": "\ufeff" + BLOCKS[i] for i in range(0, len(BLOCKS), 9)},
}


@st.composite
def target(draw) -> bytes:
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.booleans()):
            parts.append(draw(st.sampled_from(PROSE)))
        else:
            block = draw(st.sampled_from(BLOCKS))
            parts.append(draw(st.sampled_from(MUTATIONS))(block))
    return "".join(parts).encode("utf-8")


def careful(project) -> tuple:
    """The pass as it was: every target's regions found, refilled, compared and searched."""
    from contractc.drift import TARGET_FINDERS
    from contractc.emit.filled import Refill
    from contractc.output.outputs import Change, Output

    finders = [prepare(project) for prepare in TARGET_FINDERS.values()]
    refill = Refill(project)
    problems: list = []
    changes, drifted, found, compared = [], [], [], 0
    for target in project.targets.scan(problems):
        if target.regions:
            compared += 1
            expected = refill(target)
            if expected != target.data:
                change = Change(target.path, expected, target.data, Output(expected, "regions"))
                changes.append(change)
                drifted.extend(explain(change, project, target))
        for find in finders:
            found.extend(find(target))
    if problems:
        return "errors", problems
    return [(c.path, c.expected, c.actual) for c in changes], drifted, found, compared


def passed(project) -> tuple:
    try:
        changes, drifted, found, compared = compare_targets(project)
    except ContractcError as exc:
        return "errors", exc.diagnostics
    return [(c.path, c.expected, c.actual) for c in changes], drifted, found, compared


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(target(), min_size=1, max_size=4))
def test_the_pass_reports_what_the_careful_path_reports(files):
    # Each file twice, the copies after all originals: the second meets the lines the first taught.
    targets: dict[str, str | bytes] = {**TEACHERS}
    targets |= {f"agents/a{i}.md": data for i, data in enumerate(files)}
    targets |= {f"agents/b{i}.md": data for i, data in enumerate(files)}
    with tempfile.TemporaryDirectory() as folder:
        project = load_project(write_tree(Path(folder), project_files(**targets)))
        assert passed(project) == careful(project)


CURRENT = BLOCKS[0]  # shape=report, no blanks around its markers
NEAR_MISSES = {
    "one letter edited": _edit_in_place(CURRENT),
    "end marker names another region": CURRENT.replace("contractc:end", "contractc:end shape=other"),
    "a BOM before the begin marker, mid-file": "Prose.\n\ufeff" + CURRENT,
    "never ended": CURRENT.rsplit("<!--", 1)[0],
    "begun inside an open region": CURRENT.rsplit("<!--", 1)[0] + CURRENT,
    "ended by the next begin marker, at the end of the file": CURRENT.rsplit("<!--", 1)[0] + CURRENT.split("\n")[0],
    "CRLF": CURRENT.replace("\n", "\r\n"),
    "a CR alone before the begin marker": "Prose.\r" + CURRENT,
    "a marker build would rewrite": CURRENT.replace("contractc:begin", "contractc:begin ", 1),
    "stale": re.sub("sha256=[0-9a-f]{64}", "sha256=" + "ab" * 32, CURRENT),
    "a mention of contractc: in prose": CURRENT + "The contractc: tool.\n",
    "an end marker in prose": CURRENT + "Close with <!-- contractc:end -->.\n",
    "a pasted copy": CURRENT + PROSE[3],
    "a dangling link": CURRENT + PROSE[7],
}


@pytest.mark.parametrize("case", NEAR_MISSES)
def test_a_near_miss_is_read_carefully(tmp_path, monkeypatch, case):
    """Each way a target can differ from a current one, after every begin line was learnt: its regions are
    found as the careful path finds them (twice: also once its own marker lines were seen), and the pass
    reports what the careful path reports."""
    from contractc.load import targets as module

    copies = {"agents/x.md": NEAR_MISSES[case], "agents/y.md": NEAR_MISSES[case]}  # the second meets what the first taught
    project = load_project(write_tree(tmp_path, project_files(**TEACHERS, **copies)))
    scanned = []
    real = module.scan_regions
    monkeypatch.setattr(module, "scan_regions", lambda path, *a, **k: scanned.append(path) or real(path, *a, **k))
    found = passed(project)
    assert "agents/x.md" in scanned and "agents/y.md" in scanned
    assert found == careful(project)


def test_a_current_target_is_passed_without_finding_its_regions(tmp_path, monkeypatch):
    """Not vacuous: of 30 current copies, only the first is scanned; a stale or cited one is scanned again."""
    from contractc.load import targets as module

    current = "".join(BLOCKS[:: len(BLOCKS) // 6])
    files = {f"agents/t{i:02d}.md": "# Agent\n\n" + current + "\nProse after.\n" for i in range(30)}
    files["agents/t20.md"] = files["agents/t20.md"].replace("status: ok", "status: edited")  # hand-edited
    files["agents/t25.md"] += "See [nothing](../contracts/returns.md#no-such-anchor).\n"
    project = load_project(write_tree(tmp_path, project_files(**files)))
    scanned = []
    real = module.scan_regions
    monkeypatch.setattr(module, "scan_regions", lambda path, *a, **k: scanned.append(path) or real(path, *a, **k))
    changes, drifted, found, compared = compare_targets(project)
    assert scanned == ["agents/t00.md", "agents/t20.md", "agents/t25.md"]
    assert compared == 30 and [c.path for c in changes] == ["agents/t20.md"]
    assert {(d.path, d.code) for d in drifted} == {("agents/t20.md", "drift-region-edited")}
    assert [(d.path, d.code) for d in found] == [("agents/t25.md", "drift-link")]


# --- work per target ---

PASTED = "```yaml\nrecord_0:\n  id: string\n```\n\nSee [the returns](../contracts/returns.md#no-such-anchor).\n"


def _pass_steps(root: Path, agents: int, extra: str) -> int:
    docs = root / "docs"
    for old in docs.glob("agent-*.md"):
        old.unlink()
    for i in range(agents):
        (docs / f"agent-{i:03d}.md").write_text(f"# Agent {i}\n\nProse.\n\n{extra}", "utf-8")
    project = load_project(root)
    compare_targets(project)  # the first run fills what is made once per process
    return _steps(lambda: compare_targets(project))


@pytest.mark.parametrize("extra", ["current", "pasted copy and link"])
def test_each_further_target_costs_the_same_in_a_larger_project(tmp_path, run_cli, extra):
    marginal = {}
    for shapes in (20, 200):
        root = write_shapes_corpus(tmp_path / f"s{shapes}", shapes)
        assert run_cli("build", "--root", str(root)).code == 0
        block = (root / "docs/guide-0.md").read_text("utf-8")
        region = block[block.index("<!-- contractc:begin shape=") : block.index("<!-- contractc:end -->") + 23]
        body = region + ("\n" + PASTED if extra != "current" else "")
        few, many = _pass_steps(root, 10, body), _pass_steps(root, 30, body)
        marginal[shapes] = (many - few) / 20
    assert marginal[200] <= marginal[20] + 1, marginal
    if extra == "current":  # read, markers found, bytes compared: ~80 lines; ~160 when its regions are built
        assert marginal[20] < 100, marginal
