"""The reference pages keep up with the code: every code and every CLI option is documented."""

from __future__ import annotations

import re

import click

from conftest import REPO
from contractc.cli import cli
from contractc.report.diagnostics import CODES


def test_every_code_is_documented_under_its_own_anchor():
    page = (REPO / "docs/drift-codes.md").read_text()
    anchors = set(re.findall(r"^#{2,4} (\S+) \{#\1\}$", page, flags=re.MULTILINE))
    missing = sorted(set(CODES) - anchors)
    assert not missing, (
        f"codes without a section in docs/drift-codes.md: {missing}. For each, add a heading "
        "`### <code> {#<code>}` saying what it means and how to fix it (the `see:` link of every message points there)."
    )
    stale = sorted(anchors - set(CODES))
    assert not stale, f"docs/drift-codes.md documents codes that diagnostics.CODES no longer has: {stale}"


def test_cli_reference_documents_every_command_and_option():
    page = (REPO / "docs/cli.md").read_text()
    sections = dict(
        re.findall(r"^## contractc (\S+) \{#[\w-]+\}\n(.*?)(?=^## |\Z)", page, flags=re.MULTILINE | re.DOTALL)
    )
    missing = []
    for name, command in sorted(cli.commands.items()):
        if name not in sections:
            missing.append(f"the command `{name}` (a `## contractc {name} {{#{name}}}` section)")
            continue
        for param in command.params:
            if isinstance(param, click.Option) and "--help" not in param.opts:
                missing += [
                    f"`{opt}` of `{name}`"
                    for opt in (*param.opts, *param.secondary_opts)
                    if f"`{opt}" not in sections[name]
                ]
    assert not missing, "docs/cli.md does not document: " + ", ".join(missing)


def _command_sections() -> dict[str, str]:
    page = (REPO / "docs/cli.md").read_text()
    return dict(re.findall(r"^## contractc (\S+) \{#[\w-]+\}\n(.*?)(?=^## |\Z)", page, flags=re.MULTILINE | re.DOTALL))


def _option_rows(section: str) -> dict[str, tuple[str, str]]:
    """Each option named in the first column of the section's table -> (its row's first column, default column)."""
    rows = {}
    for first, default in re.findall(r"^\| (`-.*?) \|\s*(.*?)\s*\| .*\|$", section, flags=re.MULTILINE):
        for opt in re.findall(r"`(-[-\w]*)", first):
            rows[opt] = (first, default)
    return rows


def _synopsis(section: str) -> str:
    return re.search(r"```text\n(.*?)```", section, flags=re.DOTALL).group(1)


def _documented_default(param: click.Option) -> str | None:
    """How the table's default column spells the option's default, or None when it may say anything."""
    if param.secondary_opts:  # --diff/--no-diff: the one in effect
        return f"`{param.opts[0] if param.default else param.secondary_opts[0]}`"
    if param.is_flag:
        return "off"
    if isinstance(param.default, str) and not param.multiple:  # None, or click's sentinel for "no default"
        return f"`{param.default}`"
    return None


def test_cli_reference_option_tables_equal_each_commands_options():
    """Both ways: every option of a command is in its table (with its real default) and its synopsis,
    and the table names no option the command does not have."""
    sections = _command_sections()
    wrong = []
    for name, command in sorted(cli.commands.items()):
        section = sections[name]
        rows, synopsis = _option_rows(section), _synopsis(section)
        real = set()
        for param in command.params:
            if not isinstance(param, click.Option) or "--help" in param.opts:
                continue
            real.update((*param.opts, *param.secondary_opts))
            for opt in (*param.opts, *param.secondary_opts):
                if opt not in rows:
                    wrong.append(f"`{opt}` of `{name}` has no row in its table")
                if not re.search(rf"{re.escape(opt)}(?![-\w])", synopsis):
                    wrong.append(f"`{opt}` of `{name}` is not in its synopsis")
            expected = _documented_default(param)
            row = rows.get(param.opts[-1])
            if expected is not None and row is not None and row[1] != expected:
                wrong.append(f"`{param.opts[-1]}` of `{name}` defaults to {expected}, the table says {row[1]}")
        wrong += [f"the table of `{name}` names `{opt}`, which it does not have" for opt in sorted(set(rows) - real)]
        wrong += [
            f"the synopsis of `{name}` names `{opt}`, which it does not have"
            for opt in sorted(set(re.findall(r"(?<![\w-])(--?[a-z][-\w]*)", synopsis)) - real - {"-h", "--help"})
        ]
    assert not wrong, "docs/cli.md disagrees with the commands:\n" + "\n".join(wrong)


def test_cli_reference_documents_the_global_options():
    page = (REPO / "docs/cli.md").read_text()
    head = page.split("\n## contractc ", 1)[0]
    synopsis = _synopsis(head)
    options = [opt for p in cli.params if isinstance(p, click.Option) for opt in (*p.opts, *p.secondary_opts)]
    missing = [opt for opt in options if f"`{opt}" not in head and opt not in synopsis]
    assert not missing, f"docs/cli.md does not document the global options {missing} before the commands"
    assert {"--version", "--help", "--debug"} <= set(re.findall(r"--[a-z]+", synopsis))


def _example_commands(text: str) -> list[str]:
    """What follows `contractc ` in each inline code span, and on each line of a fenced block that runs it."""
    found = re.findall(r"`contractc ([^`\n]*)`", text)
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        found += re.findall(r"^\s*(?:\$ |-? ?run: |entry: )?contractc (.*)$", block, flags=re.MULTILINE)
    return found


def test_every_example_command_in_the_docs_names_a_real_command_and_its_options():
    """`contractc CMD --opt ...` anywhere in the docs or README parses as far as names go."""
    group = {opt for p in cli.params for opt in (*p.opts, *p.secondary_opts)} | {"-h", "--help"}
    wrong = []
    for page in sorted([*(REPO / "docs").glob("*.md"), REPO / "README.md"]):
        for line in _example_commands(page.read_text()):
            tokens = [t for t in re.split(r"[\s\[\]()|=\\]+", line) if t]
            while tokens and tokens[0] in group:
                tokens.pop(0)
            if not tokens or not re.fullmatch(r"[a-z]+", tokens[0]) or tokens[0] in ("is", "in", "and", "or", "to", "of"):
                continue  # prose ("contractc is ..."), or the options of the group alone
            command = cli.commands.get(tokens[0])
            if command is None:
                if tokens[0] not in ("command",):
                    wrong.append(f"{page.name}: `contractc {line.strip()}` names no command")
                continue
            known = {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)} | {"-h", "--help"}
            wrong += [
                f"{page.name}: `contractc {line.strip()}`: {tokens[0]} has no {t}"
                for t in tokens[1:]
                if re.fullmatch(r"--?[a-zA-Z][\w-]*", t) and t not in known
            ]
    assert not wrong, "\n".join(wrong)


def _layout_block() -> str:
    text = (REPO / "README.md").read_text("utf-8")
    return text.split("\n## Layout\n", 1)[1].split("```", 2)[1]


def _listed_in_readme() -> set[str]:
    """The package's files the README's Layout tree names: ``cli.py``, ``load/``, ``load/config.py``, ..."""
    listed: set[str] = set()
    package = None
    for line in _layout_block().splitlines():
        if line.startswith("  ") and not line.startswith("   "):  # an entry of compiler/contractc/
            name = line.split()[0]
            package = name.rstrip("/") if name.endswith("/") else None
            listed.add(name)
        elif package and line.startswith(" " * 20) and not line.startswith(" " * 21):  # a module of that package
            name = line.split()[0]
            if name.endswith("/"):  # a package inside it: its modules after the colon
                listed.add(f"{package}/{name}")
                listed.update(f"{package}/{name}{m.strip()}.py" for m in line.split(":", 1)[1].split(","))
            else:
                listed.add(f"{package}/{name}.py")
    return listed


def test_the_readme_layout_is_the_tree():
    root = REPO / "compiler" / "contractc"
    on_disk = {p.name + "/" if p.is_dir() else p.name for p in root.iterdir() if p.name != "__pycache__"}
    for init in root.rglob("__init__.py"):
        package = init.parent
        if package == root:
            continue
        rel = package.relative_to(root).as_posix()
        on_disk.add(rel + "/")
        on_disk.update(f"{rel}/{p.name}" for p in package.glob("*.py") if p.name != "__init__.py")
    assert _listed_in_readme() == on_disk
    assert _layout_block().lstrip("\n").startswith("site_templates/ ") and (REPO / "site_templates").is_dir()


def test_no_install_command_claims_a_package_index_and_the_site_extra_is_given():
    """contractc is installed from a checkout or a git URL: a plain `pip install contractc` would fail."""
    import re

    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / "action.yml"]
    from_index = re.compile(r"pip install\s+['\"]?contractc(?:\[[\w,]+\])?(?:[=<>~!]=?[\w.]+)?['\"]?(?:\s|$|`)")
    offenders = [
        f"{page.name}: {line.strip()}"
        for page in pages
        for line in page.read_text("utf-8").splitlines()
        if from_index.search(line) and "git+" not in line and "finds nothing" not in line
    ]
    assert offenders == []
    readme = (REPO / "README.md").read_text("utf-8")
    assert "pip install -e '.[site]'" in readme and "git+" in readme


def test_the_seed_skip_message_names_the_variable_that_points_at_the_seeds(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "CONTRACTC_SEEDS": str(tmp_path / "no-seeds")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/test_seed_conformance.py", "-k", "published"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "SKIPPED" in done.stdout and "set CONTRACTC_SEEDS to the folder holding return-shapes.md" in done.stdout
