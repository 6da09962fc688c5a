"""Role files (``agents:``): an agent's prompt file, whose body precedes its dispatch bundle.

YAML front matter is the block between a first line ``---`` and the next
``---`` (or ``...``) line; it is loaded by :func:`~contractc.load.yaml_safe.load_yaml`
(bounded, no object is ever constructed from a tag) and must be a mapping.  A file without front
matter is used whole.
"""

from __future__ import annotations

from pathlib import Path

from contractc.diagnostics import ContractcError, Diagnostic
from contractc.load.paths import confined
from contractc.load.source import SourceFile, read_source
from contractc.model import Config, Contract, RoleFile

_HINT = "fix the YAML between the --- lines at the top of the file"


def load_roles(root: Path, config: Config, contracts: list[Contract]) -> tuple[RoleFile, ...]:
    problems: list[Diagnostic] = []
    roles = []
    producers = sorted({s.producer for c in contracts for s in c.text_shapes})
    for agent, rel in sorted(config.raw.get("agents", {}).items()):
        where = config.where(f"$.agents.{agent}")
        try:
            if agent not in producers:
                raise ContractcError(
                    Diagnostic(
                        where.path,
                        where.line,
                        where.col,
                        "unknown-agent",
                        f"agent {agent!r} produces no shape in the contracts",
                        f"agents that produce a shape: {', '.join(producers) or 'none'}",
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
    if src.line_count == 0 or src.line_text(0).rstrip() != "---":
        return 0
    close = next((n for n in range(1, src.line_count) if src.line_text(n).rstrip() in ("---", "...")), None)
    if close is None:
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

    text = "\n".join(src.line_text(n) for n in range(1, close))
    value = load_yaml(text, src.path, "role-front-matter", first_line=2, hint=_HINT, what="front matter YAML")
    if value is not None and not isinstance(value, dict):
        raise ContractcError(
            Diagnostic(
                src.path,
                2,
                1,
                "role-front-matter",
                f"front matter must be a mapping of keys, not a {'list' if isinstance(value, list) else type(value).__name__}",
                _HINT,
            )
        )
    return src.offset(close + 1)
