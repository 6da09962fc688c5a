"""The command line: a thin shell over :mod:`contractc.pipeline`.

``main(argv) -> int`` runs in-process (the tests call it); the exit-code policy
is :class:`~contractc.diagnostics.ExitCode`: 0 clean, 1 drift or failed
validation, 2 bad input or usage.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from contractc import __version__

# diagnostics (and everything past it) is imported where it is used, so that
# `--help` and `--version` cost little more than click itself (issue 7).
if TYPE_CHECKING:
    from pathlib import Path

    from contractc.diagnostics import Diagnostic


class _path:  # click's ``path_type`` must be a class
    """Builds a ``pathlib.Path``: pathlib costs 5 ms of start-up, so it is imported when a path is parsed."""

    def __new__(cls, value: str) -> Path:  # type: ignore[misc]
        from pathlib import Path

        return Path(value)


ROOT_OPTION = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=_path),
    default=".",
    show_default=True,
    help="Project root: the folder holding contractc.yaml.",
)


def _help_width(limit: int = 100) -> int:
    """What click computes with ``shutil.get_terminal_size``, without importing shutil (2 ms: bz2, lzma)."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
    return max(min(columns, limit) - 2, 50)


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


@click.group(context_settings={"help_option_names": ["-h", "--help"], "terminal_width": _help_width()})
@click.version_option(__version__, "-V", "--version", prog_name="contractc")
def cli() -> None:
    """Compile agent contracts (contracts/*.md) into their copies, and catch drift.

    \b
    Typical use:
      contractc build          regenerate every copy after editing a contract
      contractc check          in CI: exit 1 if any copy drifted from its contract
      contractc hash FILE      print the SHA-256 a contract is published with
      contractc validate SHAPE FILE   check a document against a shape

    Exit codes: 0 clean, 1 drift or failed validation, 2 bad input or usage.
    """


@cli.command()
@ROOT_OPTION
@click.option("--force", is_flag=True, help="Overwrite managed regions that were edited by hand (the edit is lost).")
@SITE_PAGES_OPTION
def build(root: Path, force: bool, site_pages: str | None) -> int:
    """Compile the contracts and write every output that changed.

    Writes are all-or-nothing: if any file cannot be written, none is changed.
    Running build twice writes nothing the second time.  A managed region edited
    by hand is never overwritten silently: build writes nothing and exits 1
    naming it, unless --force is given.
    """
    from contractc.diagnostics import ExitCode
    from contractc.output import Mode
    from contractc.pipeline import run

    result = run(root, Mode.BUILD, force=force, site_pages=site_pages)
    if result.exit_code is ExitCode.BAD_INPUT:
        return _fail(result.diagnostics)
    if result.refused:
        code = _fail(result.diagnostics)
        click.echo(f"contractc: nothing written; {len(result.diagnostics)} region(s) need a decision", err=True)
        return code
    for change in result.changes:
        click.echo(f"{'removed' if change.expected is None else 'wrote'} {change.path}")
    written = len(result.changes)
    click.echo(f"contractc: {written} written, {result.checked - written} already current" if written else f"contractc: {result.checked} files current, nothing written")
    for note in result.notes:
        click.echo(note.format())
    # Drift build cannot fix (a hand-made copy of a shape, a broken pin) still fails the build.
    return _fail(result.diagnostics) if result.diagnostics else result.exit_code


@cli.command()
@ROOT_OPTION
@SITE_PAGES_OPTION
@click.option("--diff/--no-diff", default=True, show_default=True, help="Show a unified diff for each drifted file.")
@CACHE_OPTION
def check(root: Path, site_pages: str | None, diff: bool, cache: bool) -> int:
    """Compare every output with what the contracts compile to; write nothing.

    Also checks that every link into a contract (`contracts/x.md#anchor`) or
    into the contract site (the site_url) names an anchor that exists.

    Exit 0 when every copy is current, 1 when any drifted or a link dangles
    (each one is named with file:line, drifted files with a diff), 2 for bad input.
    The only file it may write is its cache in .contractc/ (see --no-cache).
    """
    # Every other option keys the cache: one added later that changes what a clean check
    # prints is never answered by a cache written without it.  (--diff only shapes drift output.)
    options = {k: v for k, v in click.get_current_context().params.items() if k not in ("root", "cache", "diff")}
    if cache:
        from contractc.cache import confirm

        checked = confirm(root, options)
        if checked is not None:  # every file the last clean run read is byte-identical
            click.echo(_all_current(checked))
            return 0
    from contractc.cache import recording
    from contractc.diagnostics import ExitCode
    from contractc.output import Mode
    from contractc.pipeline import run, unified_diff

    with recording(root, enabled=cache) as record:
        result = run(root, Mode.CHECK, site_pages=site_pages)
    if record and not result.diagnostics:
        record.save(result.checked, options)
    if result.exit_code is ExitCode.BAD_INPUT:
        return _fail(result.diagnostics)
    changes = {c.path: c for c in result.changes}
    diagnostics = result.diagnostics
    for i, diagnostic in enumerate(diagnostics):
        click.echo(diagnostic.format())
        last_of_path = i + 1 == len(diagnostics) or diagnostics[i + 1].path != diagnostic.path
        if diff and last_of_path and diagnostic.path in changes:  # one diff per file, after all its messages
            click.echo(unified_diff(changes[diagnostic.path]), nl=False)
    if result.diagnostics:
        click.echo(f"contractc: {len(result.diagnostics)} drifted, {result.checked} checked; run `contractc build` to fix")
    else:
        click.echo(_all_current(result.checked))
    return result.exit_code


@cli.command()
@ROOT_OPTION
@click.option("--artifact", is_flag=True, help="Use the artifact schema: transient fields are not allowed.")
@click.argument("shape_id", metavar="SHAPE")
@click.argument("file", type=click.Path(dir_okay=False, path_type=_path))
def validate(root: Path, artifact: bool, shape_id: str, file: Path) -> int:
    """Check FILE against the shape SHAPE (an id as in schemas/ or prompts/manifest.json).

    \b
    For a data shape, FILE is YAML or JSON (the shape's value, or the value
    under the shape's key) or a Markdown file whose front matter is checked.
    Without --artifact the wire schema is used (what travels between agents);
    with it, the artifact schema (what may be written to disk).

    Every error is printed as FILE:line: <json-path>: message, on the line of
    the offending key. Exit 0 valid, 1 invalid, 2 unknown shape or unreadable FILE.
    """
    from contractc.diagnostics import ExitCode
    from contractc.load import load_project
    from contractc.validate import validate_file

    problems = validate_file(load_project(root), shape_id, file, artifact)
    schema = "artifact schema" if artifact else "wire schema"
    for problem in problems:
        click.echo(f"{problem.path}:{problem.line}: {problem.message}")
    if problems:
        click.echo(f"contractc: {file.as_posix()} does not match {shape_id} ({schema}): {len(problems)} error{'s' * (len(problems) != 1)}")
        return ExitCode.DRIFT
    click.echo(f"contractc: {file.as_posix()} matches {shape_id} ({schema})")
    return ExitCode.CLEAN


@cli.command("hash")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=_path))
def hash_(files: tuple[Path, ...]) -> int:
    """Print the SHA-256 of each FILE's exact bytes (sha256sum format).

    This is the hash a contract is published with and that the manifest and a
    `sha256:` pin in contractc.yaml record.
    """
    import hashlib

    from contractc.diagnostics import Diagnostic, ExitCode

    problems = []
    for path in files:
        try:
            click.echo(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.as_posix()}")
        except OSError as exc:
            problems.append(Diagnostic(path.as_posix(), 0, 0, "file-missing", f"cannot read: {exc.strerror}"))
    return _fail(problems) if problems else ExitCode.CLEAN


def _all_current(checked: int) -> str:
    return f"contractc: {checked} files checked, all current"


def _fail(diagnostics: list[Diagnostic]) -> int:
    from contractc.diagnostics import exit_code_for

    for diagnostic in diagnostics:
        click.echo(diagnostic.format(), err=True)
    return exit_code_for(diagnostics)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI in-process and return its exit code (never raises for bad input)."""
    try:
        code = cli.main(args=argv, prog_name="contractc", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return 2  # ExitCode.BAD_INPUT
    except click.Abort:
        click.echo("aborted", err=True)
        return 1  # ExitCode.DRIFT
    except Exception as exc:
        from contractc.diagnostics import ContractcError

        if isinstance(exc, ContractcError):
            return _fail(exc.diagnostics)
        raise
    return int(code or 0)


def main_entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
