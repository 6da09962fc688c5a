"""Helpers every emitter shares, so output is deterministic in one way everywhere."""

from __future__ import annotations

import json
from typing import Any


def dump_json(value: Any) -> bytes:
    """Pretty, stable, newline-terminated JSON: the one JSON format of every output."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
