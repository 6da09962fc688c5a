"""diff on revision pairs of a small contract, each the way real contracts evolve: checks inserted, reordered,
reworded, tightened and loosened, a compound check that gains a clause, a shape renamed, a shared section added.

Every record is asserted by kind, verdict and anchor.  The contract is this file's own.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from contractc.diff.checks import SIMILAR, classify_rules, pair_checks, similarity, words
from contractc.diff.gate import run_diff
from contractc.model.checks.rules import Contains, Count, Heading, IsData, LineIs
from contractc.model.records import Check
from diff_repo import edit, make_repo

TRIAGE = "contracts/triage.md"
CONFIG = "contracts:\n  - path: contracts/triage.md\n    shared: [common-forms]\n"
CHECKS = """\
1. Line 1 is exactly `outcome: ` followed by one of `fixed` / `wontfix` /
   `duplicate`.
2. If `fixed`, every bullet begins `- **`.
3. If `fixed`, a `**Tests run**:` line is present.
4. The whole return is at most 40 lines.
"""
CONTRACT = f"""\
# Triage returns — what the triage agent reports back

The one place the triage seam is written down. The dispatching skill pastes
the shape it needs and the shared forms into the prompt, and judges the
return by that shape's receiver checks alone.

## Common forms

**Location form.** A claim about code says where the code is, as
`` `<file>#L<line>` ``, for instance `` `lib/parse.py#L42` ``.

## TriageReturn

Produced by `triager`; consumed by `triaging-issues`.

```
outcome: fixed

- **<what was wrong, one line>** `<file>#L<line>`
  — how the fix addresses it, in a sentence or two.

**Tests run**: <the test command, or "none">
```

With `outcome: wontfix`, the body is one paragraph saying why.

Receiver checks:

{CHECKS}"""
CHECK = {n: line for n, line in enumerate(["", *CHECKS.replace("\n   ", " ").splitlines()]) if n}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "p", {"contractc.yaml": CONFIG, TRIAGE: CONTRACT})


def change(repo: Path, old: str, new: str) -> None:
    edit(repo, TRIAGE, old, new)


def said(repo: Path) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """id -> (verdicts, anchors) of every record of a diff against HEAD."""
    return {r.id: (r.verdicts, r.anchors) for r in run_diff(repo, "HEAD", None).records}


def records(repo: Path) -> dict:
    return {r.id: r for r in run_diff(repo, "HEAD", None).records}


def test_a_check_inserted_mid_list_is_one_addition_and_renumbers_each_check_after_it(repo):
    change(
        repo,
        "3. If `fixed`, a `**Tests run**:`",
        "3. If `fixed`, a `**Root cause**:` line is present.\n4. If `fixed`, a `**Tests run**:`",
    )
    change(repo, "4. The whole return", "5. The whole return")
    assert said(repo) == {
        "check-added:triagereturn:check-3": (("producers",), ("triagereturn-check-3",)),
        "check-renumbered:triagereturn:check-3": (("links",), ("triagereturn-check-3", "triagereturn-check-4")),
        "check-renumbered:triagereturn:check-4": (("links",), ("triagereturn-check-4", "triagereturn-check-5")),
    }
    moved = records(repo)["check-renumbered:triagereturn:check-3"]
    assert moved.message == (
        "TriageReturn: check 3 is now check 4, #triagereturn-check-4: "
        "a link to #triagereturn-check-3 now lands on another check"
    )


def test_checks_swapped_with_their_words_kept_are_two_renumberings_and_nothing_else(repo):
    change(repo, CHECK[2] + "\n" + CHECK[3], CHECK[3].replace("3.", "2.", 1) + "\n" + CHECK[2].replace("2.", "3.", 1))
    assert said(repo) == {
        "check-renumbered:triagereturn:check-2": (("links",), ("triagereturn-check-2", "triagereturn-check-3")),
        "check-renumbered:triagereturn:check-3": (("links",), ("triagereturn-check-3", "triagereturn-check-2")),
    }


def test_a_reordered_list_gives_only_renumberings(repo):
    # the line limit moves to the top; the others move down one, their words kept
    order = [(4, 1), (1, 2), (2, 3), (3, 4)]
    (repo / TRIAGE).write_text(CONTRACT.replace(CHECKS, "".join(f"{new}.{CHECK[old][2:]}\n" for old, new in order)))
    assert said(repo) == {
        f"check-renumbered:triagereturn:check-{old}": (
            ("links",),
            (f"triagereturn-check-{old}", f"triagereturn-check-{new}"),
        )
        for old, new in order
    }


def test_a_check_reworded_to_the_same_rule_is_compatible_and_says_so_in_json(repo, run_cli):
    change(repo, CHECK[4], "4. The whole return is no more than 40 lines.")
    [record] = records(repo).values()
    assert (record.id, record.verdicts, record.anchors) == (
        "check-reworded:triagereturn:check-4",
        (),
        ("triagereturn-check-4",),
    )
    assert record.message == "TriageReturn: check 4: reworded; it compiles to the same rules"
    document = json.loads(run_cli("diff", "--root", str(repo), "--against", "HEAD", "--format", "json").out)
    assert [(r["direction"], r["verdict"]) for r in document["records"]] == [("same", "compatible")]


def test_a_check_tightened_breaks_producers_and_one_loosened_breaks_receivers(repo):
    change(repo, "`fixed` / `wontfix` /\n   `duplicate`.", "`fixed` / `wontfix`.")
    change(repo, CHECK[4], "4. The whole return is at most 60 lines.")
    found = records(repo)
    tightened, loosened = found["check-stricter:triagereturn:check-1"], found["check-looser:triagereturn:check-4"]
    assert (tightened.verdicts, tightened.anchors, tightened.direction) == (
        ("producers",),
        ("triagereturn-check-1",),
        "stricter",
    )
    assert tightened.message.endswith("reworded stricter: status value(s) `duplicate` no longer allowed")
    assert (loosened.verdicts, loosened.anchors, loosened.direction) == (
        ("receivers",),
        ("triagereturn-check-4",),
        "looser",
    )
    assert loosened.message.endswith("reworded looser: line limit 40 -> 60")
    assert len(found) == 2


def test_a_check_made_to_apply_always_is_stricter(repo):
    change(repo, CHECK[2], "2. Every bullet begins `- **`.")
    assert said(repo) == {"check-stricter:triagereturn:check-2": (("producers",), ("triagereturn-check-2",))}


def test_a_compound_check_that_gains_a_clause_is_stricter(repo):
    change(repo, CHECK[2], "2. If `fixed`, every bullet begins `- **` and carries a location in the\n   location form.")
    [record] = records(repo).values()
    assert (record.id, record.verdicts, record.anchors) == (
        "check-stricter:triagereturn:check-2",
        ("producers",),
        ("triagereturn-check-2",),
    )
    assert record.message.endswith("reworded stricter: a new required form: the location form")


LONG = (
    "3. If `fixed`, every bullet carries the location form. If `wontfix`, every bullet after\n"
    "   the opening `- **Not fixed**` bullet does."
)


def _reword(repo: Path, before: str, after: str) -> None:
    from diff_repo import commit

    change(repo, CHECK[3], before)
    commit(repo, "the earlier wording")
    change(repo, before, after)


def test_a_long_rewording_is_still_one_check_classified_by_its_rules(repo):
    """Modelled on a check rewritten at length: its words alone are far apart (difflib ratio about 0.44,
    under the 0.6 that once paired checks); the words they share and their rules carry the pairing."""
    _reword(repo, "3. Every finding bullet carries the location form.", LONG)
    [record] = records(repo).values()
    assert (record.id, record.verdicts, record.anchors, record.direction) == (
        "check-changed:triagereturn:check-3",
        ("producers", "receivers"),
        ("triagereturn-check-3",),
        "both",
    )
    # it now applies only with `fixed` (looser), and with `wontfix` to every bullet but the first (stricter)
    assert "now applies only `fixed` (was always)" in record.message
    assert "now requires bullets carrying the location form (if `wontfix`)" in record.message


def test_a_rewording_of_a_check_not_mechanised_is_unclassified_read_it_in_text_and_json(repo, run_cli):
    _reword(repo, "3. Every bullet points at code in the location form.", LONG)
    [record] = records(repo).values()
    assert (record.id, record.verdicts, record.anchors, record.direction) == (
        "check-reworded:triagereturn:check-3",
        ("unclassified",),
        ("triagereturn-check-3",),
        "unclassified",
    )
    assert record.message == (
        "TriageReturn: check 3: reworded; unclassified: read it (the older revision's check is not fully "
        "mechanised, so no direction is guessed)"
    )
    result = run_cli("diff", "--root", str(repo), "--against", "HEAD")
    assert result.code == 1 and "error[changed-unclassified]" in result.out and "unclassified: read it" in result.out
    document = json.loads(run_cli("diff", "--root", str(repo), "--against", "HEAD", "--format", "json").out)
    assert [(r["direction"], r["verdict"], r["verdicts"]) for r in document["records"]] == [
        ("unclassified", "changed, unclassified", ["unclassified"])
    ]
    assert "unclassified: read it" in document["records"][0]["message"]


def test_a_removed_check_is_located_where_it_stood_in_todays_file(repo, run_cli):
    change(repo, CHECK[3] + "\n", "")
    change(repo, "4. The whole return", "3. The whole return")
    found = said(repo)
    assert found["check-removed:triagereturn:check-3"] == (("receivers",), ("triagereturn-check-3",))
    assert found["check-renumbered:triagereturn:check-4"] == (
        ("links",),
        ("triagereturn-check-4", "triagereturn-check-3"),
    )
    assert found["anchor-removed:triagereturn-check-4"][0] == ("links",)
    document = json.loads(run_cli("diff", "--root", str(repo), "--against", "HEAD", "--format", "json").out)
    removed = next(r for r in document["records"] if r["kind"] == "check-removed")
    today = (repo / TRIAGE).read_text().splitlines()
    # the line that now follows the removed check: the old check 4, renumbered
    assert today[removed["stood"]["line"] - 1] == "3. The whole return is at most 40 lines."
    assert removed["new"] is None
    assert removed["old"]["line"] == CONTRACT.splitlines().index(CHECK[3]) + 1


def test_a_renamed_shape_is_one_record_naming_the_command_and_snippet_that_change(repo):
    change(repo, "## TriageReturn", "## IssueReturn")
    [record] = records(repo).values()
    assert (record.id, record.verdicts) == ("shape-renamed:triagereturn", ("receivers", "links"))
    assert record.anchors == ("triagereturn", *(f"triagereturn-check-{n}" for n in range(1, 5)))
    assert (
        "`contractc validate triagereturn` now exits 2 (`contractc validate issuereturn` is the command now)"
        in record.message
    )
    assert (
        "its dispatch snippet prompts/triager/triagereturn.md is now prompts/triager/issuereturn.md" in record.message
    )
    assert "Breaks the skills that dispatch triager with it (triaging-issues), and every link to it" in record.message


def test_a_shape_renamed_with_its_prose_rewritten_is_still_one_rename_by_its_checks(repo):
    change(
        repo,
        "## TriageReturn\n\nProduced by `triager`; consumed by `triaging-issues`.",
        "## IssueReturn\n\nThe triage agent `triager` writes it; the skill `triaging-issues` reads it.\n\nProduced by `triager`; consumed by `triaging-issues`.",
    )
    change(
        repo,
        "With `outcome: wontfix`, the body is one paragraph saying why.",
        "A `wontfix` return explains itself in one short paragraph.",
    )
    found = said(repo)
    assert found["shape-renamed:triagereturn"][0] == ("receivers", "links")
    assert not any(rid.startswith(("shape-removed", "shape-added", "check-", "anchor-removed")) for rid in found)


def test_a_shared_section_added_is_new_to_the_producer(repo):
    edit(repo, "contractc.yaml", "shared: [common-forms]", "shared: [common-forms, tone]")
    change(repo, "## TriageReturn", "## Tone\n\nState facts; no apologies, no praise.\n\n## TriageReturn")
    found = records(repo)
    added = found["shared-section-added:tone"]
    assert (added.verdicts, added.agents) == (("producers",), ("triager",))
    assert set(found) == {"shared-section-added:tone"}


def _check(text: str, number: int = 1) -> Check:
    return Check(number, text, None, f"x-check-{number}", None)  # type: ignore[arg-type]


def test_the_similarity_pairs_a_long_rewording_that_word_ratio_would_not():
    short = "Every finding bullet carries the location form."
    long = (
        "If `fixed`, every bullet carries the location form — a bullet about a test run as much as one "
        "about a code change. If `wontfix`, every bullet after the opening `- **Not fixed**` bullet does."
    )
    assert difflib.SequenceMatcher(a=words(short), b=words(long), autojunk=False).ratio() < 0.6
    assert similarity(_check(short), _check(long)) >= SIMILAR
    # checks about different things share too little to be one check
    assert (
        similarity(
            _check("If `fixed`, a `**Tests run**:` line is present."), _check("If `fixed`, every bullet begins `- **`.")
        )
        < SIMILAR
    )
    assert similarity(_check(short), _check("If a `**Tests run**:` line is present, it names a command.")) < SIMILAR


def test_pairing_takes_equal_words_before_similar_ones_and_equal_checks_keep_their_order():
    same = "The whole return is at most 40 lines."
    old = (_check("Line 1 is `x`.", 1), _check(same, 2), _check(same, 3))
    new = (_check(same, 1), _check(same, 2), _check("Line 1 is `x` exactly.", 3))
    pairs = {(p.old.number if p.old else None, p.new.number if p.new else None, p.by) for p in pair_checks(old, new)}
    assert pairs == {(2, 1, "words"), (3, 2, "words"), (1, 3, "similar")}


CORPUS = Path(__file__).parent / "corpus" / "changelog"


def test_checks_with_explicit_rules_are_compared_with_the_rules_they_had_at_the_ref(tmp_path, run_cli):
    """The older side reads each contract's `<name>.checks.yaml` as it was: a revision compared with itself
    has no change (not every explicitly ruled check "mechanised now"), in every way of naming the older side."""
    files = {p.relative_to(CORPUS).as_posix(): p.read_text("utf-8") for p in CORPUS.rglob("*") if p.is_file()}
    repo = make_repo(tmp_path / "p", files)
    older = make_repo(tmp_path / "older", files)
    for args in (
        ("--against", "HEAD"),
        ("--against-path", str(older)),
        ("--against-path", str(older / "contracts/changelog.md")),
    ):
        result = run_cli("diff", "--root", str(repo), *args)
        assert (result.code, result.out.endswith(": 0 change(s) since " + args[1] + ", 0 breaking\n")) == (0, True), (
            args
        )
    # the check and its rule reworded together: a rule the diff can read (here: another text kept out)
    edit(repo, "contracts/changelog.md", "such as `TBD` in", "such as `TODO` in")
    edit(repo, "contracts/changelog.checks.yaml", "value: TBD", "value: TODO")
    [record] = records(repo).values()
    assert (record.id, record.anchors) == ("check-changed:changelogentry:check-3", ("changelogentry-check-3",))
    assert record.verdicts == ("producers", "receivers")


def test_a_data_shape_renamed_with_its_fields_kept_is_one_rename_naming_its_schema(tmp_path):
    from diff_repo import make_repo as project_repo

    repo = project_repo(tmp_path / "own")  # this project's own contracts
    edit(repo, "contracts/handoffs.md", "build_report:\n", "build_summary:\n")
    found = {r.id: r for r in run_diff(repo, "HEAD", None).records}
    renamed = found["shape-renamed:build_report"]
    assert (renamed.verdicts, renamed.anchors[0]) == (("receivers", "links"), "build_report")
    assert "`contractc validate build_report` now exits 2" in renamed.message
    assert (
        "schemas/handoffs/build_report.schema.json is now schemas/handoffs/build_summary.schema.json" in renamed.message
    )
    assert not any(rid.startswith(("shape-removed", "shape-added", "field-", "anchor-removed")) for rid in found)


@pytest.mark.parametrize(
    "old,new,kind,said",
    [
        (Count("words", most=200), Count("words", most=150), "check-stricter", "at most 200 words -> 150"),
        (Count("lines", least=3), Count("lines"), "check-looser", "no longer at least 3 lines"),
        (Contains(("TBD",), "none"), Contains(("TBD", "TODO"), "none"), "check-stricter", "now also keeps out `TODO`"),
        (Contains(("## Risks",), "all"), Contains((), "all"), "check-looser", "no longer requires `## Risks`"),
        (LineIs(-1, ("PASS", "FAIL")), LineIs(-1, ("PASS",)), "check-stricter", "may no longer be `FAIL`"),
        (LineIs(-1, ("PASS",)), LineIs(-1, ("PASS", "SKIP")), "check-looser", "may now be `SKIP`"),
        (Heading("**Risks**"), IsData("yaml"), "check-changed", "no longer requires a heading `**Risks**`"),
    ],
)
def test_the_rule_kinds_of_whole_and_explicit_checks_are_compared_with_a_direction(old, new, kind, said):
    found, message, _ = classify_rules((old,), (new,), "reworded")
    assert found == kind
    assert said in message
    assert "('" not in message and "None" not in message  # values as code, never Python reprs
