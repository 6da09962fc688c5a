"""A git repository in a temporary folder holding this project's own contracts, for the diff tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import write_tree

REPO = Path(__file__).resolve().parents[1]
CONFIG = (REPO / "contractc.yaml").read_text("utf-8")
CONTRACTS = {p.name: p.read_text("utf-8") for p in sorted((REPO / "contracts").glob("*.md"))}


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


def make_repo(root: Path, files: dict[str, str | bytes] | None = None, message: str = "first revision") -> Path:
    """A repository whose first commit holds ``files``; by default contractc.yaml and contracts/*.md (this
    project's own)."""
    files = (
        files
        if files is not None
        else {"contractc.yaml": CONFIG, **{f"contracts/{n}": t for n, t in CONTRACTS.items()}}
    )
    write_tree(root, files)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.invalid")
    git(root, "config", "user.name", "t")
    commit(root, message)
    return root


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)


def edit(root: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` by ``new`` in a file; the text must occur exactly ``count`` times."""
    path = root / rel
    text = path.read_text("utf-8")
    assert text.count(old) == count, f"{old!r} occurs {text.count(old)} times in {rel}"
    path.write_text(text.replace(old, new), "utf-8")


def line_of(name: str, needle: str) -> int:
    """The 1-based line of ``needle``'s first occurrence in this project's contract ``name`` (or contractc.yaml),
    so the tests follow the dogfood contracts as they evolve."""
    text = CONFIG if name == "contractc.yaml" else CONTRACTS[name]
    assert needle in text, f"{needle!r} is not in {name}"
    return text[: text.index(needle)].count("\n") + 1
