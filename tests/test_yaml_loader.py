"""The one YAML reader (ruamel.yaml round-trip, bounded): YAML 1.2's values, ruamel's comments, located errors.

What the notation reads of a data shape -- kinds, text, quotes, the comments that
become field descriptions, file positions -- and what a hostile text gets: one
located error in the words it always had, never a traceback.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contractc.report.diagnostics import ContractcError
from contractc.load import yaml_safe
from contractc.load.yaml_block import to_node


def test_a_data_shape_keeps_its_comments_quotes_block_scalars_and_file_positions():
    text = (
        "shape:\n"
        "  topic: string  # optional\n"
        "      # continued below, past the key\n"
        "  # at the key's own indent: not part of it\n"
        "  n: 8  # <- TRANSIENT\n"
        "  b: |\n"
        "    text\n"
        "  q: \"8\"\n"
        "  e: { name, summary: null }\n"
    )
    (shape,) = to_node(yaml_safe.load_yaml(text, "c.md", "yaml-syntax", merge_keys=False), text, 10, 2).fields
    fields = {f.name: f for f in shape.value.fields}
    assert (fields["topic"].comment, fields["n"].comment, fields["b"].comment) == ("optional continued below, past the key", "<- TRANSIENT", "")
    assert (fields["topic"].line, fields["topic"].col) == (11, 5)  # file line and column of the key
    assert (fields["n"].value.text, fields["n"].value.quoted) == ("8", False)
    assert (fields["q"].value.text, fields["q"].value.quoted) == ("8", True)
    assert (fields["b"].value.text, fields["b"].value.block) == ("text\n", True)
    assert [(f.name, f.value.kind) for f in fields["e"].value.fields] == [("name", "absent"), ("summary", "scalar")]


def test_plain_scalars_are_read_by_yaml_1_2s_core_schema_and_a_date_stays_text():
    text = "k: yes\nd: 2025-02-30\nn: 0o17\nh: 0x1F\nu: 1_000\nq: \"8\"\nf: 1.50\nb: &b true\nc: *b\nz: ~\n"
    assert repr(yaml_safe.plain(yaml_safe.load_yaml(text, "c.md", "yaml-syntax"))) == repr(
        {"k": "yes", "d": "2025-02-30", "n": 15, "h": 31, "u": 1000, "q": "8", "f": 1.5, "b": True, "c": True, "z": None}
    )


def test_merge_keys_bring_their_keys_after_the_mappings_own():
    text = "base: &b\n  x: 1\n  y: 2\nother: &o {z: 3, x: 9}\nd:\n  <<: [*b, *o]\n  y: 5\n  w: 6\n"
    doc = yaml_safe.load_yaml(text, "contractc.yaml", "config-syntax")
    assert yaml_safe.plain(doc)["d"] == {"y": 5, "w": 6, "x": 1, "z": 3}
    where = yaml_safe.positions(doc)  # a merged key is where its own mapping has it
    assert [(k, where[f"$.d.{k}"][0]) for k in ("y", "w", "x", "z")] == [("y", 7), ("w", 8), ("x", 2), ("z", 4)]
    assert yaml_safe.locate(doc, ["d", "z"]) == (4, 12)


@pytest.mark.parametrize(
    ("text", "problem", "where"),
    [
        ("k: [1, 2\n", "expected ',' or ']', but got '<stream end>'", (8, 3)),
        ("k:\n\t- x\n", "found character '\\t' that cannot start any token", (8, 3)),
        ("{[x]: 1}\n", "a mapping or sequence as a key", (7, 4)),
        ("x: !!int\n", "not an integer: ''", (7, 6)),
        ("k: v\nk: w\n", 'found duplicate key "k" with value "w" (original value: "v")', (8, 3)),
    ],
)
def test_a_text_the_reader_refuses_is_one_located_error(text, problem, where):
    with pytest.raises(ContractcError) as caught:
        yaml_safe.load_yaml(text, "c.md", "yaml-syntax", first_line=7, col_offset=2)
    (found,) = caught.value.diagnostics
    assert (found.message, (found.line, found.col)) == (f"YAML: {problem}", where)


JUNK = st.lists(
    st.sampled_from(list("ab01 :-[]{},&*!<|>#'\"\n\t?%@.") + ["!!python/object/apply:os.system", "<<", "&a", "*a", "!!str", "\n  ", "é", "---\n"]), max_size=60
).map("".join)


@settings(max_examples=400, deadline=None)
@given(JUNK, st.booleans())
def test_any_text_gets_a_value_or_one_located_error(text, merge_keys):
    try:
        yaml_safe.load_yaml(text, "c.md", "yaml-syntax", first_line=7, col_offset=2, merge_keys=merge_keys)
    except ContractcError as exc:
        (found,) = exc.diagnostics
        assert found.line >= 7 and found.col >= 3 and found.code == "yaml-syntax", text


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


MKDOCS_WITH_TAGS = """\
site_name: Plugin
site_url: https://docs.example.org/plugin
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
extra:
  analytics: !ENV [ANALYTICS, none]
docs_dir: pages
"""


def test_mkdocs_yml_is_read_through_its_python_name_and_env_tags(tmp_path):
    """mkdocs.yml goes through the one reader too: an application tag mkdocs resolves when it builds is left
    unread on its value (not refused, never constructed), so site_url and docs_dir are still found."""
    from contractc.load.mkdocs import read_mkdocs

    (tmp_path / "mkdocs.yml").write_text(MKDOCS_WITH_TAGS, "utf-8")
    found = read_mkdocs(tmp_path)
    assert found is not None
    assert (found.site_url, found.site_url_line) == ("https://docs.example.org/plugin/", 2)
    assert (found.docs_dir, found.docs_dir_line, found.docs_dir_exists) == ("pages", 13, False)
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_WITH_TAGS + "nav: [unclosed\n", "utf-8")
    assert read_mkdocs(tmp_path) is None  # a file that does not parse is mkdocs' to report


def test_a_worked_example_is_told_from_its_nodes_tags_kept_and_an_alias_refused():
    from contractc.load.worked import yaml_example_reason

    assert yaml_example_reason("release:\n  version: 2.4.0\n  owner: Ada\n", "", False)
    assert yaml_example_reason("release:\n  version: !semver 2.4.0\n  owner: Ada\n", "", False)
    assert not yaml_example_reason("release:\n  version: string\n  owner: <name>\n", "", False)
    assert not yaml_example_reason("a: &x Ada\nb: *x\n", "", False)  # an alias: not read as an example
    assert not yaml_example_reason("a: [unclosed\n", "", False)
