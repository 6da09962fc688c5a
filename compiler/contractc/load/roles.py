"""Role files (``agents:``): an agent's prompt file, whose body precedes its dispatch bundle.

YAML front matter (:mod:`contractc.load.front_matter` finds it) is loaded by
:func:`~contractc.load.yaml_safe.load_yaml` (bounded, no object is ever
constructed from a tag) and must be a mapping.  A file without front matter is used whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.load.paths import confined
from contractc.load.source import SourceFile, read_source
from contractc.model.records import Config, Contract, RoleFile

_HINT = "fix the YAML between the --- lines at the top of the file"


def load_roles(root: Path, config: Config, contracts: list[Contract]) -> tuple[RoleFile, ...]:
    problems: list[Diagnostic] = []
    roles = []
    producers = sorted({s.producer for c in contracts for s in c.text_shapes})
    for agent, rel in config.agents:
        where = config.where(f"$.agents.{agent}")
        try:
            if agent not in producers:
                raise ContractcError(
                    Diagnostic.at(
                        where, "unknown-agent", f"agent {agent!r} produces no shape in the contracts", f"agents that produce a shape: {', '.join(producers) or 'none'}"
                    )
                )
            src = read_source(root, confined(root, rel, where), referenced_from=where)
            roles.append(RoleFile(agent, src.path, src.data, front_matter_end(src)))
        except ContractcError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise ContractcError(problems)
    return tuple(roles)


def front_matter_end(src: SourceFile) -> int:
    """Byte offset where the body starts (0 without front matter); raise ``role-front-matter`` if malformed."""
    from contractc.load.front_matter import find_front_matter

    front = find_front_matter([src.line_text(n) for n in range(src.line_count)])
    if front is None:
        return 0
    if front.closing is None:
        raise ContractcError(
            Diagnostic(
                src.path,
                1,
                1,
                "role-front-matter",
                "front matter begun on line 1 is never closed",
                "end it with a line holding only ---",
            )
        )
    from contractc.load.yaml_safe import load_yaml

    value = load_yaml(front.text, src.path, "role-front-matter", first_line=front.first_line, hint=_HINT, what="front matter YAML")
    if value is not None and not isinstance(value, dict):
        raise ContractcError(
            Diagnostic(
                src.path,
                2,
                1,
                "role-front-matter",
                f"front matter must be a mapping of keys, not a {_kind(value)}",
                _HINT,
            )
        )
    return src.offset(front.closing + 1)


def _kind(value: Any) -> str:
    """What a front matter that is no mapping is: ``list``, or the Python type of the scalar (``str``, ``int``)."""
    from contractc.load.yaml_safe import plain

    return "list" if isinstance(value, list) else type(plain(value)).__name__
