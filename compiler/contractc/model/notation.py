"""Stage 2, model: the data-shape notation read into a typed field tree.

The parser keeps a shape block as written (:class:`~contractc.model.records.Node`); this
module says what the writing *means*: ``string``, ``a | b``, ``"YYYY-MM-DD"``,
``{ ...full x... }``, and the comments real contracts use (``# ← TRANSIENT``,
``# optional — ...``, ``# reserved; default x``).  The result, a :class:`Spec`
tree per shape, is what the schema emitter and the example deriver read.
Anything that is not notation is a located ``bad-notation`` error: a schema
must never silently turn into ``{}``.  docs/notation.md is the reference.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from contractc.report.diagnostics import ContractcError, Diagnostic, Severity
from contractc.model.records import Contract, DataShape, Field, Node, Prop, ShapeSpec, Spec

__all__ = ["Prop", "ShapeSpec", "Spec", "interpret", "dangling_notes", "optional_notes", "transient_paths", "walk_props"]

TYPE_WORDS = {"string", "integer", "number", "boolean"}
# Words that look like a type but are not notation: a typo here must fail, not become an example value.
NOT_TYPE_WORDS = {
    "str", "int", "float", "double", "long", "bool", "object", "dict", "map", "list", "array", "any",
    "date", "datetime", "timestamp", "enum", "uuid", "url", "uri", "email", "text", "none", "nil", "undefined",
}  # fmt: skip
DATE_PLACEHOLDER = "YYYY-MM-DD"
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
INTEGER = re.compile(r"^[-+]?\d+$")
NUMBER = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")
ENUM_WORD = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-/]*$")
# Patterns that only some contracts, or only mistakes, reach are kept as source and compiled on first use
# (``re.match(PATTERN, text)``, through the re module's cache): every run pays for the import of this module.
DATETIME_PLACEHOLDER = r"(?i)^YYYY-MM-DD[T ]hh:mm(:ss)?(Z|[+-]hh:mm)?$"
TYPE_SYNTAX = r"^(\w+(\[.*\]|\?|<.*>)|<[^>]*>)$"
SHAPE_NAME = r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*"
FULL_REF = r"\.\.\.\s*full\s+([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\.\.\."
"""The reference form ``...full NAME...``: a NAME that is no data shape of the project is a ``dangling-ref`` warning."""

# Comment markers (docs/notation.md, "Comments"); they and the phrases below are compiled on first use.
TRANSIENT = r"(?:←|<-)\s*TRANSIENT\b"
OPTIONAL_MARK = r"(?:←|<-)\s*OPTIONAL\b"
REQUIRED_MARK = r"(?:←|<-)\s*REQUIRED\b"
NULLABLE_MARK = r"(?:←|<-)\s*NULLABLE\b"
MARKERS = r"(?:←|<-)\s*(?:TRANSIENT|OPTIONAL|REQUIRED|NULLABLE)\b[\s,;:—-]*"
# The prose phrasings that make a field optional: small, documented, and each use is listed by `build`.
OPTIONAL_PHRASES: tuple[tuple[str, str], ...] = (
    ("optional", r"(?i)^\(?optional\b|\(optional\)"),
    ("omit otherwise / omitted when", r"(?i)\bomit(?:ted)?\s+(?:otherwise|when|if|unless)\b"),
    ("present only when", r"(?i)\b(?:present\s+only|only\s+present)\s+(?:when|if)\b"),
    ("required when", r"(?i)\brequired\s+(?:only\s+)?(?:when|if)\b"),
    # a clause that ends in "only" (`FRs only;`), but not `read only` / `write only`, which say how, not whether
    ("<who> only", r"(?i)\b(?!read\b|write\b)\w[\w/-]*\s+only\s*(?:$|[;:,.)—–])"),
)
# `default X` ends its clause (`;`, `,`, `)`, the end, or a sentence's full stop): `# Default: true. Set false
# to skip it` gives `true`, while `# default: the first reviewer's name` is prose, a description, not a default.
DEFAULT = r"(?i)(?:^|[;,(—]\s*)default(?::\s*|\s+)([^\s;,)]+?)(?:\.?\s*(?:[;,)]|$)|\.\s)"
ENUM_COMMENT = r"^\s*[A-Za-z0-9_][\w.\-/]*(?:\s*\|\s*[A-Za-z0-9_][\w.\-/]*)+\s*$"  # compiled on first use


def interpret(contracts: Iterable[Contract]) -> tuple[list[Contract], dict[str, ShapeSpec]]:
    """Stage 2: each contract with every data shape carrying its interpreted notation (``DataShape.spec``),
    and those shapes by id in source order; raise every notation problem at once."""
    contracts = list(contracts)
    shapes = [(c, s) for c in contracts for s in c.data_shapes]
    problems: list[Diagnostic] = []
    specs: dict[str, ShapeSpec] = {}
    for contract, shape in shapes:
        reader = _Reader(contract, shape, shapes, problems)
        spec = reader.value(shape.root.value, "$")
        specs[shape.id] = ShapeSpec(
            shape.id,
            shape.key,
            contract.path,
            hashlib.sha256(contract.slice(shape.block)).hexdigest(),
            shape.section,
            shape.root.line,
            shape.root.comment,
            spec,
        )
    if problems:
        raise ContractcError(problems)
    if not specs:
        return contracts, specs
    interpreted = [
        replace(c, shapes=tuple(replace(s, spec=specs[s.id].spec) if isinstance(s, DataShape) else s for s in c.shapes))
        for c in contracts
    ]
    return interpreted, specs


def optional_notes(specs: dict[str, ShapeSpec]) -> list[Diagnostic]:
    """One ``note`` per field made optional, with the comment that did it, for ``build`` to list."""
    return [
        Diagnostic(shape.contract, prop.line, prop.col, "optional-inferred", f'{shape.id} {path} made optional by "# {prop.comment}" (rule: {prop.optional})', severity=Severity.NOTE)
        for shape in specs.values()
        for path, prop in walk_props(shape.spec)
        if prop.optional
    ]


def dangling_notes(specs: dict[str, ShapeSpec]) -> list[Diagnostic]:
    """One ``warning`` per reference-form placeholder (``{ ...full NAME... }``) that names no shape of the
    project: the schema leaves that field an open object, which is right for an object described elsewhere
    and a silent loss when the shape was removed or renamed, so ``build`` says it."""
    return [
        Diagnostic(
            shape.contract,
            spec.line,
            spec.col,
            "dangling-ref",
            f"{shape.id}: {path}: `{spec.written}` names shape {named.group(1)!r}, which the project does "
            "not define: the schema leaves it an open object",
            f"define data shape `{named.group(1)}` or name an existing one; for an object described "
            "elsewhere, drop `full` (`{ ...a plan, described elsewhere... }`) to say so",
            severity=Severity.WARNING,
        )
        for shape in specs.values()
        for path, spec in _walk_specs(shape.spec, "$")
        if spec.kind == "open" and (named := re.fullmatch(FULL_REF, spec.written[2:-2]))
    ]


def _walk_specs(spec: Spec, path: str):
    """``spec`` and every spec under it with its JSON path, depth first, in source order."""
    yield path, spec
    for prop in spec.props:
        yield from _walk_specs(prop.spec, f"{path}.{prop.name}")
    for item in spec.items:
        yield from _walk_specs(item, f"{path}[*]")


def walk_props(spec: Spec, path: str = "$"):
    """Every property under ``spec`` with its JSON path (``$.a[*].b``), depth first, in source order."""
    for prop in spec.props:
        sub = f"{path}.{prop.name}"
        yield sub, prop
        yield from walk_props(prop.spec, sub)
    for item in spec.items:
        yield from walk_props(item, f"{path}[*]")


def transient_paths(shape: ShapeSpec, specs: dict[str, ShapeSpec]) -> set[str]:
    """JSON paths (``$[*].blocked_by``) of every transient field, through ``$ref`` to other shapes too."""
    found: set[str] = set()

    def walk(spec: Spec, path: str, seen: frozenset[str]) -> None:
        if spec.kind == "ref" and spec.ref not in seen:
            walk(specs[spec.ref].spec, path, seen | {spec.ref})
        for prop in spec.props:
            if prop.transient:
                found.add(f"{path}.{prop.name}")
            walk(prop.spec, f"{path}.{prop.name}", seen)
        for item in spec.items:
            walk(item, f"{path}[*]", seen)

    walk(shape.spec, "$", frozenset({shape.id}))
    return found


class _Reader:
    """Reads one shape's nodes; problems are appended, never raised, so all are reported."""

    def __init__(
        self, contract: Contract, shape: DataShape, shapes: list[tuple[Contract, DataShape]], problems: list[Diagnostic]
    ):
        self.contract, self.shape, self.shapes, self.problems = contract, shape, shapes, problems

    def fail(
        self,
        node: Node | Field,
        path: str,
        message: str,
        hint: str = "write the value in the notation",
        code: str = "bad-notation",
    ) -> Spec:
        self.problems.append(
            Diagnostic(self.contract.path, node.line, node.col, code, f"{self.shape.id}: {path}: {message}", hint)
        )
        return Spec("any", node.line, node.col)

    def value(self, node: Node, path: str) -> Spec:
        if node.kind == "map":
            return self.mapping(node, path)
        if node.kind == "seq":
            return self.sequence(node, path)
        if node.kind == "absent":
            return Spec("any", node.line, node.col)
        return self.scalar(node, path)

    def scalar(self, node: Node, path: str) -> Spec:
        text, at = node.text, (node.line, node.col)
        if node.block:
            return Spec("text", *at)
        if node.quoted:
            if text == DATE_PLACEHOLDER:
                return Spec("date", *at)
            if re.match(DATETIME_PLACEHOLDER, text):
                return Spec("datetime", *at)
            return Spec("example", *at, examples=(text,))
        if text == "null":
            return Spec("null", *at)
        if text in ("true", "false"):
            return Spec("boolean", *at, examples=(text == "true",))
        if INTEGER.match(text):
            return Spec("integer", *at, examples=(int(text),))
        if NUMBER.match(text):
            return Spec("number", *at, examples=(float(text),))
        if text == DATE_PLACEHOLDER:
            return Spec("date", *at)
        if ISO_DATE.match(text):
            return Spec("date", *at, examples=(text,))
        if text in TYPE_WORDS:
            return Spec(text, *at)  # type: ignore[arg-type]
        if "|" in text:
            return self.enum(node, path, [part.strip() for part in text.split("|")])
        if text.startswith("...") and text.endswith("..."):
            return self.fail(
                node,
                path,
                f"placeholder `{text}` needs brackets",
                "write `{ " + text + " }` for an object or `[ " + text + " ]` for a list",
            )
        if text.lower() in NOT_TYPE_WORDS or re.match(TYPE_SYNTAX, text):
            return self.fail(
                node,
                path,
                f"`{text}` is not a type of the notation",
                _type_hint(text),
            )
        return Spec("example", *at, examples=(text,))

    def enum(self, node: Node, path: str, values: list[str]) -> Spec:
        bad = [v for v in values if not ENUM_WORD.match(v)]
        if bad:
            return self.fail(
                node, path, f"`{node.text}` is not an enum: {bad[0]!r} is not a plain word", "write `a | b | c`"
            )
        if "null" in values and len(values) > 1:  # `string | null`, `a | b | null`: the rest, or null
            rest = [v for v in values if v != "null"]
            if len(rest) == 1 and rest[0] in TYPE_WORDS:
                return Spec(rest[0], node.line, node.col, nullable=True)  # type: ignore[arg-type]
            if len(rest) == 1:
                return Spec("example", node.line, node.col, examples=(rest[0],), nullable=True)
            spec = self.enum(node, path, rest)
            return replace(spec, nullable=True) if spec.kind == "enum" else spec
        types = [v for v in values if v in TYPE_WORDS or v in ("null", "true", "false")]
        if types:
            return self.fail(
                node,
                path,
                f"`{node.text}` mixes a type ({types[0]}) into an enum",
                "an enum lists values only; `string | null` alone makes a nullable field; for a field that may be absent, mark it `# ← OPTIONAL`",
            )
        if len(set(values)) != len(values):
            return self.fail(node, path, f"`{node.text}` repeats a value", "list each value once")
        return Spec("enum", node.line, node.col, enum=tuple(values))

    def mapping(self, node: Node, path: str) -> Spec:
        if not node.fields:
            return Spec("open", node.line, node.col, written="{}")  # an object, nothing said about its keys
        placeholder = (
            _placeholder([f.name for f in node.fields]) if all(f.value.kind == "absent" for f in node.fields) else None
        )
        if placeholder is not None:
            return self.placeholder(node, path, placeholder)
        props, is_open = [], False
        for f in node.fields:
            if f.value.kind == "absent" and f.name.startswith("..."):
                is_open = True  # `{ id, ... }`: these keys and any others
                continue
            props.append(self.prop(f, f"{path}.{f.name}"))
        return Spec("object", node.line, node.col, props=tuple(props), open=is_open)

    def placeholder(self, node: Node, path: str, text: str) -> Spec:
        names = set(re.findall(SHAPE_NAME, text))
        targets = sorted({t for name in names for t in self.resolve(name)})
        written = "{ " + text + " }"
        if len(targets) > 1:
            return self.fail(
                node,
                path,
                f"`{written}` names several shapes: {', '.join(targets)}",
                "name one shape by its id",
                "ambiguous-ref",
            )
        if targets:
            return Spec("ref", node.line, node.col, ref=targets[0], written=written)
        return Spec("open", node.line, node.col, written=written)

    def resolve(self, name: str) -> list[str]:
        """The shape ids ``name`` can mean: an exact id, or a key (preferring this shape's own section)."""
        if any(s.id == name for _, s in self.shapes):
            return [name]
        same_key = [(c, s) for c, s in self.shapes if s.key == name]
        local = [s.id for c, s in same_key if c.path == self.contract.path and s.section == self.shape.section]
        if local:
            return local
        return [s.id for _, s in same_key]

    def sequence(self, node: Node, path: str) -> Spec:
        at = (node.line, node.col)
        if not node.items:
            return Spec("array", *at, written="[]")
        if all(i.kind == "scalar" and not i.quoted for i in node.items):
            text = _placeholder([i.text for i in node.items])
            if text is not None:
                return Spec("array", *at, written="[ " + text + " ]")
        items = [i for i in node.items if not (i.kind == "scalar" and not i.quoted and i.text == "...")]
        specs = [self.value(item, f"{path}[{n}]") for n, item in enumerate(items)]
        kinds = {
            "object" if s.kind in ("object", "ref", "open") else "array" if s.kind == "array" else "scalar"
            for s in specs
        }
        if len(kinds) > 1:
            return self.fail(
                node, path, "a list mixes " + " and ".join(sorted(kinds)) + " items", "give every item the same form"
            )
        if kinds == {"scalar"}:
            return Spec("array", *at, items=(self.merge_scalars(node, path, specs),))
        return Spec("array", *at, items=tuple(specs))

    def merge_scalars(self, node: Node, path: str, specs: list[Spec]) -> Spec:
        first = specs[0]
        if all(s.kind == first.kind for s in specs) and first.kind != "enum":
            return replace(first, examples=tuple(dict.fromkeys(e for s in specs for e in s.examples)))
        stringy = {"string", "example", "enum", "date", "datetime", "text"}
        if all(s.kind in stringy for s in specs):
            return Spec("string", first.line, first.col)
        if all(s.kind in ("integer", "number") for s in specs):
            return Spec("number", first.line, first.col, examples=tuple(e for s in specs for e in s.examples))
        return self.fail(
            node,
            path,
            "a list mixes " + ", ".join(sorted({s.kind for s in specs})) + " items",
            "give every item the same type",
        )

    def prop(self, f: Field, path: str) -> Prop:
        spec = self.value(f.value, path)
        comment = f.comment
        rest = re.sub(MARKERS, "", comment).strip()
        if spec.kind == "example" and re.match(ENUM_COMMENT, rest):
            values = tuple(v.strip() for v in rest.split("|"))
            if spec.examples[0] not in values:
                self.fail(
                    f,
                    path,
                    f"example {spec.examples[0]!r} is not one of the values its comment lists ({rest})",
                    "make the example one of those values, or correct the list in the comment",
                )
            else:
                spec = replace(spec, kind="enum", enum=values)
        optional = ""
        explicit = re.search(OPTIONAL_MARK, comment)
        required = re.search(REQUIRED_MARK, comment)
        if explicit and required:
            self.fail(f, path, "both ← OPTIONAL and ← REQUIRED", "keep one marker")
        elif explicit:
            optional = "explicit marker ← OPTIONAL"
        elif not required:
            optional = next((name for name, rule in OPTIONAL_PHRASES if re.search(rule, rest)), "")
        if re.search(NULLABLE_MARK, comment):
            spec = replace(spec, nullable=True)
        default, has_default = None, False
        found = re.search(DEFAULT, rest)
        if found:
            # a default that opens a sentence of prose (`Default: on. Set ...`) and does not fit is a description
            prose = found.group(0).endswith((" ", "\t"))
            default, has_default = self.default(f, path, spec, found.group(1), quiet=prose)
        transient = bool(re.search(TRANSIENT, comment))
        return Prop(f.name, spec, comment, optional, transient, default, has_default, f.line, f.col)

    def default(self, f: Field, path: str, spec: Spec, text: str, quiet: bool = False) -> tuple[Any, bool]:
        """The default ``text`` converted to the field's type; one that does not fit is ``bad-default``, or
        (``quiet``: the comment goes on as prose) no default at all, the comment only a description."""
        value: Any = text
        if spec.kind == "enum" and text not in spec.enum:
            if quiet:
                return None, False
            self.fail(
                f, path, f"default {text!r} is not one of {' | '.join(spec.enum)}", "make the default one of the values", "bad-default"
            )
            return None, False
        if spec.kind == "integer" and INTEGER.match(text):
            value = int(text)
        elif spec.kind == "number" and NUMBER.match(text):
            value = float(text)
        elif spec.kind == "boolean" and text in ("true", "false"):
            value = text == "true"
        elif spec.kind == "null" and text == "null":
            value = None
        elif spec.kind not in ("string", "example", "enum", "text"):
            if quiet:
                return None, False
            self.fail(
                f, path, f"default {text!r} does not fit a {spec.kind} field", f"write a default of the {spec.kind} type", "bad-default"
            )
            return None, False
        return value, True


_TYPE_HINTS = (
    (r"(?i)^(str|text)$", "write `string`"),
    (r"(?i)^(int|long)$", "write `integer`"),
    (r"(?i)^(float|double)$", "write `number`"),
    (r"(?i)^bool$", "write `boolean`"),
    (r"(?i)date|time", 'write `"YYYY-MM-DD"` for a date or `"YYYY-MM-DDThh:mm:ssZ"` for a date-time'),
    (r"(?i)list|array|\[", "write `[ string ]` for a list of strings, or `[]` for any list"),
    (r"(?i)^(object|dict|map)$", "write a nested mapping, `{ a, b }`, or `{ ...what it holds... }`"),
)
"""A mistyped type word's fix; the patterns are compiled on first use: only a contract with the mistake needs them."""


def _type_hint(text: str) -> str:
    for pattern, hint in _TYPE_HINTS:
        if re.search(pattern, text):
            return hint
    return 'write `string`, `integer`, `number`, `boolean`, `"YYYY-MM-DD"`, or quote an example value'


def _placeholder(parts: list[str]) -> str | None:
    """``...x...`` text split by YAML at commas (``[ ...a, b... ]``), joined back; None when not a placeholder."""
    text = ", ".join(p.strip() for p in parts)
    if parts and text.startswith("...") and text.endswith("..."):
        return text
    return None
