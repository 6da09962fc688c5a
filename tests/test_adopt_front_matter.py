"""A fenced front matter and the template in its body are never rewritten by ``adopt``, whatever scan labels them.

A fence that opens with front matter (``---`` lines around YAML) and goes on with a Markdown
template is two units to scan: the front matter and the body.  A front matter of plain values is a
worked example, and the body a template; adopt once made the body a region over the whole fence,
deleting the front matter from every copy (and, under a ``yaml`` fence, wrote a contract that would
not compile).  Each fixture here pastes such a fence into two agents beside an ordinary data shape
that adopt does adopt, and proves, by hashing, that every line outside the regions adopt wrote is
the line that was there before.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from conftest import snapshot, write_tree

DATA = "```yaml\nhandoff:\n  task: string\n  done: boolean\n```\n"
"""The shape adopt adopts in every fixture: it makes the regions whose span is checked."""

FRONTS = {
    # blind2-5: quoted plain values under a markdown fence, the body a [x] template
    "quoted-plain": '```markdown\n---\ntitle: "Weekly Report"\nowner: "Team Lead"\n---\n# Report Title\n\n## Summary\n[one paragraph summary]\n\n## Risks\n[list each risk]\n```\n',
    # blind1-3: unquoted plain values under a yaml fence, the body headings and [x] lines
    "unquoted-plain-yaml": "```yaml\n---\nname: planner\ndescription: Plans the work\n---\n\n## Section A\n[fill this]\n\n## Section B\n[fill that]\n```\n",
    # placeholder values: the front matter is a shape of its own, the body another
    "placeholders": "```markdown\n---\nname: <agent name>\nmodel: opus | sonnet\n---\n# <Agent Title>\n\n## Role\n<what it does>\n\n## Inputs\n<what it reads>\n```\n",
    # quoted placeholder values, no info string
    "quoted-placeholders": '```\n---\ntitle: "{title}"\ndate: "{YYYY-MM-DD}"\n---\n## {Heading}\n\n**Status:** {status}\n**Owner:** {owner}\n```\n',
}


def _agent(name: str, front: str) -> str:
    return f"# {name}\n\nStart every report from:\n\n{front}\nThen return:\n\n{DATA}\nDone.\n"


def _fences(front: str, drifted: bool = False) -> dict[str, str]:
    """Each agent's fence; a drifted body differs in one placeholder's words."""
    beta = front.replace("[fill this]", "[fill this part]").replace("<what it does>", "<what it does, briefly>") if drifted else front
    beta = beta.replace("{status}", "{status word}").replace("[list each risk]", "[list every risk]") if drifted else beta
    return {"agents/alpha.md": front, "agents/beta.md": beta}


def _tree(front: str, drifted: bool = False) -> dict[str, str]:
    return {path: _agent(path[7:-3].capitalize(), fence) for path, fence in _fences(front, drifted).items()}


def _hashes(lines: list[bytes]) -> list[str]:
    return [hashlib.sha256(line).hexdigest() for line in lines]


def _outside_regions(data: bytes) -> list[bytes]:
    """The file's lines outside every managed region (begin marker through end marker)."""
    out, inside = [], False
    for line in data.splitlines(keepends=True):
        if line.startswith(b"<!-- contractc:begin "):
            inside = True
        elif line.startswith(b"<!-- contractc:end"):
            inside = False
        elif not inside:
            out.append(line)
    return out


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("drifted", [False, True], ids=["same", "drifted-body"])
@pytest.mark.parametrize("variant", sorted(FRONTS))
def test_every_line_outside_the_written_regions_is_kept_byte_for_byte(tmp_path, run_cli, variant, drifted, newline):
    front = FRONTS[variant]
    root = write_tree(tmp_path, {p: t.replace("\n", newline) for p, t in _tree(front, drifted).items()})
    before = snapshot(root)
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert _fences(front, drifted)["agents/beta.md"] != front or not drifted
    data = DATA.replace("\n", newline).encode()
    for path in ("agents/alpha.md", "agents/beta.md"):
        old, new = before[path], (root / path).read_bytes()
        # the one block adopted is the data shape; every other line of the file is as it was, in order
        expected = old.replace(data, b"", 1).splitlines(keepends=True)
        assert _hashes(_outside_regions(new)) == _hashes(expected), path
        held = new.split(b"<!-- contractc:begin shape=handoff", 1)[1].split(b"\n", 1)[1].split(b"<!-- contractc:end", 1)[0]
        # the region holds exactly the block it was made from (in the contract's line breaks, as documented)
        assert held.replace(b"\r\n", b"\n") == DATA.encode()
        fence = _fences(front, drifted)[path].replace("\n", newline).encode()
        assert new.count(fence) == 1 and fence in b"".join(_outside_regions(new))  # the fence, front matter and all
    assert "in a fenced front matter: left as it is" in run.out
    # no copy is said to change bytes it keeps (with CRLF the data shape's copies do take the contract's LF)
    assert "differ from the owning copy's block" not in run.out
    assert ("line breaks become the contract's (LF)" in run.out) == (newline == "\r\n")
    assert all(": handoff: " in line for line in run.out.splitlines() if "line breaks become" in line)
    contract = next((root / "contracts").glob("*.md")).read_text()
    assert "---" not in contract.split("\n## ", 1)[1]  # no front matter or its body went into the contract
    # a body that drifted stays as it is, and check keeps reporting it (contractc.yaml, unresolved)
    checked = run_cli("check", "--root", str(root), "--no-cache")
    if _fences(front, drifted)["agents/beta.md"] == front:
        assert checked.code == 0, checked.out
    else:
        assert checked.code == 1 and checked.out.count("error[drift-unresolved]") == 1, checked.out
        assert checked.out.startswith("agents/beta.md:") and "unresolved drift that adopt left as it is: drifted copy of" in checked.out


def _drop_examples(scan_plugin):
    """scan with its examples withheld from adopt (a front matter of plain values is one)."""
    import dataclasses

    return lambda *args: dataclasses.replace(scan_plugin(*args), examples=())


@pytest.mark.parametrize(
    ("slip", "said"),
    [
        # the guard sees no front matter: the body's region would cut the fence in two
        ("guard", "but the block holds a yaml block and a template after it (a front matter and its body)"),
        # and the front matter (an example) unknown to adopt too: the body's region would delete its lines
        ("guard and examples", "but this line is no part of the copies it adopts ('---'): the region would delete it"),
    ],
)
def test_a_slip_in_the_labels_is_refused_before_a_region_changes_a_line(tmp_path, run_cli, monkeypatch, slip, said):
    """The safety rule holds on its own, as the last word on the plan that would be written: with the
    front-matter guard switched off, and the examples withheld too (the slip that deleted user text: a guard
    that knew only grouped front matters), and the groups over such a block not left out either (a slip in
    that step), adopt refuses at the front matter's first line and writes nothing."""
    import contractc.adopt as adopt

    root = write_tree(tmp_path, _tree(FRONTS["quoted-plain"]))
    before = snapshot(root)
    monkeypatch.setattr(adopt, "_opens_with_front_matter", lambda block, data: False)  # no fence is known as one
    monkeypatch.setattr(adopt, "_unspanned_groups", lambda *args: {})  # no group over a stray line is left out
    if slip == "guard and examples":
        monkeypatch.setattr(adopt, "scan_plugin", _drop_examples(adopt.scan_plugin))
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 2, run.out
    assert run.err.startswith("agents/alpha.md:6:1: error[adopt-region-span]: adopt would replace the block at line 5 with a region of report-title, " + said)
    assert "agents/beta.md:6:1: error[adopt-region-span]" in run.err and "; nothing is written" in run.err
    assert "--exclude agents/alpha.md" in run.err
    assert snapshot(root) == before


def test_a_front_matter_whose_yaml_scan_cannot_read_is_left_as_it_is_with_its_body(tmp_path, run_cli):
    """No front-matter unit at all (its YAML does not parse), the body still a template: the fence is known
    by its own text, so adopt leaves it as it is rather than refuse the whole plugin."""
    front = FRONTS["quoted-plain"].replace('title: "Weekly Report"', "title: [Weekly: Report")
    root = write_tree(tmp_path, _tree(front))
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "  agents/alpha.md:10: report-title: in a fenced front matter: left as it is" in run.out
    for path in ("agents/alpha.md", "agents/beta.md"):
        assert front.encode() in b"".join(_outside_regions((root / path).read_bytes()))


def test_a_block_the_contract_cannot_hold_is_left_as_it_is_and_the_rest_adopted(tmp_path, run_cli, monkeypatch):
    """A contract adopt writes must compile: where it would not (here a template whose closing fence line adopt
    left out, a slip of adopt's own), that shape's copies are listed, located, left as they are, and every other
    shape is adopted; adopt never exits 2 on its own contract."""
    import contractc.adopt.contract as contract

    template = "```markdown\n# Status\n\n## Done\n[what is done]\n\n## Next\n[what comes next]\n```\n"
    files = {f"agents/{n}.md": f"# {n}\n\nReport:\n\n{template}\nThen return:\n\n{DATA}" for n in ("alpha", "beta")}
    root = write_tree(tmp_path, files)
    real = contract.fenced
    monkeypatch.setattr(contract, "fenced", lambda unit: real(unit).removesuffix("```\n") if unit.block.kind == "template" else real(unit))
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    for path in files:
        line = f"  {path}:6: status: the contract cannot hold it as adopt would write it (unclosed-fence: "
        assert line in run.out
        assert template.encode() in (root / path).read_bytes() and b"shape=status" not in (root / path).read_bytes()
        assert b"<!-- contractc:begin shape=handoff" in (root / path).read_bytes()
    monkeypatch.undo()
    assert run_cli("check", "--root", str(root)).code == 0


MIRRORED = "```yaml\n---\nagent: <agent name>\nticket: <ticket id>\nstate: open | closed\nused: <tokens used>\n---\n```\n"
"""A completion header whose every copy is a fenced front matter: a group adopt leaves out (no contract form)."""


def _mirror_tree() -> dict[str, str]:
    """Three agents holding the header, a defaults page holding it twice with a key lost in each, and an
    ordinary data shape pasted in two agents so that adopt has something to write."""
    short = MIRRORED.replace("used: <tokens used>\n", "")
    files = {f"agents/{n}.md": f"# {n}\n\nEnd with:\n\n{MIRRORED}\nReturn:\n\n{DATA}" for n in ("alpha", "beta", "gamma")}
    files["docs/defaults.md"] = f"# Defaults\n\n## First\n\n{short}\n## Second\n\n{short}"
    return files


def test_drift_adopt_leaves_out_is_recorded_and_check_keeps_reporting_it(tmp_path, run_cli):
    """blind2-6: after adopt, check is never green over divergent copies adopt left as they are."""
    root = write_tree(tmp_path, _mirror_tree())
    scanned = run_cli("scan", str(root), "-q")
    divergent = sorted(line.split(": error")[0] for line in scanned.out.splitlines() if "error[scan-divergent]" in line)
    assert scanned.code == 1 and divergent == ["docs/defaults.md:16:1", "docs/defaults.md:6:1"]
    planned = run_cli("adopt", str(root), "--no-diff")
    assert "divergent copies left as they are, recorded under `unresolved` in contractc.yaml" in planned.out
    assert "2 divergent copies left as they are (unresolved) for check to report" in planned.out
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0 and "(it reports the drift left)" in run.out
    config = (root / "contractc.yaml").read_text()
    assert '  - { path: "docs/defaults.md", line: 6, shape: "front-matter", why: "drifted copy of front-matter (lacks used)' in config
    checked = run_cli("check", "--root", str(root))
    assert checked.code == 1
    found = [line for line in checked.out.splitlines() if "error[" in line]
    assert [line.split(": error")[0] for line in found] == ["docs/defaults.md:6:1", "docs/defaults.md:16:1"]
    assert all("error[drift-unresolved]: unresolved drift that adopt left as it is: drifted copy of front-matter" in line for line in found)
    assert "then delete this entry from contractc.yaml (unresolved, line " in checked.out
    assert run_cli("scan", str(root), "-q").code == 1  # scan agrees: the drift is still there
    # the user makes the copies agree and deletes the entries: check is clean
    write_tree(root, {"docs/defaults.md": f"# Defaults\n\n## First\n\n{MIRRORED}\n## Second\n\n{MIRRORED}"})
    (root / "contractc.yaml").write_text(config.split("unresolved:")[0])
    assert run_cli("check", "--root", str(root)).code == 0


def test_front_matter_bodies_alone_leave_nothing_to_adopt_and_say_what_diverges(tmp_path, run_cli):
    """blind1-3 as it was found: the only group is the body of a fenced front matter (a ``yaml`` fence), one
    copy's placeholder reworded.  Adopt once exited 2 on its own contract; now it writes nothing, lists both
    copies and names the divergent one, which scan goes on reporting."""
    fences = _fences(FRONTS["unquoted-plain-yaml"], drifted=True)
    root = write_tree(tmp_path, {path: f"# {path[7:-3]}\n\nStart each plan from:\n\n{fence}" for path, fence in fences.items()})
    before = snapshot(root)
    run = run_cli("adopt", str(root), "--write")
    assert run.code == 0, run.err
    assert snapshot(root) == before
    assert "  agents/alpha.md:10: section-a: in a fenced front matter: left as it is" in run.out
    assert "divergent copies left as they are (adopt writes no contractc.yaml: `contractc scan` keeps reporting them):\n  agents/beta.md:10: section-a: drifted copy of section-a" in run.out
    assert run.out.rstrip().endswith("left as it is (listed above); 1 divergent copy among them, which scan reports")
    assert run_cli("scan", str(root), "-q").code == 1


def _plugins(tmp_path: Path) -> dict[str, Path]:
    from adopt_plugin import write_plugin
    from scan_traps import write_traps

    fronts = "".join(f"\n## {name}\n\n{front}" for name, front in sorted(FRONTS.items()))
    every = {f"agents/{n}.md": f"# {n}\n{fronts}\nReturn:\n\n{DATA}" for n in ("alpha", "beta", "gamma")}
    return {
        "traps": write_traps(tmp_path / "desk"),
        "docs-pipeline": write_plugin(tmp_path / "docs-pipeline"),
        "front-matters": write_tree(tmp_path / "fronts", every),
    }


@pytest.mark.parametrize("options", [(), ("--accept-drift",)], ids=["default", "accept-drift"])
@pytest.mark.parametrize("plugin", ["traps", "docs-pipeline", "front-matters"])
def test_on_the_fixture_plugins_a_region_replaces_only_its_blocks_lines(tmp_path, run_cli, plugin, options):
    """The same rule on the two large fixture plugins (front matters at file tops and in fences, multi-key
    blocks, instances, examples): every byte outside the blocks adopt replaces is kept, in order, and what
    replaces a block holds, outside its regions, only lines of that block (the keys it did not adopt)."""
    from contractc.adopt import plan_adoption

    root = _plugins(tmp_path)[plugin]
    before = snapshot(root)
    plan = plan_adoption(root, accept_drift=bool(options))
    assert plan.replaced
    assert run_cli("adopt", str(root), "--write", *options).code == 0
    for path, spans in plan.replaced.items():
        old, new = before[path], (root / path).read_bytes()
        spans = sorted(spans)
        kept = [old[a:b] for a, b in zip([0] + [e for _, e in spans], [s for s, _ in spans] + [len(old)])]
        # the bytes between the replaced blocks, unchanged and in order; each replacement ends with a region's
        # end marker line or a fence line (a key it did not adopt, in a fence of its own)
        replacement = rb"(.*?(?:<!-- contractc:end -->|```|~~~)[^\n]*\n)"
        found = re.fullmatch(replacement.join(re.escape(k) for k in kept), new, re.DOTALL)
        assert found is not None, path
        for (start, end), held in zip(spans, found.groups()):
            block = [line.rstrip(b"\r") for line in old[start:end].splitlines()]
            outside = [line.rstrip(b"\r\n") for line in _outside_regions(held)]
            assert all(line in block for line in outside if line.strip()), (path, start)  # only the block's own lines
            if not options:  # and none of its lines lost: the copies adopted hold the owner's bytes, or their own
                assert all(line in held.replace(b"\r", b"").split(b"\n") for line in block if line.strip()), (path, start)


def test_adopting_again_keeps_the_unresolved_entries_once_and_check_reports_them(tmp_path, run_cli):
    """On an adopted plugin (scan's units then hold the contract's own blocks too) the front-matter guard and the
    record still work: a new shape is appended, the drift left out stays recorded once, and check reports it."""
    root = write_tree(tmp_path, _mirror_tree())
    assert run_cli("adopt", str(root), "--write", "--no-diff").code == 0
    note = "```yaml\nnote:\n  text: string\n  level: low | high\n```\n"
    write_tree(root, {f"skills/{s}/SKILL.md": f"# {s}\n\n{note}" for s in ("one", "two")})
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "appended to" in run.out
    config = (root / "contractc.yaml").read_text()
    assert config.count('shape: "front-matter"') == 2 and config.count("unresolved:") == 1
    checked = run_cli("check", "--root", str(root))
    assert checked.code == 1 and checked.out.count("error[drift-unresolved]") == 2


HEADED = "```\n### {N}. {name}\nexpected:\n  outcome: <what should happen>\nresult:\n  status: pass | issue\n  note: string\n```\n"
"""A plain fence whose body opens with a heading line (a YAML comment) above two keys, each holding a mapping:
scan reads the keys, each a shape of its own, and no unit holds the heading line, so no region can replace the
fence."""


def _headed_tree() -> dict[str, str]:
    """HEADED and DATA pasted into two agents; beta's ``result`` drifted (one more status)."""
    beta = HEADED.replace("pass | issue", "pass | issue | blocked")
    return {"agents/alpha.md": _agent("Alpha", HEADED), "agents/beta.md": _agent("Beta", beta)}


def test_a_group_over_a_line_no_copy_holds_is_left_as_it_is_and_the_rest_adopted(tmp_path, run_cli):
    """The heading line above the keys is no copy's: a region of either key would delete it.  Each group
    with a copy in such a fence is left as it is, every copy, named in the plan with that line; its drift is
    recorded under ``unresolved``; the data shape beside it is adopted, and every other line is kept."""
    root = write_tree(tmp_path, _headed_tree())
    before = snapshot(root)
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    data = DATA.encode()
    for path in ("agents/alpha.md", "agents/beta.md"):
        new = (root / path).read_bytes()
        assert new.count(b"<!-- contractc:begin ") == 1 and b"<!-- contractc:begin shape=handoff" in new, path
        expected = before[path].replace(data, b"", 1).splitlines(keepends=True)
        assert _hashes(_outside_regions(new)) == _hashes(expected), path
        fence = (HEADED if path == "agents/alpha.md" else HEADED.replace("pass | issue", "pass | issue | blocked")).encode()
        assert new.count(fence) == 1 and fence in b"".join(_outside_regions(new)), path  # the fence, byte for byte
    # the plan names each copy of both groups, with the line that is no copy's
    said = "a copy of this shape sits in a block a region cannot replace as a whole (agents/alpha.md:6: this line is no part of the copies it adopts ('### {N}. {name}'): a region would delete it)"
    for path in ("agents/alpha.md", "agents/beta.md"):
        for line, key in ((7, "expected"), (9, "result")):
            assert f"\n  {path}:{line}: {key}: {said}" in run.out, (path, key)
    contract = next((root / "contracts").glob("*.md")).read_text()
    assert "handoff:" in contract and "expected:" not in contract and "result:" not in contract
    config = (root / "contractc.yaml").read_text()
    assert "unresolved:" in config and config.count("agents/beta.md") == 1  # beta's drifted result, once
    checked = run_cli("check", "--root", str(root), "--no-cache")
    assert checked.code == 1 and checked.out.count("error[") == 1, checked.out
    assert checked.out.startswith("agents/beta.md:9:") and "error[drift-unresolved]" in checked.out


def test_a_slip_in_the_labels_leaves_the_group_rather_than_cut_the_fence(tmp_path, run_cli, monkeypatch):
    """With the front-matter guard switched off (the slip refused above), the span rule alone leaves the body's
    group as it is, and the fence, front matter and all, keeps every byte; the data shape is adopted."""
    import contractc.adopt as adopt

    root = write_tree(tmp_path, _tree(FRONTS["quoted-plain"]))
    before = snapshot(root)
    monkeypatch.setattr(adopt, "_opens_with_front_matter", lambda block, data: False)
    monkeypatch.setattr(adopt, "scan_plugin", _drop_examples(adopt.scan_plugin))
    run = run_cli("adopt", str(root), "--write", "--no-diff")
    assert run.code == 0, run.err
    assert "report-title: a copy of this shape sits in a block a region cannot replace as a whole (agents/alpha.md:6: " in run.out
    for path in ("agents/alpha.md", "agents/beta.md"):
        new = (root / path).read_bytes()
        assert _hashes(_outside_regions(new)) == _hashes(before[path].replace(DATA.encode(), b"", 1).splitlines(keepends=True))


def test_one_divergent_copy_left_out_is_counted_in_the_singular(tmp_path, run_cli):
    files = _mirror_tree()
    files["docs/defaults.md"] = f"# Defaults\n\n## First\n\n{MIRRORED.replace('used: <tokens used>' + chr(10), '')}"
    planned = run_cli("adopt", str(write_tree(tmp_path, files)), "--no-diff")
    assert "1 divergent copy left as it is (unresolved) for check to report" in planned.out, planned.out
