"""count_newlines, the scanners' line counter, counts what the newline regex matches."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from contractc.load.source import count_newlines

NEWLINE = re.compile(rb"\r\n?|\n")


@given(st.binary(max_size=40).map(lambda b: b.replace(b"\x00", b"\r").replace(b"\x01", b"\n")), st.data())
def test_count_newlines_counts_crlf_cr_and_lf_as_the_regex_does(data, draw):
    start = draw.draw(st.integers(0, len(data)))
    end = draw.draw(st.integers(start, len(data)))
    assert count_newlines(data, start, end) == len(NEWLINE.findall(data, start, end))
    assert count_newlines(data) == len(NEWLINE.findall(data))
