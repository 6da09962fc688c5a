"""Shared test helpers: small project trees from dicts, the CLI run in-process."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from contractc.cli import main

REPO = Path(__file__).resolve().parents[1]
SEEDS = Path(os.environ.get("CONTRACTC_SEEDS", REPO.parent / "shared" / "seeds"))

# The smallest text shape: a producer, a receiver, a template and one receiver check.
ECHO_SECTION = """\
## EchoReturn

Produced by `echoer`; consumed by `echo-skill`.

```
echo: <text>
```

Receiver checks:

1. Line 1 begins `echo: `.
"""
# The smallest project with a text shape and a shared section, used by several test files.
ECHO_CONTRACT = "# C\n\n## Shared\n\nRead me.\n\n" + ECHO_SECTION
ECHO_CONFIG = "contracts:\n  - path: contracts/c.md\n    shared: [shared]\n"


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create ``files`` (path -> text or bytes) under ``root``; text is written as UTF-8, unchanged."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return root


def fail_nth_replace(monkeypatch: pytest.MonkeyPatch, n: int, errno: int, strerror: str) -> None:
    """Make the ``n``-th ``os.replace`` of the run fail as the system would (a disk full, a permission denied),
    so a multi-file write breaks halfway; ``monkeypatch.undo()`` restores it."""
    real = os.replace
    calls = []

    def failing(src, dst):
        calls.append(dst)
        if len(calls) == n:
            raise OSError(errno, strerror, str(dst))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", failing)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes, to prove a command changed nothing.

    ``.contractc/`` (contractc's local cache, journal and record of what build wrote) is left
    out; tests/test_bad_inputs.py hashes the whole tree, that folder included."""
    return {
        rel: p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not (rel := p.relative_to(root).as_posix()).startswith(".contractc/")
    }


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys):
    """Run ``contractc ARGS`` in-process; return exit code, stdout and stderr."""

    def run(*args: str) -> Run:
        code = main(list(args))
        captured = capsys.readouterr()
        return Run(int(code), captured.out, captured.err)

    return run


SEEDS_MISSING = (
    f"seed contracts not present at {SEEDS}: set CONTRACTC_SEEDS to the folder holding return-shapes.md "
    "(default: ../shared/seeds beside the checkout)"
)


@pytest.fixture
def seeds() -> Path:
    if not SEEDS.is_dir():
        pytest.skip(SEEDS_MISSING)
    return SEEDS


# Files the Python tooling itself leaves in the tree; anything else new after the run was written by a test.
_TOOLING = ("__pycache__", ".pytest_cache", ".hypothesis", ".venv", ".egg-info")


def _untracked(root: Path) -> set[str]:
    import subprocess

    listed = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--ignored", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=False,
    )
    paths = {line[3:] for line in listed.stdout.splitlines() if line[:2] in ("??", "!!")}
    return {p for p in paths if not any(part in p for part in _TOOLING)}


@pytest.fixture(scope="session", autouse=True)
def source_tree_untouched():
    """Tests never write into the source tree: fail the run when it gains a file it did not have."""
    if not (REPO / ".git").exists():
        yield
        return
    before = _untracked(REPO)
    yield
    added = sorted(_untracked(REPO) - before)
    assert not added, f"tests wrote into the source tree: {added[:10]}"
