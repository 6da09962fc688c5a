"""The approval file, ``contractc.changes.yaml``: breaking changes accepted on purpose, and anchor redirects.

::

    accepted:
      - change: field-removed:task_brief:$.goal     # a change record's id
        contract: contracts/handoffs.md
        verdict: breaking for producers and receivers
        why: goal moved into scope; every producer changed in the same pull request
        date: "2026-11-30"
    redirects:
      traversal: traversal-rules                      # old anchor -> today's anchor

Entries already present on the older side are history (the site's Changes
page lists them); only entries added since may accept a change of this diff,
and one of those that matches no change is stale.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from contractc.diff.records import ChangeRecord
from contractc.diff.sides import CHANGES_NAME
from contractc.report.diagnostics import ContractcError, Diagnostic

HEADER = (
    "# Breaking contract changes accepted on purpose, and redirects for removed anchors.\n"
    "# `contractc diff --against REF --accept --why TEXT` adds an entry per unaccepted breaking change.\n"
    "# Its format: `contractc explain changes-invalid`.\n"
)


@dataclass(frozen=True, slots=True)
class Acceptance:
    change: str
    """The id of the change record it accepts."""
    contract: str
    why: str
    verdict: str = ""
    date: str = ""
    line: int = 0
    """1-based line of the entry in the approval file."""

    def matches(self, record: ChangeRecord) -> bool:
        return self.change == record.id and (not self.contract or self.contract == record.contract)


@dataclass(frozen=True, slots=True)
class Approvals:
    accepted: tuple[Acceptance, ...] = ()
    redirects: dict[str, str] = field(default_factory=dict)


@cache
def changes_schema() -> dict:
    return json.loads(resources.files("contractc.data").joinpath("changes.schema.json").read_text("utf-8"))


def read_approvals(data: bytes | None, label: str = CHANGES_NAME) -> Approvals:
    """Parse the approval file's bytes (None: there is none); problems are ``changes-invalid``, located."""
    doc = None if data is None else _load(data, label)
    if doc is None:
        return Approvals()
    from jsonschema import Draft202012Validator

    from contractc.load.yaml_safe import locate, plain

    for error in Draft202012Validator(changes_schema()).iter_errors(plain(doc)):
        path = list(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            path.append(next(k for k in error.instance if k not in error.schema.get("properties", {})))
        line, _ = locate(doc, path)
        where = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
        message = error.message
        if error.validator == "additionalProperties":
            message = f"unknown key; allowed keys: {', '.join(sorted(error.schema.get('properties', {})))}"
        raise _invalid(label, line, f"{where}: {message}")
    items = doc.get("accepted") if isinstance(doc, dict) else None
    items = items if isinstance(items, list) else []
    accepted = tuple(
        Acceptance(
            str(e["change"]),
            str(e.get("contract", "")),
            str(e["why"]),
            str(e.get("verdict", "")),
            str(e.get("date", "")),
            items.lc.item(i)[0] + 1,
        )
        for i, item in enumerate(items)
        if (e := plain(item)) is not None
    )
    redirects = {str(k): str(v) for k, v in (plain(doc).get("redirects") or {}).items()}
    return Approvals(accepted, redirects)


def _load(data: bytes, label: str):
    """The approval file's YAML tree (None when empty); a YAML error is ``changes-invalid`` on its line."""
    from contractc.load.yaml_safe import load_yaml

    try:
        return load_yaml(data.decode("utf-8"), label, "changes-invalid")
    except UnicodeDecodeError as exc:
        raise _invalid(label, 1, f"not UTF-8: {exc.reason}") from None
    except ContractcError as exc:
        (problem,) = exc.diagnostics
        raise _invalid(label, problem.line, problem.message) from None


def new_entries(today: Approvals, before: Approvals) -> list[Acceptance]:
    """Today's entries that the older side did not have: the ones this diff must justify."""
    old = {(a.change, a.contract) for a in before.accepted}
    return [a for a in today.accepted if (a.change, a.contract) not in old]


def append_entries(data: bytes | None, records: list[ChangeRecord], why: str, date: str) -> bytes:
    """The approval file with one entry per record added after its last entry; other bytes unchanged."""
    import yaml

    entries = [
        {"change": r.id, "contract": r.contract, "verdict": r.verdict_text, "why": why, "date": date} for r in records
    ]
    block = yaml.safe_dump(entries, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
    if data is None:
        return (HEADER + "accepted:\n" + _indent(block, 2)).encode("utf-8")
    text = data.decode("utf-8")
    from contractc.load.yaml_safe import key_at

    doc = _load(data, CHANGES_NAME)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n"
    if not isinstance(doc, dict) or "accepted" not in doc:
        return ("".join(lines) + "accepted:\n" + _indent(block, 2)).encode("utf-8")
    found = doc["accepted"]
    if isinstance(found, (dict, list)) and found.fa.flow_style():
        raise _invalid(
            CHANGES_NAME,
            key_at(doc, "accepted")[0] + 1,
            "`accepted:` is a flow list ([...]); write it as a block list so entries can be added",
        )
    if isinstance(found, list) and found:  # the column of the first entry's dash, so new entries line up with it
        first = lines[found.lc.item(0)[0]]
        indent = len(first) - len(first.lstrip(" "))
    else:
        indent = 2
    keys = list(doc)
    after = keys[keys.index("accepted") + 1 :]
    at = key_at(doc, after[0])[0] if after else len(lines)
    while at > 0 and not lines[at - 1].strip() and after:  # keep the blank line before the next key after the entries
        at -= 1
    return ("".join(lines[:at]) + _indent(block, indent) + "".join(lines[at:])).encode("utf-8")


def _indent(block: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line if line.strip() else line for line in block.splitlines(keepends=True))


def _invalid(label: str, line: int, message: str) -> ContractcError:
    return ContractcError(
        Diagnostic(
            label, line, 1, "changes-invalid", message, "correct the file: each entry under accepted: needs change: and why:"
        )
    )
