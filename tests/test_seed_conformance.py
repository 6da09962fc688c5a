"""Conformance: the published return-shapes contract compiles unchanged (reads ../shared/seeds)."""

from __future__ import annotations

import json

from conftest import write_tree

PUBLISHED_SHA256 = "04a2f805228e6c42979ab60099609f077c0537840bf50b5ea21f9729662ab292"
CONFIG = "contracts:\n  - path: contracts/return-shapes.md\n    shared: [shared-forms, traversal-rules]\n"


def seed_project(tmp_path, seeds):
    return write_tree(
        tmp_path,
        {"contractc.yaml": CONFIG, "contracts/return-shapes.md": (seeds / "return-shapes.md").read_bytes()},
    )


def test_hash_prints_the_published_sha256(seeds, run_cli):
    result = run_cli("hash", str(seeds / "return-shapes.md"))
    assert result.code == 0
    assert result.out.split()[0] == PUBLISHED_SHA256


def test_three_text_shapes_with_producers_consumers_and_five_checks(seeds, tmp_path):
    from contractc.load import load_project

    (contract,) = load_project(seed_project(tmp_path, seeds)).contracts
    assert contract.sha256 == PUBLISHED_SHA256
    got = [(s.id, s.producer, s.qualifier, s.consumers, len(s.checks)) for s in contract.text_shapes]
    assert got == [
        ("consultationreturn", "pattern-librarian", "", ("designing-agent-systems",), 5),
        ("auditreturn", "design-auditor", "in audit mode", ("reviewing-agent-designs",), 5),
        ("editplanreturn", "design-auditor", "in apply mode", ("applying-a-pattern",), 5),
    ]


def test_snippet_is_the_exact_bytes_of_three_sections(seeds, tmp_path, run_cli):
    root = seed_project(tmp_path, seeds)
    assert run_cli("build", "--root", str(root)).code == 0
    data = (seeds / "return-shapes.md").read_bytes()
    start = data.index(b"## Shared forms\n")
    end = data.index(b"## AuditReturn\n")
    expected = data[start:end]  # Shared forms, Traversal rules, ConsultationReturn are adjacent
    assert (root / "prompts/pattern-librarian/consultationreturn.md").read_bytes() == expected

    manifest = json.loads((root / "prompts/manifest.json").read_text())
    entry = next(e for e in manifest["snippets"] if e["shape"] == "consultationreturn")
    assert entry["sections"] == ["shared-forms", "traversal-rules", "consultationreturn"]
    assert entry["contract_sha256"] == PUBLISHED_SHA256
    assert run_cli("check", "--root", str(root)).code == 0


def test_the_two_design_auditor_shapes_are_told_apart(seeds, tmp_path, run_cli):
    root = seed_project(tmp_path, seeds)
    run_cli("build", "--root", str(root))
    manifest = json.loads((root / "prompts/manifest.json").read_text())
    auditor = {e["shape"]: e["qualifier"] for e in manifest["snippets"] if e["agent"] == "design-auditor"}
    assert auditor == {"auditreturn": "in audit mode", "editplanreturn": "in apply mode"}


def _points(d: str, steps: int = 200) -> list[tuple[float, float]]:
    """Points along an edge's path: ``M``, then cubic curves (``C``) and lines (``L``)."""
    import re

    points: list[tuple[float, float]] = []
    here = (0.0, 0.0)
    for command, numbers in re.findall(r"([MCL])([^MCL]*)", d):
        values = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", numbers)]
        pairs = list(zip(values[::2], values[1::2]))
        if command == "M":
            here = pairs[-1]
        elif command == "C":
            (x0, y0), ((x1, y1), (x2, y2), (x3, y3)) = here, pairs
            for i in range(steps + 1):
                t = i / steps
                points.append(
                    (
                        (1 - t) ** 3 * x0 + 3 * (1 - t) ** 2 * t * x1 + 3 * (1 - t) * t * t * x2 + t**3 * x3,
                        (1 - t) ** 3 * y0 + 3 * (1 - t) ** 2 * t * y1 + 3 * (1 - t) * t * t * y2 + t**3 * y3,
                    )
                )
            here = pairs[-1]
        else:
            for target in pairs:
                points += [(here[0] + (target[0] - here[0]) * i / steps, here[1] + (target[1] - here[1]) * i / steps) for i in range(steps + 1)]
                here = target
    return points


def test_no_edge_of_the_seed_graph_crosses_a_mode_label(seeds, tmp_path):
    """The seed's design-auditor has two modes: each label sits by its own shape, clear of every edge."""
    import re

    from contractc.load import load_project
    from contractc.diff.release import since_last_release
    from contractc.site.graph import CHAR_WIDTH
    from contractc.emit.site import render_site

    root = seed_project(tmp_path, seeds)
    index = render_site(load_project(root), root, since=since_last_release(root))["contracts/index.md"].decode()
    labels = re.findall(r'<text class="cc-mode" x="([\d.]+)" y="([\d.]+)">([^<]+)</text>', index)
    assert {text for _, _, text in labels} >= {"in audit mode", "in apply mode"}
    edges = re.findall(r'<path class="cc-edge[^"]*" d="([^"]+)"', index)
    width = CHAR_WIDTH * 11 / 13  # the labels' 11 px font
    for x, y, text in labels:
        right, base = float(x), float(y)
        box = (right - len(text) * width, base - 9, right, base + 2)  # right-aligned at x, baseline at y
        crossing = [d for d in edges if any(box[0] < px < box[2] and box[1] < py < box[3] for px, py in _points(d))]
        assert crossing == [], f"{text!r} is crossed by {crossing}"
        # and the edge right under it is its own: the one that runs level there ends at the label's shape
        under = [d for d in edges if any(box[0] < px < box[2] and base + 2 <= py <= base + 8 for px, py in _points(d))]
        assert len(under) == 1 and under[0].endswith(f",{base + 5:.1f}"), (text, under)
