"""The prose vocabulary of receiver checks: every phrasing `contractc explain check-not-mechanised` lists
reads as it says, and the rules it compiles to judge returns as the words say."""

from __future__ import annotations

import re

import pytest

from conftest import REPO, write_tree

PAGE = (REPO / "docs/drift-codes.md").read_text("utf-8")
SECTION = PAGE[PAGE.index("### check-not-mechanised") : PAGE.index("## Bad input: check options")]
EXAMPLES = re.findall(r"^- (?P<kind>[\w-]+|.+?\)):? (?:\(.*?\): )?``(?P<text>.+)``$", SECTION, re.MULTILINE)


def _read(text: str):
    from contractc.model.checks.compile import compile_check
    from contractc.model.checks.rules import Form

    forms = {"citation": Form("citation", "[<id>](<id>)"), "location": Form("location", "`<path>:<line>`")}
    return compile_check(text, forms, ("findings", "done", "partial"), frozenset({"finding_list"}))


def test_the_explanation_lists_at_least_twenty_phrasings_each_with_an_example(run_cli):
    assert len(EXAMPLES) >= 20
    shown = run_cli("explain", "check-not-mechanised").out
    for _, text in EXAMPLES:
        assert text in shown


@pytest.mark.parametrize(("kind", "text"), EXAMPLES, ids=[t[:50] for _, t in EXAMPLES])
def test_each_listed_example_compiles_to_the_kind_it_is_listed_under(kind, text):
    rules, unread = _read(text)
    assert rules is not None and unread == (), unread
    if kind in ("elaboration", "commentary", "condition"):
        return
    assert kind in {r.kind for r in rules}, (kind, rules)


def _shape(*checks: str):
    from contractc.model.checks.compile import compile_shape
    from contractc.model.records import Check, Span, TextShape

    span = Span("c.md", 1, 1, 0, 0)
    raw = tuple(Check(n, t, span, f"s-check-{n}") for n, t in enumerate(checks, 1))
    return compile_shape(TextShape("s", "S", "s", "p", "", (), None, raw, span), {})


@pytest.mark.parametrize(
    ("check", "passing", "failing"),
    [
        ("The last line is exactly one of `VERDICT: PASS` / `VERDICT: FAIL`.", "work\nVERDICT: PASS\n", "work\nVERDICT: PASS!\n"),
        ("The final line is `DONE`.", "a\nDONE", "DONE\nb\n"),
        ("Line 1 is exactly `PASS` or `FAIL`.", "PASS\nwhy\n", "pass\nwhy\n"),
        ("A `Summary` heading is present.", "x\n## Summary\n", "x\nSummary of it\n"),
        ("A `Summary` heading is present.", "x\n**Summary:**\n", "x\n## Summary and more\n"),
        ("A **Risks** section is present.", "x\n**Risks**: none\n", "x\nRisks: none\n"),
        ("A `STATUS:` line is present.", "STATUS: ok\n", "status: ok\n"),
        ("Reject the return when a `TODO:` line is present.", "done\n", "done\nTODO: more\n"),
        ("The return does not contain `lorem ipsum`.", "real text\n", "some lorem ipsum here\n"),
        ("The return contains `PASS` or `FAIL`.", "it is a FAIL\n", "it is fine\n"),
        ("The return contains `PASS` and `FAIL`.", "PASS then FAIL\n", "PASS only\n"),
        ("The whole return is at most 5 words.", "one two three\n", "one two three four five six\n"),
        ("The whole return is at least 2 lines.", "a\nb\n", "a\n"),
        ("The first line ends with `:`.", "Report:\n", "Report\n"),
        ("Each item has `severity:` and `fix:` fields, at any indent.",
         "items:\n  - severity: low\n    fix: x\n", "items:\n  - severity: low\n    file: a.py\n"),
        ("The return is valid JSON.", '{"a": 1}\n', "{a: 1}\n"),
        ("The return is a YAML document.", "a: 1\n", "a: [\n"),
    ],
)
def test_each_phrasing_judges_as_its_words_say(check, passing, failing):
    from contractc.validate.text import judge

    shape = _shape(check)
    assert shape.checks[0].mechanised, shape.checks[0].unread
    assert judge(shape, passing).passed, judge(shape, passing)
    assert judge(shape, failing).failed == (1,)


AUDIT = """\
# Audit

## Finding list

```yaml
finding_list:
  findings:
    - point: string
      where: string
      severity: low | high
```

## AuditReport

Produced by `auditor`; consumed by `audit-skill`.

```
findings:
  - point: <what>
    where: <file>
    severity: low
```

Receiver checks:

1. The return is a YAML document of `finding_list`.
2. Every finding has a `point:` line and a `where:` line.
3. The return is a YAML document of `finding_set`.
"""


def test_a_return_that_is_a_yaml_document_of_a_data_shape_is_held_to_its_schema(tmp_path):
    from contractc import Receiver

    root = write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/audit.md\n", "contracts/audit.md": AUDIT})
    receiver = Receiver.load(root)
    shape = receiver.shape("auditreport")
    assert [c.mechanised for c in shape.checks] == [True, True, False]  # `finding_set` is no shape of the contract
    assert "which the contract does not define" in shape.checks[2].unread[0]
    good = "findings:\n  - point: a\n    where: b.py\n    severity: low\n"
    assert receiver.validate(shape, good).passed
    assert receiver.validate(shape, "finding_list:\n" + "".join(f"  {line}\n" for line in good.splitlines())).passed
    bad = receiver.validate(shape, "findings:\n  - point: a\n    severity: mid\n")
    assert bad.failed == (1, 2)
    messages = [p.message for p in bad.failures[0].problems]
    assert 'the YAML document does not match `finding_list`: $.findings[0].severity: "mid" is not one of ["low", "high"]' in messages
    broken = receiver.validate(shape, "findings: [\n")
    assert broken.failures[0].problems[0].message.startswith("the return is not a YAML document")


def test_contractc_diff_can_describe_a_rule_of_every_kind():
    """A check that gains a rule of any kind is a change diff must be able to name (not a KeyError)."""
    import typing

    from contractc.diff.checks import _describe
    from contractc.model.checks import rules

    form = rules.Form("citation", "[<id>](<id>)")
    samples = [
        rules.StatusLine("s: ", ("a",)), rules.LineBegins(1, "x"), rules.Bullets("- ", form), rules.NumberedList(1, form),
        rules.HeadingBullets("**T**"), rules.RequiredLine("x"), rules.ForbiddenLine("TODO:"), rules.LineIs(-1, ("A",)),
        rules.LineEnds(1, ":"), rules.Heading("Risks"), rules.Contains(("a",), "none"), rules.Matches("x", True),
        rules.Count("words", None, 3), rules.IsData("yaml", "s"), rules.ItemLines(("a:",)), rules.MaxLines(3),
        rules.NamesFile(), rules.CarriesForm(form),
    ]
    assert {r.kind for r in samples} == set(typing.get_args(rules.RuleKind))
    assert all(_describe(r) for r in samples)
    assert _describe(rules.LineIs(-1, ("A",))) == "the last line exactly `A`"
