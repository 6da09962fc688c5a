"""Explicit rules for receiver checks whose prose no phrasing reads: ``contracts/<name>.checks.yaml``.

The file sits beside its contract and leaves the contract's bytes alone.  It maps
a text shape's id to a check number to a list of rules, in a small vocabulary
after promptfoo's deterministic assertions::

    findingsreturn:
      2:
        - type: ends-with
          line: last
          value: "VERDICT: PASS"

It is validated against ``data/checks.schema.json`` (errors located on the key),
and every literal a rule holds (a value, a field, a heading, a limit, a status
under ``when``, a data shape or form name, the words of a regex) must be written
in its check's own prose: a check reworded so that its rule no longer says what
it says is a located ``check-rule-drift`` error, not a silent mismatch.  Each
rule compiles to the same typed rule (:mod:`contractc.model.checks.rules`) the
prose phrasing would give.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from contractc.model.checks import rules
from contractc.model.checks.rules import Form, Rule
from contractc.report.diagnostics import ContractcError, Diagnostic, json_path

_LINES = {"first": 1, "last": -1, "after-status": 0}
_COUNTS = {"max-lines": ("lines", False), "min-lines": ("lines", True), "max-words": ("words", False),
           "min-words": ("words", True), "max-chars": ("chars", False), "min-chars": ("chars", True)}
_CONTAINS = {"contains": "any", "contains-any": "any", "contains-all": "all", "not-contains": "none",
             "not-contains-any": "none", "not-contains-all": "not-all"}
_REGEX_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ :-]{2,}")

Explicit = dict[tuple[str, int], tuple[tuple[Rule, ...], str]]
"""(shape id, check number) -> its rules and where they are written (``contracts/x.checks.yaml:4``)."""


class Sidecar(NamedTuple):
    """A contract's explicit rules as read (:func:`contractc.load.explicit.read_sidecar`), valid against the schema."""

    path: str
    """Project-relative path: ``contracts/review.checks.yaml``."""
    value: dict
    """Shape id -> check number (text) -> rules."""
    where: dict[str, tuple[int, int]]
    """Each key path (``$.findingsreturn.2[0]``) -> its line and column."""


def compile_sidecar(sidecar: Sidecar, contract, forms: dict[str, Form], data: frozenset[str]) -> Explicit:
    """Every rule of ``sidecar``, compiled and held to its check's words; ``data`` holds the ids and keys of the
    contract's data shapes.  An unknown shape or check, a literal not in the check's prose, or a form or data
    shape the contract does not define is an error."""
    path, value, where = sidecar
    checks = {s.id: {c.number: c for c in s.checks} for s in contract.text_shapes}
    problems: list[Diagnostic] = []
    found: Explicit = {}
    for shape_id, numbered in value.items():
        if shape_id not in checks:
            known = ", ".join(sorted(checks)) or "none"
            problems.append(_at(path, where, [shape_id], "checks-file-invalid",
                                f"{contract.path} has no text shape with the id {shape_id!r}", f"its text shapes: {known}"))
            continue
        for number_key, listed in numbered.items():
            number = int(number_key)
            check = checks[shape_id].get(number)
            if check is None:
                have = ", ".join(str(n) for n in sorted(checks[shape_id])) or "none"
                problems.append(_at(path, where, [shape_id, number_key], "checks-file-invalid",
                                    f"{shape_id} has no receiver check {number}", f"its checks: {have}"))
                continue
            prose = " ".join(check.text.split())
            compiled = []
            for i, item in enumerate(listed):
                key = [shape_id, number_key, i]
                try:
                    rule = _rule(item, forms, data)
                except LookupError as exc:
                    problems.append(_at(path, where, key, "checks-file-invalid", str(exc.args[0])))
                    continue
                for field, literal in _literals(item):
                    if not _said(literal, prose):
                        problems.append(
                            _at(path, where, [*key, *field], "check-rule-drift",
                                f"{shape_id} check {number}: the rule's {literal[0]} {literal[1]!r} is not in the check's words",
                                "the rule must say what the check says: reword the rule, or restore the check's words")
                        )
                compiled.append(rule)
            line, _ = where.get(json_path([shape_id, number_key]), (1, 1))
            found[(shape_id, number)] = (tuple(compiled), f"{path}:{line}")
    if problems:
        raise ContractcError(problems)
    return found


def _at(path: str, where: dict, key: list, code: str, message: str, hint: str = "") -> Diagnostic:
    line, col = where.get(json_path(key), (1, 1))
    return Diagnostic(path, line, col, code, message, hint)


def _texts(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else (value,)


def _rule(item: dict, forms: dict[str, Form], data: frozenset[str]) -> Rule:
    """One sidecar rule as the typed rule its prose phrasing compiles to."""
    kind, value, when = item["type"], item.get("value"), tuple(item.get("when", ()))
    line = _LINES.get(item.get("line", ""), item.get("line"))
    if kind == "equals":
        return rules.status_line(_texts(value), when) if line == 1 else rules.LineIs(line, _texts(value), when)
    if kind == "starts-with":
        return rules.LineBegins(1 if line is None else line, value, when)
    if kind == "ends-with":
        return rules.LineEnds(-1 if line is None else line, value, when)
    if kind in _CONTAINS:
        return rules.Contains(_texts(value), _CONTAINS[kind], when)
    if kind in ("regex", "not-regex"):
        try:
            re.compile(value)
        except re.error as exc:
            raise LookupError(f"not a regular expression: {exc}") from None
        if not _REGEX_WORD.search(re.sub(r"\\.", " ", value)):
            # `.*` or `^\S` holds no word its check could be held to: such a rule could say anything
            raise LookupError(f"the regex {value!r} holds no word of its check (three letters or more), so nothing holds it to the prose")
        return rules.Matches(value, kind == "not-regex", when)
    if kind in _COUNTS:
        unit, least = _COUNTS[kind]
        if kind == "max-lines":
            return rules.MaxLines(value, when)
        return rules.Count(unit, value if least else None, None if least else value, when)
    if kind == "heading":
        return rules.Heading(value, when)
    if kind == "line-present":
        return rules.RequiredLine(value, when)
    if kind == "no-line":
        return rules.ForbiddenLine(value, when)
    if kind == "every-item":
        return rules.ItemLines(tuple(item["fields"]), "item", when)
    if kind in ("is-yaml", "is-json"):
        shape = item.get("shape", "")
        if shape and shape not in data:
            raise LookupError(f"the contract defines no data shape {shape!r}")
        return rules.IsData(kind[3:], shape, when)
    if kind == "names-file":
        return rules.NamesFile(when)
    form = forms.get(item["form"].lower())
    if form is None:
        raise LookupError(f"the contract defines no {item['form']} form (a paragraph opening `**{item['form'].capitalize()} form.**`)")
    return rules.CarriesForm(form, when)


def _literals(item: dict) -> list[tuple[list, tuple[str, str]]]:
    """What the rule says that its check must say too: (the rule's key holding it, (what it is, the literal))."""
    value = item.get("value")
    out = [(["value", i] if isinstance(value, list) else ["value"], ("value", v)) for i, v in enumerate(_texts(value))
           if isinstance(v, str)]
    if isinstance(item.get("value"), int):
        out.append((["value"], ("limit", str(item["value"]))))
    if item["type"] in ("regex", "not-regex"):
        words = _REGEX_WORD.findall(re.sub(r"\\.", " ", item["value"]))
        out = [(["value"], ("pattern word", w.strip())) for w in words if w.strip()]
    out += [(["fields", i], ("field", f)) for i, f in enumerate(item.get("fields", ()))]
    out += [(["when", i], ("status", w)) for i, w in enumerate(item.get("when", ()))]
    out += [([what], (what, item[what])) for what in ("shape", "form") if what in item]
    return out


def _said(literal: tuple[str, str], prose: str) -> bool:
    what, text = literal
    if what == "limit":
        return re.search(rf"(?<![\d.]){re.escape(text)}(?!\d)", prose) is not None
    flat = " ".join(text.split())
    fold = re.IGNORECASE if what in ("form", "pattern word") else 0
    # said as itself, not as part of a longer word: `approve` is not in "approved"
    return re.search(rf"(?<!\w){re.escape(flat)}" + (r"(?!\w)" if flat[-1:].isalnum() else ""), prose, fold) is not None
