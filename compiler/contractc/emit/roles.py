"""Role-file dispatch prompts: an agent's role file body followed by a shape's dispatch bundle.

``prompts/<agent>/<shape>.full.md`` is, byte for byte, what
:func:`contractc.emit.filled.role_prompts` computes (the site publishes the same bytes).
"""

from __future__ import annotations

from contractc.emit.filled import role_prompts
from contractc.model.records import Project


def emit_role_prompts(project: Project) -> dict[str, bytes]:
    return {path: data for path, (_, _, data) in role_prompts(project).items()}
