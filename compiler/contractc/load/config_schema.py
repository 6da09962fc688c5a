"""Does a ``contractc.yaml`` document match the shipped schema (``data/config.schema.json``)? Answered without jsonschema.

Importing jsonschema costs more than the rest of a ``check`` of a thousand
files, and almost every configuration is valid, so the configuration is read
with this plain transcription of the schema first; jsonschema is imported only
to explain a document this rejects (``load/config.py``), in the schema's own
words.  ``tests/test_config_schema.py`` holds the two in agreement, on
generated documents, keyword by keyword.
"""

from __future__ import annotations

import re
from typing import Any

_SITE_URL = re.compile(r"^https?://")
# Compiled on first use (through the re module's cache): only a configuration with the key asks.
_PREFIX = r"^[A-Za-z0-9_.-]*(/[A-Za-z0-9_.-]+)*$"
_SHA256 = r"^[0-9a-f]{64}$"
_AGENT = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"


def conforms(doc: Any) -> bool:
    """True exactly when ``doc`` (plain JSON data) is valid against the configuration schema."""
    return (
        isinstance(doc, dict)
        and "contracts" in doc
        and _only(doc, {"site_url", "docs_url", "site", "contracts", "targets", "agents", "budgets", "allow_restatements", "unresolved", "out", "scan"})
        and _optional(doc, "site_url", lambda v: isinstance(v, str) and _SITE_URL.search(v) is not None)
        and _optional(doc, "docs_url", lambda v: isinstance(v, str) and _SITE_URL.search(v) is not None)
        and _optional(doc, "site", _site)
        and _contracts(doc["contracts"])
        and _optional(doc, "targets", _strings)
        and _optional(doc, "agents", _agents)
        and _optional(doc, "budgets", _budgets)
        and _optional(doc, "allow_restatements", lambda v: isinstance(v, list) and all(_allowed(i) for i in v))
        and _optional(doc, "unresolved", lambda v: isinstance(v, list) and all(_unresolved(i) for i in v))
        and _optional(doc, "out", _out)
        and _optional(doc, "scan", _scan)
    )


def _only(mapping: dict, keys: set[str]) -> bool:
    return all(k in keys for k in mapping)


def _optional(mapping: dict, key: str, valid) -> bool:
    return key not in mapping or valid(mapping[key])


def _text(value: Any) -> bool:
    """``{"type": "string", "minLength": 1}``."""
    return isinstance(value, str) and len(value) >= 1


def _strings(value: Any) -> bool:
    """An array of distinct non-empty strings (JSON Schema's ``uniqueItems`` compares strings by value)."""
    return isinstance(value, list) and all(_text(v) for v in value) and len(set(value)) == len(value)


def _site(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and _only(value, {"prefix", "templates", "directory_urls"})
        and _optional(value, "prefix", lambda v: isinstance(v, str) and re.search(_PREFIX, v) is not None)
        and _optional(value, "templates", _text)
        and _optional(value, "directory_urls", lambda v: isinstance(v, bool))
    )


def _contracts(value: Any) -> bool:
    return isinstance(value, list) and len(value) >= 1 and all(_contract(v) for v in value)


def _contract(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and "path" in value
        and _only(value, {"path", "shared", "sha256"})
        and _text(value["path"])
        and _optional(value, "shared", _strings)
        and _optional(value, "sha256", lambda v: isinstance(v, str) and re.search(_SHA256, v) is not None)
    )


def _agents(value: Any) -> bool:
    return isinstance(value, dict) and all(re.search(_AGENT, k) is not None and _text(v) for k, v in value.items())


def _budgets(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and _only(value, {"agents", "shapes"})
        and all(isinstance(v, dict) and all(_positive_integer(n) for n in v.values()) for v in value.values())
    )


def _allowed(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and "path" in value
        and _only(value, {"path", "shape", "line", "sha256"})
        and _text(value["path"])
        and _optional(value, "shape", _text)
        and _optional(value, "line", _positive_integer)
        and _optional(value, "sha256", lambda v: isinstance(v, str) and re.search(_SHA256, v) is not None)
    )


def _unresolved(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and {"path", "line", "shape"} <= value.keys()
        and _only(value, {"path", "line", "shape", "why"})
        and _text(value["path"])
        and _positive_integer(value["line"])
        and _text(value["shape"])
        and _optional(value, "why", lambda v: isinstance(v, str))
    )


def _positive_integer(value: Any) -> bool:
    """``{"type": "integer", "minimum": 1}``: JSON Schema counts 3.0 as an integer, and no boolean as one."""
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return value.is_integer() and value >= 1
    return isinstance(value, int) and value >= 1


def _scan(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and _only(value, {"include", "exclude", "owner"})
        and all(isinstance(v, list) and all(_text(g) for g in v) for v in value.values())
    )


def _out(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and _only(value, {"prompts", "schemas", "site"})
        and all(_text(v) for v in value.values())
    )
