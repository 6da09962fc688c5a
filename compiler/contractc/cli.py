"""The command line: a thin shell over :mod:`contractc.pipeline`.

``main(argv) -> int`` runs in-process (the tests call it); the exit-code policy
is :class:`~contractc.report.diagnostics.ExitCode`: 0 clean, 1 drift or failed
validation, 2 bad input or usage, 3 internal error, 130 interrupted (143 on SIGTERM).
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from contractc.report import __version__
from contractc.report.format import FORMATS

# Each command's stack (the loader, the model, the site ...) is imported by the command.

if TYPE_CHECKING:
    from contractc.report.diagnostics import Diagnostic
    from contractc.report.format import Outcome, Report


def format_option(help: str = "text for people; github for GitHub Actions annotations; json for one machine-readable document."):
    """``--format text|json|github``, the same option on every command that reports; ``help`` says what each gives."""
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True, help=help)


ROOT_OPTION = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Project root: the folder holding contractc.yaml.",
)


SITE_PAGES_OPTION = click.option(
    "--site-pages",
    "site_pages",
    metavar="DIR",
    help="Also write the contract site's pages under DIR (project-relative), as out.site does: "
    "for site engines without mkdocs plugins, such as Zensical.",
)


CACHE_OPTION = click.option(
    "--cache/--no-cache",
    default=True,
    show_default=True,
    help="Use and keep .contractc/check.sha256: when no file the last clean run read has changed, "
    "confirm that without compiling.",
)


def _progress(command):
    """Progress on stderr while the command works (see contractc.report.progress); the printers clear it first."""

    @functools.wraps(command)
    def run(**params):
        from contractc.report.progress import shown

        with shown(bool(params.get("quiet")), str(params.get("fmt", "text"))):
            return command(**params)

    return run


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="contractc")
@click.option(
    "--debug",
    is_flag=True,
    help="On an internal error (exit 3), print Python's traceback; also with CONTRACTC_DEBUG=1.",
)
def cli(debug: bool) -> None:
    """Compile agent contracts (contracts/*.md) into their copies, and catch drift.

    \b
    Typical use:
      contractc init [PATH]    start a project: a starter contract, agents, a site
      contractc build          regenerate every copy after editing a contract
      contractc check          in CI: exit 1 if any copy drifted from its contract
                               (--format github: annotations on the pull request)
      contractc hash FILE      print the SHA-256 a contract is published with
      contractc validate SHAPE FILE   judge an agent's return (or a document) against a shape
      contractc explain CODE   what a message's code means and how to fix it
      contractc scan [PATH]    an existing plugin: where its pasted copies disagree
      contractc adopt [PATH]   move those copies under a contract (--write)
      contractc diff --against REF    in CI: exit 1 if a contract change since REF
                               breaks producers, receivers or links unaccepted

    Exit codes: 0 clean, 1 drift, failed validation or a breaking change, 2 bad input or usage,
    3 internal error (a bug: please report it), 130 interrupted by Ctrl-C, 143 by SIGTERM (the message says how the files are).
    """


@cli.command()
@ROOT_OPTION
@click.option("--force", is_flag=True, help="Overwrite managed regions that were edited by hand (the edit is lost).")
@SITE_PAGES_OPTION
@_progress
def build(root: Path, force: bool, site_pages: str | None) -> int:
    """Compile the contracts and write every output that changed.

    Writes are all-or-nothing: if any file cannot be written, none is changed.
    Running build twice writes nothing the second time.  A managed region edited
    by hand is never overwritten silently: build writes nothing and exits 1
    naming it, unless --force is given.

    Exit 0 when every output is current, 1 when a region needs a decision or
    drift build cannot fix remains (a restatement, a broken pin: reported after
    writing), 2 for bad input (nothing written).
    """
    from contractc.output.build import build as build_project

    return _print(build_project(root, force, site_pages))


@cli.command()
@ROOT_OPTION
@SITE_PAGES_OPTION
@format_option()
@click.option("--diff/--no-diff", default=True, show_default=True, help="Show a unified diff for each drifted file.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing when clean; on drift only the located lines.")
@click.option(
    "--changed-since",
    metavar="REF",
    help="Report only drift whose copy or source changed since the git REF (e.g. origin/main).",
)
@CACHE_OPTION
@_progress
def check(
    root: Path, site_pages: str | None, fmt: str, diff: bool, quiet: bool, changed_since: str | None, cache: bool
) -> int:
    """Compare every output with what the contracts compile to; write nothing.

    Also checks that every link into a contract (`contracts/x.md#anchor`) or
    into the contract site (the site_url) names an anchor that exists, and that
    no dispatch snippet exceeds its context budget (budgets: in contractc.yaml,
    in estimated tokens: UTF-8 bytes / 4).

    Exit 0 when every copy is current, 1 when any drifted or a link dangles
    (each one is named with file:line, drifted files with a diff), 2 for bad
    input. Colour only on a terminal, never when NO_COLOR is set. The only
    file it may write is its cache in .contractc/ (see --no-cache), except
    that it first finishes or undoes a build that was killed (its journal in
    .contractc/), and reports files such a build left behind.
    """
    from contractc.drift.check import check as check_project

    found, docs_url = check_project(root, click.get_current_context().params)
    return _report(found, fmt, diff, quiet, root, docs_url)


@cli.command()
@ROOT_OPTION
@click.option("--against", metavar="REF", help="The older revision: a git ref (origin/main, a tag, HEAD~1).")
@click.option(
    "--against-path",
    metavar="PATH",
    type=click.Path(path_type=Path),
    help="The older revision on disk instead: a folder holding its contractc.yaml, or one contract file "
    "(a relative PATH is relative to --root).",
)
@format_option("text for people; github for annotations on the pull request; json for every change record.")
@click.option("-q", "--quiet", is_flag=True, help="Only the located lines, no hints or summary.")
@click.option(
    "--accept",
    is_flag=True,
    help="Record every breaking change not yet accepted in contractc.changes.yaml (commit it with the change).",
)
@click.option("--why", metavar="TEXT", help="With --accept: why the change is accepted, written into each entry.")
@_progress
def diff(
    root: Path, against: str | None, against_path: Path | None, fmt: str, quiet: bool, accept: bool, why: str | None
) -> int:
    """Classify every change to the contracts since REF by whom it breaks.

    \b
    Each change (a field added, a check reworded, a section renamed ...) is one
    line with its id and verdict: breaking for producers (an agent must now emit
    something new or stricter), for receivers (a skill may now see something it
    rejects), for links (a published anchor is gone), changed, unclassified (a
    rule reworded where no direction can be read: treated as breaking), or
    compatible. Receiver checks are paired by an equal compiled rule, then
    equal words, then similarity: a check that only moved is one renumbering.

    \b
    A breaking change passes once accepted on purpose in contractc.changes.yaml:
      contractc diff --against origin/main --accept --why "producers updated in this PR"
    An acceptance added since REF that matches no change is stale (exit 1).

    Exit 0 nothing breaking (or all accepted), 1 something breaking, 2 bad input
    (an unknown ref, not a git repository, an unreadable contract on either side).
    """
    if (against is None) == (against_path is None):
        raise click.UsageError("give exactly one of --against REF and --against-path PATH")
    if accept and not (why and why.strip()):
        raise click.UsageError("--accept needs --why TEXT: an acceptance says why the change is fine")
    from contractc.diff.command import diff_command

    color = _color_wanted(sys.stdout)
    return _print(diff_command(root, against, against_path, fmt, quiet, accept, why, color, _workspace_prefix(root)))


def _report(report: Report, fmt: str, diff: bool, quiet: bool, root: Path, docs_url: str = "") -> int:
    from contractc.report.format import FORMATTERS, Options, stream_for

    _end_progress()
    to_stderr = stream_for(fmt, report)
    color = _color_wanted(sys.stderr if to_stderr else sys.stdout)
    options = Options(diff=diff, quiet=quiet, color=color, path_prefix=_workspace_prefix(root), docs_url=docs_url)
    text = FORMATTERS[fmt](report, options)
    if text:
        click.echo(text, nl=False, err=to_stderr, color=color)
    return report.exit_code


def _color_wanted(stream: object) -> bool:
    """Colour on a terminal only, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _workspace_prefix(root: Path) -> str:
    """The project root as seen from the working directory, for GitHub's repository-relative paths."""
    try:
        rel = root.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return ""
    return "" if rel == Path(".") else rel.as_posix() + "/"


SCAN_OPTIONS = (
    click.argument("path", required=False, default=".", type=click.Path(file_okay=False, path_type=Path)),
    click.option("--include", multiple=True, metavar="GLOB", help="Read only files matching GLOB (project-relative; repeatable)."),
    click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files matching GLOB (repeatable); .gitignore is always honoured."),
    click.option(
        "--owner",
        "owners",
        multiple=True,
        metavar="GLOB",
        help="A copy in a file matching GLOB owns its shape, whatever the default rule says (repeatable).",
    ),
)


def _scan_options(command):
    for option in reversed(SCAN_OPTIONS):
        command = option(command)
    return command


@cli.command()
@_scan_options
@format_option()
@click.option("--diff/--no-diff", default=True, show_default=True, help="Show each divergent copy's diff against its owning copy.")
@click.option("-q", "--quiet", is_flag=True, help="Only the located lines, no notes, diffs or summary.")
@click.option(
    "-v", "--verbose", is_flag=True,
    help="Also a note at every member: each shape's owner and why, every copy, instance and example (the JSON report always has them).",
)
@_progress
def scan(
    path: Path, include: tuple[str, ...], exclude: tuple[str, ...], owners: tuple[str, ...], fmt: str, diff: bool, quiet: bool, verbose: bool
) -> int:
    """Show where the hand-pasted copies of each shape in PATH (default .) disagree; no configuration needed.

    \b
    Reads every Markdown file (honouring .gitignore) and finds fenced YAML
    (one shape per top-level key; a fenced front matter is one), JSON
    documents, and templates: placeholders in any style (<x>, {x}, {{x}},
    [x], ..., …) with headings, `Label: value` lines or tags, heading
    skeletons with **Field:** lines, `Label: value` blocks and forms
    filled in (label lines, no placeholder left), and display
    samples (a plain fence of rule lines, `Label:   value` rows and
    CAPITALISED section titles: its rows and titles compared, its values
    a sample's own).  Blocks are grouped by structure (key paths at
    every depth, headings, labels), never by the headings around them;
    a field such as `status: failed` or `direction: to-cache` separates
    an envelope's variants.  Each member is a copy, a drifted copy, an
    instance (the structure with its own values) or an example; instances
    and examples keep the shape's keys (a lost key diverges, `...`
    elides), only their values are free.

    \b
    The owning copy: one matching --owner; else the definition a file
    declares (templates/, references/, a schema file, "produces the
    following format"); else, in a git work tree, the copy changed most
    recently; else the majority.  Printed by default: each drifted copy and
    each instance or example that breaks the structure, with its diff; a
    warning with its diff where nothing decides between drift and a variant
    by design (scan-uncertain: no definition, history or majority); and one
    count per kind; -v adds every owner, copy, instance and example.

    \b
    Exit 0 when nothing diverges (uncertain members included), 1 when a copy
    drifted or an instance breaks its shape, 2 for bad input.  Next step: `contractc adopt` shows
    the plan that puts the copies under a contract.
    """
    from contractc.scan.report import scan_command

    include, exclude, owners = _with_recorded(path, include, exclude, owners)
    return _report(scan_command(path, include, exclude, owners, quiet, verbose or fmt == "json"), fmt, diff, quiet, path)


def _with_recorded(path: Path, include: tuple[str, ...], exclude: tuple[str, ...], owners: tuple[str, ...]):
    """The options given, after those contractc.yaml recorded (``scan:``, written by adopt)."""
    from contractc.load.config import recorded_scan_options

    kept = recorded_scan_options(path)
    return (
        tuple(dict.fromkeys((*kept.include, *include))),
        tuple(dict.fromkeys((*kept.exclude, *exclude))),
        tuple(dict.fromkeys((*kept.owner, *owners))),
    )


@cli.command()
@_scan_options
@click.option("--name", metavar="NAME", help="The contract's name: contracts/NAME.md (default: the plugin folder's name).")
@click.option("--write", is_flag=True, help="Apply the plan, all-or-nothing. Without it, adopt only prints the plan.")
@click.option(
    "--accept-drift",
    is_flag=True,
    help="Rewrite every drifted copy to its owning copy's bytes (the plan shows each copy's diff); on an adopted plugin the contract's block owns its shape, and regions never filled that hold a drifted copy are filled. Without it, drifted copies stay as they are and check reports them.",
)
@click.option(
    "--resolve",
    "resolve",
    multiple=True,
    metavar="ID=PATH:LINE",
    help="For the group ID (as scan names it), the copy at PATH:LINE is right: it owns the shape and the group's drifted copies are rewritten to it (repeatable; for a shape a contract holds, only the contract's block).",
)
@format_option(
    "text: the plan for people; json: one document (every file with its SHA-256 and diff, every copy that "
    "changes or is left alone, located); github: each copy that changes as an annotation on its line."
)
@click.option("--diff/--no-diff", default=True, show_default=True, help="Show each file's diff in the dry-run plan.")
@_progress
def adopt(
    path: Path,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    owners: tuple[str, ...],
    name: str | None,
    write: bool,
    accept_drift: bool,
    resolve: tuple[str, ...],
    fmt: str,
    diff: bool,
) -> int:
    """Move the pasted copies scan finds in PATH (default .) under one contract.

    \b
    Dry run by default: prints the plan, i.e. the contract it would write
    (contracts/NAME.md, one section per stage holding each shape's owning
    copy byte for byte), the contractc.yaml, every file it would change with
    a diff, and what happens to each block scan labelled:

    \b
      copy      the owner's bytes: becomes a managed region (shape=ID)
      instance  its own values by design: wrapped, byte for byte, in an
                instance region (instance=ID) that check holds to the
                shape's structure
      example   never touched
      drifted   left byte for byte as it is, outside any region (no build,
                --force or not, touches it), recorded under unresolved so
                check reports it with its diff until you decide; choose now
                or later: --accept-drift (every group) or --resolve
                ID=PATH:LINE (that copy is right); the plan shows each
                copy's diff

    \b
    --write applies it all-or-nothing: the schemas and dispatch snippets
    build would write are written too, and `contractc check` is clean right
    after but for the drift left unresolved.  No byte outside the replaced
    blocks changes; a second adopt --write right after judges the copies
    left outside regions as the first did, and changes nothing.
    --include, --exclude and --owner are recorded in contractc.yaml (scan:),
    so the next scan or adopt reads the same files.

    \b
    On a plugin adopted before, new shapes are appended to the contract
    contractc.yaml names (a new contract when it names several or a pinned
    one), never reusing a title, anchor or id; new copies of a shape the
    contract holds are judged against the contract's block; contractc.yaml
    is merged, every line of yours kept (an unresolved entry whose copy is
    now in a region is deleted); --accept-drift also fills the regions an
    earlier run left holding a drifted copy.

    \b
    Exit 0 when the plan was printed or applied, 2 for bad input (a
    contract file that exists, a new shape that would rename one the
    contract has, a file it would
    write through a symbolic link: nothing is ever written outside the
    project).
    """
    from contractc.adopt import adopt as adopt_plugin

    color = _color_wanted(sys.stdout)
    prefix = _workspace_prefix(path)
    include, exclude, owners = _with_recorded(path, include, exclude, owners)
    return _print(
        adopt_plugin(
            path, name, include, exclude, owners,
            write=write, diff=diff, fmt=fmt, color=color, path_prefix=prefix, accept_drift=accept_drift, resolve=resolve,
        )
    )  # fmt: skip


@cli.command("init")
@click.argument("path", required=False, default=".", type=click.Path(file_okay=False, path_type=Path))
def init_(path: Path) -> int:
    """Start a project in PATH (default .; made when missing): a working starter, then its first build.

    \b
    Writes, never over a file that exists (if any is there, it names each
    one and writes nothing):
      contracts/handoffs.md   a contract: a shared section, a data shape
                              (task_brief) and a text shape (workreturn) whose
                              receiver checks all compile to rules
      contractc.yaml          names the contract, its shared section, targets
      agents/worker.md        two agent files whose copies of the shapes are
      agents/lead.md          managed regions, filled by the first build
      mkdocs.yml              the contract site (theme material, plugin contractc)
      docs/index.md           the site's home page
    Then it runs `contractc build`, so `contractc check` is clean and
    `mkdocs build --strict` passes right away.

    \b
    A plugin whose agents/ or skills/ already hold fenced blocks (pasted
    copies of its shapes) starts with `contractc scan` and `contractc adopt`
    instead: init names the first such block and writes nothing.

    Exit 0 written and built, 2 a file exists, a plugin with pasted copies, or
    another bad input (nothing written).
    """
    from contractc.init import init

    return _print(init(path))


@cli.command()
@ROOT_OPTION
@click.option("--artifact", is_flag=True, help="Data shapes: use the artifact schema (transient fields are not allowed).")
@click.option("--mode", metavar="MODE", help="Text shapes: SHAPE is a producer; judge the shape it produces in MODE "
              "(`design-auditor --mode audit` for a shape 'Produced by `design-auditor` in audit mode').")
@format_option("text: located messages for people; json: one document (a text shape's verdict with its failures, "
               "quoted lines and evidence; for a data shape, check's document); github: GitHub Actions annotations.")
@click.option("--evidence", is_flag=True, help="Text shapes: print only the failure evidence to append to the original "
              "dispatch prompt for the one re-dispatch (nothing when the return passes).")
@click.option("--require-all", is_flag=True, help="Text shapes: exit 2 when any receiver check is not mechanised "
              "(by default such a check is listed as not run and the receiver judges it by reading).")
@click.argument("shape_id", metavar="SHAPE")
@click.argument("file", metavar="[FILE|-]", default="-")
def validate(
    root: Path, artifact: bool, mode: str | None, fmt: str, evidence: bool, require_all: bool, shape_id: str, file: str
) -> int:
    """Check FILE against the shape SHAPE (an id as in schemas/ or prompts/manifest.json).

    \b
    A text shape (a return format) judges FILE, or standard input for -, with
    the shape's receiver checks compiled from the contract: each failed check
    is printed as FILE:line:col: error[check-failed] with the check's text, its
    anchor on the contract site and the offending lines quoted. --evidence
    prints the block a skill appends to the original dispatch prompt for its
    one re-dispatch. SHAPE may also be a shape's name or its producer (--mode).

    \b
    A data shape checks a YAML or JSON FILE (the shape's value, or the value
    under the shape's key) or a Markdown file's front matter against the
    shape's wire schema (what travels between agents), or with --artifact its
    artifact schema (what may be written to disk).

    \b
    The loop a skill runs (`contractc explain check-failed` says more):
      contractc validate auditreturn return.txt             exit 1: discard it
      contractc validate auditreturn return.txt --evidence  append to the prompt,
                                                            re-dispatch once

    \b
    Nothing checked is not a pass: a check that is not mechanised is listed
    as not run; a text shape with no mechanised check is exit 2, and with
    --require-all so is any check that is not mechanised.

    Exit 0 valid, 1 invalid, 2 unknown shape, nothing to check, unreadable FILE or bad usage.
    """
    from contractc.validate.command import validate as validate_document

    return _print(
        validate_document(
            root, shape_id, file, artifact=artifact, mode=mode, fmt=fmt, evidence=evidence, require_all=require_all
        )
    )


@cli.command()
@ROOT_OPTION
@click.option("--producer", metavar="NAME", help="Judge the return as NAME's (a skill's own return, on the Stop event); "
              "by default the agent named by the event's agent_type.")
def hook(root: Path, producer: str | None) -> int:
    """Judge an agent's return as a Claude Code SubagentStop (or Stop) hook.

    \b
    Reads the hook's JSON on standard input, finds the agent that returned
    and the text shape it produces (by the dispatch prompt's shape heading
    where it has several), and judges its last message:
      passes, or no shape of that agent   nothing printed: the stop goes through
      a check fails                       {"decision": "block", "reason": EVIDENCE}:
                                          the agent returns again once
      fails again (stop_hook_active)      the stop goes through; a systemMessage
                                          shows the failed checks
    Its own errors (bad input, a project that does not load) never block:
    the stop goes through with a systemMessage saying why.

    \b
    In a plugin's hooks/hooks.json:
      {"hooks": {"SubagentStop": [{"hooks": [{"type": "command",
        "command": "contractc hook --root \"${CLAUDE_PLUGIN_ROOT}\""}]}]}}

    Always exit 0: Claude Code reads exit 2 as a block.
    """
    from contractc.validate.hook import run_hook

    return _print(run_hook(root, sys.stdin.buffer.read().decode("utf-8", "replace"), producer))


@cli.command("hash")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def hash_(files: tuple[Path, ...]) -> int:
    """Print the SHA-256 of each FILE's exact bytes (sha256sum format).

    This is the hash a contract is published with and that the manifest and a
    `sha256:` pin in contractc.yaml record.  Exit 0, or 2 when a FILE cannot be
    read (the others are still printed).
    """
    from contractc.load.paths import hash_files

    return _print(hash_files(files))


@cli.command()
@click.argument("code", required=False)
def explain(code: str | None) -> int:
    """Print what the message code CODE means and how to fix it, offline.

    \b
    CODE is the word in brackets of a message:
      contracts/x.md:12:1: error[drift-link]: ...   ->   contractc explain drift-link
    The text is the code's section of the drift-codes page (docs/drift-codes.md),
    shipped inside the package. Without CODE, lists every code with its exit code.
    Exit 0, or 2 for a code contractc does not have (with the nearest one).
    """
    from contractc.report.explain import explain_page

    return _print(explain_page(code))


def _print(outcome: Outcome) -> int:
    """Print what a command returned as it is (its diagnostics through the one formatter); exit with its code."""
    _end_progress()
    if outcome.usage:
        if outcome.parameter:
            raise click.BadParameter(outcome.usage, param_hint=outcome.parameter)
        raise click.UsageError(outcome.usage)
    if outcome.out:
        click.echo(outcome.out, nl=False, color=outcome.color)
    for diagnostic in outcome.diagnostics:
        click.echo(diagnostic.format(docs_url=outcome.docs_url), err=True)
    if outcome.err:
        click.echo(outcome.err, nl=False, err=True, color=outcome.color)
    return outcome.exit_code


def _end_progress() -> None:
    """Clear the progress line before the output, if the command drew one."""
    from contractc.report.progress import end

    end()


def _fail(diagnostics: list[Diagnostic]) -> int:
    from contractc.report.format import Outcome

    return _print(Outcome.failed(diagnostics))


def main(argv: list[str] | None = None) -> int:
    """Run the CLI in-process and return its exit code (never raises, whatever the input)."""
    nul = next((i for i, arg in enumerate(argv or ()) if "\0" in arg), None)
    if nul is not None:  # only possible in-process (execve cannot pass one); a path with it names nothing
        from contractc.report.diagnostics import Diagnostic

        return _fail([Diagnostic("argv", 1, nul + 1, "unsafe-path", f"argument {nul + 1} holds a NUL byte", "no file name can hold one")])
    written = sys.modules.get("contractc.output.outputs")  # imported only by a run that may write
    if written is not None:
        written.WROTE.clear()
    terminated = _on_sigterm()
    try:
        code = cli.main(args=argv, prog_name="contractc", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return 2  # ExitCode.BAD_INPUT
    except (click.Abort, KeyboardInterrupt) as exc:  # click turns Ctrl-C into Abort; a write is whole before this
        return _interrupted(exc)
    except Exception as exc:
        from contractc.report.diagnostics import ContractcError

        if isinstance(exc, ContractcError):
            return _fail(exc.diagnostics)
        return _internal_error(exc, sys.argv[1:] if argv is None else argv)
    finally:
        terminated()
    return int(code or 0)


class _Terminated(KeyboardInterrupt):
    """SIGTERM outside a write: the run stops as on Ctrl-C (a write holds it off until it is whole)."""


def _on_sigterm():
    """SIGTERM stops the run as Ctrl-C does (exit 143); returns what restores the previous handler."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(signum, frame):
        raise _Terminated()

    old = signal.signal(signal.SIGTERM, stop)
    return lambda: signal.signal(signal.SIGTERM, old)


def _interrupted(exc: BaseException) -> int:
    """The message of a run stopped by Ctrl-C or SIGTERM, saying truthfully how the files are; ``128 + signal``."""
    from contractc.output.outputs import WROTE, Interrupted

    cause = exc.__cause__ or exc.__context__ if isinstance(exc, click.Abort) else exc
    if isinstance(cause, Interrupted):
        click.echo(f"contractc: interrupted; {cause.state}", err=True)
        return 128 + cause.signum
    signum = 15 if isinstance(cause, _Terminated) else 2
    if WROTE:
        click.echo(f"contractc: interrupted after this run wrote {sum(WROTE)} file(s), each whole and new", err=True)
    else:
        click.echo("contractc: interrupted; this run wrote no file", err=True)
    return 128 + signum  # ExitCode.INTERRUPTED for Ctrl-C


def _internal_error(exc: Exception, argv: list[str]) -> int:
    """A bug: one short message asking for a report; the traceback only when asked for."""
    if "--debug" in argv or os.environ.get("CONTRACTC_DEBUG") not in (None, "", "0"):
        import traceback

        traceback.print_exception(exc)
    else:
        click.echo(f"contractc: internal error ({type(exc).__name__}); this is a bug in contractc, not in your files.", err=True)
        click.echo("  please report it with the output of the same command run with --debug (or CONTRACTC_DEBUG=1)", err=True)
    return 3  # ExitCode.INTERNAL


def main_entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
