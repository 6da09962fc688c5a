"""``contractc init [PATH]``: a working starter project, then its first build.

The starter (:mod:`contractc.init.starter`) is written all-or-nothing and never over
a file that exists: any file it would write that is already there is named, and
nothing is written.  A folder whose ``agents/`` or ``skills/`` already hold fenced
blocks is a plugin with pasted copies: the way in for it is ``scan`` and ``adopt``,
so ``init`` names the first such block and writes nothing.  After writing, it runs
``build`` (:mod:`contractc.building`), so that ``check`` is clean and
``mkdocs build --strict`` passes right away.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.report.format import Outcome

PLUGIN_FOLDERS = ("agents", "skills")
"""Where a plugin keeps the agent and skill files that would hold pasted copies of shapes."""
GITIGNORE = "# the contract site `mkdocs build` writes (contractc's own .contractc/ ignores itself)\n/site/\n"
"""The starter's ``.gitignore``, written only where the folder has none."""
_FENCE = re.compile(rb"^ {0,3}(?:`{3,}|~{3,})", re.MULTILINE)


def init(path: Path) -> Outcome:
    """Write the starter into ``path`` (made when missing), then build it; bad input writes nothing (exit 2)."""
    from contractc.output.build import build
    from contractc.init.starter import starter_files
    from contractc.output.outputs import Change, Output, write_changes

    shown = "" if path.as_posix() in ("", ".") else path.as_posix().rstrip("/") + "/"
    try:
        root = _folder(path)
    except ContractcError as exc:
        return Outcome.failed(exc.diagnostics)
    try:
        files = {rel: text.encode("utf-8") for rel, text in starter_files(_name(root)).items()}
        _refuse_existing(root, files)
        ignored = os.path.lexists(root / ".gitignore")
        if not ignored:  # a project's own ignore file is its business: never a reason to refuse, never rewritten
            files[".gitignore"] = GITIGNORE.encode("utf-8")
        from contractc.adopt import guard_adoption

        guard_adoption(root, {rel: (data, "init") for rel, data in files.items()})
        write_changes(root, [Change(rel, data, None, Output(data, "init")) for rel, data in sorted(files.items())])
    except ContractcError as exc:
        return Outcome.failed([_under(d, shown) for d in exc.diagnostics])
    lines = [f"created {shown}{rel}" for rel in sorted(files)]
    if ignored:
        lines.append(f"left {shown}.gitignore as it is: add `/site/` to it, where `mkdocs build` writes the site")
    first = build(root)  # what it says is relative to the project, as `--root` makes every command's
    told = (
        "\nNext steps:\n"
        + (f"  cd {shown}\n" if shown else "")
        + "  contractc check          clean now; in CI it fails when a copy drifts from the contract\n"
        "  mkdocs build --strict    the contract site (needs contractc's site extra)\n"
        "  edit contracts/handoffs.md, then run contractc build\n"
    )
    return first._replace(out="\n".join(lines) + "\n" + first.out + (told if first.exit_code == 0 else ""))


def _under(problem: Diagnostic, shown: str) -> Diagnostic:
    """A problem located in the project, named from where init was run."""
    return problem._replace(path=shown + problem.path) if shown else problem


def _folder(path: Path) -> Path:
    """The project folder, made when it does not exist (the CLI refuses a file there)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ContractcError(
            Diagnostic(str(path), 1, 1, "write-failed", f"cannot make the folder {path}: {exc.strerror}", "pick a folder you may write")
        ) from None
    return path


def _name(root: Path) -> str:
    return root.resolve().name or "contracts"


def _refuse_existing(root: Path, files: dict[str, bytes]) -> None:
    """Every starter file that exists already, and every pasted copy of a plugin, named; nothing written."""
    problems = [
        Diagnostic(
            rel,
            1,
            1,
            "init-exists",
            "the file already exists: init never overwrites a file, so it wrote nothing",
            "run init in a new folder (`contractc init NEW-FOLDER`), or move the file away",
        )
        for rel in sorted(files)
        if os.path.lexists(root / rel)
    ]
    pasted = None if os.path.lexists(root / "contractc.yaml") else _pasted_copy(root)  # a project already
    if pasted is not None:
        rel, line = pasted
        problems.append(
            Diagnostic(
                rel,
                line,
                1,
                "init-plugin",
                "a fenced block in an agent or skill file: this plugin already holds pasted copies, which a starter would not manage",
                "run `contractc scan` to see its copies, then `contractc adopt` (dry run) and `contractc adopt --write` to put them under a contract",
            )
        )
    if problems:
        raise ContractcError(problems)


def _pasted_copy(root: Path) -> tuple[str, int] | None:
    """The first fenced block (file, line) in a Markdown file under ``agents/`` or ``skills/``, in path order."""
    for folder in PLUGIN_FOLDERS:
        top = root / folder
        if not top.is_dir() or top.is_symlink():
            continue
        for here, dirs, names in os.walk(top):
            dirs.sort()
            for name in sorted(names):
                if not name.lower().endswith(".md"):
                    continue
                full = Path(here, name)
                try:
                    data = full.read_bytes()
                except OSError:
                    continue
                found = _FENCE.search(data)
                if found:
                    return full.relative_to(root).as_posix(), data.count(b"\n", 0, found.start()) + 1
    return None
