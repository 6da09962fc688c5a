"""`contractc check` as a pull-request gate: the three report formats, exit codes, options.

The golden tests run ``check`` on one project carrying every kind of drift in
:data:`DRIFTS`; their expected output lives in ``tests/golden/report/``.  To
cover a new drift code, add a project file to :data:`PROJECT` if it needs one
and an entry to :data:`DRIFTS`, then regenerate with ``CONTRACTC_REGEN=1`` and
review the diff.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO, snapshot, write_tree
from contractc.report.diagnostics import CODES, Diagnostic, ExitCode
from contractc.output.outputs import Change
from contractc.report.format import FORMATTERS, Options, Report, format_text, github_data, github_property

GOLDEN = Path(__file__).parent / "golden" / "report"
REGEN = os.environ.get("CONTRACTC_REGEN") == "1"

CONTRACT = """\
# Returns

## Shared rules

Always start with `state:`.

## LookupReturn

Produced by `looker`; consumed by `lookup-skill`.

```
state: found
<what was found>
```

Receiver checks:

1. Line 1 begins `state: `.

## ReportReturn

Produced by `reporter`; consumed by `report-skill`.

```
state: done
```

Receiver checks:

1. Line 1 is `state: done`.

## LookupBrief

```yaml
lookup_brief:
  query: string        # what to look up
  scope: repo | web
```
"""

PIN = hashlib.sha256(CONTRACT.encode()).hexdigest()
PROJECT = {
    "contractc.yaml": (
        "contracts:\n"
        "  - path: contracts/returns.md\n"
        "    shared: [shared-rules]\n"
        f"    sha256: {PIN}\n"
        "targets:\n"
        "  - agents/*.md\n"
    ),
    "contracts/returns.md": CONTRACT,
    "agents/looker.md": "# Looker\n\nYou receive:\n\n<!-- contractc:begin shape=lookup_brief -->\n<!-- contractc:end -->\n",
    "agents/reporter.md": "# Reporter\n\n<!-- contractc:begin section=shared-rules -->\n<!-- contractc:end -->\n",
}


CHECKED = 7  # snippets, the prompts manifest, the schema and the schemas manifest
"""Files ``check`` compares in the built PROJECT: 2 snippets, the manifest, a schema, 2 agent files with regions."""


def _edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        target = root / path
        data = target.read_text()
        assert old in data, f"{path} no longer holds {old!r}: update DRIFTS"
        target.write_text(data.replace(old, new, 1))

    return apply


def _remove(path: str) -> Callable[[Path], None]:
    return lambda root: (root / path).unlink()


def _add(path: str, text: str) -> Callable[[Path], None]:
    return lambda root: write_tree(root, {path: text})


def _stale_region(path: str, old_body: str) -> Callable[[Path], None]:
    """The region holds what an older build wrote: old bytes, and the marker records their hash."""

    def apply(root: Path) -> None:
        target = root / path
        text, count = re.subn(
            r"(<!-- contractc:begin \S+ sha256=)[0-9a-f]{64}( -->\n).*?(<!-- contractc:end)",
            lambda m: m.group(1) + hashlib.sha256(old_body.encode()).hexdigest() + m.group(2) + old_body + m.group(3),
            target.read_text(),
            flags=re.DOTALL,
        )
        assert count == 1, f"{path} holds no filled region: update DRIFTS"
        target.write_text(text)

    return apply


RESTATED = "# Writer\n\n```yaml\nlookup_brief:\n  query: string        # what to look up\n  scope: repo | web\n```\n"
ORPHANED = f"# Old\n\n<!-- contractc:begin shape=old_brief sha256={'0' * 64} -->\nold bytes\n<!-- contractc:end -->\n"


# name -> (the code it must be reported with, how to introduce it into the built
# PROJECT).  The edited snippet line starts with a blank and `::`, as a GitHub
# workflow command would: the github format must fence it so it stays text.
DRIFTS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "edited snippet": (
        "drift-output",
        _edit("prompts/looker/lookupreturn.md", "Always start with `state:`.", " ::warning::Always start."),
    ),
    "stale schema": ("drift-output", _edit("schemas/returns/lookup_brief.schema.json", '"query"', '"question"')),
    "missing snippet": ("drift-missing", _remove("prompts/reporter/reportreturn.md")),
    "orphan output": ("drift-orphan", _add("prompts/gone/old.md", "a shape that was removed\n")),
    "edited region": (
        "drift-region-edited",
        _edit("agents/looker.md", "scope: repo | web", "scope: repo | web | mail"),
    ),
    "stale region": ("drift-region-stale", _stale_region("agents/reporter.md", "## Shared rules\n\nStart.\n")),
    "orphaned region": ("drift-region-orphaned", _add("agents/old.md", ORPHANED)),
    "unmanaged restatement": ("drift-restatement", _add("agents/writer.md", RESTATED)),
    "broken anchor": (
        "drift-link",
        _add("agents/citer.md", "# Citer\n\nSee [check 1](../contracts/returns.md#lookupreturn-chek-1).\n"),
    ),
    "pin mismatch": ("drift-pin", _edit("contractc.yaml", PIN, hashlib.sha256(b"approved before").hexdigest())),
}


def introduce(root: Path, *names: str) -> None:
    for name in names or DRIFTS:
        DRIFTS[name][1](root)


@pytest.fixture
def built(tmp_path, run_cli) -> Path:
    root = write_tree(tmp_path / "project", PROJECT)
    assert run_cli("build", "--root", str(root)).code == 0
    return root


@pytest.fixture
def drifted(built) -> Path:
    introduce(built)
    return built


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"{name} differs; if intended, regenerate with CONTRACTC_REGEN=1 and review"


@pytest.mark.parametrize(
    ("args", "golden"),
    [
        ((), "check.txt"),
        (("--no-diff",), "check-no-diff.txt"),
        (("--quiet",), "check-quiet.txt"),
        (("--format", "github"), "check.github.txt"),
        (("--format", "json"), "check.json"),
    ],
)
def test_golden_report_of_every_drift_kind(drifted, run_cli, args, golden):
    before = snapshot(drifted)
    result = run_cli("check", "--root", str(drifted), *args)
    assert (result.code, result.err) == (1, "")
    _golden(golden, result.out)
    for code, _ in DRIFTS.values():
        assert f"[{code}]" in result.out or f"contractc {code}" in result.out or f'"{code}"' in result.out
    assert snapshot(drifted) == before


@pytest.mark.parametrize("name", ["diff-report.schema.json", "verdict.schema.json"])
def test_every_json_report_describes_a_diagnostic_as_check_does(name):
    """A consumer reads the diagnostics of check, scan, diff and validate with one definition."""
    data = REPO / "compiler/contractc/data"
    check = json.loads((data / "check-report.schema.json").read_text())
    other = json.loads((data / name).read_text())
    assert other["$defs"]["diagnostic"] == check["$defs"]["diagnostic"]
    assert other["properties"]["diagnostics"]["items"] == {"$ref": "#/$defs/diagnostic"}


def test_json_report_matches_its_shipped_schema_and_hashes(drifted, run_cli):
    import jsonschema

    schema = json.loads((REPO / "compiler/contractc/data/check-report.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    document = json.loads(run_cli("check", "--root", str(drifted), "--format", "json").out)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(document)
    assert {d["code"] for d in document["diagnostics"]} == {code for code, _ in DRIFTS.values()}
    by_path = {c["path"]: c for c in document["changes"]}
    edited = by_path["prompts/looker/lookupreturn.md"]
    on_disk = (drifted / "prompts/looker/lookupreturn.md").read_bytes()
    assert edited["actual_sha256"] == hashlib.sha256(on_disk).hexdigest()
    assert edited["expected_sha256"] != edited["actual_sha256"]
    assert "+Always start with `state:`.\n" in edited["diff"]
    assert by_path["prompts/gone/old.md"]["expected_sha256"] is None
    assert by_path["prompts/reporter/reportreturn.md"]["actual_sha256"] is None
    no_diff = json.loads(run_cli("check", "--root", str(drifted), "--format", "json", "--no-diff").out)
    assert {c["diff"] for c in no_diff["changes"]} == {None}


@pytest.mark.parametrize("fmt", sorted(FORMATTERS))
def test_clean_check_prints_one_line_and_exits_0(built, run_cli, fmt):
    result = run_cli("check", "--root", str(built), "--format", fmt)
    assert (result.code, result.err) == (0, "")
    if fmt == "json":
        document = json.loads(result.out)
        assert (document["status"], document["exit_code"], document["diagnostics"]) == ("clean", 0, [])
    else:
        assert result.out == f"contractc: {CHECKED} files checked, all current\n"
    assert run_cli("check", "--root", str(built), "--quiet").out == ""


def test_a_clean_check_answered_by_the_cache_prints_in_every_format(built, run_cli, monkeypatch):
    assert run_cli("check", "--root", str(built)).code == 0  # writes the cache

    def no_compile(*args, **kwargs):
        raise AssertionError("the cache should have answered")

    monkeypatch.setattr("contractc.pipeline.run", no_compile)
    assert (
        run_cli("check", "--root", str(built), "--format", "github").out
        == f"contractc: {CHECKED} files checked, all current\n"
    )
    document = json.loads(run_cli("check", "--root", str(built), "--format", "json").out)
    assert (document["status"], document["checked"], document["diagnostics"]) == ("clean", CHECKED, [])
    assert run_cli("check", "--root", str(built), "--quiet").out == ""


BAD_LINE = CONTRACT.count("\n") + 2  # the heading appended by the test
BAD = f"contracts/returns.md:{BAD_LINE}:1: error[duplicate-anchor]: anchor 'shared-rules' is already used by the heading on line 3"


@pytest.mark.parametrize("fmt", sorted(FORMATTERS))
def test_bad_input_exits_2_in_every_format(built, run_cli, fmt):
    (built / "contracts/returns.md").write_text(CONTRACT + "\n## Shared rules\n")
    result = run_cli("check", "--root", str(built), "--format", fmt)
    assert result.code == 2
    if fmt == "text":
        assert result.out == "" and result.err.startswith(BAD + "\n")
        assert "  hint: give one of the headings an explicit {#id}; more: `contractc explain duplicate-anchor`\n" in result.err
        assert "see:" not in result.err  # no docs_url in contractc.yaml: no link to a page nobody published
    elif fmt == "github":
        assert result.err == ""
        assert result.out.startswith(
            f"::error file=contracts/returns.md,line={BAD_LINE},col=1,title=contractc duplicate-anchor::"
            "anchor 'shared-rules' is already used by the heading on line 3%0A"
        )
    else:
        document = json.loads(result.out)
        assert (document["status"], document["exit_code"], document["checked"]) == ("bad-input", 2, 0)
        assert [(d["code"], d["line"]) for d in document["diagnostics"]] == [("duplicate-anchor", BAD_LINE)]


def test_cli_offers_exactly_the_formatters():
    from contractc.cli import FORMATS

    assert FORMATS == tuple(FORMATTERS)


def test_github_escapes_data_and_properties_by_githubs_rules():
    assert github_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert github_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    # a path with a comma or colon cannot end the file property early
    d = Diagnostic("odd,na:me.md", 2, 0, "drift-output", "50% off\nsecond line")
    line = FORMATTERS["github"](Report.of([d]), Options(quiet=True))
    assert line == (
        "::error file=odd%2Cna%3Ame.md,line=2,title=contractc drift-output::50%25 off%0Asecond line"
        "%0Ahint: `contractc explain drift-output` explains this message\n"
    )
    linked = FORMATTERS["github"](Report.of([d]), Options(quiet=True, docs_url="https://docs.example.com/codes/"))
    assert linked.endswith("%0Asee: https://docs.example.com/codes/#drift-output\n")


def test_github_paths_are_relative_to_the_workspace(tmp_path, run_cli, monkeypatch):
    root = write_tree(tmp_path / "sub" / "project", PROJECT)
    run_cli("build", "--root", str(root))
    introduce(root, "orphan output")
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--root", "sub/project", "--format", "github")
    assert result.out.startswith("::error file=sub/project/prompts/gone/old.md,title=contractc drift-orphan::")


def test_formatters_are_generic_over_codes_and_put_each_diff_after_its_files_last_message(monkeypatch):
    # A code the formatters have never heard of, two messages in one file: no formatter change needed.
    monkeypatch.setitem(CODES, "drift-future", (ExitCode.DRIFT, "a kind of drift added later"))
    change = Change("agents/a.md", b"one\ntwo\n", b"one\nTWO\n", None)
    report = Report.of(
        [
            Diagnostic("agents/a.md", 9, 1, "drift-future", "second region", "run `contractc build --force`"),
            Diagnostic("agents/a.md", 2, 1, "drift-future", "first region", "run `contractc build --force`"),
        ],
        [change],
        checked=4,
    )
    text = format_text(report, Options())
    assert text == (
        "agents/a.md:2:1: error[drift-future]: first region\n"
        "  hint: run `contractc build --force`; more: `contractc explain drift-future`\n"
        "agents/a.md:9:1: error[drift-future]: second region\n"
        "  hint: run `contractc build --force`; more: `contractc explain drift-future`\n"
        "--- agents/a.md (on disk)\n"
        "+++ agents/a.md (from contracts)\n"
        "@@ -1,2 +1,2 @@\n"
        " one\n"
        "-TWO\n"
        "+two\n"
        "contractc: 2 drifted, 4 checked; fix each as its hint says (`contractc build --force`)\n"
    )
    document = json.loads(FORMATTERS["json"](report, Options()))
    assert [d["code"] for d in document["diagnostics"]] == ["drift-future", "drift-future"]
    assert document["fix"] is None  # a command that overwrites the user's bytes is never the one fix


def test_summary_names_no_single_fix_when_hints_differ_but_lists_the_commands():
    def summary_of(*hints: str) -> str:
        diagnostics = [Diagnostic(f"{i}.md", 1, 1, "drift-output", "x", hint) for i, hint in enumerate(hints)]
        return format_text(Report.of(diagnostics, checked=5), Options(diff=False)).splitlines()[-1]

    assert summary_of("run `contractc build` to regenerate it", "replace it with a region marker") == (
        "contractc: 2 drifted, 5 checked; fix each as its hint says (`contractc build`)"
    )
    assert summary_of("then run `contractc build --force`", "run `contractc build`") == (
        "contractc: 2 drifted, 5 checked; fix each as its hint says (`contractc build`, `contractc build --force`)"
    )
    assert summary_of("move it into a region") == "contractc: 1 drifted, 5 checked; fix each as its hint says"


def test_colour_only_on_a_terminal_and_never_with_no_color(drifted):
    """Run the real program on a pseudo-terminal: colour there, none with NO_COLOR or through a pipe."""
    import pty

    def run(env_extra: dict[str, str], tty: bool) -> str:
        env = {**os.environ, "PYTHONPATH": str(REPO / "compiler"), **env_extra}
        env.pop("NO_COLOR", None) if "NO_COLOR" not in env_extra else None
        cmd = [sys.executable, "-m", "contractc", "check", "--root", str(drifted)]
        if not tty:
            return subprocess.run(cmd, env=env, capture_output=True, check=False).stdout.decode()
        leader, follower = pty.openpty()
        with subprocess.Popen(cmd, env=env, stdout=follower, stderr=subprocess.DEVNULL) as proc:
            os.close(follower)
            chunks = []
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            proc.wait()
        os.close(leader)
        return b"".join(chunks).decode()

    coloured = run({}, tty=True)
    assert "\x1b[31m\x1b[1merror\x1b[0m" in coloured and "\x1b[32m+Always start" in coloured
    for plain in (run({"NO_COLOR": "1"}, tty=True), run({}, tty=False)):
        assert "\x1b[" not in plain and "error[drift-output]" in plain


# -- --changed-since -----------------------------------------------------------------------------


def _git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(built) -> Path:
    """A git repository whose base commit already carries drift (in the reporter's snippet)."""
    _git(built, "init", "-q", "-b", "main")
    _edit("prompts/reporter/reportreturn.md", "state: done", "state: finished")(built)
    _git(built, "add", "-A")
    _git(built, "commit", "-qm", "base with old drift")
    return built


def test_changed_since_reports_only_drift_the_changes_touch(repo, run_cli):
    introduce(repo, "edited snippet")
    result = run_cli("check", "--root", str(repo), "--changed-since", "main", "--no-diff")
    assert result.code == 1
    assert result.out.startswith("prompts/looker/lookupreturn.md:3:1: error[drift-output]")
    assert "reportreturn" not in result.out
    assert result.out.endswith(
        f"contractc: 1 drifted, {CHECKED} checked (1 more drifted outside the changes since main); run `contractc build` to fix\n"
    )
    introduce(repo, "orphan output")  # untracked files count as changed
    assert (
        "prompts/gone/old.md: error[drift-orphan]"
        in run_cli("check", "--root", str(repo), "--changed-since", "main").out
    )


def test_changed_since_with_untouched_drift_only_is_clean_and_says_so(repo, run_cli):
    result = run_cli("check", "--root", str(repo), "--changed-since", "HEAD")
    assert (result.code, result.out) == (
        0,
        f"contractc: {CHECKED} files checked, no drift in the changes since HEAD (1 more drifted outside the changes since HEAD)\n",
    )
    assert run_cli("check", "--root", str(repo)).code == 1, "the full check stays the default"


def test_changed_since_reports_all_drift_when_a_contract_changed(repo, run_cli):
    _edit("contracts/returns.md", "Always start", "Always begin")(repo)
    result = run_cli("check", "--root", str(repo), "--changed-since", "main", "--quiet")
    assert result.code == 1
    # every output the edited section reaches: the snippets and their manifest; the schemas are the
    # shapes' own blocks' (their provenance), so a prose edit leaves them and their manifest current
    assert result.out.count("error[drift-output]") == 3


def test_a_changed_source_keeps_every_drift_and_a_source_folder_counts_for_its_files():
    from contractc.drift.changed import limit_to_changes

    drift = [
        Diagnostic("agents/a.md", 3, 1, "drift-output", "x"),
        Diagnostic("prompts/b.md", 0, 0, "drift-orphan", "y"),
    ]
    sources = {"contractc.yaml", "contracts/c.md", "site_overrides/"}
    assert limit_to_changes(drift, [], {"agents/a.md", "README.md"}, sources) == (drift[:1], [], 1)
    assert limit_to_changes(drift, [], {"contracts/c.md"}, sources) == (drift, [], 0)
    assert limit_to_changes(drift, [], {"site_overrides/page.md"}, sources) == (drift, [], 0)
    assert limit_to_changes(drift, [], {"site_overrides.md"}, sources) == ([], [], 2)


@pytest.mark.parametrize("fmt", sorted(FORMATTERS))
def test_bad_ref_exits_2_in_every_format(repo, run_cli, fmt):
    result = run_cli("check", "--root", str(repo), "--changed-since", "no-such-ref", "--format", fmt)
    assert result.code == 2
    message = "--changed-since no-such-ref: 'no-such-ref' is not a commit"
    if fmt == "text":
        assert result.err.startswith(f"--changed-since:1:1: error[bad-ref]: {message}\n  hint: name a commit git knows")
    elif fmt == "github":
        assert result.out.startswith(f"::error title=contractc bad-ref::{message}%0Ahint: ")
    else:
        assert json.loads(result.out)["diagnostics"][0]["message"] == message


def test_changed_since_outside_a_git_repository_exits_2(built, run_cli):
    result = run_cli("check", "--root", str(built), "--changed-since", "main")
    assert result.code == 2
    assert result.err.startswith("--changed-since:1:1: error[bad-ref]: --changed-since main: fatal: not a git repository")
