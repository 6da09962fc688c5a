"""What a command imports is what its run needs: a CI job pays for every module at start-up.

Each case runs the real console entry in a fresh interpreter (in-process runs
would see the modules earlier tests imported) and reads ``sys.modules`` at exit.
No timing: the modules themselves are the contract, and a test cannot time a
shared machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ECHO_CONFIG, ECHO_CONTRACT, write_tree
from lifecycle_plugin import PASTED_BRIEF, region, sources

REPO = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from contractc.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
sys.stdout.flush()
print("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""

# Libraries of other commands: validating a rejected contractc.yaml (jsonschema), the site (jinja2, mkdocs,
# Python-Markdown), suggestions (difflib), git (subprocess) and the diff stack.
# The site stage as a whole: a project that stores no site pages (no `out.site`) has none to compare.
NEVER_ON_CHECK = (
    "jsonschema", "jinja2", "mkdocs", "markdown", "difflib", "subprocess",
    "contractc.site", "contractc.emit.site", "contractc.diff", "contractc.scan", "contractc.adopt", "contractc.validate",
)  # fmt: skip
# What a clean check never asks for: the record of what build wrote (read only for an orphan) and the
# worked-example rule (asked only of a block that copies a shape by hand).
NEVER_ON_CLEAN_CHECK = (*NEVER_ON_CHECK, "contractc.output.written", "contractc.load.worked")
# --help and --version load no project: no parser and no model either.
NEVER_ON_HELP = (*NEVER_ON_CHECK, "markdown_it", "ruamel", "yaml", "contractc.model.records", "contractc.pipeline", "contractc.load")


def probe(root: Path, *args: str) -> dict:
    """What the command returned, and the modules it had loaded at exit."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPROFILEIMPORTTIME", "PYTHONDEVMODE")}
    env["PYTHONPATH"] = str(REPO / "compiler")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    return json.loads(done.stderr.strip().splitlines()[-1])


def imported(root: Path, *args: str) -> tuple[int, set[str]]:
    report = probe(root, *args)
    return report["code"], set(report["modules"])


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules for n in names if m == n or m.startswith(n + "."))


@pytest.fixture
def clean_project(tmp_path: Path, run_cli) -> Path:
    """A project whose targets are current: the common CI case, in which `check` reports nothing."""
    agents = {f"agents/a{i}.md": f"# Agent {i}\n\n<!-- contractc:begin shape=echoreturn -->\n<!-- contractc:end -->\n\nDone.\n" for i in range(5)}
    config = ECHO_CONFIG + 'targets: [ "agents/*.md" ]\n'
    root = write_tree(tmp_path, {"contractc.yaml": config, "contracts/c.md": ECHO_CONTRACT, **agents})
    assert run_cli("build", "--root", str(root)).code == 0
    return root


@pytest.mark.parametrize("args", [("check", "--no-cache"), ("check",)])
def test_a_clean_check_loads_no_library_of_another_command(clean_project, args):
    code, modules = imported(clean_project, *args)
    assert code == 0
    assert loaded(modules, NEVER_ON_CLEAN_CHECK) == []


@pytest.mark.parametrize("args", [("--help",), ("--version",), ("check", "--help")])
def test_help_and_version_load_no_parser_and_no_project(tmp_path, args):
    code, modules = imported(tmp_path, *args)
    assert code == 0
    assert loaded(modules, NEVER_ON_HELP) == []


@pytest.fixture
def research_desk(tmp_path: Path, run_cli) -> Path:
    """A realistic plugin (tests/lifecycle_plugin.py: three stages, a shape referring to another, return
    formats whose receiver checks compile, role files, CRLF, a non-ASCII agent), built: its hand-pasted
    near-copy of a brief is a managed region here, so `check` passes."""
    files = sources()
    reader = files["agents/paper-reader.md"]
    assert isinstance(reader, str) and PASTED_BRIEF in reader
    files["agents/paper-reader.md"] = reader.replace(PASTED_BRIEF, region("shape", "gathering-stage.research_brief"))
    root = write_tree(tmp_path / "desk", files)
    assert run_cli("build", "--root", str(root)).code == 0
    return root


@pytest.mark.parametrize("args", [("check", "--no-cache"), ("check",)])
def test_a_clean_check_of_a_plugin_loads_no_other_command(research_desk, args):
    report = probe(research_desk, *args)
    assert report["code"] == 0
    modules = set(report["modules"])
    assert "contractc.model.checks.rules" in modules  # the receiver checks were compiled: the probe saw the whole load
    assert loaded(modules, NEVER_ON_CLEAN_CHECK) == []
