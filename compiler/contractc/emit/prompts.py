"""Dispatch snippets: per producer agent, the shared sections plus the shape's section.

``prompts/<agent>/<shape>.md`` is the concatenation of the source slices in
source order, nothing added or removed; ``prompts/manifest.json`` records where
every byte came from, and each snippet's size: ``bytes``, ``tokens_estimate``
(see :mod:`contractc.model.budget`) and ``section_bytes``, the size of each section
it carries, which ``check`` compares against to name the section that grew.
"""

from __future__ import annotations

import hashlib

from contractc.model.budget import section_sizes, snippet_size
from contractc.output.files import dump_json
from contractc.model.records import Project


def emit_prompts(project: Project) -> dict[str, bytes]:
    folder = project.config.out.prompts
    files: dict[str, bytes] = {}
    entries = []
    for contract in project.contracts:
        sizes = section_sizes(contract)  # once per contract, not per shape
        for shape in contract.text_shapes:
            path = project.snippet_path(shape)
            data = contract.bundle(shape)
            files[path] = data
            size = snippet_size(data)
            carried = [s.anchor for s in contract.sections_of(shape)]
            entries.append(
                {
                    "path": path,
                    "agent": shape.producer,
                    "shape": shape.id,
                    "qualifier": shape.qualifier,
                    "consumers": list(shape.consumers),
                    "sections": carried,
                    "section_bytes": {a: sizes[a] for a in carried},
                    "contract": contract.path,
                    "contract_sha256": contract.sha256,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "bytes": size.bytes,
                    "tokens_estimate": size.tokens,
                }
            )
    manifest: dict = {"generator": "contractc", "snippets": sorted(entries, key=lambda e: e["path"])}
    pins = pin_records(project)
    if pins:
        manifest["pins"] = pins
    files[f"{folder}/manifest.json"] = dump_json(manifest)
    return files


def pin_records(project: Project) -> dict[str, dict]:
    """What a pinned contract's sections were while its bytes matched the pin (see drift/pins.py).

    A contract that matches its pin is recorded afresh; one that moved on keeps
    the record read from the manifest on disk, so check can name what changed.
    """
    records = {}
    for entry in project.config.contracts:
        if entry.sha256 is None:
            continue
        contract = project.contract(entry.path)
        if contract.sha256 == entry.sha256:
            records[entry.path] = {"sha256": entry.sha256, "sections": contract.section_hashes()}
        elif (old := project.pins.get(entry.path)) is not None and old.sha256 == entry.sha256:
            records[entry.path] = {"sha256": old.sha256, "sections": old.sections}
    return records
