"""Dispatch snippets: per producer agent, the shared sections plus the shape's section.

``prompts/<agent>/<shape>.md`` is the concatenation of the source slices in
source order, nothing added or removed; ``prompts/manifest.json`` records where
every byte came from.
"""

from __future__ import annotations

import hashlib

from contractc.emit.common import dump_json
from contractc.model import Project


def emit_prompts(project: Project) -> dict[str, bytes]:
    folder = project.config.out["prompts"]
    files: dict[str, bytes] = {}
    entries = []
    for contract in project.contracts:
        for shape in contract.text_shapes:
            path = f"{folder}/{shape.producer}/{shape.id}.md"
            data = contract.bundle(shape)
            files[path] = data
            entries.append(
                {
                    "path": path,
                    "agent": shape.producer,
                    "shape": shape.id,
                    "qualifier": shape.qualifier,
                    "consumers": list(shape.consumers),
                    "sections": [a for a in (s.anchor for s in contract.sections) if a in {*contract.shared, shape.section}],
                    "contract": contract.path,
                    "contract_sha256": contract.sha256,
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
            )
    files[f"{folder}/manifest.json"] = dump_json({"generator": "contractc", "snippets": sorted(entries, key=lambda e: e["path"])})
    return files
