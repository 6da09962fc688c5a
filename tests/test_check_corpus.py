"""A corpus of eight contracts in the styles real plugins use for their returns (tests/corpus/), each with
passing and failing returns: every check is read from its prose, held by an explicit rule, or listed as
not run, and every return gets the verdict its checks call for.  docs/receiver-checks.md reports the counts."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import REPO

CORPUS = REPO / "tests" / "corpus"
VERDICTS = yaml.safe_load((CORPUS / "verdicts.yaml").read_text("utf-8"))
RETURNS = [(name, file) for name, spec in VERDICTS.items() for file in spec["returns"]]


def _shape(name: str):
    from contractc import Receiver

    receiver = Receiver.load(CORPUS / name)
    (shape,) = [s for c in receiver.project.contracts for s in c.text_shapes]
    return receiver, shape


def _how(check) -> str:
    return "explicit" if check.explicit else "prose" if check.mechanised else "none"


def test_the_corpus_holds_at_least_eight_contracts_each_with_passing_and_failing_returns():
    assert len(VERDICTS) >= 8
    assert {p.name for p in CORPUS.iterdir() if p.is_dir()} == set(VERDICTS)
    for name, spec in VERDICTS.items():
        on_disk = {p.name for p in (CORPUS / name / "returns").iterdir()}
        assert on_disk == set(spec["returns"]), name
        verdicts = list(spec["returns"].values())
        assert [] in verdicts and any(verdicts), name


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_each_check_is_read_from_prose_held_by_an_explicit_rule_or_listed_as_not_run(name):
    _, shape = _shape(name)
    assert [_how(c) for c in shape.checks] == VERDICTS[name]["checks"]
    for check in shape.checks:
        assert check.mechanised is (check.rules is not None) and bool(check.unread) is (not check.mechanised)


@pytest.mark.parametrize(("name", "file"), RETURNS)
def test_each_return_gets_the_verdict_its_checks_call_for(name, file):
    receiver, shape = _shape(name)
    verdict = receiver.validate(shape, (CORPUS / name / "returns" / file).read_text("utf-8"))
    assert list(verdict.failed) == VERDICTS[name]["returns"][file]
    assert verdict.unmechanised == tuple(c.number for c in shape.checks if not c.mechanised)  # listed, never passed


def test_the_counts_docs_receiver_checks_reports_are_the_corpus_counts():
    counts = Counter(how for spec in VERDICTS.values() for how in spec["checks"])
    page = (REPO / "docs/receiver-checks.md").read_text("utf-8")
    said = re.search(
        r"Of the (\d+) checks of its (\d+) contracts, (\d+) are read from their prose, (\d+) need an explicit rule,"
        r" and (\d+) the vocabulary cannot express",
        " ".join(page.split()),
    )
    assert said, "docs/receiver-checks.md reports the corpus counts"
    assert tuple(map(int, said.groups())) == (
        sum(counts.values()), len(VERDICTS), counts["prose"], counts["explicit"], counts["none"]
    )
