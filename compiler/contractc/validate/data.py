"""Validate a YAML/JSON document or Markdown front matter against a data shape's wire or artifact schema.

Every error is located on the line of the offending key and names its JSON
path in the document.  A document may hold the shape's value itself, or be
wrapped in the shape's key the way the contract writes it; a Markdown file's
front matter is one item of a list-valued shape (one artifact per file).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from contractc.report.diagnostics import Diagnostic, json_path, yaml_json_message
from contractc.load.document import Document, load_document
from contractc.model.records import DataShape, Project
from contractc.model.notation import transient_paths


def validate_data(project: Project, shape: DataShape, file: Path, artifact: bool) -> list[Diagnostic]:
    from jsonschema.exceptions import best_match

    from contractc.model.schemas import compile_schemas, schema_registry, validator

    compiled = compile_schemas(project)
    target = compiled[shape.id]
    schema = target.schema(artifact)
    document = load_document(file)
    instance, to_document = _instance(document, shape, schema)
    transients = transient_paths(target.shape, {sid: c.shape for sid, c in compiled.items()}) if artifact else set()
    problems = []
    for error in validator(schema, schema_registry(compiled)).iter_errors(instance):
        if error.validator in ("anyOf", "oneOf") and error.context:
            error = best_match(error.context)
        path = list(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            for key in (k for k in error.instance if k not in allowed):
                problems.append(
                    _problem(document, to_document([*path, key]), _extra(key, [*path, key], allowed, transients))
                )
            continue
        problems.append(_problem(document, to_document(path), yaml_json_message(error)))
    return sorted(problems, key=lambda d: d.line)  # stable: same-line errors stay in schema order


def _instance(document: Document, shape: DataShape, schema: dict) -> tuple[Any, Any]:
    """What to validate, and how to turn a path in it back into a path in the document."""
    value = document.value
    if isinstance(value, dict) and list(value) == [shape.key] and shape.key not in schema.get("properties", {}):
        return value[shape.key], lambda path: [shape.key, *path]
    if document.front_matter and schema.get("type") == "array" and isinstance(value, dict):
        return [value], lambda path: path[1:]
    return value, lambda path: path


def _extra(key: str, path: list[Any], allowed: dict, transients: set[str]) -> str:
    pattern = json_path(["*" if isinstance(p, int) else p for p in path]).replace(".*", "[*]")
    if pattern in transients:
        return f"transient field {key!r} is in flight only and must not be in an artifact; strip it before writing"
    return f"unknown key {key!r}; allowed keys: {', '.join(allowed) or 'none'}"


def _problem(document: Document, path: list[Any], message: str) -> Diagnostic:
    line, col = document.where(path)
    return Diagnostic(document.path, line, col, "invalid-document", f"{json_path(path)}: {message}")
