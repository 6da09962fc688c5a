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
        "contracts/pings.md:14:1: note[check-not-mechanised]: PingReturn check 2 is not mechanised: no check kind "
        "reads its prose, so `contractc validate` skips it and receivers judge it by reading\n"
    ) in build.out
    monkeypatch.chdir(root)
    write_tree(root, {"r.txt": "pong: 2\n"})
    result = run_cli("validate", "pingreturn", "r.txt")
    assert result.code == 0
    assert result.out == (
        "contractc: r.txt passes 1 of 2 receiver checks of PingReturn; not mechanised, judge by reading: check 2\n"
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

    rules = compile_check(text, {"citation": Form("citation", "[<id>](<id>)")}, ("abc",))
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


def test_each_recogniser_tried_only_on_clauses_holding_its_words_mechanises_every_check_as_before(seeds, tmp_path, monkeypatch):
    """A recogniser's pattern is compiled and searched only on a clause holding its words (start-up: most
    prose names none).  On the published contract and the research desk's (tests/lifecycle_plugin.py),
    every check compiles to the rules trying every pattern on every clause gives."""
    from contractc.model.checks import compile as compiling
    from contractc.load import load_project
    from lifecycle_plugin import write_plugin

    def rules_of(root: Path) -> list:
        return [(shape.id, check.number, check.rules) for contract in load_project(root).contracts for shape in contract.text_shapes for check in shape.checks]

    roots = [seed_project(tmp_path / "seed", seeds), write_plugin(tmp_path / "desk")]
    found = [rules_of(root) for root in roots]
    every_pattern = {name: ("", pattern, build) for name, (_, pattern, build) in compiling.RECOGNISERS.items()}
    monkeypatch.setattr(compiling, "RECOGNISERS", every_pattern)
    assert [rules_of(root) for root in roots] == found
    mechanised = [rules for checks in found for _, _, rules in checks if rules is not None]
    assert len(mechanised) >= 10 and {r.kind for rules in mechanised for r in rules} >= {"status-line", "bullets", "max-lines"}


def test_compiled_rules_are_equal_only_within_one_kind():
    """``contractc diff`` compares a check's rules before and after: a rule of another kind is a change,
    even where its fields hold the same values (rules are tuples underneath)."""
    from contractc.model.checks import rules

    assert rules.RequiredLine("**Skipped**") == rules.RequiredLine("**Skipped**")
    assert rules.RequiredLine("**Skipped**", ("partial",)) != rules.RequiredLine("**Skipped**")
    same_values = rules.MaxLines("**Skipped**", ())  # type: ignore[arg-type]  (values of another kind's shape)
    assert tuple(same_values) == tuple(rules.RequiredLine("**Skipped**", ()))
    assert same_values != rules.RequiredLine("**Skipped**", ())
    assert not same_values == rules.RequiredLine("**Skipped**", ())
    assert len({rules.NamesFile(), rules.NamesFile(), rules.RequiredLine("a"), rules.MaxLines(3)}) == 3
    assert rules.NamesFile().kind == "names-file" and rules.NamesFile._fields == ("when",)
