"""The bad-input corpus: every malformed, oversized or hostile input is a located exit 2, and changes nothing.

Each case starts from a built project (a contract with text and data shapes,
shared sections, a managed region in a target file, a role file), breaks one
thing, runs one command in-process, and asserts what a user would notice:

- the exit code (2 for bad input; the few that are drift say 1);
- the first message is ``path:line:col: error[code]: ...`` at the expected path;
- no traceback;
- the whole tree -- every file's bytes and mode, every symlink's target, every
  folder, the project's ``.contractc/`` included, and a canary folder *beside*
  the project -- is byte-identical afterwards;
- nothing outside the project was opened or listed (an audit hook watches every
  ``open`` and directory listing of the run).

The table is data: one row per input, each run with the commands that read it.
``docs/reliability.md`` quotes the number of cases (a test keeps it honest).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import ECHO_CONTRACT, REPO
from contractc.cli import main

CONFIG = """\
contracts:
  - path: contracts/c.md
    shared: [shared]
targets: ["agents/*.md"]
agents:
  echoer: agents/echoer.md
"""

CONTRACT = ECHO_CONTRACT + """
## Brief

```yaml
brief:
  topic: string
  count: 1
  tags: [ a, b ]
```
"""

ORCHESTRATOR = """\
# Orchestrator

<!-- contractc:begin shape=echoreturn -->
<!-- contractc:end -->

The end.
"""

ROLE = "---\nname: echoer\n---\nYou echo.\n"

BASE = {
    "contractc.yaml": CONFIG,
    "contracts/c.md": CONTRACT,
    "agents/orchestrator.md": ORCHESTRATOR,
    "agents/echoer.md": ROLE,
}

# A few hundred bytes that expand to a billion values.
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcdefgh", "bcdefghi")
)
DEEP_FLOW = "[" * 10_000 + "]" * 10_000
DEEP_BLOCK = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v: 1\n"
HUGE_INT = "9" * 5_000
LARGE = 17 << 20  # over the 16 MiB input limit


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str | bytes] = field(default_factory=dict)
    """Files to write over the built project."""
    where: str = "contractc.yaml"
    """The path the first message must be located at (``path:line:col``)."""
    code: str = ""
    """The diagnostic code of that message."""
    commands: tuple[tuple[str, ...], ...] = (("build",), ("check",))
    setup: Callable[[Path], None] | None = None
    exit: int = 2
    hostile: bool = False
    """Aims outside the project: also proves nothing outside was read or written."""


def _config(extra: str = "", contracts: str = "") -> str:
    return CONFIG.replace("contracts:\n  - path: contracts/c.md\n    shared: [shared]\n", contracts or "contracts:\n  - path: contracts/c.md\n    shared: [shared]\n") + extra


def _shape(body: str) -> str:
    return CONTRACT.replace("brief:\n  topic: string\n  count: 1\n  tags: [ a, b ]\n", body)


def _remove(rel: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        path = root / rel
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif os.path.lexists(path):
            path.unlink()

    return setup


def _fifo(rel: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        _remove(rel)(root)
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(root / rel)

    return setup


def _folder(rel: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        _remove(rel)(root)
        (root / rel).mkdir(parents=True)
        (root / rel / "x.md").write_text("x\n")

    return setup


def _link(rel: str, target: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        _remove(rel)(root)
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, root / rel)

    return setup


def _large(rel: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        with open(root / rel, "ab") as handle:
            handle.truncate(LARGE)

    return setup


def _both(*setups: Callable[[Path], None]) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        for one in setups:
            one(root)

    return setup


VALIDATE = (("validate", "brief", "doc.yaml"),)
VALIDATE_MD = (("validate", "brief", "doc.md"),)
BUILD = (("build",),)
CHECK = (("check",),)

CASES: list[Case] = [
    # --- the configuration file itself
    Case("config is a folder", setup=_folder("contractc.yaml"), code="file-unreadable"),
    Case("config is a named pipe", setup=_fifo("contractc.yaml"), code="file-unreadable"),
    Case("config over 16 MiB", setup=_large("contractc.yaml"), code="file-unreadable"),
    Case("config not UTF-8", files={"contractc.yaml": b"contracts:\n  - path: \xff\n"}, code="not-utf8"),
    Case("config YAML syntax", files={"contractc.yaml": "contracts: [\n"}, code="config-syntax"),
    Case("config duplicate key", files={"contractc.yaml": CONFIG + "targets: []\n"}, code="config-syntax"),
    Case("config alias bomb", files={"contractc.yaml": CONFIG + "x:\n" + "".join("  " + line + "\n" for line in BOMB.splitlines())}, code="config-syntax"),
    Case("config deep flow nesting", files={"contractc.yaml": CONFIG + "x: " + DEEP_FLOW + "\n"}, code="config-syntax"),
    Case("config deep block nesting", files={"contractc.yaml": CONFIG + "x:\n" + "".join("  " + line + "\n" for line in DEEP_BLOCK.splitlines())}, code="config-syntax"),
    Case("config huge integer", files={"contractc.yaml": CONFIG + f"x: {HUGE_INT}\n"}, code="config-syntax"),
    Case("config python tag", files={"contractc.yaml": CONFIG + "x: !!python/object/apply:os.system [touch ../outside/owned]\n"}, code="config-syntax", hostile=True),
    Case("config python name tag", files={"contractc.yaml": CONFIG + "x: !!python/name:os.system\n"}, code="config-syntax", hostile=True),
    Case("config application tag", files={"contractc.yaml": CONFIG + "x: !secret value\n"}, code="config-syntax"),
    Case("config merge of an unknown alias", files={"contractc.yaml": CONFIG + "x:\n  <<: *nothing\n"}, code="config-syntax"),
    Case("config is a list", files={"contractc.yaml": "- contracts\n"}, code="config-invalid"),
    Case("config without contracts", files={"contractc.yaml": "targets: []\n"}, code="config-invalid"),
    Case("config empty contracts", files={"contractc.yaml": "contracts: []\n"}, code="config-invalid"),
    Case("config unknown key", files={"contractc.yaml": CONFIG + "outputs: {}\n"}, code="config-invalid"),
    Case("config integer path", files={"contractc.yaml": _config(contracts="contracts:\n  - path: 7\n")}, code="config-invalid"),
    # --- paths in the configuration
    Case("contract path with a NUL byte", files={"contractc.yaml": _config(contracts='contracts:\n  - path: "contracts/c\\0.md"\n')}, code="unsafe-path"),
    Case("contract path absolute", files={"contractc.yaml": _config(contracts="contracts:\n  - path: /etc/passwd\n")}, code="unsafe-path", hostile=True),
    Case("contract path with ..", files={"contractc.yaml": _config(contracts="contracts:\n  - path: ../outside/canary.md\n")}, code="unsafe-path", hostile=True),
    Case("contract through an outside symlink", files={"contractc.yaml": _config(contracts="contracts:\n  - path: contracts/out.md\n")}, setup=_link("contracts/out.md", "../../outside/canary.md"), code="unsafe-path", hostile=True),
    Case("contract is a folder", files={"contractc.yaml": _config(contracts="contracts:\n  - path: contracts/sub\n")}, setup=_folder("contracts/sub"), code="file-unreadable"),
    Case("contract is a named pipe", setup=_fifo("contracts/c.md"), code="file-unreadable"),
    Case("contract over 16 MiB", setup=_large("contracts/c.md"), code="file-unreadable"),
    Case("contract file name ..md", files={"contractc.yaml": _config(contracts="contracts:\n  - path: contracts/...md\n"), "contracts/...md": CONTRACT}, code="unsafe-name"),
    Case("contract file name with a space", files={"contractc.yaml": _config(contracts="contracts:\n  - path: contracts/my c.md\n"), "contracts/my c.md": CONTRACT}, code="unsafe-name"),
    Case("targets glob with a NUL byte", files={"contractc.yaml": CONFIG.replace('["agents/*.md"]', '["agents/\\0*.md"]')}, code="unsafe-path"),
    Case("targets glob absolute", files={"contractc.yaml": CONFIG.replace('["agents/*.md"]', '["/tmp/*.md"]')}, code="unsafe-path", hostile=True),
    Case("targets glob with ..", files={"contractc.yaml": CONFIG.replace('["agents/*.md"]', '["../outside/*.md"]')}, code="unsafe-path", hostile=True),
    Case("target through an outside symlink", setup=_link("agents/out.md", "../../outside/canary.md"), where="contractc.yaml", code="unsafe-path", hostile=True),
    Case("target folder through an outside symlink", files={"contractc.yaml": CONFIG.replace('["agents/*.md"]', '["agents/*.md", "more/*.md"]')}, setup=_link("more", "../outside"), code="unsafe-path", hostile=True),
    Case("role file with ..", files={"contractc.yaml": CONFIG.replace("agents/echoer.md", "../outside/canary.md")}, code="unsafe-path", hostile=True),
    Case("role file is a named pipe", setup=_fifo("agents/echoer.md"), code="file-unreadable"),
    Case("role file is a folder", files={"contractc.yaml": CONFIG.replace("echoer: agents/echoer.md", "echoer: agents/dir")}, setup=_folder("agents/dir"), code="file-unreadable"),
    Case("role file with a NUL byte", files={"contractc.yaml": CONFIG.replace("echoer: agents/echoer.md", 'echoer: "agents/e\\0.md"')}, code="unsafe-path"),
    Case("site templates with ..", files={"contractc.yaml": CONFIG + "site:\n  templates: ../outside\n"}, code="unsafe-path", hostile=True),
    # --- output folders that would hold the user's files
    Case("out.prompts is the contracts folder", files={"contractc.yaml": CONFIG + "out: {prompts: contracts}\n"}, code="unsafe-path"),
    Case("out.schemas is the agents folder", files={"contractc.yaml": CONFIG + "out: {schemas: agents}\n"}, code="unsafe-path"),
    Case("out.schemas is the project root", files={"contractc.yaml": CONFIG + "out: {schemas: .}\n"}, code="unsafe-path"),
    Case("out.schemas is the project root, spelt ./", files={"contractc.yaml": CONFIG + "out: {schemas: ./}\n"}, code="unsafe-path"),
    Case("out.prompts equals out.schemas", files={"contractc.yaml": CONFIG + "out: {prompts: gen, schemas: gen}\n"}, code="unsafe-path"),
    Case("out.prompts inside out.schemas", files={"contractc.yaml": CONFIG + "out: {prompts: schemas/prompts}\n"}, code="unsafe-path"),
    Case("out.schemas inside out.prompts", files={"contractc.yaml": CONFIG + "out: {schemas: prompts/schemas}\n"}, code="unsafe-path"),
    Case("out.prompts is .git", files={"contractc.yaml": CONFIG + "out: {prompts: .git}\n"}, code="unsafe-path"),
    Case("out.prompts inside .git", files={"contractc.yaml": CONFIG + "out: {prompts: .git/hooks}\n"}, code="unsafe-path"),
    Case("out.prompts is .contractc", files={"contractc.yaml": CONFIG + "out: {prompts: .contractc}\n"}, code="unsafe-path"),
    Case("out.prompts names an existing file", files={"contractc.yaml": CONFIG + "out: {prompts: README.md}\n", "README.md": "# mine\n"}, code="unsafe-path"),
    Case("out.prompts through a symlink into the contracts", files={"contractc.yaml": CONFIG + "out: {prompts: gen}\n"}, setup=_link("gen", "contracts"), code="unsafe-path"),
    Case("out.prompts through a symlink outside", files={"contractc.yaml": CONFIG + "out: {prompts: gen}\n"}, setup=_link("gen", "../outside"), code="unsafe-path", hostile=True),
    Case("out.prompts with ..", files={"contractc.yaml": CONFIG + "out: {prompts: ../outside}\n"}, code="unsafe-path", hostile=True),
    Case("out.prompts absolute", files={"contractc.yaml": CONFIG + "out: {prompts: /tmp/contractc-out}\n"}, code="unsafe-path", hostile=True),
    Case("out.prompts with a NUL byte", files={"contractc.yaml": CONFIG + 'out: {prompts: "gen\\0"}\n'}, code="unsafe-path"),
    Case("out.schemas holds the role file", files={"contractc.yaml": CONFIG.replace("agents/echoer.md", "roles/echoer.md") + "out: {schemas: roles}\n", "roles/echoer.md": ROLE}, code="unsafe-path"),
    Case("out.schemas where targets look", files={"contractc.yaml": CONFIG.replace('["agents/*.md"]', '["agents/*.md", "gen/sub/*.md"]') + "out: {schemas: gen}\n"}, code="unsafe-path"),
    Case("out.site holds the templates", files={"contractc.yaml": CONFIG + "site:\n  templates: docs/contracts/t\nout: {site: docs}\n", "docs/contracts/t/agent.md": "x\n"}, code="unsafe-path"),
    Case("out.site is the project root", files={"contractc.yaml": CONFIG + "out: {site: .}\n"}, code="unsafe-path"),
    Case("out.site with an empty prefix is the contracts folder", files={"contractc.yaml": CONFIG + "site:\n  prefix: ''\nout: {site: contracts}\n"}, code="unsafe-path"),
    # --- names that become output paths
    Case("producer escapes the project", files={"contracts/c.md": CONTRACT.replace("`echoer`", "`../../escaped`")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("producer absolute", files={"contracts/c.md": CONTRACT.replace("`echoer`", "`/tmp/escaped`")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("producer with a slash", files={"contracts/c.md": CONTRACT.replace("`echoer`", "`team/echoer`")}, where="contracts/c.md", code="unsafe-name"),
    Case("producer with a space", files={"contracts/c.md": CONTRACT.replace("`echoer`", "`echo er`")}, where="contracts/c.md", code="unsafe-name"),
    Case("producer is ..", files={"contracts/c.md": CONTRACT.replace("`echoer`", "`..`")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("producer is .", files={"contracts/c.md": CONTRACT.replace("`echoer`", "`.`")}, where="contracts/c.md", code="unsafe-name"),
    Case("producer with a backslash", files={"contracts/c.md": CONTRACT.replace("`echoer`", "`..\\\\..\\\\escaped`")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("consumer escapes the project", files={"contracts/c.md": CONTRACT.replace("`echo-skill`", "`../../escaped`")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("consumer escapes with --site-pages", files={"contracts/c.md": CONTRACT.replace("`echo-skill`", "`../../../escaped`")}, where="contracts/c.md", code="unsafe-name", commands=(("build", "--site-pages", "docs"), ("check", "--site-pages", "docs")), hostile=True),
    Case("second consumer escapes", files={"contracts/c.md": CONTRACT.replace("`echo-skill`", "`echo-skill` and `../x`")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("data-shape key escapes", files={"contracts/c.md": _shape("../../../escape_schema:\n  topic: string\n")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("data-shape key with a slash", files={"contracts/c.md": _shape("a/b:\n  topic: string\n")}, where="contracts/c.md", code="unsafe-name"),
    Case("data-shape key absolute", files={"contracts/c.md": _shape("/tmp/x:\n  topic: string\n")}, where="contracts/c.md", code="unsafe-name", hostile=True),
    Case("explicit anchor with a colon names a shape", files={"contracts/c.md": CONTRACT.replace("## EchoReturn", "## EchoReturn {#echo:return}")}, where="contracts/c.md", code="unsafe-name"),
    # --- contracts
    Case("contract not UTF-8", files={"contracts/c.md": CONTRACT.encode() + b"\xff\xfe\n"}, where="contracts/c.md", code="not-utf8"),
    Case("contract unclosed fence", files={"contracts/c.md": CONTRACT + "\n## Late\n\n```yaml\nlate:\n  a: string\n"}, where="contracts/c.md", code="unclosed-fence"),
    Case("contract duplicate anchor", files={"contracts/c.md": CONTRACT + "\n## Shared\n\nAgain.\n"}, where="contracts/c.md", code="duplicate-anchor"),
    Case("contract unknown shared section", files={"contractc.yaml": CONFIG.replace("[shared]", "[shared, nowhere]")}, code="unknown-section"),
    Case("shape YAML syntax", files={"contracts/c.md": _shape("brief:\n  topic: [\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape duplicate key", files={"contracts/c.md": _shape("brief:\n  topic: string\n  topic: string\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape alias bomb", files={"contracts/c.md": _shape("brief:\n" + "".join("  " + line + "\n" for line in BOMB.splitlines()))}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape deep flow nesting", files={"contracts/c.md": _shape("brief:\n  x: " + DEEP_FLOW + "\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape deep block nesting", files={"contracts/c.md": _shape("brief:\n" + "".join("  " + line + "\n" for line in DEEP_BLOCK.splitlines()))}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape huge integer", files={"contracts/c.md": _shape(f"brief:\n  n: {HUGE_INT}\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape merge key", files={"contracts/c.md": _shape("brief:\n  base: &b {x: string}\n  more:\n    <<: *b\n    y: string\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape python apply tag", files={"contracts/c.md": _shape("brief:\n  x: !!python/object/apply:os.system [touch ../outside/owned]\n")}, where="contracts/c.md", code="yaml-syntax", hostile=True),
    Case("shape python object tag", files={"contracts/c.md": _shape("brief: !!python/object:collections.OrderedDict\n  x: string\n")}, where="contracts/c.md", code="yaml-syntax", hostile=True),
    Case("shape application tag", files={"contracts/c.md": _shape("brief:\n  x: !env HOME\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape unknown notation", files={"contracts/c.md": _shape("brief:\n  x: str\n")}, where="contracts/c.md", code="bad-notation"),
    Case("shape undefined alias", files={"contracts/c.md": _shape("brief:\n  x: *nope\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape two documents", files={"contracts/c.md": _shape("brief:\n  x: string\n---\nother: 1\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("shape tab indentation", files={"contracts/c.md": _shape("brief:\n\tx: string\n")}, where="contracts/c.md", code="yaml-syntax"),
    Case("produced-by line outside any heading", files={"contracts/c.md": "Produced by `echoer`; consumed by `echo-skill`.\n\n" + CONTRACT}, where="contracts/c.md", code="bad-shape"),
    Case("consumers not in backticks", files={"contracts/c.md": CONTRACT.replace("consumed by `echo-skill`", "consumed by echo-skill")}, where="contracts/c.md", code="bad-shape"),
    Case("two sections derive one anchor", files={"contracts/c.md": CONTRACT + "\n## Brief!\n\nAgain.\n"}, where="contracts/c.md", code="duplicate-anchor"),
    # --- managed regions in target files
    Case("region never ended", files={"agents/orchestrator.md": ORCHESTRATOR.replace("<!-- contractc:end -->\n", "")}, where="agents/orchestrator.md", code="marker-unclosed"),
    Case("end marker without begin", files={"agents/orchestrator.md": ORCHESTRATOR + "<!-- contractc:end -->\n"}, where="agents/orchestrator.md", code="marker-unopened"),
    Case("region inside a region", files={"agents/orchestrator.md": ORCHESTRATOR.replace("<!-- contractc:end -->", "<!-- contractc:begin section=shared -->\n<!-- contractc:end -->\n<!-- contractc:end -->")}, where="agents/orchestrator.md", code="marker-nested"),
    Case("marker with a bad verb", files={"agents/orchestrator.md": ORCHESTRATOR + "<!-- contractc:bgin shape=echoreturn -->\n"}, where="agents/orchestrator.md", code="marker-syntax"),
    Case("region names an unknown shape", files={"agents/orchestrator.md": ORCHESTRATOR + "<!-- contractc:begin shape=nothing -->\n<!-- contractc:end -->\n"}, where="agents/orchestrator.md", code="marker-reference"),
    Case("region names an escaping path", files={"agents/orchestrator.md": ORCHESTRATOR + "<!-- contractc:begin shape=../../outside/canary -->\n<!-- contractc:end -->\n"}, where="agents/orchestrator.md", code="marker-reference", hostile=True),
    Case("region in a role file's front matter", files={"agents/echoer.md": "---\nname: echoer\n<!-- contractc:begin section=shared -->\n<!-- contractc:end -->\n---\nYou echo.\n"}, where="agents/echoer.md", code="role-front-matter"),
    # --- role files
    Case("role front matter never closed", files={"agents/echoer.md": "---\nname: echoer\nYou echo.\n"}, where="agents/echoer.md", code="role-front-matter"),
    Case("role front matter alias bomb", files={"agents/echoer.md": "---\n" + BOMB + "---\nYou echo.\n"}, where="agents/echoer.md", code="role-front-matter"),
    Case("role front matter deep nesting", files={"agents/echoer.md": "---\nx: " + DEEP_FLOW + "\n---\nYou echo.\n"}, where="agents/echoer.md", code="role-front-matter"),
    Case("role front matter huge integer", files={"agents/echoer.md": f"---\nx: {HUGE_INT}\n---\nYou echo.\n"}, where="agents/echoer.md", code="role-front-matter"),
    Case("role front matter python tag", files={"agents/echoer.md": "---\nx: !!python/object/apply:os.system [touch ../outside/owned]\n---\nYou echo.\n"}, where="agents/echoer.md", code="role-front-matter", hostile=True),
    Case("role front matter is a list", files={"agents/echoer.md": "---\n- a\n---\nYou echo.\n"}, where="agents/echoer.md", code="role-front-matter"),
    Case("role for an agent that produces nothing", files={"contractc.yaml": CONFIG + "  nobody: agents/echoer.md\n"}, code="unknown-agent"),
    Case("agent name escapes", files={"contractc.yaml": CONFIG + "  ../../escaped: agents/echoer.md\n"}, code="config-invalid", hostile=True),
    # --- symbolic links and odd files among the outputs
    Case("symlink to an outside file in an output folder", setup=_link("prompts/evil.md", "../../outside/canary.md"), code="unsafe-path", hostile=True),
    Case("dangling symlink in an output folder", setup=_link("prompts/gone.md", "nowhere.md"), code="unsafe-path"),
    Case("generated file is a symlink outside", setup=_link("prompts/echoer/echoreturn.md", "../../../outside/canary.md"), code="unsafe-path", hostile=True),
    Case("generated folder is a symlink outside", setup=_link("prompts/echoer", "../../outside"), code="unsafe-path", hostile=True),
    Case("schema folder is a symlink outside", setup=_link("schemas/c", "../../outside"), code="unsafe-path", hostile=True),
    Case("output folder is a symlink to a folder inside", setup=_both(_remove("prompts"), _link("prompts", "agents")), code="unsafe-path"),
    Case("manifest is a symlink outside", setup=_link("prompts/manifest.json", "../../outside/canary.md"), code="unsafe-path", hostile=True),
    Case("generated file is a named pipe", setup=_fifo("prompts/echoer/echoreturn.md"), where="prompts/echoer/echoreturn.md", code="file-unreadable"),
    Case("orphan is a named pipe", setup=_fifo("prompts/pipe.md"), where="prompts/pipe.md", code="file-unreadable"),
    Case("generated file is a folder", setup=_folder("prompts/echoer/echoreturn.md"), where="prompts/echoer/echoreturn.md", code="file-unreadable"),
    Case(".contractc is a symlink outside", setup=_link(".contractc", "../outside"), where=".contractc", code="unsafe-path", hostile=True),
    Case(".contractc is a file", setup=_both(_remove(".contractc"), lambda r: (r / ".contractc").write_text("x\n")), where=".contractc", code="unsafe-path"),
    Case("journal is garbage", files={".contractc/journal.json": "{not json"}, where=".contractc/journal.json", code="file-unreadable"),
    Case("journal is a named pipe", setup=_fifo(".contractc/journal.json"), where=".contractc/journal.json", code="file-unreadable"),
    Case("journal has an unknown phase", files={".contractc/journal.json": '{"phase": "later", "entries": [], "folders": []}'}, where=".contractc/journal.json", code="file-unreadable"),
    # --- --site-pages
    Case("--site-pages with ..", commands=(("build", "--site-pages", "../outside"), ("check", "--site-pages", "../outside")), where="--site-pages", code="unsafe-path", hostile=True),
    Case("--site-pages absolute", commands=(("build", "--site-pages", "/tmp/contractc-site"), ("check", "--site-pages", "/tmp/contractc-site")), where="--site-pages", code="unsafe-path", hostile=True),
    Case("--site-pages is the project root", commands=(("build", "--site-pages", "."), ("check", "--site-pages", ".")), where="--site-pages", code="unsafe-path"),
    Case("--site-pages is the prompts folder", commands=(("build", "--site-pages", "prompts"),), where="--site-pages", code="unsafe-path"),
    Case("--site-pages is .git", commands=(("build", "--site-pages", ".git"),), where="--site-pages", code="unsafe-path"),
    Case("--site-pages with a NUL byte", commands=(("build", "--site-pages", "docs\0"),), where="argv", code="unsafe-path"),
    Case("--site-pages through an outside symlink", setup=_link("site", "../outside"), commands=(("build", "--site-pages", "site"),), where="--site-pages", code="unsafe-path", hostile=True),
    Case("--site-pages names a file", files={"notes.md": "mine\n"}, commands=(("build", "--site-pages", "notes.md"),), where="--site-pages", code="unsafe-path"),
    Case("--site-pages with an outside template folder", files={"contractc.yaml": CONFIG + "site:\n  templates: tpl\n"}, setup=_link("tpl", "../outside"), commands=(("build", "--site-pages", "docs"),), code="unsafe-path", hostile=True),
    Case("--site-pages with a missing template folder", files={"contractc.yaml": CONFIG + "site:\n  templates: tpl\n"}, commands=(("build", "--site-pages", "docs"),), code="site-template"),
    Case("--site-pages with a template that does not parse", files={"contractc.yaml": CONFIG + "site:\n  templates: tpl\n", "tpl/contract.md": "{% if %}\n"}, commands=(("build", "--site-pages", "docs"),), where="tpl/contract.md", code="site-template"),
    Case("--site-pages with a template that is a named pipe", files={"contractc.yaml": CONFIG + "site:\n  templates: tpl\n"}, setup=_fifo("tpl/contract.md"), commands=(("build", "--site-pages", "docs"),), where="tpl/contract.md", code="site-template"),
    # --- documents given to validate
    Case("document YAML syntax", files={"doc.yaml": "topic: [\n"}, commands=VALIDATE, where="doc.yaml", code="document-syntax"),
    Case("document alias bomb", files={"doc.yaml": BOMB}, commands=VALIDATE, where="doc.yaml", code="document-syntax"),
    Case("document deep flow nesting", files={"doc.yaml": "topic: " + DEEP_FLOW + "\n"}, commands=VALIDATE, where="doc.yaml", code="document-syntax"),
    Case("document deep block nesting", files={"doc.yaml": DEEP_BLOCK}, commands=VALIDATE, where="doc.yaml", code="document-syntax"),
    Case("document huge integer", files={"doc.yaml": f"count: {HUGE_INT}\n"}, commands=VALIDATE, where="doc.yaml", code="document-syntax"),
    Case("document python apply tag", files={"doc.yaml": "topic: !!python/object/apply:os.system [touch ../outside/owned]\n"}, commands=VALIDATE, where="doc.yaml", code="document-syntax", hostile=True),
    Case("document python module tag", files={"doc.yaml": "topic: !!python/module:os\n"}, commands=VALIDATE, where="doc.yaml", code="document-syntax", hostile=True),
    Case("document merge of a bomb", files={"doc.yaml": BOMB + "j:\n  <<: *i\n"}, commands=VALIDATE, where="doc.yaml", code="document-syntax"),
    Case("document is a named pipe", setup=_fifo("doc.yaml"), commands=VALIDATE, where="doc.yaml", code="file-unreadable"),
    Case("document over 16 MiB", files={"doc.yaml": ""}, setup=_large("doc.yaml"), commands=VALIDATE, where="doc.yaml", code="file-unreadable"),
    Case("document not UTF-8", files={"doc.yaml": b"topic: \xff\n"}, commands=VALIDATE, where="doc.yaml", code="not-utf8"),
    Case("document front matter bomb", files={"doc.md": "---\n" + BOMB + "---\nbody\n"}, commands=VALIDATE_MD, where="doc.md", code="document-syntax"),
    Case("document front matter python tag", files={"doc.md": "---\ntopic: !!python/object/apply:os.system [id]\n---\n"}, commands=VALIDATE_MD, where="doc.md", code="document-syntax", hostile=True),
    Case("document without front matter", files={"doc.md": "just text\n"}, commands=VALIDATE_MD, where="doc.md", code="document-syntax"),
    Case("document path with a NUL byte", commands=(("validate", "brief", "doc\0.yaml"),), where="argv", code="unsafe-path"),
    Case("document fails its shape", files={"doc.yaml": "topic: 7\ncount: 1\ntags: [a]\n"}, commands=VALIDATE, where="doc.yaml", code="", exit=1),
    Case("return to judge is a named pipe", setup=_fifo("ret.txt"), commands=(("validate", "echoreturn", "ret.txt"),), where="ret.txt", code="file-unreadable"),
    Case("return to judge is a folder", setup=_folder("ret"), commands=(("validate", "echoreturn", "ret"),), where="ret", code="file-unreadable"),
    # --- hash
    Case("hash of a named pipe", setup=_fifo("pipe"), commands=(("hash", "pipe"),), where="pipe", code="file-unreadable"),
    Case("hash of a path with a NUL byte", commands=(("hash", "a\0b"),), where="argv", code="unsafe-path"),
    # --- check options
    Case("--changed-since an unknown ref", commands=(("check", "--changed-since", "no-such-ref"),), where="--changed-since", code="bad-ref"),
    Case("--changed-since an option-like ref", commands=(("check", "--changed-since", "--output=../outside/owned"),), where="--changed-since", code="bad-ref", hostile=True),
]

HOSTILE_OUTSIDE = "outside"
COMMAND_ROOT = {"build", "check", "validate"}


def _params() -> list:
    params = []
    for case in CASES:
        for command in case.commands:
            params.append(pytest.param(case, command, id=f"{case.name} [{command[0]}]"))
    return params


PARAMS = _params()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The project, built once: each case copies it."""
    root = tmp_path_factory.mktemp("built") / "project"
    for rel, content in BASE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    assert main(["build", "--root", str(root)]) == 0
    assert main(["check", "--root", str(root), "--no-cache"]) == 0
    return root


def tree_state(top: Path) -> dict[str, tuple]:
    """Every file (bytes and mode), symlink (target) and folder under ``top``; named pipes by kind only."""
    state: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, top)
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                state[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                state[rel] = ("dir", stat.S_IMODE(st.st_mode))
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as handle:
                    state[rel] = ("file", stat.S_IMODE(st.st_mode), hashlib.sha256(handle.read()).hexdigest())
            else:
                state[rel] = ("other", stat.S_IFMT(st.st_mode))
    return state


_WATCH: list[tuple[str, list[str]]] = []


def _audit(event: str, args: tuple) -> None:
    if not _WATCH or event not in ("open", "os.listdir", "os.scandir"):
        return
    target = args[0] if args else None
    if not isinstance(target, (str, bytes, os.PathLike)):
        return
    try:
        full = os.path.abspath(os.fsdecode(target))
    except (TypeError, ValueError):
        return
    outside, seen = _WATCH[-1]
    if full == outside or full.startswith(outside + os.sep):
        seen.append(full)


sys.addaudithook(_audit)


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang("the command blocked")


LOCATED = re.compile(r"^(?P<path>.*?):(?P<line>[0-9]+):(?P<col>[0-9]+): error\[(?P<code>[a-z0-9-]+)\]: ", re.MULTILINE)


@pytest.mark.parametrize("case, command", PARAMS)
def test_bad_input(case: Case, command: tuple[str, ...], built: Path, tmp_path: Path, capsys) -> None:
    root = tmp_path / "project"
    shutil.copytree(built, root, symlinks=True)
    outside = tmp_path / HOSTILE_OUTSIDE
    outside.mkdir()
    (outside / "canary.md").write_text("# the canary: never read, never written\n")
    for rel, content in case.files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    if case.setup:
        case.setup(root)
    before = tree_state(tmp_path)
    capsys.readouterr()

    argv = [*command]
    if command[0] in COMMAND_ROOT:
        argv[1:1] = ["--root", str(root)]
    cwd = os.getcwd()
    seen: list[str] = []
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)  # a hang guard, not a timing assertion: a blocked read fails the case instead of the run
    _WATCH.append((str(outside), seen))
    try:
        os.chdir(root)  # validate and hash take paths relative to the working directory
        code = main(argv)
    finally:
        _WATCH.pop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        os.chdir(cwd)
    captured = capsys.readouterr()
    said = captured.out + captured.err

    assert code == case.exit, said
    assert "Traceback" not in said and "internal error" not in said, said
    if case.exit == 2:
        first = LOCATED.search(said)
        assert first, f"no path:line:col message in:\n{said}"
        assert first["code"] == case.code, said
        assert first["path"] == case.where, said
        assert int(first["line"]) >= 1 and int(first["col"]) >= 1
    else:
        assert re.search(rf"^{re.escape(case.where)}:[0-9]+: ", said, re.MULTILINE), said
    assert tree_state(tmp_path) == before, "a failed run changed the tree"
    if case.hostile:
        assert seen == [], f"read outside the project: {seen}"
        assert not (outside / "owned").exists() and not (tmp_path / "escaped").exists()


def test_the_corpus_covers_every_category_with_at_least_150_cases() -> None:
    assert len(PARAMS) >= 150
    codes = {case.code for case in CASES}
    assert {"unsafe-path", "unsafe-name", "file-unreadable", "config-syntax", "yaml-syntax", "document-syntax", "role-front-matter"} <= codes
    assert sum(case.hostile for case in CASES) >= 40


def test_reliability_page_states_the_corpus_size() -> None:
    page = (REPO / "docs/reliability.md").read_text("utf-8")
    hostile = sum(len(case.commands) for case in CASES if case.hostile)
    assert f"{len(PARAMS)} bad inputs" in page and f"{hostile} of them hostile" in page


def test_scan_and_adopt_skip_alias_bombs_in_a_plugin(tmp_path, capsys):
    """scan reads every Markdown file of a plugin: a block with aliases is no shape, not a hang."""
    root = tmp_path / "plugin"
    (root / "agents").mkdir(parents=True)
    (root / "agents/b.md").write_text("# B\n\n```yaml\n" + BOMB + "```\n")
    (root / "agents/c.md").write_text(f"---\nx: {HUGE_INT}\n---\n# C\n\n```yaml\nn: {HUGE_INT}\n```\n")
    before = tree_state(tmp_path)
    for command in ("scan", "adopt"):
        assert main([command, str(root)]) == 0
        said = capsys.readouterr()
        assert "Traceback" not in said.out + said.err
    assert tree_state(tmp_path) == before


def test_scan_and_adopt_refuse_a_block_nested_too_deep_with_its_location(tmp_path, capsys):
    """A block nested past the YAML limit is a located exit 2 that names --exclude, never skipped unsaid."""
    root = tmp_path / "plugin"
    (root / "agents").mkdir(parents=True)
    (root / "agents/a.md").write_text("# A\n\n```yaml\nbrief:\n  x: " + DEEP_FLOW + "\n```\n")
    before = tree_state(tmp_path)
    for command in ("scan", "adopt"):
        assert main([command, str(root)]) == 2
        said = capsys.readouterr()
        assert "agents/a.md:3:1: error[scan-too-deep]: this fenced block nests deeper than 64 levels" in said.err
        assert "--exclude agents/a.md" in said.err and "Traceback" not in said.out + said.err
    assert main(["scan", str(root), "--exclude", "agents/a.md"]) == 0
    assert tree_state(tmp_path) == before


@pytest.mark.parametrize("victim, where", [("contractc.yaml", "contractc.yaml:1:1"), ("contracts/c.md", "contractc.yaml:2:5"), ("agents/orchestrator.md", "agents/orchestrator.md:1:1")])
def test_a_file_without_read_permission_is_a_located_exit_2(victim, where, built, tmp_path, monkeypatch, run_cli):
    """As root every file is readable, so the refusal is simulated where contractc opens files."""
    root = tmp_path / "project"
    shutil.copytree(built, root, symlinks=True)
    real_open = os.open

    def no_permission(path, flags, *args, **kwargs):
        if os.fspath(path).endswith(victim):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", no_permission)
    before = tree_state(tmp_path)
    for command in ("build", "check"):
        result = run_cli(command, "--root", str(root))
        assert result.code == 2, result.err
        assert result.err.startswith(f"{where}: error[file-unreadable]: cannot read {victim}: Permission denied"), result.err
    assert tree_state(tmp_path) == before
