"""Never partial, never inverted: every recognised check, mutated, compiles to the right rule or is refused.

Each check of the seed contract and of this repository's own contracts is taken
as written and changed three ways: a clause no phrasing reads is added, it is
negated, and an exception is attached.  None of these may compile to the rules
of the original (that would be a weaker rule: the added words unenforced); each
is refused and quotes the words it did not read.  A clause a phrasing does read
is added to the rules, and a return violating only that clause fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, SEEDS, write_tree
from test_seed_conformance import CONFIG

RETURNS = REPO / "tests" / "returns"
SOURCES = {
    "return-shapes": (lambda: SEEDS / "return-shapes.md", CONFIG),
    "review-returns": (lambda: REPO / "contracts" / "review-returns.md", "contracts:\n  - path: contracts/review-returns.md\n"),
}
VALID = {
    "consultationreturn": "return-shapes/consultationreturn/consulted-valid.txt",
    "auditreturn": "return-shapes/auditreturn/findings-valid.txt",
    "editplanreturn": "return-shapes/editplanreturn/findings-valid.txt",
    "findingsreturn": "review-returns/findingsreturn/changes-valid.txt",
    "summaryreturn": "review-returns/summaryreturn/approve-valid.txt",
}
CHECKS = [(c, s, n) for c in ("return-shapes",) for s in ("consultationreturn", "auditreturn", "editplanreturn") for n in range(1, 6)]
CHECKS += [("review-returns", "findingsreturn", n) for n in range(1, 5)] + [("review-returns", "summaryreturn", n) for n in range(1, 4)]
NEGATIONS = [
    (" is exactly ", " is not exactly "),
    (" line begins ", " line does not begin "),
    (" begins ", " does not begin "),
    (" carries ", " does not carry "),
    (" has a ", " has no "),
    (" names at least one file", " names no file"),
    (" is present", " is not present"),
    (" are a numbered list", " are not a numbered list"),
    (" is ≤", " is not ≤"),
    (" is at most ", " is not at most "),
]


def _source(contract: str) -> tuple[bytes, str]:
    path, config = SOURCES[contract]
    if contract == "return-shapes" and not SEEDS.is_dir():
        pytest.skip(f"seed contracts not present at {SEEDS}")
    return path().read_bytes(), config


def _load(tmp_path: Path, contract: str, data: bytes):
    from contractc.load import load_project
    from contractc.validate.receiver import Receiver

    _, config = _source(contract)
    root = write_tree(tmp_path, {"contractc.yaml": config, f"contracts/{contract}.md": data})
    return Receiver(load_project(root))


def _check(receiver, shape: str, number: int):
    return receiver.shape(shape).checks[number - 1]


def _mutated(tmp_path: Path, contract: str, shape: str, number: int, change) -> tuple:
    """The original check, and the same check after ``change(item_text) -> item_text`` in the contract's bytes."""
    data, _ = _source(contract)
    original = _check(_load(tmp_path / "original", contract, data), shape, number)
    item = data[original.span.start : original.span.end].decode("utf-8")
    new_item = change(item)
    assert new_item != item
    mutated = data[: original.span.start] + new_item.encode("utf-8") + data[original.span.end :]
    receiver = _load(tmp_path / "mutated", contract, mutated)
    return original, _check(receiver, shape, number), receiver


def _before_final_stop(item: str, words: str) -> str:
    body = item.rstrip()
    assert body.endswith("."), body
    return body[:-1] + words + "." + item[len(body) :]


@pytest.mark.parametrize(("contract", "shape", "number"), CHECKS)
def test_every_check_as_written_is_mechanised(tmp_path, contract, shape, number):
    data, _ = _source(contract)
    check = _check(_load(tmp_path, contract, data), shape, number)
    assert check.mechanised and check.unread == ()


@pytest.mark.parametrize(("contract", "shape", "number"), CHECKS)
@pytest.mark.parametrize(
    "words",
    [", and every line is friendly", "; the tone is warm", ". It also lists the risks", " and is short"],
    ids=["and-clause", "semicolon-clause", "new-sentence", "and-is-short"],
)
def test_a_clause_added_that_no_phrasing_reads_makes_the_check_not_mechanised(tmp_path, contract, shape, number, words):
    original, check, receiver = _mutated(tmp_path, contract, shape, number, lambda item: _before_final_stop(item, words))
    assert original.mechanised
    assert not check.mechanised and check.rules is None
    added = words.lstrip(",;. ").removeprefix("and ")
    assert any(added in quoted for quoted in check.unread), check.unread
    # a return that passes every other check, and says nothing of the added clause: the check is listed as not run
    verdict = receiver.validate(shape, (RETURNS / VALID[shape]).read_text("utf-8"))
    assert number in verdict.unmechanised and number not in verdict.failed


@pytest.mark.parametrize(("contract", "shape", "number"), CHECKS)
def test_a_clause_a_phrasing_reads_is_added_to_the_rules_and_enforced(tmp_path, contract, shape, number):
    from contractc.model.checks.rules import RequiredLine

    original, check, receiver = _mutated(
        tmp_path, contract, shape, number, lambda item: _before_final_stop(item, ". A `**Zed**:` line is present")
    )
    assert check.rules == (*original.rules, RequiredLine("**Zed**:"))
    text = (RETURNS / VALID[shape]).read_text("utf-8")
    verdict = receiver.validate(shape, text)
    assert verdict.failed == (number,)  # the return violates only the added clause
    assert verdict.failures[0].problems[0].message == "no line begins `**Zed**:`"


@pytest.mark.parametrize(("contract", "shape", "number"), CHECKS)
def test_a_negated_check_is_refused_never_inverted(tmp_path, contract, shape, number):
    def negate(item: str) -> str:
        flat = item
        for plain, negated in NEGATIONS:
            if plain in flat:
                return flat.replace(plain, negated, 1)
        raise AssertionError(f"no verb to negate in {item!r}")

    _, check, _ = _mutated(tmp_path, contract, shape, number, negate)
    assert not check.mechanised, check.rules
    assert any(re.search(r"\bnot\b|\bno\b", quoted) for quoted in check.unread), check.unread


@pytest.mark.parametrize(("contract", "shape", "number"), CHECKS)
@pytest.mark.parametrize(
    "words",
    [", except bullets under **Notes**", ", unless the change is trivial", " or says why", ", but only when `clean`"],
    ids=["except", "unless", "or-says-why", "but-only-when"],
)
def test_an_exception_attached_is_refused_never_dropped(tmp_path, contract, shape, number, words):
    _, check, _ = _mutated(tmp_path, contract, shape, number, lambda item: _before_final_stop(item, words))
    assert not check.mechanised, check.rules
    assert any(words.strip(", ") in quoted for quoted in check.unread), check.unread


FORMS = {"citation": ("citation", "[<id>](<id>)")}


@pytest.mark.parametrize(
    ("text", "kinds", "unread"),
    [
        # the issue's cases: each compiled to less than the prose said, or the reverse of it
        ("If `a`, every finding bullet begins `- **`, carries a `[stable]` or `[fleshed]` tag, and carries the citation form.",
         None, "carries a `[stable]` or `[fleshed]` tag, and carries the citation form"),
        ("The whole return is at most 40 lines, and is short.", None, "is short"),
        ("A `## EVIDENCE` line is present; the whole return is at most 40 lines.", ["required-line", "max-lines"], None),
        ("The whole return is at most 40 lines. The return has an evidence section.", None, "The return has an evidence section"),
        ("Reject the return when a `TODO:` line is present.", ["forbidden-line"], None),
        ("No line begins `TODO:`.", ["forbidden-line"], None),
        ("A `TODO:` line must not be present.", ["forbidden-line"], None),
        ("Reject the return when it sounds unsure.", None, "Reject the return when it sounds unsure"),
        ("Every bullet carries the citation form, except bullets under **Notes**.", None, "except bullets under **Notes**"),
        ("The body names at least one file or says why.", None, "or says why"),
        ("Every bullet begins `- ` unless `b`.", None, "unless `b`"),
        ("If the diff is empty, line 1 begins `none`.", None, "If the diff is empty"),
        ("Line 1 begins `a` or the last line begins `b`.", None, "or the last line begins `b`"),
        ("Because receivers are strict.", None, "no requirement"),
        ("Line 1 begins `a`, because receivers must see it.", None, "because receivers must see it"),
        ("Line 1 begins `a`. The receiver rejects a return whose last line is blank.", None, "The receiver rejects"),
        # a requirement with no subject after a rule about each item could mean each item: refused, not widened
        ("Every bullet begins `- ` and names a file.", None, "names a file"),
        ("Every bullet begins `- `, at most 80 lines.", None, "at most 80 lines"),
        ("Every finding bullet begins `- **` and a `where:` line is present.", None, "a `where:` line is present"),
        ("Every bullet begins `- `. At most 80 lines.", ["bullets", "max-lines"], None),
        ("The return is at most 40 lines long and names at least one file.", ["max-lines", "names-file"], None),
        ("The return does not contain `a` and `b`.", None, "neither of them, or not both"),
    ],
)
def test_the_issues_compound_negated_and_excepted_checks(text, kinds, unread):
    from contractc.model.checks.compile import compile_check
    from contractc.model.checks.rules import Form

    rules, quoted = compile_check(text, {k: Form(*v) for k, v in FORMS.items()}, ("a", "b"))
    if kinds is None:
        assert rules is None and any(unread in q for q in quoted), quoted
    else:
        assert rules is not None and [r.kind for r in rules] == kinds and quoted == ()


def test_a_forbidden_line_fails_where_it_appears_line_1_included():
    from contractc.model.checks.compile import compile_check
    from contractc.validate.text import judge
    from contractc.model.records import Check, Span, TextShape

    rules, _ = compile_check("Reject the return when a `TODO:` line is present.", {})
    check = Check(1, "Reject the return when a `TODO:` line is present.", Span("c.md", 1, 1, 0, 0), "s-check-1", rules)
    shape = TextShape("s", "S", "s", "p", "", (), None, (check,), Span("c.md", 1, 1, 0, 0))
    assert judge(shape, "done\nall good\n").passed
    failed = judge(shape, "TODO: write it\nok\nTODO: test it\n")
    (failure,) = failed.failures
    assert failure.problems[0].message == "lines 1, 3 begin `TODO:`, which no line may"
    assert [q.line for q in failure.quotes] == [1, 3]


# --- every phrasing of the vocabulary, and the corpus's checks, mutated the same ways ---------

from test_check_vocabulary import EXAMPLES  # noqa: E402

INVERSES = {("contains", "none"), ("contains", "any"), ("required-line", ""), ("forbidden-line", "")}


def _compiled(text: str):
    from test_check_vocabulary import _read

    return _read(text)


def _negated(text: str) -> str | None:
    for plain, negated in [(" is exactly ", " is not exactly "), (" is present", " is not present"), (" begins ", " does not begin "),
                           (" ends ", " does not end "), (" has ", " has no "), (" carries ", " does not carry "),
                           (" contains ", " does not contain "), (" does not contain ", " contains "), (" is a ", " is not a "),
                           (" is valid ", " is not valid "), (" names ", " names no "), (" are a ", " are not a "),
                           (" is at most ", " is not at most "), (" is ", " is not ")]:
        if plain in text:
            return text.replace(plain, negated, 1)
    return None


@pytest.mark.parametrize(("kind", "text"), EXAMPLES, ids=[t[:50] for _, t in EXAMPLES])
def test_every_listed_phrasing_with_a_clause_added_or_an_exception_attached_is_refused(kind, text):
    assert text.endswith(".")
    for words in (", and every line is friendly", "; the tone is warm", ", except bullets under **Notes**", " or says why",
                  ", unless the change is trivial"):
        rules, unread = _compiled(text[:-1] + words + ".")
        assert rules is None and unread, (text, words, rules)


@pytest.mark.parametrize(("kind", "text"), EXAMPLES, ids=[t[:50] for _, t in EXAMPLES])
def test_every_listed_phrasing_negated_is_refused_or_read_as_its_negation(kind, text):
    negated = _negated(text)
    if negated is None:
        pytest.skip("no verb this test knows how to negate")
    original, _ = _compiled(text)
    rules, unread = _compiled(negated)
    if rules is None:
        assert unread
        return
    # read: only as the rule's own negation (a required line -> a forbidden one, contains -> contains none)
    assert rules != original
    assert all((r.kind, getattr(r, "mode", "")) in INVERSES for r in rules), (negated, rules)


CORPUS = REPO / "tests" / "corpus"


def _corpus_checks():
    import yaml

    verdicts = yaml.safe_load((CORPUS / "verdicts.yaml").read_text("utf-8"))
    for name, spec in sorted(verdicts.items()):
        passing = sorted(f for f, failed in spec["returns"].items() if failed == [])
        for number, how in enumerate(spec["checks"], 1):
            if how == "prose":
                yield name, number, passing[0]


@pytest.mark.parametrize(("name", "number", "passing"), list(_corpus_checks()))
def test_each_corpus_check_mutated_is_refused_or_enforced_never_weaker(tmp_path, name, number, passing):
    import shutil

    from contractc import Receiver

    root = tmp_path / name
    shutil.copytree(CORPUS / name, root)
    contract = root / "contracts" / f"{name}.md"
    original = contract.read_text("utf-8")
    receiver = Receiver.load(root)
    (shape,) = [s for c in receiver.project.contracts for s in c.text_shapes]
    check = shape.checks[number - 1]
    text = (root / "returns" / passing).read_text("utf-8")
    checks = original.index("Receiver checks:")
    item = original[original.index(f"\n{number}. ", checks) + 1 :].split("\n", 1)[0]
    assert item.endswith(".")
    for added, enforced in ((", and every line is friendly", False), (". A `**Zed**:` line is present", True)):
        contract.write_text(original.replace(item, item[:-1] + added + "."), "utf-8")
        mutated = Receiver.load(root)
        verdict = mutated.validate(mutated.shape(shape.id), text)
        if enforced:  # the added clause is read: the passing return, which lacks it, fails that check only
            assert verdict.failed == (number,)
        else:  # not read: the check is listed as not run, never passed on its first half
            assert number in verdict.unmechanised and not verdict.failed
    assert check.mechanised


@pytest.mark.parametrize("line", ["TODO: x", "  TODO: x", "- TODO: x", "* [ ] TODO: x", "3. **TODO:** x", "> TODO: x"])
def test_a_forbidden_line_is_found_behind_an_indent_a_list_marker_or_emphasis(line):
    """`a TODO: line` in a bullet or in bold is still a TODO line: the forbidding rule must not be weaker than its words."""
    from contractc.model.checks.compile import compile_check
    from contractc.model.records import Check, Span, TextShape
    from contractc.validate.text import judge

    rules, _ = compile_check("Reject the return when a `TODO:` line is present.", {})
    check = Check(1, "Reject the return when a `TODO:` line is present.", Span("c.md", 1, 1, 0, 0), "s-check-1", rules)
    shape = TextShape("s", "S", "s", "p", "", (), None, (check,), Span("c.md", 1, 1, 0, 0))
    (failure,) = judge(shape, f"done\n{line}\n").failures
    assert failure.problems[0].message == "line 2 begins `TODO:`, which no line may"
    assert judge(shape, "done\nnothing left to do: TODO: none\n").passed  # mid-line is not a TODO line
