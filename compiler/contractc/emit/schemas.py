"""Stage 3, the schema files: every data shape's compiled schemas (:mod:`contractc.model.schemas`) as bytes.

``<out.schemas>/manifest.json`` lists every schema file with its SHA-256: the
committed proof that contractc wrote it, so that ``build`` on a fresh clone may
remove a schema file whose data shape is gone (:mod:`contractc.output.written`).

``build`` checks every schema file it writes against the draft 2020-12
metaschema (:func:`verify_schema_file`) before writing any.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from contractc.report.diagnostics import ContractcError, Diagnostic, json_path
from contractc.output.files import dump_json
from contractc.model.records import Project
from contractc.model.schemas import (  # noqa: F401  (re-exported: the schemas' API as the tests and users know it)
    CompiledShape,
    check_compiled,
    compile_schemas,
    schema_registry,
    validator,
)

if TYPE_CHECKING:
    from contractc.output.outputs import Change


def emit_schemas(project: Project) -> dict[str, bytes]:
    compiled = compile_schemas(project, check=False)  # the pipeline checks those that changed: verify_examples
    files = {}
    for c in compiled.values():
        files[c.path] = dump_json(c.wire)
        if c.artifact_path and c.artifact is not None:
            files[c.artifact_path] = dump_json(c.artifact)
    if files:
        written = [{"path": path, "sha256": hashlib.sha256(data).hexdigest()} for path, data in sorted(files.items())]
        files[f"{project.config.out.schemas}/manifest.json"] = dump_json({"generator": "contractc", "files": written})
    return files


def verify_examples(project: Project, changes: list[Change]) -> None:
    """Raise when a data shape whose schema file is among ``changes`` has a derived example its own schemas reject.

    Run by ``build`` and ``check`` on the schema files that differ from disk: a
    schema that no document could satisfy fails, located at the offending field,
    before anything is written or reported.  A schema that is current on disk
    passed this check when it was written, so ``check`` need not import jsonschema
    to pass it again.
    """
    paths = {c.path for c in changes if c.expected is not None and c.output is not None and c.output.kind == "schemas"}
    if not paths:
        return
    compiled = compile_schemas(project, check=False)
    wanted = {sid for sid, c in compiled.items() if c.path in paths or c.artifact_path in paths}
    problems = check_compiled(compiled, wanted) if wanted else []
    if problems:
        raise ContractcError(problems)


def verify_schema_file(path: str, data: bytes) -> list[Diagnostic]:
    """Check one schema file against the draft 2020-12 metaschema before ``build`` writes it.

    This runs on the files a build is about to write, not in the emitter: it is
    the slow part (~10 ms a schema), and a schema that is current on disk was
    verified when it was written, so ``check`` need not pay for it again.
    """
    import json

    from jsonschema import Draft202012Validator

    schema = json.loads(data)
    return [
        Diagnostic(
            path,
            0,
            0,
            "schema-invalid",
            f"{schema.get('title', path)}: not valid draft 2020-12 at {json_path(error.absolute_path)}: {error.message}",
            "this is a bug in contractc; please report it with the contract",
        )
        for error in Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema)
    ]
