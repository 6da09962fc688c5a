"""The YAML loader on libyaml events reads every text as ruamel.yaml round-trip read it before.

ruamel.yaml is the oracle (``ruamel_oracle``: the loader as it was): over
generated data-shape-like YAML and over every fenced block of the seed
contracts and of this repository's own documents, the new loader must give
the same values, node kinds, positions, comments and quotes -- or the same
located error.  And a successful ``check`` never imports ruamel.yaml.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruamel_oracle as oracle
from contractc.report.diagnostics import ContractcError
from contractc.load import yaml_safe
from contractc.load.yaml_block import to_node

REPO = Path(__file__).resolve().parents[1]


def read(loader, text: str, merge_keys: bool):
    """What a user sees of one loader: the plain value, or the located diagnostic."""
    try:
        return "ok", loader.load_yaml(text, "c.md", "yaml-syntax", first_line=7, col_offset=2, merge_keys=merge_keys)
    except ContractcError as exc:
        return "error", exc.diagnostics


def old_positions(doc, path="$", out=None) -> dict:
    out = {} if out is None else out
    if isinstance(doc, dict):
        for key, sub in doc.items():
            out[f"{path}.{key}"] = doc.lc.key(key)
            old_positions(sub, f"{path}.{key}", out)
    elif isinstance(doc, list):
        for i, sub in enumerate(doc):
            out[f"{path}[{i}]"] = doc.lc.item(i)
            old_positions(sub, f"{path}[{i}]", out)
    return out


def new_positions(doc, path="$", out=None) -> dict:
    out = {} if out is None else out
    if doc is not None and doc.kind == "map":
        for entry in doc.value:
            out[f"{path}.{entry.name}"] = (entry.key.line, entry.key.col)
            new_positions(entry.value, f"{path}.{entry.name}", out)
    elif doc is not None and doc.kind == "seq":
        for i, sub in enumerate(doc.value):
            out[f"{path}[{i}]"] = (sub.line, sub.col)
            new_positions(sub, f"{path}[{i}]", out)
    return out


def assert_read_alike(text: str, merge_keys: bool = False) -> None:
    new_kind, new = read(yaml_safe, text, merge_keys)
    try:
        old_kind, old = read(oracle, text, merge_keys)
    except Exception:  # noqa: BLE001  ruamel.yaml failed with a traceback: now a located error at worst
        assert new_kind == "ok" or new[0].line >= 7, text
        return
    assert (new_kind, new if new_kind == "error" else None) == (old_kind, old if old_kind == "error" else None), text
    if new_kind == "error":
        return
    assert repr(yaml_safe.plain(new)) == repr(oracle.plain(old)), text  # repr: 1 and 1.0 and True differ
    assert new_positions(new) == old_positions(old), text
    if isinstance(old, dict) and old:  # what a data shape is made of: kinds, text, quotes, comments, file positions
        assert to_node(new, text, 7, 2).fields == oracle.to_node(old, text, 7, 2).fields, text


# ------------------------------------------------------------------------------------ generated YAML

KEYS = st.sampled_from(["name", "summary", "status", "items", "max_len", "créé", "ключ", "日本語", "x1", "on", "2024", "null_ok", "a b"])
PLAIN = st.sampled_from(
    [
        "text", "string", "string | null", "<id>", "one of a, b", "42", "-7", "+3", "007", "3.5", "1.50", "1e3", ".5", "0x1F",
        "0o17", "1_000", "true", "False", "TRUE", "yes", "no", "null", "~", "2025-02-30", "2024-01-01T10:00:00Z", ".inf",
        "-.Inf", ".NaN", "nan", "inf", "é café", "naïve — dash", "emoji 🙂 here", "https://x.example/a#b", "a: b", "1.2.3",
    ]
)  # fmt: skip
FLOW_PLAIN = st.sampled_from(["text", "42", "3.5", "true", "null", "é", "x-y", "2024-01-01", "0x1F", "~"])
QUOTED = st.sampled_from(['"8"', '"true"', "'null'", '"YYYY-MM-DD"', "'it''s'", '"a \\"q\\" b"', '"\\u00e9t\\u00e9"', '"🙂"', "''", '""', "'# not a comment'"])
COMMENTS = st.sampled_from(["# optional", "# <- TRANSIENT", "# ← TRANSIENT", "#tight", "# two  spaces", "# é ünïcode", "#"])


@st.composite
def documents(draw, depth=0):
    lines: list[str] = []
    anchors: list[str] = []
    draw(block_map(lines, anchors, 0, depth))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", "\n# trailing\n"]))


@st.composite
def block_map(draw, lines, anchors, indent, depth):
    pad = " " * indent
    for key in draw(st.lists(KEYS, min_size=1, max_size=4, unique=True)):
        kinds = ["plain", "quoted", "block", "null", "flowseq", "flowmap"] + (["map", "seq"] if depth < 3 else []) + (["alias"] if any(anchors) else [])
        kind = draw(st.sampled_from(kinds))
        anchor = ""
        if kind not in ("alias", "null") and draw(st.integers(0, 5)) == 0:
            anchor = f"&a{len(anchors)} "
            anchors.append("")  # named once its value is written: an alias inside it would be recursive
        named = len(anchors) - 1
        comment = ("  " + draw(COMMENTS)) if draw(st.booleans()) else ""
        head = f"{pad}{key}:"
        if kind == "plain":
            lines.append(f"{head} {anchor}{draw(PLAIN)}{comment}")
        elif kind == "quoted":
            lines.append(f"{head} {anchor}{draw(QUOTED)}{comment}")
        elif kind == "null":
            lines.append(f"{head}{comment}")
        elif kind == "alias":
            lines.append(f"{head} *{draw(st.sampled_from([a for a in anchors if a]))}")
        elif kind == "block":
            lines.append(f"{head} {anchor}{draw(st.sampled_from(['|', '>', '|-', '>+']))}{comment}")
            lines.extend(f"{pad}  {line}" for line in draw(st.lists(st.sampled_from(["first line", "  kept indent", "é — ünïcode", "# not a comment"]), min_size=1, max_size=3)))
        elif kind == "flowseq":
            items = draw(st.lists(st.one_of(FLOW_PLAIN, QUOTED), max_size=4))
            lines.append(f"{head} {anchor}[{', '.join(items)}]{comment}")
        elif kind == "flowmap":
            names = draw(st.lists(st.sampled_from(["name", "summary", "id", "é"]), min_size=1, max_size=3, unique=True))
            parts = [n if draw(st.booleans()) else f"{n}: {draw(FLOW_PLAIN)}" for n in names]
            lines.append(f"{head} {anchor}{{ {', '.join(parts)} }}{comment}")
        elif kind == "map":
            lines.append(f"{head}{(' ' + anchor.strip()) if anchor else ''}{comment}")
            draw(block_map(lines, anchors, indent + 2, depth + 1))
        else:  # seq
            lines.append(f"{head}{(' ' + anchor.strip()) if anchor else ''}{comment}")
            for _ in range(draw(st.integers(1, 3))):
                if depth < 2 and draw(st.booleans()):
                    sub: list[str] = []
                    draw(block_map(sub, anchors, indent + 4, depth + 1))
                    lines.append(f"{pad}  - {sub[0].lstrip()}")
                    lines.extend(sub[1:])
                else:
                    lines.append(f"{pad}  - {draw(st.one_of(PLAIN, QUOTED))}")
        if anchor:
            anchors[named] = anchor[1:].strip()
        follow = draw(st.integers(0, 6))
        if follow == 0:  # a continuation comment line indented past the key: part of its comment
            lines.append(f"{pad}      {draw(COMMENTS)}")
        elif follow == 1:  # a comment line at the key's own indent: not part of it
            lines.append(f"{pad}{draw(COMMENTS)}")
        elif follow == 2:
            lines.append("")
    return lines


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_generated_data_shapes_read_as_ruamel_read_them(text):
    assert_read_alike(text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from(["\t", "key: [unclosed\n", "- a\nb: c\n", "k: v\nk: w\n", "x: *nowhere\n", "--- a\n--- b\n", "a: b: c\n"]))
def test_broken_yaml_gets_the_same_located_error(text, damage):
    lines = text.split("\n")
    at = len(lines) // 2
    assert_read_alike("\n".join([*lines[:at], damage, *lines[at:]]))


JUNK = st.lists(
    st.sampled_from(list("ab01 :-[]{},&*!<|>#'\"\n\t?%@.") + ["!!python/object/apply:os.system", "<<", "&a", "*a", "!!str", "\n  ", "é", "---\n"]), max_size=60
).map("".join)


@settings(max_examples=400, deadline=None)
@given(JUNK, st.booleans())
def test_any_text_gets_the_value_or_the_located_error_ruamel_gave(text, merge_keys):
    assert_read_alike(text, merge_keys)


def test_merge_keys_bring_their_keys_after_the_mappings_own():
    text = "base: &b\n  x: 1\n  y: 2\nother: &o {z: 3, x: 9}\nd:\n  <<: [*b, *o]\n  y: 5\n  w: 6\n"
    doc = yaml_safe.load_yaml(text, "contractc.yaml", "config-syntax")
    assert yaml_safe.plain(doc)["d"] == {"y": 5, "w": 6, "x": 1, "z": 3}
    assert yaml_safe.plain(doc) == oracle.plain(oracle.load_yaml(text, "contractc.yaml", "config-syntax"))
    assert [(e.name, e.key.line) for e in yaml_safe.entry(doc, "d").value.value] == [("y", 6), ("w", 7), ("x", 1), ("z", 3)]


# --------------------------------------------------------------------------------- real blocks

FENCE = re.compile(r"^ *(```+|~~~+)[^\n]*\n(.*?)^ *\1", re.S | re.M)


def fenced_blocks(paths) -> list[tuple[str, str]]:
    return [(str(p), m.group(2)) for p in paths for m in FENCE.finditer(p.read_text("utf-8"))]


def test_every_fenced_block_of_the_seeds_reads_alike(seeds):
    blocks = fenced_blocks(sorted(seeds.iterdir()))
    assert blocks
    for _, text in blocks:
        assert_read_alike(text)


def test_every_yaml_text_of_this_repository_reads_alike():
    blocks = fenced_blocks([*(REPO / "docs").rglob("*.md"), *(REPO / "contracts").rglob("*.md"), *(REPO / "examples").rglob("*.md")])
    configs = [*REPO.glob("*.y*ml"), *(REPO / "examples").rglob("*.yaml"), *(REPO / "tests").rglob("*.yaml")]
    assert len(blocks) > 50 and configs
    for _, text in blocks:
        assert_read_alike(text)
    for path in configs:
        assert_read_alike(path.read_text("utf-8"), merge_keys=True)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\u2028b: 2\n",  # a line break to YAML 1.1 (libyaml), a character to YAML 1.2
        "%YAML 1.2\n---\nk: yes\n",
        "k: [1, 2\n",
        "k:\n\t- x\n",
        "a: &x {q: 1}\nb: *x\n",
        "? complex\n: key\n",
    ],
)
def test_texts_libyaml_and_ruamel_read_differently_are_read_as_ruamel_read_them(text):
    assert_read_alike(text)


def test_a_yaml_1_1_document_is_refused_where_its_directive_is_not_read_otherwise():
    with pytest.raises(ContractcError) as caught:
        yaml_safe.load_yaml("# old\n%YAML 1.1\n---\nk: yes\n", "contractc.yaml", "config-syntax")
    (found,) = caught.value.diagnostics
    assert (found.line, found.code) == (3, "config-syntax")  # the document it governs
    assert found.message == "YAML: %YAML 1.1 is not read here, only YAML 1.2: remove the directive"


LIMITS = [
    ("aliases", "a: &a x\nb: [" + ", ".join(["*a"] * 101) + "]\n", "more than 100 aliases in one document", (2, 5 + 4 * 100)),
    ("expanded values", "a: &a [" + ", ".join(["x"] * 400) + "]\nb: &b [" + ", ".join(["*a"] * 60) + "]\nc: [" + ", ".join(["*b"] * 8) + "]\n",
     "more than 100,000 values once its aliases are expanded", (3, 4)),
    ("depth", "x: " + "[" * 70 + "]" * 70 + "\n", "nested more than 64 levels deep", (1, 68)),  # the 65th `[`
    ("integer digits", "n: " + "9" * 101 + "\n", "integer of 101 digits: at most 100 are read", (1, 4)),
    ("application tag", "x: !!python/object/apply:os.system [id]\n", "tag !!python/object/apply:os.system is not allowed (only plain YAML data is read)", (1, 4)),
    ("merge key", "a: &b {x: 1}\nc:\n  <<: *b\n", "a merge key (<<) has no meaning here; write the keys out", (3, 3)),
]  # fmt: skip


@pytest.mark.parametrize(("text", "problem", "where"), [case[1:] for case in LIMITS], ids=[case[0] for case in LIMITS])
def test_each_limit_is_a_located_error_in_the_words_it_always_had(text, problem, where):
    with pytest.raises(ContractcError) as caught:
        yaml_safe.load_yaml(text, "c.md", "yaml-syntax", first_line=1, merge_keys=False)
    (found,) = caught.value.diagnostics
    assert (found.message, (found.line, found.col)) == (f"YAML: {problem}", where)
    assert_read_alike(text)
