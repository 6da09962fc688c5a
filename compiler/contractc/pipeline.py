"""The whole compiler, one stage after another: load -> emit -> compare or write -> drift.

``build`` and ``check`` are :func:`run` with a different :class:`~contractc.output.outputs.Mode`:
the project is loaded (:mod:`contractc.load`), every output kind emitted
(:mod:`contractc.emit`), the outputs compared with disk or, in build mode, written
(:mod:`contractc.output`), and what is wrong beyond a difference found
(:mod:`contractc.drift`).  This module does no printing; the CLI formats the :class:`Result`.

The target files are not held: :func:`compare_targets` takes them one by one as
:func:`~contractc.emit.regions.stream_regions` refills them, compares each and
searches it for drift, then drops it, so memory stays flat however many prompt
files a project has.
"""

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from contractc.report.diagnostics import ContractcError, Diagnostic, ExitCode, exit_code_for
from contractc import emit
from contractc.load import load_project
from contractc.load.config import CONFIG_NAME, journal_trust
from contractc.model.records import Project
from contractc.output import journal
from contractc.output.journal import find_leftovers, leftover_diagnostic, recover, remove_leftovers
from contractc.output.outputs import Change, Mode, OutputSet, diff_against_disk, guard_paths, write_changes

if TYPE_CHECKING:
    from contractc.drift import TargetFind
    from contractc.load.targets import TargetReader


def emit_site(project: Project) -> dict[str, bytes]:
    """The stored site pages (:func:`contractc.emit.site.emit_site_pages`), handed what ``diff`` finds since
    the last release tag for their Changes pages; the site's modules load only for a project that stores them."""
    if not project.config.out.site:  # no pages stored: no git, no diff
        return {}
    from contractc.diff.release import since_last_release
    from contractc.emit.site import emit_site_pages

    return emit_site_pages(project, since_last_release(Path(project.root), project))


def site_pages_folder(project: Project) -> str | None:
    """The folder the stored site pages own (:func:`contractc.emit.site.site_pages_folder`)."""
    if not project.config.out.site:
        return None
    from contractc.emit.site import site_pages_folder as owned

    return owned(project)


# kind -> (emitter, the folder it owns): every output kind, the site's pages included.
EMITTERS: dict[str, tuple[emit.Emitter, emit.OwnedFolder]] = {
    **emit.EMITTERS,
    "site": (emit_site, site_pages_folder),
}
STREAMED = ("regions",)
"""Output kinds that :func:`run` makes target by target in :func:`compare_targets`, never all at once."""


class Result(NamedTuple):
    """What a run found (and, in build mode, did)."""

    mode: Mode
    diagnostics: list[Diagnostic]
    changes: list[Change]
    checked: int
    """How many generated files were compared."""
    sources: set[str]
    """Project-relative paths of the inputs the compile read (config, contracts, role files, template folder).
    ``check --changed-since`` treats a change to any of them as touching every output."""
    refused: bool
    """Build wrote nothing because a region needs a person's decision (see ``drift.BUILD_REFUSES``)."""
    notes: list[Diagnostic]
    """``note``-severity findings a build lists after its summary (fields the notation made optional)."""
    docs_url: str
    """``docs_url`` of contractc.yaml, for the messages' ``see:`` links (empty: none, or not loaded)."""
    attached: dict[Diagnostic, Change]
    """Check mode: the diff shown under one diagnostic (a restatement against the contract's bytes)."""

    @property
    def exit_code(self) -> ExitCode:
        return exit_code_for(self.diagnostics)


def compile_project(root: Path, only: Iterable[str] = (), site_pages: str | None = None) -> tuple[Project, OutputSet]:
    """Load the project and run every emitter (or those named in ``only``).

    ``site_pages`` is ``--site-pages DIR``: write the site's pages there, as ``out.site`` would.
    """
    project = _load(root, site_pages)
    return project, emit_outputs(project, only)


def _load(root: Path, site_pages: str | None) -> Project:
    project = load_project(root)
    if site_pages is None:
        return project
    from contractc.load.out_folders import with_site_pages

    return with_site_pages(root, project, site_pages)


def emit_outputs(project: Project, only: Iterable[str] = (), skip: Iterable[str] = ()) -> OutputSet:
    """Run every emitter (or those named in ``only``), but those in ``skip``."""
    out = project.config.out
    folders = {
        folder: project.config.where(f"$.out.{kind}")
        for kind, folder in (("prompts", out.prompts), ("schemas", out.schemas), ("site", out.site))
        if folder
    }
    outputs = OutputSet({}, set(), folders)
    wanted, skipped = set(only), set(skip)
    for kind, (emit_kind, owned_key) in EMITTERS.items():
        if (wanted and kind not in wanted) or kind in skipped:
            continue
        outputs.add(kind, emit_kind(project))
        owned = owned_key(project) if callable(owned_key) else getattr(project.config.out, owned_key) if owned_key else None
        if owned:
            outputs.owned.add(owned)
    return outputs


def compare_targets(project: Project, render: bool = True) -> tuple[list[Change], list[Diagnostic], list[Diagnostic], int]:
    """One pass over the target files as :func:`~contractc.emit.regions.stream_regions` refills them: each is
    compared and searched for drift, then dropped.

    Returns the targets that differ from what they must hold, why each does, the
    drift the target finders found, and how many targets with regions were
    compared.  Every marker problem of every target is raised together at the
    end (exit 2), so nothing is reported or written while one is wrong.  A
    target whose every region is current is searched only by the finders that
    cannot tell from its bytes that they find nothing there.
    """
    from contractc.drift import TARGET_FINDERS, explain
    from contractc.emit.regions import stream_regions
    from contractc.output.outputs import Output

    finders = [prepare(project) for prepare in TARGET_FINDERS.values()]
    reader: TargetReader = project.targets.reader  # type: ignore[assignment]  # load_targets makes every Targets' reader
    changes: list[Change] = []
    drifted: list[Diagnostic] = []
    found: list[Diagnostic] = []
    compared = 0
    for filled in stream_regions(project, render):
        compared += filled.expected is not None
        target = filled.target
        if target is None:
            found += _found_in_current(finders, reader, filled.path, filled.data, filled.managed or [])
            continue
        if filled.expected is not None and filled.expected != target.data:
            change = Change(target.path, filled.expected, target.data, Output(filled.expected, "regions"))
            changes.append(change)
            drifted.extend(explain(change, project, target))
        for find in finders:
            found.extend(find(target))
    return changes, drifted, found, compared


def _found_in_current(
    finders: "list[TargetFind]", reader: "TargetReader", path: str, data: bytes, managed: list[tuple[int, int]]
) -> list[Diagnostic]:
    """What the finders find in a target whose every region is current: the target's regions are found
    (its model built) only when a finder cannot tell from the bytes that it finds nothing."""
    found: list[Diagnostic] = []
    target = None
    for find in finders:
        if not find.quiet(data, managed):
            if target is None:
                target = reader.scan(path, data)
            found += find(target)
    return found


def find_drift(project: Project) -> list[Diagnostic]:
    """What every finder reports on the project and its targets (nothing is compared)."""
    from contractc.drift import FINDERS

    return [d for find in FINDERS.values() for d in find(project)] + compare_targets(project, render=False)[2]


def run(
    root: Path, mode: Mode, only: Iterable[str] = (), force: bool = False, site_pages: str | None = None
) -> Result:
    """Load, emit, compare with disk (in build mode, write what changed), find drift.

    Build writes nothing when a region needs a decision (a hand edit, unless
    ``force``; an orphaned region); it writes, then still reports, the drift it
    cannot fix (a restatement, a broken pin, a dangling link).  ``site_pages``
    is ``--site-pages DIR`` (see :func:`compile_project`).

    Build holds the run lock (:func:`contractc.output.journal.hold`) from its recovery to its last write;
    check recovers an interrupted build only when no run holds the lock, else it reads as things are.
    """
    if mode is not Mode.BUILD:
        return _run(root, mode, only, force, site_pages)
    try:
        with journal.hold(root):
            return _run(root, mode, only, force, site_pages)
    except ContractcError as exc:  # the lock could not be taken
        return Result(mode, exc.diagnostics, [], 0, set(), refused=False, notes=[], docs_url="", attached={})


def _run(root: Path, mode: Mode, only: Iterable[str], force: bool, site_pages: str | None) -> Result:
    from contractc.drift import FINDERS, drift_diagnostic, explain, refuses_build
    from contractc.emit.schemas import verify_examples
    from contractc.report.progress import stage

    docs_url, sources, checked, notes = "", set(), 0, []  # what a run that stops at bad input still reports
    try:
        busy = False
        trust = journal_trust(root, site_pages)
        if mode is Mode.BUILD:
            recovered = recover(root, trust)
        else:
            recovered, busy = journal.recover_unless_busy(root, trust)
        stage("loading contracts")
        project = _load(root, site_pages)
        docs_url = project.config.docs_url
        wanted = set(only)
        # The targets are emitted and compared one at a time, then every other output kind at once.
        targets, drifted, found, compared = compare_targets(project, render=not wanted or "regions" in wanted)
        stage("compiling outputs")
        outputs = emit_outputs(project, wanted, skip=STREAMED)
        sources = sources_of(project)
        checked = len(outputs.files) + compared
        guard_paths(root, outputs)
        stage(f"comparing {len(outputs.files)} outputs")
        changes = diff_against_disk(root, outputs)
        verify_examples(project, changes)  # before anything is written or reported
        written = [*outputs.files, *project.targets.paths, *(c.path for c in changes)]
        leftovers = find_leftovers(root, {path.rpartition("/")[0] for path in written})
        drifted += [d for change in changes for d in explain(change, project)]
        stage("finding drift")
        found += [d for find in FINDERS.values() for d in find(project)]
        changes = sorted(changes + targets, key=lambda c: c.path)
        if mode is Mode.BUILD:
            refused = [d for d in drifted + found if refuses_build(d, force)]
            if refused:
                paths = {d.path for d in refused}
                decide = [c for c in changes if c.path in paths]  # the diffs of what needs a decision
                return Result(mode, sorted(refused, key=Diagnostic.sort_key), decide, checked, sources, refused=True, notes=notes, docs_url=docs_url, attached={})
            kept = [c for c in changes if not c.removable]  # orphans build cannot prove it wrote: left alone
            changes = write(root, outputs, [c for c in changes if c.removable], leftovers)
            notes = recovered + build_notes(project)
            if found and changes:  # what build cannot fix is reported where it now sits in the written files
                found = find_drift(load_project(root))
            drifted = [drift_diagnostic(c) for c in kept]
        else:
            notes = recovered
            if not busy:  # a running build's staged files are its own, not leftovers
                drifted += [leftover_diagnostic(rel) for rel in leftovers]
        diagnostics = sorted(drifted + found, key=Diagnostic.sort_key)
        attached = {}
        if mode is Mode.CHECK:
            from contractc.drift.regions import instance_changes
            from contractc.drift.restatements import restatement_changes

            attached = {**restatement_changes(project, diagnostics), **instance_changes(project, diagnostics)}
        return Result(mode, diagnostics, changes, checked, sources, refused=False, notes=notes, docs_url=docs_url, attached=attached)
    except ContractcError as exc:
        return Result(mode, exc.diagnostics, [], checked, sources, refused=False, notes=notes, docs_url=docs_url, attached={})


def write(root: Path, outputs: OutputSet, changes: list[Change], leftovers: list[str]) -> list[Change]:
    """Build's write: every verifier passes before anything is written, an interrupted build's leftovers
    go, the changes are written all-or-nothing and what build wrote is recorded; returns ``changes``."""
    from contractc.output.written import save_record  # build alone records what it wrote
    from contractc.report.progress import stage

    verify_changes(changes)
    restored = set(remove_leftovers(root, leftovers))
    if restored:  # what build put back is what the files now hold
        from contractc.output.files import read_bytes

        changes = [c._replace(actual=read_bytes(root / c.path, follow=False)) if c.path in restored else c for c in changes]
    if changes:
        stage(f"writing {len(changes)} files")
    write_changes(root, changes)
    save_record(root, outputs, [c.path for c in changes if c.expected is None])
    return changes


def sources_of(project: Project) -> set[str]:
    """The inputs of the compile, project-relative; a folder ends with ``/`` (site template overrides)."""
    sources = {CONFIG_NAME, *(c.path for c in project.contracts), *(r.path for r in project.roles)}
    if project.config.mkdocs is not None:  # its site_url may be the one the schemas' $id use
        sources.add(project.config.mkdocs.path)
    templates = project.config.site.templates
    if templates:
        sources.add(templates.rstrip("/") + "/")
    return sources


def verify_changes(changes: list[Change]) -> None:
    """Run each output kind's verifier on the files about to be written; raise every problem before any write."""
    from contractc.emit import VERIFIERS

    problems = [
        problem
        for change in changes
        if change.expected is not None and change.output is not None and change.output.kind in VERIFIERS
        for problem in VERIFIERS[change.output.kind](change.path, change.expected)
    ]
    if problems:
        raise ContractcError(problems)


def build_notes(project: Project) -> list[Diagnostic]:
    """What ``build`` lists after its summary so nothing is silent: every optional field and why, every
    reference to a shape the project does not define, every receiver check that is not mechanised, an mkdocs
    ``docs_dir`` that does not exist."""
    from contractc.load.mkdocs import docs_dir_notes
    from contractc.model.checks.compile import unmechanised_notes
    from contractc.model.notation import dangling_notes, optional_notes

    notes = optional_notes(project.specs) + dangling_notes(project.specs) + unmechanised_notes(project.contracts) + docs_dir_notes(project.config)
    return sorted(notes, key=Diagnostic.sort_key)
