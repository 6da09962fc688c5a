"""Stage 3, emit: one pure function per output kind, ``Project -> {path: bytes}``.

A new output kind is one new emitter in :data:`EMITTERS`; ``check`` covers it
for free because every emitter only returns bytes for paths.
"""

from __future__ import annotations

from collections.abc import Callable

from contractc.report.diagnostics import Diagnostic
from contractc.emit.filled import emit_role_prompts
from contractc.emit.prompts import emit_prompts
from contractc.emit.regions import emit_regions
from contractc.emit.schemas import emit_schemas, verify_schema_file
from contractc.model.records import Project

Emitter = Callable[[Project], dict[str, bytes]]
OwnedFolder = str | Callable[[Project], "str | None"] | None
Verifier = Callable[[str, bytes], list[Diagnostic]]

# kind -> (emitter, the config ``out`` key of the folder it owns -- or a function
# of the project naming that folder -- or None)
EMITTERS: dict[str, tuple[Emitter, OwnedFolder]] = {
    "prompts": (emit_prompts, "prompts"),
    "schemas": (emit_schemas, "schemas"),
    "regions": (emit_regions, None),  # target files are the user's: no folder is owned
    "role-prompts": (emit_role_prompts, "prompts"),
}
# The site's pages are one more output kind, ``site`` (contractc.emit.site): the pipeline adds
# it to this table, handing it the changes since the last release that ``diff`` finds, and
# imports the page emitter (jinja2) only for a project that stores its pages.

# kind -> a check ``build`` runs on each file of that kind it is about to write
# (too slow for ``check``, and redundant there: a current file passed it when written).
VERIFIERS: dict[str, Verifier] = {
    "schemas": verify_schema_file,
}
