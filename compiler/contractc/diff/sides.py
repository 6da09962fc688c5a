"""The two sides of a diff: today's contracts, and an older revision from git or from a path.

Only ``contractc.yaml``, the contracts and their explicit check rules
(``<name>.checks.yaml``) are read on either side: target files, role files and
outputs say nothing about what a contract promises.  A git
revision is read with ``git show REF:./PATH`` into a temporary folder, so the
older side is loaded by the same loader as today's.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from contractc.load import load_config, parse_contract, parse_contracts, qualify_shape_ids, read_source
from contractc.load.config import CHANGES_NAME, CONFIG_NAME
from contractc.load.explicit import read_sidecar, sidecar_path
from contractc.model.layout import site_layout
from contractc.model.records import Config, Contract, Outputs, Project
from contractc.report.diagnostics import ContractcError, Diagnostic


@dataclass(frozen=True, slots=True)
class Side:
    """One revision of the project's contracts."""

    label: str
    """How reports name it: ``working tree``, the git ref, or the path given."""
    project: Project
    changes: bytes | None
    """The approval file's bytes on this side; None when it has none."""


def validated(project: Project) -> Project:
    """``project`` once its site layout is known to compile (what the comparison reads; its notation
    was interpreted when it was made), so a problem on the older side is reported as that side's, not today's."""
    if project.contracts:
        site_layout(project)  # raises the side's layout problems here, under its label
    return project


def interpreted(base: Project, contracts: list[Contract]) -> Project:
    """``base`` with ``contracts``, their notation interpreted (as ``load`` does; raises its problems)."""
    from contractc.model.notation import interpret

    contracts, specs = interpret(qualify_shape_ids(contracts))
    return replace(base, contracts=tuple(contracts), specs=specs)


def load_contracts(root: Path) -> Project:
    """contractc.yaml and every contract it lists, parsed (no targets, no role files)."""
    config = load_config(root)
    contracts = parse_contracts(root, config)
    return interpreted(Project(config=config, contracts=(), root=str(root)), contracts)


def working_side(root: Path, loaded: Project | None = None) -> Side:
    """Today's contracts: ``loaded``, when the caller has already loaded the project at ``root``
    (the site's Changes pages), else read from ``root``."""
    project = load_contracts(root) if loaded is None else loaded  # a diff reads its contracts and their layout only
    return Side("working tree", project, _read(root / CHANGES_NAME, CHANGES_NAME))


def git_side(root: Path, ref: str) -> Side:
    """The contracts at git ``ref``; a revision without contractc.yaml is an empty project."""
    _git(root, ref, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    with tempfile.TemporaryDirectory(prefix="contractc-diff-") as tmp:
        folder = Path(tmp)
        config = _show(root, ref, CONFIG_NAME)
        if config is None:
            return Side(ref, _empty_project(root), None)
        (folder / CONFIG_NAME).write_bytes(config)
        listed = _relabel(ref, lambda: load_config(folder))
        from contractc.report.progress import counted

        for entry in counted(listed.contracts, f"reading contracts at {ref}", len(listed.contracts)):
            # the contract and its explicit check rules, when it had them at REF: a missing contract is
            # reported by the loader, located in REF's contractc.yaml
            for path in (entry.path, sidecar_path(entry.path)):
                data = _show(root, ref, path)
                if data is not None:
                    target = folder / path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
        project = _relabel(ref, lambda: validated(load_contracts(folder)))
        return Side(ref, replace(project, root=str(root)), _show(root, ref, CHANGES_NAME))


def path_side(root: Path, path: Path, today: Project) -> Side:
    """An older revision on disk: a project folder holding contractc.yaml, or one contract file.

    A single file is the earlier revision of today's contract with the same file
    name (or of the only contract), beside today's other contracts and configuration.
    A relative ``path`` is relative to ``root``, as every path option is; messages name
    it as the user wrote it.
    """
    label = path.as_posix()
    path = path if path.is_absolute() else root / path
    if path.is_dir():
        if not (path / CONFIG_NAME).is_file():
            raise _bad_against(
                f"--against-path {label}",
                f"no {CONFIG_NAME} in that folder",
                "give the folder holding the older contractc.yaml, or one contract file",
            )
        project = _relabel(label.rstrip("/"), lambda: validated(load_contracts(path)), "/")
        return Side(label, project, _read(path / CHANGES_NAME, f"{label.rstrip('/')}/{CHANGES_NAME}"))
    if not path.is_file():
        raise _bad_against(
            f"--against-path {label}",
            "no such file or folder",
            "give the older contract file or the folder holding its contractc.yaml",
        )
    entries = [e for e in today.config.contracts if Path(e.path).name == path.name] or (
        list(today.config.contracts) if len(today.config.contracts) == 1 else []
    )
    if len(entries) != 1:
        names = ", ".join(e.path for e in today.config.contracts)
        raise _bad_against(
            f"--against-path {label}",
            f"names none of today's contracts ({names}) by file name",
            "give the older revision the same file name as the contract it precedes",
        )
    entry = entries[0]
    with tempfile.TemporaryDirectory(prefix="contractc-diff-") as tmp:
        target = Path(tmp) / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_read(path, label, required=True))
        rules = path.with_name(Path(sidecar_path(path.name)).name)  # its explicit check rules, beside it
        found = _read(rules, rules.as_posix())
        if found is not None:
            Path(tmp, sidecar_path(entry.path)).write_bytes(found)
        src = _relabel(label, lambda: read_source(Path(tmp), entry.path), "")
        sidecar = _relabel(rules.as_posix(), lambda: read_sidecar(Path(tmp), entry.path), "")
        contract = _relabel(label, lambda: parse_contract(src, entry.shared, None, sidecar), "")
    # today's project with that one contract as it was: every other contract compares equal
    contracts = [contract if c.path == entry.path else c for c in today.contracts]
    return Side(label, _relabel(label, lambda: validated(interpreted(today, contracts)), ""), None)


def _empty_project(root: Path) -> Project:
    config = Config(path=CONFIG_NAME, contracts=(), out=Outputs(), site_url="https://example.invalid/")
    return Project(config=config, contracts=(), root=str(root))


def _relabel(label: str, load, separator: str = ":"):
    """Run ``load``; its diagnostics name the older side, not a temporary folder: ``REF:contracts/x.md`` for
    a git ref, ``FOLDER/contracts/x.md`` for a folder, the file itself (``separator=""``) for one file."""
    try:
        return load()
    except ContractcError as exc:

        def where(path: str) -> str:
            return f"{label}{separator}{path}" if path and separator else label

        raise ContractcError([d._replace(path=where(d.path)) for d in exc.diagnostics]) from None


def _read(path: Path, label: str | None = None, required: bool = False) -> bytes:
    """The bytes of an approval file or an older contract (None when it is absent and not ``required``):
    never read through a symbolic link (which may lead anywhere), and refused before a byte is read
    when larger than the input limit."""
    import errno

    from contractc.output.files import read_bytes
    from contractc.load.paths import unreadable

    name = label or path.name
    try:
        return read_bytes(path, follow=False)
    except (FileNotFoundError, NotADirectoryError):
        if required:
            raise
        return None  # type: ignore[return-value]
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ContractcError(
                Diagnostic(name, 1, 1, "unsafe-path", f"{name} is a symbolic link: contractc does not read through one", "put the file itself there")
            ) from None
        raise ContractcError(unreadable(name, exc)) from None


def _show(root: Path, ref: str, path: str) -> bytes | None:
    """``path``'s bytes at ``ref`` (relative to ``root``), or None when it does not exist there; its size
    is asked first, so a blob over the input limit is refused without being read."""
    from contractc.load.git import run_git
    from contractc.output.files import MAX_BYTES

    spec = f"{ref}:./{path}"
    size = run_git(root, "cat-file", "-s", spec)
    if size.returncode:
        return None
    if int(size.stdout.strip() or 0) > MAX_BYTES:
        raise ContractcError(
            Diagnostic(f"{ref}:{path}", 1, 1, "file-unreadable", f"{ref}:{path} is larger than {MAX_BYTES >> 20} MiB", "contractc reads only files of at most 16 MiB")
        )
    done = run_git(root, "cat-file", "blob", spec)
    return done.stdout if done.returncode == 0 else None


def _git(root: Path, ref: str, *args: str) -> str:
    from contractc.load.git import git_output

    return git_output(root, ref, lambda reason: _bad_against(f"--against {ref}", reason), *args)


def _bad_against(option: str, reason: str, hint: str = "") -> ContractcError:
    return ContractcError(
        Diagnostic(
            option.split(" ")[0],  # located at the option, as every command-line message is (`--against:1:1`)
            1,
            1,
            "bad-against",
            f"{option}: {reason}",
            hint
            or "name a commit git knows (in CI fetch it first, e.g. actions/checkout with fetch-depth: 0), or use --against-path",
        )
    )
