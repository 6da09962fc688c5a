"""The field rows of a data shape (the site's table and its field anchors), read from its interpreted notation.

Each row is one key with its dotted path (``owners.name``: a list is walked
into its items), the type the notation gives it (an enum lists its values, a
reference names the shape it points at), and whether it is required or
transient, exactly as the schemas say.
"""

import re
from typing import NamedTuple

from contractc.model.records import ShapeSpec, Spec
from contractc.model.notation import walk_props


class FieldRow(NamedTuple):
    path: str
    """Dotted key path below the shape's top-level key."""
    depth: int
    """0 for a key directly under the shape."""
    name: str
    type: str
    """What the notation means, e.g. ``enum: feature | fix | chore``, ``array of string``."""
    ref: str
    """The id of the shape a reference points at; empty otherwise."""
    required: bool
    optional: str
    """Why the field may be absent (the rule that matched its comment); empty when required."""
    transient: bool
    comment: str
    line: int
    """1-based line in the contract."""
    meanings: tuple[tuple[str, str], ...] = ()
    """An enum's values, each with the meaning its comment gives it (``fix: a defect repaired``),
    or ``""`` for a value the comment does not explain; empty for any other field."""


def field_rows(shape: ShapeSpec) -> list[FieldRow]:
    rows = []
    for json_path, prop in walk_props(shape.spec):
        path = json_path.removeprefix("$").replace("[*]", "").lstrip(".")
        rows.append(
            FieldRow(
                path=path,
                depth=path.count("."),
                name=prop.name,
                type=describe(prop.spec),
                ref=_ref(prop.spec),
                required=not prop.optional,
                optional=prop.optional,
                transient=prop.transient,
                comment=prop.comment,
                line=prop.line,
                meanings=enum_meanings(prop.spec.enum, prop.comment) if prop.spec.kind == "enum" else (),
            )
        )
    return rows


def describe(spec: Spec) -> str:
    """A short reading of a spec for people: the table's type column."""
    if spec.kind == "enum":
        return "enum: " + " | ".join(spec.enum)
    if spec.kind == "array":
        if not spec.items:
            return "array"
        return "array of " + " or ".join(describe(item) for item in spec.items)
    if spec.kind == "ref":
        return f"{spec.ref} (shape)"
    if spec.kind == "open":
        return "object (any keys)"
    if spec.kind == "example":
        return "string, e.g. " + ", ".join(str(e) for e in spec.examples)
    if spec.kind == "text":
        return "string (text block)"
    if spec.kind == "date":
        return "string (date)"
    if spec.kind == "datetime":
        return "string (date-time)"
    return spec.kind


def _ref(spec: Spec) -> str:
    if spec.kind == "ref":
        return spec.ref
    return next((_ref(item) for item in spec.items if _ref(item)), "")


_MEANING = re.compile(r"^\s*`?(?P<value>[^`:=—–]+?)`?\s*(?::|=|—|–|\s-)\s*(?P<meaning>\S.*?)\s*$")
"""One clause of a comment that explains a value: ``fix: a defect repaired``, `` `fix` — repaired``."""


def enum_meanings(values: tuple[str, ...], comment: str) -> tuple[tuple[str, str], ...]:
    """Each enum value with what the field's comment says it means.

    The comment explains values in clauses separated by ``;`` (or ``,`` when no clause holds a
    ``;``), each ``value: meaning`` (or ``=``, an em or en dash, `` - ``); a clause that names no
    value of the enum explains nothing, and a value no clause names gets ``""``.
    """
    clauses = comment.split(";") if ";" in comment else comment.split(",")
    found: dict[str, str] = {}
    for clause in clauses:
        match = _MEANING.match(clause)
        if match and match.group("value").strip() in values:
            found.setdefault(match.group("value").strip(), match.group("meaning"))
    return tuple((value, found.get(value, "")) for value in values)


def references(specs: dict[str, ShapeSpec]) -> dict[str, list[tuple[str, str]]]:
    """Shape id -> every (shape id, field path) whose value refers to it (``{ ...full x... }``), in source order."""
    found: dict[str, list[tuple[str, str]]] = {}
    for shape_id, shape in specs.items():
        for row in field_rows(shape):
            if row.ref:
                found.setdefault(row.ref, []).append((shape_id, row.path))
        if shape.spec.kind == "ref":
            found.setdefault(shape.spec.ref, []).append((shape_id, ""))
    return found
