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
