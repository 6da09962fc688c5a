"""Every JSON file contractc writes (manifests, schemas, the site's anchors.json) has the bytes of
``json.dumps(value, indent=2, ensure_ascii=False) + "\\n"``, whichever way ``dump_json`` lays them out."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from contractc.files import dump_json

_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # nan and infinities too: json writes NaN / Infinity
    | st.text()  # quotes, backslashes, control characters, non-ASCII
)
_values = st.recursive(
    _leaves,
    lambda inner: st.lists(inner, max_size=4)
    | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    | st.dictionaries(st.integers() | st.booleans() | st.none(), inner, max_size=3),  # keys json converts
    max_leaves=25,
)
_keys = st.text(max_size=6) | st.integers() | st.booleans() | st.none()
_records = st.lists(st.dictionaries(_keys, _leaves, min_size=1, max_size=4), max_size=4)  # anchors.json's shape


def _json_module(value) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


@settings(max_examples=400, deadline=None)
@given(_values | _records | st.dictionaries(st.text(max_size=6), _records, max_size=3))
def test_dump_json_writes_the_bytes_of_json_dumps_with_indent_2(value):
    assert dump_json(value) == _json_module(value)


def test_an_anchors_file_of_thousands_of_entries_is_byte_identical_to_json_dumps():
    anchors = [
        {
            "anchor": f"return{i}x{j}-check-{k}",
            "kind": "check",
            "page": f"contracts/shapes/return{i}x{j}/",
            "url": f"https://example.invalid/contracts/shapes/return{i}x{j}/#return{i}x{j}-check-{k}",
            "source": f"contracts/c{i:03d}.md:{10 + j * 14 + k}",
        }
        for i in range(20)
        for j in range(9)
        for k in range(1, 4)
    ]
    value = {"generator": "contractc", "site_url": "https://example.invalid/ \"quoted\" é", "anchors": anchors, "empty": [[], {}]}
    assert dump_json(value) == _json_module(value)
