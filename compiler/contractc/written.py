"""What ``build`` may remove: only a file it can prove it wrote.

A file in an output folder that nothing produces any more (an orphan) is
removed by ``build`` only when its bytes are the bytes contractc wrote there:
recorded in ``.contractc/outputs.json`` (path -> SHA-256, rewritten after each
build) or, for a dispatch snippet, listed with its SHA-256 in the prompts
manifest on disk.  A file contractc has no record of -- put there by a person,
by another tool, or edited since -- is reported and left alone.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from contractc.files import read_bytes
from contractc.journal import state_folder

if TYPE_CHECKING:
    from contractc.output import OutputSet

NAME = "outputs.json"


@dataclass(frozen=True, slots=True)
class Proof:
    """The SHA-256 contractc recorded for each path it wrote."""

    recorded: Mapping[str, str]

    @classmethod
    def load(cls, root: Path, outputs: OutputSet) -> Proof:
        recorded: dict[str, str] = {}
        for path, out in outputs.files.items():
            if out.kind == "prompts" and path.endswith("/manifest.json"):
                recorded.update(_manifest_snippets(root / path))
        recorded.update(load_record(root))
        return cls(recorded)

    def wrote(self, rel: str, data: bytes) -> bool:
        return self.recorded.get(rel) == hashlib.sha256(data).hexdigest()


def load_record(root: Path) -> dict[str, str]:
    try:
        value = json.loads(read_bytes(os.path.join(state_folder(root), NAME)))
    except (OSError, ValueError):
        return {}
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def save_record(root: Path, outputs: OutputSet, removed: list[str]) -> None:
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
    folder = state_folder(root)
    try:
        os.makedirs(folder, exist_ok=True)
        tmp = os.path.join(folder, f".{NAME}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(dict(sorted(record.items())), handle, indent=0)
        os.replace(tmp, os.path.join(folder, NAME))
    except OSError:
        pass  # without a record, a later build only leaves orphans for a person to remove


def _manifest_snippets(path: Path) -> dict[str, str]:
    try:
        manifest = json.loads(read_bytes(path))
        return {e["path"]: e["sha256"] for e in manifest.get("snippets", []) if isinstance(e.get("path"), str) and isinstance(e.get("sha256"), str)}
    except (OSError, ValueError, AttributeError, TypeError, KeyError):
        return {}
