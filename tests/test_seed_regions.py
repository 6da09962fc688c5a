"""Conformance: regions in agent files filled from the published return-shapes seed are its exact bytes."""

from __future__ import annotations

from conftest import write_tree

CONFIG = "contracts:\n  - path: contracts/return-shapes.md\n    shared: [shared-forms, traversal-rules]\ntargets: [agents/*.md]\n"
AGENT = """\
---
name: design-auditor
---
In audit mode, answer in this form:

<!-- contractc:begin shape=auditreturn -->
<!-- contractc:end -->

<!-- contractc:begin bundle=consultationreturn -->
<!-- contractc:end -->
"""


def test_seed_regions_are_byte_slices_and_the_seed_is_untouched(seeds, tmp_path, run_cli):
    seed = (seeds / "return-shapes.md").read_bytes()
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/return-shapes.md": seed, "agents/auditor.md": AGENT})
    assert run_cli("build", "--root", str(root)).code == 0
    agent = (root / "agents/auditor.md").read_bytes()
    lines = seed.splitlines(keepends=True)
    template = b"".join(lines[221:229])  # the AuditReturn fence, lines 222-229
    assert template.startswith(b"```") and template.rstrip().endswith(b"```")
    assert template in agent
    assert (root / "prompts/pattern-librarian/consultationreturn.md").read_bytes() in agent
    assert (root / "contracts/return-shapes.md").read_bytes() == seed
    assert run_cli("check", "--root", str(root)).code == 0
