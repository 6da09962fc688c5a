"""Role-file dispatch prompts: an agent's role file body followed by a shape's dispatch bundle.

``prompts/<agent>/<shape>.full.md`` is, byte for byte, the role file (``agents:``
in contractc.yaml) without its YAML front matter, then the bundle that
``prompts/<agent>/<shape>.md`` holds.  A body that does not end with a newline
gets one, so the bundle's first heading starts a line.  When the role file is
also a target, its regions are taken as build fills them, so one build is
enough (idempotent).
"""

from __future__ import annotations

from contractc.emit.regions import render_target
from contractc.model import Project


def emit_role_prompts(project: Project) -> dict[str, bytes]:
    folder = project.config.out.prompts
    files = {}
    produced: dict[str, list] = {}  # each agent's text shapes, in contract and source order
    for contract in project.contracts:
        for shape in contract.text_shapes:
            produced.setdefault(shape.producer, []).append((contract, shape))
    for role in project.roles:
        target = project.target(role.path)  # read again: the targets are not held
        data = render_target(project, target) if target is not None and target.regions else role.data
        # A region never sits inside front matter (load refuses that), so the offset holds after rendering.
        body = data[role.body_start :]
        if body and not body.endswith((b"\n", b"\r")):
            body += b"\n"
        for contract, shape in produced.get(role.agent, ()):
            files[f"{folder}/{role.agent}/{shape.id}.full.md"] = body + contract.bundle(shape)
    return files
