"""Read a contract's explicit check rules, ``contracts/<name>.checks.yaml``, valid against ``data/checks.schema.json``.

What the rules mean is :mod:`contractc.model.checks.explicit`; here they are only
read and validated, every error located on its key.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from contractc.load.source import read_source
from contractc.model.checks.explicit import Sidecar
from contractc.report.diagnostics import ContractcError, Diagnostic, json_path, yaml_json_message

CODE = "checks-file-invalid"


def sidecar_path(contract_path: str) -> str:
    """Where a contract's explicit check rules are: ``contracts/review.md`` -> ``contracts/review.checks.yaml``."""
    return contract_path.removesuffix(".md") + ".checks.yaml"


def read_sidecar(root: Path, contract_path: str) -> Sidecar | None:
    """The contract's explicit rules, or None when it has no sidecar; bad YAML or a schema error raises, located."""
    path = sidecar_path(contract_path)
    if not (root / path).is_file():
        return None
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    from contractc.load.yaml_safe import load_yaml, plain, positions

    src = read_source(root, path)
    node = load_yaml(src.text, path, CODE, what="not valid YAML")
    value = plain(node)
    where = positions(node)
    problems = []
    for error in Draft202012Validator(schema()).iter_errors(value):
        if error.validator in ("anyOf", "oneOf", "allOf") and error.context:
            error = best_match(error.context)
        at = list(error.absolute_path)
        line, col = next((where[json_path(at[:n])] for n in range(len(at), 0, -1) if json_path(at[:n]) in where), (1, 1))
        problems.append(
            Diagnostic(path, line, col, CODE, f"{json_path(at)}: {yaml_json_message(error)}",
                       "the rule types and their keys: https://contractc.dev/receiver-checks/#explicit-rules")
        )
    if problems:
        raise ContractcError(problems)
    return Sidecar(path, value or {}, where)


@cache
def schema() -> dict:
    """``data/checks.schema.json``: what a sidecar may hold."""
    import json
    from importlib import resources

    return json.loads(resources.files("contractc.data").joinpath("checks.schema.json").read_text("utf-8"))
