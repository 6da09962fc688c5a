"""Does a ``contractc.yaml`` document match the shipped schema (``data/config.schema.json``)? Answered without jsonschema.

Importing jsonschema costs more than the rest of a ``check`` of a thousand
files, and almost every configuration is valid, so the schema file itself is
read here, with the few keywords it uses (:data:`_TYPES`, ``required``,
``properties``, ``additionalProperties``, ``propertyNames``, ``items``,
``minItems``, ``uniqueItems``, ``minLength``, ``pattern``, ``minimum``: :data:`_KEYWORDS`); a
keyword it does not know fails loudly, never passes unread.  jsonschema is
imported only to explain a document this rejects (``load/config.py``), in the
schema's own words.  ``tests/test_config_schema.py`` holds the two in
agreement, on generated documents, keyword by keyword.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from typing import Any

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    # JSON Schema counts 3.0 as an integer, and no boolean as one.
    "integer": lambda v: not isinstance(v, bool) and (isinstance(v, int) or (isinstance(v, float) and v.is_integer())),
    "number": lambda v: not isinstance(v, bool) and isinstance(v, (int, float)),
}
_ANNOTATIONS = {"$schema", "$id", "title", "description", "type"}


@cache
def config_schema() -> dict:
    """The shipped schema of ``contractc.yaml`` (read from the package folder: importlib.resources costs 9 ms)."""
    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "config.schema.json"), encoding="utf-8") as handle:
        return json.load(handle)


def conforms(doc: Any, schema: dict | None = None) -> bool:
    """True exactly when ``doc`` (plain JSON data) is valid against ``schema`` (the configuration schema)."""
    schema = config_schema() if schema is None else schema
    if "type" in schema and not _TYPES[schema["type"]](doc):
        return False
    for keyword, want in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        applies, holds = _KEYWORDS[keyword]  # a keyword not read here fails loudly, never passes unread
        if _TYPES[applies](doc) and not holds(doc, want, schema):
            return False
    return True


def _additional(value: dict, want: Any, schema: dict) -> bool:
    known = schema.get("properties", {})
    return all(want is True or (want is not False and conforms(item, want)) for key, item in value.items() if key not in known)


def _unique(value: list, want: bool, schema: dict) -> bool:
    """JSON equality: 1 and 1.0 are one number, and no boolean equals a number."""
    return not want or all(
        not (a == b and isinstance(a, bool) == isinstance(b, bool)) for i, a in enumerate(value) for b in value[i + 1 :]
    )


_KEYWORDS = {  # keyword -> (the type it applies to, whether a value of that type holds it)
    "required": ("object", lambda v, want, schema: all(k in v for k in want)),
    "properties": ("object", lambda v, want, schema: all(conforms(v[k], sub) for k, sub in want.items() if k in v)),
    "additionalProperties": ("object", _additional),
    "propertyNames": ("object", lambda v, want, schema: all(conforms(k, want) for k in v)),
    "items": ("array", lambda v, want, schema: all(conforms(i, want) for i in v)),
    "minItems": ("array", lambda v, want, schema: len(v) >= want),
    "uniqueItems": ("array", _unique),
    "minLength": ("string", lambda v, want, schema: len(v) >= want),
    "pattern": ("string", lambda v, want, schema: re.search(want, v) is not None),
    "minimum": ("number", lambda v, want, schema: v >= want),
}
