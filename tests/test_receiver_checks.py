"""Receiver checks compiled from prose judge returns the way the contract's prose says (reads ../shared/seeds).

The corpus under tests/returns/ holds returns written for each shape and status,
valid and not; tests/returns/verdicts.yaml says which checks each one fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, write_tree
from test_seed_conformance import seed_project

RETURNS = REPO / "tests" / "returns"
VERDICTS = yaml.safe_load((RETURNS / "verdicts.yaml").read_text("utf-8"))


@pytest.fixture(scope="module")
def receivers(tmp_path_factory):
    from contractc.validate.receiver import Receiver

    from conftest import SEEDS, SEEDS_MISSING

    if not SEEDS.is_dir():
        pytest.skip(SEEDS_MISSING)
    seed = seed_project(tmp_path_factory.mktemp("seed"), SEEDS)
    return {"return-shapes": Receiver.load(seed), "review-returns": Receiver.load(REPO)}


@pytest.fixture
def seed_root(tmp_path, seeds):
    return seed_project(tmp_path, seeds)


def test_the_corpus_holds_at_least_forty_returns_for_every_shape_and_status():
    assert len(VERDICTS) >= 40
    assert {key for key in VERDICTS} == {p.relative_to(RETURNS).as_posix() for p in RETURNS.rglob("*.txt")}
    seed_shapes = {key.split("/")[1] for key in VERDICTS if key.startswith("return-shapes/")}
    assert seed_shapes == {"consultationreturn", "auditreturn", "editplanreturn"}
    lines_one = {(key.split("/")[1], (RETURNS / key).read_bytes().split(b"\n")[0].strip()) for key in VERDICTS}
    for shape, statuses in {
        "consultationreturn": ("consulted", "nothing-bears", "surface-unavailable"),
        "auditreturn": ("findings", "clean", "nothing-bears", "surface-unavailable"),
        "editplanreturn": ("findings", "clean", "nothing-bears"),
    }.items():
        for status in statuses:
            assert (shape, f"status: {status}".encode()) in lines_one, (shape, status)


@pytest.mark.parametrize("key", sorted(VERDICTS))
def test_each_return_gets_the_verdict_the_prose_calls_for(receivers, key):
    contract, shape, _ = key.split("/")
    verdict = receivers[contract].validate(shape, (RETURNS / key).read_bytes().decode("utf-8"))
    assert list(verdict.failed) == VERDICTS[key]
    assert verdict.passed is (VERDICTS[key] == [])
    for failure in verdict.failures:  # each failure names its check, where it is, and what is wrong
        assert failure.anchor == f"{shape}-check-{failure.number}"
        assert failure.url.endswith(f"/{contract}/#{failure.anchor}")
        assert failure.problems and all(p.message for p in failure.problems)


def test_all_fifteen_seed_checks_are_compiled_into_the_expected_kinds(seed_root):
    from contractc.load import load_project

    (contract,) = load_project(seed_root).contracts
    kinds = {s.id: [[r.kind for r in c.rules or ()] for c in s.checks] for s in contract.text_shapes}
    assert kinds == {
        "consultationreturn": [["status-line"], ["line-begins"], ["bullets", "bullets"], ["heading-bullets"], ["max-lines"]],
        "auditreturn": [["status-line"], ["bullets"], ["item-lines"], ["names-file"], ["max-lines"]],
        "editplanreturn": [["status-line"], ["numbered-list"], ["required-line"], ["carries-form"], ["max-lines"]],
    }


def test_compiled_literals_are_read_off_the_checks_own_prose(seed_root):
    """Spec and prose cannot drift apart: every literal a rule holds is written in its check's text."""
    from contractc.load import load_project

    (contract,) = load_project(seed_root).contracts
    for shape in contract.text_shapes:
        for check in shape.checks:
            prose = " ".join(check.text.split())
            for rule in check.rules:
                implied = getattr(rule, "noun", "") and rule.when == (f"{rule.noun}s",)  # "Every finding has"
                literals = [rule.noun] if implied else [*rule.when]
                for name in ("prefix", "begins", "exempt", "heading"):
                    literals += [getattr(rule, name)] if getattr(rule, name, "") else []
                literals += list(getattr(rule, "values", ())) + list(getattr(rule, "keys", ()))
                literals += [str(rule.limit)] if hasattr(rule, "limit") else []
                literals += [f"{rule.form.name} form"] if getattr(rule, "form", None) else []
                for literal in literals:
                    assert literal in prose, (check.anchor, literal)


def test_conditions_name_statuses_and_the_nothing_bears_opening_bullet_is_excused(seed_root):
    from contractc.model.checks.rules import Bullets, ItemLines, StatusLine
    from contractc.load import load_project

    shapes = {s.id: s for s in load_project(seed_root).contracts[0].text_shapes}
    consultation = shapes["consultationreturn"].checks
    assert consultation[0].rules == (StatusLine("status: ", ("consulted", "nothing-bears", "surface-unavailable")),)
    first, second = consultation[2].rules
    assert isinstance(first, Bullets) and first.when == ("consulted",) and first.exempt == ""
    assert second.when == ("nothing-bears",) and second.exempt == "- **No pattern bears**"
    assert first.form.template == "[<id> § <section>](https://agentic-atlas.dev/nodes/<id>#<section>)"
    (lines,) = shapes["auditreturn"].checks[2].rules
    assert lines == ItemLines(("where:", "prescription:"), "finding", ("findings",))  # "finding" is a `findings` bullet


def test_the_contract_bytes_are_unchanged_by_compiling_its_checks(seed_root, seeds, run_cli):
    assert run_cli("build", "--root", str(seed_root)).code == 0
    assert (seed_root / "contracts/return-shapes.md").read_bytes() == (seeds / "return-shapes.md").read_bytes()


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "review-plugin"], ids=["contracts", "example"])
def test_this_repositorys_own_checks_are_all_mechanised(root):
    from contractc.load import load_project

    checks = [c for contract in load_project(root).contracts for s in contract.text_shapes for c in s.checks]
    assert checks and [c.anchor for c in checks if c.rules is None] == []


@pytest.mark.parametrize(
    ("text", "failed"),
    [
        ("status: done\n\n1. `src/a.py:3` — the guard is inverted.\n2. `src/b.py:9` — a leak.\n\nUnread: none\n", ()),
        ("status: partial\n\nUnread: docs/big.pdf\n", ()),  # no numbered line: none to carry a location
        ("status: done\n\n1. `src/a.py:3` — the guard is inverted.\n2. the leak in b.py\n\nUnread: none\n", (2,)),
        ("status: done\n\n1. `src/a.py:3` — the guard is inverted.\n", (3,)),  # the last line is not `Unread: `
        ("status: done\n\n1. `src/a.py:3` — the guard is inverted.\n\nUnread: none\n\n", (3,)),  # a blank last line
    ],
)
def test_the_example_plugins_return_is_judged_by_its_last_line_and_numbered_lines(text, failed):
    from contractc import Receiver

    verdict = Receiver.load(REPO / "examples" / "review-plugin").validate("findingsreturn", text)
    assert verdict.failed == failed


@pytest.mark.parametrize("text", [None, 3, ["status: done"]])
def test_a_return_that_is_no_text_is_a_type_error_that_says_so(text):
    from contractc import Receiver

    receiver = Receiver.load(REPO / "examples" / "review-plugin")
    with pytest.raises(TypeError, match=rf"the return must be str or bytes, not {type(text).__name__}"):
        receiver.validate("findingsreturn", text)


# --- the command line -------------------------------------------------------------------------


def _write_return(root: Path, name: str, key: str) -> str:
    path = root / name
    path.write_bytes((RETURNS / key).read_bytes())
    return str(path)


def test_validate_passes_a_valid_return_with_exit_0(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "r.txt", "return-shapes/auditreturn/findings-valid.txt")
    result = run_cli("validate", "auditreturn", "r.txt")
    assert result.code == 0
    assert result.out == "contractc: r.txt passes 5 of 5 receiver checks of AuditReturn\n"


def test_a_failure_is_located_and_quotes_the_check_its_anchor_and_the_offending_lines(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "r.txt", "return-shapes/consultationreturn/tension-without-citation.txt")
    result = run_cli("validate", "consultationreturn", "r.txt")
    assert result.code == 1
    assert result.out.splitlines()[:9] == [
        "r.txt:20:1: error[check-failed]: ConsultationReturn check 3 failed: the bullet on line 20 does not carry the citation form",
        "  hint: `contractc explain check-failed` explains this message",
        "  check 3 (https://example.invalid/contracts/return-shapes/#consultationreturn-check-3):",
        "    If `consulted`, every bullet carries the citation form — a tension",
        "    bullet under `**Tensions**` as much as a pattern bullet, because what",
        "    the corpus says governs a choice is a published-pattern claim. If",
        "    `nothing-bears`, every bullet after the opening `- **No pattern bears**`",
        "    bullet does: that one bullet names no pattern, so it has none to cite.",
        "    Any other bullet, in either status, carries its citation.",
    ]
    assert "  offending lines:\n    20 | - **Rich briefs versus small prompts**\n" in result.out
    assert result.out.endswith(
        "contractc: r.txt fails check 3 of the 5 receiver checks of ConsultationReturn; discard it and re-dispatch once "
        "with the evidence (`--evidence`) appended to the original prompt\n"
    )


def test_standard_input_is_read_for_dash_and_by_default(seed_root, run_cli, monkeypatch):
    import io

    monkeypatch.chdir(seed_root)
    data = (RETURNS / "return-shapes/auditreturn/greeting-before-status.txt").read_bytes()
    for args in (("validate", "auditreturn", "-"), ("validate", "auditreturn")):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
        result = run_cli(*args)
        assert result.code == 1
        assert result.out.startswith(
            "<stdin>:1:1: error[check-failed]: AuditReturn check 1 failed: the status line is line 3; nothing may come before it\n"
        )


def test_json_gives_the_same_failures_as_data(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "r.txt", "return-shapes/auditreturn/several-failures.txt")
    result = run_cli("validate", "auditreturn", "r.txt", "--format", "json")
    assert result.code == 1
    doc = json.loads(result.out)
    assert (doc["passed"], doc["status"], doc["lines"], doc["unmechanised"]) == (False, "findings", 102, [])
    assert [(f["check"], f["anchor"], f["line"]) for f in doc["failures"]] == [
        (2, "auditreturn-check-2", 3),
        (3, "auditreturn-check-3", 19),
        (5, "auditreturn-check-5", 101),
    ]
    assert doc["failures"][0]["quotes"] == [{"line": 3, "text": "- **Finding 0**"}]
    assert doc["failures"][2]["problems"][0]["message"] == "the return is 102 lines; at most 100 are allowed"
    assert doc["failures"][1]["text"] == "Every finding has a `where:` line and a `prescription:` line."
    assert doc["evidence"].startswith("## Failure evidence: the previous return was discarded\n")
    assert [(d["path"], d["line"], d["code"]) for d in doc["diagnostics"]] == [
        ("r.txt", 3, "check-failed"),
        ("r.txt", 19, "check-failed"),
        ("r.txt", 101, "check-failed"),
    ]
    assert doc["diagnostics"][2]["message"] == "AuditReturn check 5 failed: the return is 102 lines; at most 100 are allowed"
    import jsonschema

    schema = json.loads((REPO / "compiler/contractc/data/verdict.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(doc, schema)  # the shipped schema describes the document
    assert doc["$schema"] == schema["$id"]


def test_github_format_annotates_each_failed_check_on_its_line(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "r.txt", "return-shapes/auditreturn/finding-without-where.txt")
    result = run_cli("validate", "auditreturn", "r.txt", "--format", "github")
    assert result.code == 1
    annotation, summary_line = result.out.splitlines()
    assert annotation.startswith(
        "::error file=r.txt,line=6,col=1,title=contractc check-failed::AuditReturn check 3 failed: "
        "the finding on line 6 has no `where:` line%0Ahint: check 3 (https://example.invalid/"
    )
    assert "Every finding has a `where:` line and a `prescription:` line." in annotation
    assert "%0A6 | - **The planner's brief is free prose**" in annotation  # the quoted line, escaped onto one line
    assert summary_line.startswith("contractc: r.txt fails check 3 of the 5 receiver checks of AuditReturn")


def test_evidence_is_the_block_for_the_one_redispatch_and_byte_stable(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "r.txt", "return-shapes/editplanreturn/item-names-no-file.txt")
    first = run_cli("validate", "editplanreturn", "r.txt", "--evidence")
    again = run_cli("validate", "editplanreturn", str(seed_root / "r.txt"), "--evidence")
    assert first.code == again.code == 1
    assert first.out == again.out  # the same return gives the same bytes, whatever the path
    assert first.out == (
        "## Failure evidence: the previous return was discarded\n"
        "\n"
        "It failed receiver check 2 of EditPlanReturn. Return again, from the first line,\n"
        "in the EditPlanReturn shape above, so that every receiver check passes. Do not mention the\n"
        "previous return.\n"
        "\n"
        "### Check 2 (https://example.invalid/contracts/return-shapes/#editplanreturn-check-2)\n"
        "\n"
        "> If `findings`, the edits are a numbered list starting at `1.`, and\n"
        "> every item carries the citation form and names a file.\n"
        "\n"
        "What failed:\n"
        "\n"
        "- the item on line 6 names no file\n"
        "\n"
        "The offending lines of the previous return:\n"
        "\n"
        "    6 | 2. **Type the planner's brief** ([typed-handoff § schema-at-the-seam](https://agentic-atlas.dev/nodes/typed-handoff#schema-at-the-seam))\n"
    )
    passing = _write_return(seed_root, "ok.txt", "return-shapes/editplanreturn/findings-valid.txt")
    assert run_cli("validate", "editplanreturn", passing, "--evidence").out == ""


def test_an_empty_return_gets_the_evidence_that_nothing_came_back(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    (seed_root / "empty.txt").write_bytes(b"")
    result = run_cli("validate", "consultationreturn", "empty.txt", "--evidence")
    assert result.code == 1
    assert "The previous dispatch returned no text.\n" in result.out
    assert "- the return is empty: the dispatch returned no text\n" in result.out


def test_crlf_and_lf_returns_give_the_same_evidence(receivers):
    lf = (RETURNS / "return-shapes/consultationreturn/prose-before-first-bullet.txt").read_text("utf-8")
    crlf = (RETURNS / "return-shapes/consultationreturn/crlf-prose-before-first-bullet.txt").read_bytes().decode()
    assert "\r\n" in crlf
    seed = receivers["return-shapes"]
    assert seed.evidence(seed.validate("consultationreturn", crlf)) == seed.evidence(seed.validate("consultationreturn", lf))


def test_a_producer_with_two_modes_is_judged_against_its_modes_shape(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "plan.txt", "return-shapes/auditreturn/findings-valid.txt")  # an audit, with bullets
    assert run_cli("validate", "design-auditor", "plan.txt", "--mode", "audit").code == 0
    apply = run_cli("validate", "design-auditor", "plan.txt", "--mode", "apply")
    assert apply.code == 1 and "EditPlanReturn check 2 failed: the body holds no numbered list" in apply.out
    assert "EditPlanReturn check 3 failed: no line begins `**Deliberately skipped**`" in apply.out
    no_mode = run_cli("validate", "design-auditor", "plan.txt")
    assert no_mode.code == 2 and no_mode.out == ""
    assert no_mode.err.startswith(
        "design-auditor: error[unknown-shape]: 'design-auditor' produces 2 shapes; say which\n"
        "  hint: choose one: --mode audit (auditreturn), --mode apply (editplanreturn); more: `contractc explain unknown-shape`\n"
    )
    wrong = run_cli("validate", "design-auditor", "plan.txt", "--mode", "review")
    assert wrong.code == 2
    assert "error[unknown-shape]: 'design-auditor' has no mode 'review'\n  hint: its modes: apply, audit;" in wrong.err
    assert run_cli("validate", "pattern-librarian", "plan.txt").code == 1  # one shape: no mode needed
    assert run_cli("validate", "AuditReturn", "plan.txt").code == 0  # the shape's name works too


@pytest.mark.parametrize(
    ("args", "files", "message"),
    [
        (("auditreturn", "none.txt"), {}, "none.txt: error[file-missing]: cannot read: No such file or directory"),
        (("auditreturn", "bad.txt"), {"bad.txt": b"status: clean\n\xfe\n"}, "bad.txt: error[not-utf8]: byte 0xfe is not valid UTF-8"),
        (("nope", "r.txt"), {"r.txt": "status: clean\n"}, "nope: error[unknown-shape]: no shape has the id 'nope'"),
    ],
)
def test_bad_input_is_exit_2_with_a_located_message(seed_root, run_cli, monkeypatch, args, files, message):
    monkeypatch.chdir(seed_root)
    write_tree(seed_root, files)
    result = run_cli("validate", *args)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(message), result.err


def test_options_of_the_other_shape_kind_are_usage_errors(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "r.txt", "return-shapes/auditreturn/findings-valid.txt")
    result = run_cli("validate", "auditreturn", "r.txt", "--artifact")
    assert result.code == 2 and result.out == ""
    assert "Error: --artifact is for data shapes; a text shape is judged by its receiver checks" in result.err


# --- nothing silently unenforced ---------------------------------------------------------------


UNMECHANISED = """\
# Pings

## PingReturn

Produced by `pinger`; consumed by `ping-skill`.

```
pong: <n>
```

Receiver checks:

1. Line 1 is exactly `pong: ` followed by one of `1` / `2`.
2. The return sounds friendly.
"""


def test_a_check_no_kind_reads_is_a_build_note_skipped_by_validate_and_named(tmp_path, run_cli, monkeypatch):
    root = write_tree(
        tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/pings.md\n", "contracts/pings.md": UNMECHANISED}
    )
    build = run_cli("build", "--root", str(root))
    assert build.code == 0
    assert (
        "contracts/pings.md:14:1: note[check-not-mechanised]: PingReturn check 2 is not mechanised: not read: "
        "“The return sounds friendly”; `contractc validate` does not run it and receivers judge it by reading\n"
    ) in build.out
    monkeypatch.chdir(root)
    write_tree(root, {"r.txt": "pong: 2\n"})
    result = run_cli("validate", "pingreturn", "r.txt")
    assert result.code == 0
    assert result.out == (
        "contractc: r.txt passes 1 of 2 receiver checks of PingReturn; not run (not mechanised), judge by reading: check 2\n"
    )


def test_a_form_the_contract_does_not_define_leaves_the_check_unmechanised(tmp_path):
    from contractc.load import load_project

    text = UNMECHANISED.replace("2. The return sounds friendly.", "2. If `1`, every bullet carries the receipt form.")
    root = write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/pings.md\n", "contracts/pings.md": text})
    (shape,) = load_project(root).contracts[0].text_shapes
    assert shape.checks[1].rules is None
    defined = text + "\n## Forms\n\n**Receipt form.** A receipt reads `<n> received`.\n"
    # a requirement after the recognised one ("and is short") is not read: the check is not half enforced
    (root / "contracts/pings.md").write_text(defined.replace("receipt form.", "receipt form and is short."))
    (shape,) = load_project(root).contracts[0].text_shapes
    assert shape.checks[1].rules is None
    (root / "contracts/pings.md").write_text(defined)
    (shape,) = load_project(root).contracts[0].text_shapes
    (rule,) = shape.checks[1].rules
    assert (rule.kind, rule.form.template, rule.when) == ("bullets", "<n> received", ("1",))


def test_a_condition_no_status_line_allows_is_not_mechanised(tmp_path):
    """A check conditional on a status that line 1 can never carry would pass unenforced: it is not mechanised."""
    from contractc.load import load_project

    typo = UNMECHANISED.replace("2. The return sounds friendly.", "2. If `3`, the second line begins `- `.\n3. If `2`, the second line begins `- `.")
    root = write_tree(tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/pings.md\n", "contracts/pings.md": typo})
    (shape,) = load_project(root).contracts[0].text_shapes
    assert [c.rules is not None for c in shape.checks] == [True, False, True]
    no_status = typo.replace("1. Line 1 is exactly `pong: ` followed by one of `1` / `2`.", "1. Line 1 names the count.")
    (root / "contracts/pings.md").write_text(no_status)
    (shape,) = load_project(root).contracts[0].text_shapes
    assert [c.rules is not None for c in shape.checks] == [False, False, False]


# --- the Python API ----------------------------------------------------------------------------


def test_the_python_api_loads_once_validates_strings_and_builds_the_redispatch(seed_root, run_cli):
    from contractc import Receiver

    assert run_cli("build", "--root", str(seed_root)).code == 0

    receiver = Receiver.load(seed_root)
    shape = receiver.shape("design-auditor", mode="audit")
    assert shape.id == "auditreturn"
    text = (RETURNS / "return-shapes/auditreturn/finding-without-where.txt").read_text("utf-8")
    verdict = receiver.validate(shape, text)
    assert not verdict.passed and verdict.status == "findings"
    (failure,) = verdict.failures
    assert (failure.number, failure.anchor, [q.line for q in failure.quotes]) == (3, "auditreturn-check-3", [6])
    snippet = receiver.dispatch(shape)
    assert snippet == (seed_root / "prompts/design-auditor/auditreturn.md").read_text("utf-8")  # what build wrote
    prompt = receiver.redispatch(shape, verdict)
    assert prompt.startswith(snippet.rstrip("\n")) and prompt.endswith(receiver.evidence(verdict))
    assert receiver.validate("auditreturn", text) == verdict  # a value: the same return, an equal verdict


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["status: consulted", "status: clean", "", "  ", "**Tensions**", "- **x**", "1. a.md",
                                 "  - where: a", "prose", "- **y** ([a § b](https://agentic-atlas.dev/nodes/a#b))"]),
                max_size=30))
def test_any_return_is_judged_without_raising_and_crlf_never_changes_the_verdict(receivers, lines):
    seed = receivers["return-shapes"]
    text = "\n".join(lines)
    for shape in ("consultationreturn", "auditreturn", "editplanreturn"):
        lf = seed.validate(shape, text)
        crlf = seed.validate(shape, text.replace("\n", "\r\n"))
        assert lf == crlf
        assert lf.passed is (not lf.failures)


def test_the_loop_in_the_docs_shows_what_validate_really_prints(tmp_path, run_cli, monkeypatch):
    import re
    import textwrap

    page = (REPO / "docs/receiver-checks.md").read_text("utf-8")
    blocks = re.findall(r"^ {4}```console\n(.*?)^ {4}```\n", page, flags=re.MULTILINE | re.DOTALL)
    assert len(blocks) == 2
    monkeypatch.chdir(tmp_path)
    (tmp_path / "return.txt").write_text(
        "verdict: changes\n\n- **The new flag is never read** in the CLI\n  — `--strict` is parsed and dropped.\n\n"
        "**Not checked**: nothing\n"
    )
    for block in blocks:
        command, *shown = textwrap.dedent(block).splitlines()
        args = command.removeprefix("$ contractc ").split()
        result = run_cli(*args[:1], "--root", str(REPO), *args[1:])
        assert result.code == 1
        assert result.out.splitlines() == shown


WORDS = ["If", "`abc`,", "`- **`", "Line", "1", "is", "exactly", "followed", "by", "one", "of", "/", "every", "bullet",
         "carries", "the", "citation", "form", "≤80", "lines", "begins", "numbered", "list", "starting", "at", "`1.`",
         "and", "names", "a", "file", "Every", "finding", "has", "`where:`", "line", "\n", "present", "heading", "`"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))
def test_any_check_prose_compiles_to_rules_or_to_not_mechanised_without_raising(text):
    from contractc.model.checks.compile import compile_check
    from contractc.model.checks.rules import Form

    rules, unread = compile_check(text, {"citation": Form("citation", "[<id>](<id>)")}, ("abc",))
    assert (rules is None) is bool(unread)  # not mechanised always says why
    assert rules is None or (isinstance(rules, tuple) and rules)


def test_a_check_link_names_the_contract_page_once_under_the_default_and_a_configured_site_url(seed_root, run_cli, monkeypatch):
    monkeypatch.chdir(seed_root)
    _write_return(seed_root, "r.txt", "return-shapes/consultationreturn/tension-without-citation.txt")
    default = run_cli("validate", "consultationreturn", "r.txt").out
    assert "https://example.invalid/contracts/return-shapes/#consultationreturn-check-3" in default
    assert "contracts/contracts/" not in default  # the default site_url already ends in the contracts folder
    config = seed_root / "contractc.yaml"
    config.write_text(config.read_text("utf-8") + "site_url: https://docs.example.com/\n", "utf-8")
    configured = run_cli("validate", "consultationreturn", "r.txt").out
    assert "https://docs.example.com/contracts/return-shapes/#consultationreturn-check-3" in configured


def test_compiled_rules_are_equal_only_within_one_kind():
    """``contractc diff`` compares a check's rules before and after: a rule of another kind is a change,
    even where its fields hold the same values."""
    from dataclasses import astuple, fields

    from contractc.model.checks import rules

    assert rules.RequiredLine("**Skipped**") == rules.RequiredLine("**Skipped**")
    assert rules.RequiredLine("**Skipped**", ("partial",)) != rules.RequiredLine("**Skipped**")
    same_values = rules.MaxLines("**Skipped**", ())  # type: ignore[arg-type]  (values of another kind's shape)
    assert astuple(same_values) == astuple(rules.RequiredLine("**Skipped**", ()))
    assert same_values != rules.RequiredLine("**Skipped**", ())
    assert not same_values == rules.RequiredLine("**Skipped**", ())
    assert len({rules.NamesFile(), rules.NamesFile(), rules.RequiredLine("a"), rules.MaxLines(3)}) == 3
    assert rules.NamesFile().kind == "names-file" and [f.name for f in fields(rules.NamesFile)] == ["when"]


# --- nothing checked is not a pass -------------------------------------------------------------


NOTHING_MECHANISED = UNMECHANISED.replace(
    "1. Line 1 is exactly `pong: ` followed by one of `1` / `2`.", "1. Line 1 names the count, or says why not."
)


def _pings(tmp_path: Path, text: str) -> Path:
    return write_tree(
        tmp_path, {"contractc.yaml": "contracts:\n  - path: contracts/pings.md\n", "contracts/pings.md": text, "r.txt": "pong: 2\n"}
    )


@pytest.mark.parametrize("body", ["", "pong: 2\n"], ids=["empty", "any"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_shape_with_no_mechanised_check_is_exit_2_located_on_the_contract(tmp_path, run_cli, monkeypatch, body, fmt):
    root = _pings(tmp_path, NOTHING_MECHANISED)
    (root / "r.txt").write_text(body)
    monkeypatch.chdir(root)
    result = run_cli("validate", "pingreturn", "r.txt", "--format", fmt)
    assert result.code == 2
    message = (
        "contracts/pings.md:13:1: error[nothing-checked]: PingReturn cannot be validated: none of its 2 receiver checks "
        "is mechanised, so any return, even an empty one, would pass unjudged"
    )
    if fmt == "text":
        assert result.out == "" and result.err.startswith(message + "\n")
    else:
        doc = json.loads(result.out)
        assert [(d["path"], d["line"], d["code"]) for d in doc["diagnostics"]] == [("contracts/pings.md", 13, "nothing-checked")]
        assert "passed" not in doc


def test_require_all_makes_any_check_not_mechanised_exit_2_quoting_its_unread_words(tmp_path, run_cli, monkeypatch):
    root = _pings(tmp_path, UNMECHANISED)
    monkeypatch.chdir(root)
    assert run_cli("validate", "pingreturn", "r.txt").code == 0
    result = run_cli("validate", "pingreturn", "r.txt", "--require-all")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(
        "contracts/pings.md:14:1: error[check-not-run]: PingReturn check 2 is not mechanised (not read: “The return sounds "
        "friendly”), and --require-all asks for every check\n"
    )
    mechanised = UNMECHANISED.replace("2. The return sounds friendly.", "2. The whole return is at most 3 lines.")
    (root / "contracts/pings.md").write_text(mechanised)
    assert run_cli("validate", "pingreturn", "r.txt", "--require-all").code == 0


def test_every_check_not_run_is_listed_by_number_in_text_json_and_evidence(tmp_path, run_cli, monkeypatch):
    root = _pings(tmp_path, UNMECHANISED)
    (root / "r.txt").write_text("pong: 3\n")
    monkeypatch.chdir(root)
    text = run_cli("validate", "pingreturn", "r.txt")
    assert text.code == 1 and "; not run (not mechanised), judge by reading: check 2; discard it" in text.out
    doc = json.loads(run_cli("validate", "pingreturn", "r.txt", "--format", "json").out)
    assert doc["unmechanised"] == [2] and doc["failures"][0]["check"] == 1
    assert "Not run, because not mechanised (the receiver judges it by reading): check 2.\n" in doc["evidence"]
    assert run_cli("validate", "pingreturn", "r.txt", "--evidence").out == doc["evidence"]


def test_the_python_api_gives_the_same_answers_as_the_command(tmp_path):
    from contractc import ContractcError, Receiver

    receiver = Receiver.load(_pings(tmp_path / "some", UNMECHANISED))
    verdict = receiver.validate("pingreturn", "pong: 2\n")
    assert verdict.passed and verdict.unmechanised == (2,)
    with pytest.raises(ContractcError) as refused:
        receiver.validate("pingreturn", "pong: 2\n", require_all=True)
    assert [d.code for d in refused.value.diagnostics] == ["check-not-run"]
    nothing = Receiver.load(_pings(tmp_path / "none", NOTHING_MECHANISED))
    with pytest.raises(ContractcError) as refused:
        nothing.validate("pingreturn", "")
    assert [(d.code, d.line) for d in refused.value.diagnostics] == [("nothing-checked", 13)]


# --- smaller rule errors -----------------------------------------------------------------------


def _shape_of(*checks: str):
    from contractc.model.checks.compile import compile_shape
    from contractc.model.records import Check, Span, TextShape

    span = Span("c.md", 1, 1, 0, 0)
    raw = tuple(Check(n, text, span, f"s-check-{n}") for n, text in enumerate(checks, 1))
    return compile_shape(TextShape("s", "S", "s", "p", "", (), None, raw, span), {})


def test_a_required_line_is_seen_on_line_1_too():
    from contractc.validate.text import judge

    shape = _shape_of("A `Checks run:` line is present.")
    assert judge(shape, "Checks run: 4\nall fine\n").passed
    assert judge(shape, "all fine\nChecks run: 4\n").passed
    assert judge(shape, "all fine\n").failed == (1,)


@pytest.mark.parametrize(
    ("text", "failed"),
    [
        ("findings:\n  - point: a\n    where: x.py\n    remediation: r\n  - point: b\n    where: y.py\n    remediation: s\n", ()),
        ("findings:\n  - point: a\n    where: x.py\n    remediation: r\n  - point: b\n    where: y.py\n", (1,)),
        ("findings:\n- point: a\n  where: x.py\n  remediation: r\n- point: b\n  where: y.py\n", (1,)),
        ("# Review\n\n- **a**\n  - where: x.py\n  - remediation: r\n- **b**\n  - where: y.py\n", (1,)),
        ("# Review\n\n1. **a**\n   where: x.py\n   remediation: r\n", ()),
        ("# Review\n\n1. **a**\n   where: x.py\n\n   - remediation: r\n", ()),  # a sub-item after a blank line is still under it
    ],
    ids=["yaml-indented", "yaml-indented-missing", "yaml-flush-missing", "markdown-missing", "numbered", "numbered-blank"],
)
def test_every_item_has_its_fields_at_any_indent_in_markdown_or_yaml_lists(text, failed):
    from contractc.validate.text import judge

    shape = _shape_of("Every finding has a `where:` line and a `remediation:` line.")
    verdict = judge(shape, text)
    assert verdict.failed == failed
    if failed:
        assert "has no `remediation:` line" in verdict.failures[0].problems[0].message


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("see the Makefile", True),
        ("the Dockerfile pins it", True),
        ("README", True),
        ("edits ~/.bashrc", True),
        ("a `.gitignore` entry", True),
        ("agents/a.md:12", True),
        ("SKILL.md", True),
        ("built on Node.js", False),
        ("an ASP.NET service", False),
        ("on .NET 8", False),
        ("e.g. the tests", False),
        ("i.e. none", False),
        ("fixed in a.py", True),
        ("x.js throws", True),
        ("at 9 a.m. it ran", False),
        ("version v1.2", False),
        ("https://example.com/a.md", False),
    ],
)
def test_names_a_file_reads_real_file_names_and_not_product_names(body, named):
    from contractc.validate.text import judge

    shape = _shape_of("The body names at least one file.")
    assert judge(shape, f"status: clean\n{body}\n").passed is named
