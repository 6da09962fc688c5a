"""What ``build`` may remove: only a file it can prove it wrote.

A file in an output folder that nothing produces any more (an orphan) is
removed by ``build`` only when its bytes are the bytes contractc wrote there,
as recorded by a manifest committed with the outputs -- ``manifest.json`` of
the schemas folder (every schema file) or of the prompts folder (every dispatch
snippet), read as it is on disk -- or by ``.contractc/outputs.json`` (path ->
SHA-256, rewritten after each build; git-ignored, so absent on a fresh clone).
A manifest vouches only for plain paths inside its own folder, reached through
no symbolic link; it is read without following one.  A file contractc has no
record of (put there by a person or another tool), or whose bytes changed since
it was recorded, is reported and left alone.
"""

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from contractc.report.diagnostics import ContractcError
from contractc.output.files import dump_json, first_link, read_bytes, read_generated
from contractc.output.journal import state_folder, write_state
from contractc.model.names import all_plain

if TYPE_CHECKING:
    from contractc.output.outputs import OutputSet

NAME = "outputs.json"


class Proof(NamedTuple):
    """The SHA-256s contractc recorded for each path it wrote (a committed manifest and the local record may
    each hold one, e.g. after a pull brought newer outputs: either proves it)."""

    recorded: Mapping[str, frozenset[str]]

    @classmethod
    def load(cls, root: Path, outputs: "OutputSet") -> "Proof":
        recorded: dict[str, set[str]] = {}
        records = [_manifest_entries(root, f"{folder}/manifest.json") for folder in sorted(outputs.owned)]
        for record in [*records, load_record(root)]:
            for path, sha in record.items():
                recorded.setdefault(path, set()).add(sha)
        return cls({path: frozenset(shas) for path, shas in recorded.items()})

    def wrote(self, rel: str, data: bytes) -> bool:
        return hashlib.sha256(data).hexdigest() in self.recorded.get(rel, ())

    def edited(self, rel: str, data: bytes) -> bool:
        """Recorded, but its bytes are no longer the recorded ones: a person's edit, kept."""
        return rel in self.recorded and not self.wrote(rel, data)


MANIFEST_KEYS = ("snippets", "files")
"""The keys of a committed ``manifest.json`` that list ``{"path", "sha256"}`` entries (prompts, schemas)."""


def load_record(root: Path) -> dict[str, str]:
    try:
        value = json.loads(read_bytes(os.path.join(state_folder(root), NAME)))
    except (OSError, ValueError, RecursionError):  # a forged record nested 100,000 deep vouches for nothing
        return {}
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def save_record(root: Path, outputs: "OutputSet", removed: list[str]) -> None:
    """After a build: every generated file now on disk (outside target files), plus what was recorded before and still stands."""
    old = load_record(root)
    record = dict(old)
    for rel in removed:
        record.pop(rel, None)
    for path, out in outputs.files.items():
        if out.kind != "regions":
            record[path] = hashlib.sha256(out.data).hexdigest()
    if record == old:
        return  # a build that wrote nothing writes nothing here either
    with contextlib.suppress(OSError, ContractcError):  # without a record, a later build only leaves orphans for a person to remove
        write_state(state_folder(root), NAME, json.dumps(dict(sorted(record.items())), indent=0).encode("utf-8"))


def _manifest_entries(root: Path, rel: str) -> dict[str, str]:
    """The entries of the manifest at ``rel`` that name a plain path inside the manifest's own folder.

    The manifest vouches for itself too when it is contractc's own (its bytes are
    what contractc writes for its content): once nothing is generated in its
    folder any more, it is an orphan build may remove.
    """
    folder = rel.rpartition("/")[0]
    data = read_generated(root, rel)  # None for a manifest that is, or is reached through, a symbolic link
    if data is None:
        return {}
    try:
        manifest = json.loads(data)
        found = {
            e["path"]: e["sha256"]
            for key in MANIFEST_KEYS
            for e in manifest.get(key, [])
            if isinstance(e.get("path"), str) and isinstance(e.get("sha256"), str)
        }
    except (ValueError, AttributeError, TypeError, KeyError, RecursionError):
        return {}
    if manifest.get("generator") == "contractc" and data == dump_json(manifest):
        found[rel] = hashlib.sha256(data).hexdigest()
    return {path: sha for path, sha in found.items() if _inside(root, folder, path)}


def _inside(root: Path, folder: str, path: str) -> bool:
    """``path`` is a plain path under ``folder`` and no folder on its way is a symbolic link."""
    return path.startswith(folder + "/") and all_plain(path[len(folder) + 1 :]) and not first_link(root, path.rpartition("/")[0])
