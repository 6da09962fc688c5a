"""The configuration is read without jsonschema, so the plain reading must accept exactly what the schema accepts.

A configuration the schema rejects must never load (it would be used with
keys nobody validated), and one it accepts must never be refused.  Documents
are generated near the schema's edges: every key, right and wrong types,
patterns that just match and just miss, duplicates, unknown keys.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from conftest import write_tree
from contractc.load.config_schema import conforms

SCHEMA = json.loads(resources.files("contractc.data").joinpath("config.schema.json").read_text("utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

GOOD_TEXT = st.sampled_from(["a", "b", "docs/*.md", "contracts/x.md", "ok\n", "é", "-x"])
BAD = st.one_of(
    st.sampled_from(["", 0, 1, -1, 2.5, 1.0, True, False, None, [], {}, ["a"], {"a": "b"}, "0" * 63, "/a", "a b"]),
)


def unique_texts():
    return st.lists(GOOD_TEXT, max_size=3, unique=True)


SHA = st.sampled_from(["0" * 64, "a" * 64, "0123456789abcdef" * 4])
CONTRACT = st.fixed_dictionaries({"path": GOOD_TEXT}, optional={"shared": unique_texts(), "sha256": SHA})
SITE = st.fixed_dictionaries(
    {},
    optional={
        "prefix": st.sampled_from(["", "contracts", "a/b", "a.b/c-d", "x\n"]),
        "templates": GOOD_TEXT,
        "directory_urls": st.booleans(),
    },
)
ALLOW = st.fixed_dictionaries({"path": GOOD_TEXT}, optional={"shape": GOOD_TEXT, "line": st.sampled_from([1, 7, 1.0]), "sha256": SHA})
UNRESOLVED = st.fixed_dictionaries(
    {"path": GOOD_TEXT, "line": st.sampled_from([1, 12, 1.0]), "shape": GOOD_TEXT}, optional={"why": st.sampled_from(["", "drifted copy (lacks x)"])}
)
AGENT_NAMES = st.sampled_from(["echoer", "a.b-c_d", "9lives", "x"])
VALID = st.fixed_dictionaries(
    {"contracts": st.lists(CONTRACT, min_size=1, max_size=2)},
    optional={
        "site_url": st.sampled_from(["https://x.dev/", "http://x", "http://"]),
        "site": SITE,
        "targets": unique_texts(),
        "docs_url": st.sampled_from(["https://contractc.dev/drift-codes/", "http://x"]),
        "agents": st.dictionaries(AGENT_NAMES, GOOD_TEXT, max_size=2),
        "budgets": st.fixed_dictionaries(
            {}, optional={"agents": st.dictionaries(AGENT_NAMES, st.sampled_from([1, 900, 2.0]), max_size=2), "shapes": st.dictionaries(GOOD_TEXT, st.sampled_from([1, 40]), max_size=2)}
        ),
        "allow_restatements": st.lists(ALLOW, max_size=2),
        "unresolved": st.lists(UNRESOLVED, max_size=2),
        "out": st.fixed_dictionaries({}, optional={"prompts": GOOD_TEXT, "schemas": GOOD_TEXT, "site": GOOD_TEXT}),
    },
)
WRONG_VALUES = {
    "bad value": BAD,
    "bad pattern": st.sampled_from(["ftp://x", "https:/x", "/a", "a/", "a//b", "A" * 64, "0" * 64 + "x", "-bad", "g" * 64]),
    "duplicate": st.just(["a", "a"]),
    "zero or less": st.sampled_from([0, -1, 0.0, 2.5, True]),
}


@st.composite
def near_misses(draw):
    """A valid document with one thing wrong somewhere in it: a value, a key, or a required key gone."""
    doc = draw(VALID)
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, sub in node.items():
                paths.append((path, key))
                walk(sub, path + [key])
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                paths.append((path, i))
                walk(sub, path + [i])

    walk(doc, [])
    if not paths or draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(BAD, st.just({}), st.just({"contracts": []})))
    parent_path, key = draw(st.sampled_from(paths))
    parent = doc
    for step in parent_path:
        parent = parent[step]
    how = draw(st.sampled_from(["value", "unknown key", "drop", "agent name"]))
    if how == "value":
        parent[key] = draw(st.one_of(*WRONG_VALUES.values()))
    elif how == "unknown key" and isinstance(parent, dict):
        parent["unknown"] = 1
    elif how == "drop" and isinstance(parent, dict):
        del parent[key]
    elif how == "agent name" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["-bad", "", "with space", "ok\n"]))] = "a.md"
    return doc


@settings(max_examples=500, deadline=None)
@given(st.one_of(VALID, near_misses()))
def test_the_plain_reading_accepts_exactly_what_the_schema_accepts(document):
    assert conforms(document) == VALIDATOR.is_valid(document), list(VALIDATOR.iter_errors(document))[:1]


@pytest.mark.parametrize(
    "document",
    [
        {"contracts": [{"path": "c.md"}]},
        {
            "site_url": "https://x.dev/",
            "site": {"prefix": "a/b", "templates": "t", "directory_urls": False},
            "contracts": [{"path": "c.md", "shared": ["a", "b"], "sha256": "0" * 64}],
            "targets": ["docs/*.md"],
            "agents": {"echoer": "agents/echoer.md"},
            "allow_restatements": [{"path": "docs/*.md", "shape": "s", "line": 3}],
            "unresolved": [{"path": "docs/a.md", "line": 6, "shape": "front-matter", "why": "drifted copy (lacks used)"}],
            "out": {"prompts": "p", "schemas": "s", "site": "docs"},
        },
    ],
)
def test_valid_configurations_conform(document):
    assert VALIDATOR.is_valid(document) and conforms(document)


def test_a_rejected_configuration_is_still_explained_in_the_schemas_words(tmp_path, run_cli):
    write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: c.md\n    shared: [a, a]\n"})
    result = run_cli("check", "--root", str(tmp_path), "--no-cache")
    assert result.code == 2
    assert result.err.splitlines()[0] == (
        "contractc.yaml:3:5: error[config-invalid]: $.contracts[0].shared: ['a', 'a'] has non-unique elements"
    )
