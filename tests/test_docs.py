"""The reference pages keep up with the code: every code and every CLI option is documented."""

from __future__ import annotations

import re

import click

from conftest import REPO
from contractc.cli import cli
from contractc.diagnostics import CODES


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
