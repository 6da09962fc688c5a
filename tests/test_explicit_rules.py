"""Explicit rules (``contracts/<name>.checks.yaml``): for checks worded beyond the phrasings, held to their prose."""

from __future__ import annotations

import pytest

from conftest import write_tree

CONTRACT = """\
# Verify

**Citation form.** A source reads `[<id>](<id>)`.

## Finding list

```yaml
finding_list:
  findings:
    - point: string
```

## VerifyReturn

Produced by `verifier`; consumed by `verify-skill`.

```
<report>
VERDICT: PASS
```

Receiver checks:

1. The reply closes on a verdict line reading VERDICT: PASS or VERDICT: FAIL, nothing after it.
2. Keep the report under 40 lines.
3. Somewhere it should say `Checks run:` with the count.
"""
SIDECAR = """\
verifyreturn:
  1:
    - type: equals
      line: last
      value: ["VERDICT: PASS", "VERDICT: FAIL"]
  2:
    - type: max-lines
      value: 40
"""
CONFIG = "contracts:\n  - path: contracts/verify.md\n"


def _project(tmp_path, sidecar: str = SIDECAR, contract: str = CONTRACT):
    return write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/verify.md": contract, "contracts/verify.checks.yaml": sidecar})


def test_an_explicit_rule_mechanises_a_check_its_prose_could_not_and_validate_runs_it(tmp_path, run_cli, monkeypatch):
    from contractc import Receiver
    from contractc.model.checks.rules import LineIs, MaxLines

    root = _project(tmp_path)
    shape = Receiver.load(root).shape("verifyreturn")
    assert [c.rules for c in shape.checks[:2]] == [(LineIs(-1, ("VERDICT: PASS", "VERDICT: FAIL")),), (MaxLines(40),)]
    assert [c.explicit for c in shape.checks] == ["contracts/verify.checks.yaml:2", "contracts/verify.checks.yaml:6", ""]
    assert not shape.checks[2].mechanised  # no rule given and its prose is not read: not run, listed
    monkeypatch.chdir(root)
    write_tree(root, {"ok.txt": "all good\nVERDICT: PASS\n", "bad.txt": "all good\nVERDICT: PASS\nand more\n"})
    assert run_cli("validate", "verifyreturn", "ok.txt").out == (
        "contractc: ok.txt passes 2 of 3 receiver checks of VerifyReturn; not run (not mechanised), judge by reading: check 3\n"
    )
    bad = run_cli("validate", "verifyreturn", "bad.txt")
    assert bad.code == 1 and "VerifyReturn check 1 failed: the last line (line 3) is not exactly one of" in bad.out


def test_the_contracts_bytes_are_unchanged_and_the_site_marks_the_explicit_rule(tmp_path, run_cli):
    root = _project(tmp_path)
    assert run_cli("build", "--root", str(root)).code == 0
    assert (root / "contracts/verify.md").read_text() == CONTRACT
    from contractc.load import load_project
    from contractc.site.annotate import annotate_contract

    (contract,) = load_project(root).contracts
    page = annotate_contract(contract)
    assert "*mechanised*, by an explicit rule (`contracts/verify.checks.yaml:2`)" in page
    assert "**not mechanised** (the receiver judges it by reading)" in page  # check 3


@pytest.mark.parametrize(
    ("rule", "prose"),
    [
        ("type: equals\n      line: last\n      value: [DONE]", "The last line is `DONE`."),
        ("type: equals\n      line: first\n      value: ['status: a', 'status: b']", "Line 1 is exactly `status: a` or `status: b`."),
        ("type: starts-with\n      line: 3\n      value: '## '", "The third line begins `## `."),
        ("type: starts-with\n      line: after-status\n      value: '- **'", "The first non-blank line after the status line begins `- **`."),
        ("type: ends-with\n      line: first\n      value: ':'", "The first line ends with `:`."),
        ("type: contains-any\n      value: [PASS, FAIL]", "The return contains `PASS` or `FAIL`."),
        ("type: contains-all\n      value: [PASS, FAIL]", "The return contains `PASS` and `FAIL`."),
        ("type: not-contains\n      value: TODO", "The return does not contain `TODO`."),
        ("type: max-lines\n      value: 60", "The whole return is at most 60 lines."),
        ("type: max-words\n      value: 300", "The whole return is at most 300 words."),
        ("type: min-lines\n      value: 3", "The whole return is at least 3 lines."),
        ("type: heading\n      value: Summary", "A `Summary` heading is present."),
        ("type: line-present\n      value: 'Checks run:'", "A `Checks run:` line is present."),
        ("type: no-line\n      value: 'TODO:'", "Reject the return when a `TODO:` line is present."),
        ("type: every-item\n      fields: ['where:', 'fix:']", "Each item has `where:` and `fix:` fields."),
        ("type: is-yaml\n      shape: finding_list", "The return is a YAML document of `finding_list`."),
        ("type: is-json", "The return is valid JSON."),
        ("type: names-file", "The body names at least one file."),
        ("type: carries-form\n      form: citation", "The body carries the citation form."),
    ],
)
def test_an_explicit_rule_compiles_to_the_rule_its_prose_phrasing_gives(tmp_path, rule, prose):
    from contractc.load import load_project

    contract = CONTRACT.replace("3. Somewhere it should say `Checks run:` with the count.", f"3. {prose}")
    sidecar = f"verifyreturn:\n  3:\n    - {rule}\n"
    read = load_project(_project(tmp_path / "prose", "verifyreturn:\n  2:\n    - type: max-lines\n      value: 40\n", contract))
    explicit = load_project(_project(tmp_path / "explicit", sidecar, contract))
    from_prose = read.contracts[0].text_shapes[0].checks[2]
    from_rule = explicit.contracts[0].text_shapes[0].checks[2]
    assert from_prose.mechanised and from_prose.explicit == ""
    assert from_rule.rules == from_prose.rules and from_rule.explicit == "contracts/verify.checks.yaml:2"


@pytest.mark.parametrize(
    ("sidecar", "message"),
    [
        ("verifyreturn:\n  1:\n    - type: equal\n      value: x\n", "contracts/verify.checks.yaml:3:7: error[checks-file-invalid]: $.verifyreturn.1[0].type: \"equal\" is not one of"),
        ("verifyreturn:\n  2:\n    - type: max-lines\n", "contracts/verify.checks.yaml:3:7: error[checks-file-invalid]: $.verifyreturn.2[0]: 'value' is a required property"),
        ("verifyreturn:\n  2:\n    - type: max-lines\n      value: 40\n      line: last\n", "contracts/verify.checks.yaml:3:7: error[checks-file-invalid]"),
        ("verifyreturn:\n  9:\n    - type: max-lines\n      value: 40\n", "contracts/verify.checks.yaml:2:3: error[checks-file-invalid]: verifyreturn has no receiver check 9"),
        ("other:\n  1:\n    - type: names-file\n", "contracts/verify.checks.yaml:1:1: error[checks-file-invalid]: contracts/verify.md has no text shape with the id 'other'"),
        ("verifyreturn:\n  1:\n    - type: regex\n      value: '(['\n", "contracts/verify.checks.yaml:3:7: error[checks-file-invalid]: not a regular expression"),
        ("verifyreturn:\n  1:\n    - type: carries-form\n      form: receipt\n", "error[checks-file-invalid]: the contract defines no receipt form"),
        ("verifyreturn: [\n", "contracts/verify.checks.yaml:2:1: error[checks-file-invalid]: not valid YAML"),
    ],
)
def test_a_sidecar_that_does_not_fit_the_vocabulary_is_a_located_error(tmp_path, run_cli, sidecar, message):
    root = _project(tmp_path, sidecar)
    result = run_cli("build", "--root", str(root))
    assert result.code == 2
    assert message in result.err, result.err


def test_a_reworded_check_makes_its_rule_a_located_drift_error(tmp_path, run_cli):
    root = _project(tmp_path, contract=CONTRACT.replace("under 40 lines", "under 30 lines"))
    result = run_cli("check", "--root", str(root))
    assert result.code == 2
    assert (
        "contracts/verify.checks.yaml:8:7: error[check-rule-drift]: verifyreturn check 2: the rule's limit '40' is not "
        "in the check's words\n"
    ) in result.err
    reworded = CONTRACT.replace("VERDICT: PASS or VERDICT: FAIL", "PASS or FAIL")
    result = run_cli("validate", "--root", str(_project(tmp_path / "b", contract=reworded)), "verifyreturn", "-")
    assert result.code == 2
    assert "contracts/verify.checks.yaml:5:15: error[check-rule-drift]: verifyreturn check 1: the rule's value 'VERDICT: PASS'" in result.err


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("type: regex\n      value: '^Tests: \\d+ failed$'", "The report has a line Tests: 12 passed"),
        ("type: contains\n      value: LGTM\n      when: [approve]", "If approved, say LGTM"),
    ],
)
def test_every_literal_of_a_rule_is_held_to_the_words_of_its_check(tmp_path, rule, words):
    from contractc import ContractcError
    from contractc.load import load_project

    contract = CONTRACT.replace("3. Somewhere it should say `Checks run:` with the count.", f"3. {words}.")
    root = _project(tmp_path, f"verifyreturn:\n  3:\n    - {rule}\n", contract)
    with pytest.raises(ContractcError) as refused:
        load_project(root)
    codes = [d.code for d in refused.value.diagnostics]
    assert codes and set(codes) <= {"check-rule-drift", "checks-file-invalid"}


def test_a_regex_that_backtracks_without_end_is_stopped_and_judges_nothing(tmp_path, run_cli, monkeypatch):
    """A pull request can commit a sidecar: a catastrophic pattern must not hang CI, and must never pass."""
    import contractc.validate.text as text

    monkeypatch.setattr(text, "PATTERN_SECONDS", 0.2)
    contract = CONTRACT.replace("3. Somewhere it should say `Checks run:` with the count.", "3. Every line is made of aaa words.")
    sidecar = SIDECAR + "  3:\n    - type: regex\n      value: '^(aaa|a+)+$'\n"
    root = _project(tmp_path, sidecar, contract)
    write_tree(root, {"slow.txt": "a" * 30 + "b\nVERDICT: PASS\n", "fast.txt": "aaaaaaaa\nVERDICT: PASS\n"})
    monkeypatch.chdir(root)
    slow = run_cli("validate", "verifyreturn", "slow.txt")
    assert slow.code == 2, slow.out + slow.err
    assert (
        "contracts/verify.checks.yaml:9:1: error[check-pattern-slow]: verifyreturn check 3: its regex was still searching "
        "the return after 0.2 s and was stopped, so nothing was judged"
    ) in slow.err
    assert "passes" not in slow.out
    assert run_cli("validate", "verifyreturn", "fast.txt").code == 0  # the limit leaves a quick search alone
    import signal

    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no timer left running after either search


def test_the_pattern_time_limit_gives_a_callers_own_timer_back(tmp_path, monkeypatch):
    """A receiver embedded in a program that keeps its own SIGALRM timer: validating a return must not cancel it."""
    import signal

    from contractc import Receiver

    contract = CONTRACT.replace("3. Somewhere it should say `Checks run:` with the count.", "3. Every line is made of aaa words.")
    root = _project(tmp_path, SIDECAR + "  3:\n    - type: regex\n      value: '^(aaa|a+)+$'\n", contract)
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        Receiver.load(root).validate("verifyreturn", "aaaaaa\nVERDICT: PASS\n")
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 25 < left <= 30 and not fired  # still running, with about the time it had
        assert signal.getsignal(signal.SIGALRM) is not signal.SIG_DFL
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
