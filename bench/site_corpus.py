"""Site rows: contractc's page generation for P pages vs ``mkdocs build`` of the same pages.

A project of several contracts, each with text shapes produced by a handful of
agents, sized so that the site has about P pages.  Three commands per round:

- ``contractc build --site-pages docs`` with the stored pages deleted first (it
  generates and writes every page);
- ``mkdocs build`` of ``docs/`` holding those stored pages (no plugin);
- ``mkdocs build`` with the ``contractc`` plugin rendering the pages in memory
  (when the plugin is registered; else that row is "not available");
- the same with jinja2's cache of compiled templates empty (its folder is in
  ``TMPDIR``, a new empty one for each run): what a first build, such as a CI
  job's, pays.

Both ``mkdocs build`` rows run in one environment (the plugin registered for both), so they
differ only in ``mkdocs.yml``'s plugin line and the stored pages.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from timing import Command, Samples, captured, rounds

SHAPES_PER_CONTRACT = 9
AGENTS = ("planner", "builder", "reviewer")

MKDOCS = """\
site_name: bench
site_url: https://bench.example.invalid/
docs_dir: docs
theme:
  name: material
  features: [content.code.copy, navigation.indexes]
plugins:
  - search
{plugin}
markdown_extensions:
  - attr_list
  - tables
  - toc:
      permalink: true
  - pymdownx.highlight
  - pymdownx.superfences
"""


def _contract(c: int, shapes: int) -> str:
    out = [f"# Contract {c}\n", "\n## Shared\n", "\nEvery return starts with its status line.\n"]
    for s in range(shapes):
        agent = AGENTS[(c + s) % len(AGENTS)]
        out += [
            f"\n## Return{c}x{s}\n",
            f"\nProduced by `{agent}`; consumed by `{AGENTS[(c + s + 1) % len(AGENTS)]}`.\n",
            f"\n```\nstatus: ok | failed\nitem-{c}-{s}: <text>\n```\n",
            "\nReceiver checks:\n\n1. Line 1 begins `status: `.\n2. The return is two lines.\n",
        ]
    return "".join(out)


def write_site(base: Path, pages: int) -> Path:
    """A project whose site has about ``pages`` pages (one per contract, shape and agent, plus the index)."""
    root = base / f"site-{pages}"
    contracts = max(1, round((pages - 1 - len(AGENTS)) / (SHAPES_PER_CONTRACT + 1)))
    shapes = max(1, min(SHAPES_PER_CONTRACT, pages - 1 - len(AGENTS) - contracts))
    (root / "contracts").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs/index.md").write_text("# Bench site\n", "utf-8")
    config = ["site_url: https://bench.example.invalid/", "contracts:"]
    for c in range(contracts):
        (root / f"contracts/c{c:03d}.md").write_text(_contract(c, shapes), "utf-8", newline="\n")
        config += [f"  - path: contracts/c{c:03d}.md", "    shared: [shared]"]
    (root / "contractc.yaml").write_text("\n".join(config) + "\n", "utf-8")
    return root


PLUGIN = "contractc.site.plugin:ContractSitePlugin"
PLUGIN_ROW = "mkdocs build (plugin)"
FIRST_BUILD_ROW = "mkdocs build (plugin, first build)"


def register_plugin(repo: Path, base: Path, env: dict[str, str]) -> dict[str, str] | None:
    """An environment in which mkdocs finds this checkout's plugin, or None when the checkout has none.

    mkdocs finds plugins by entry point; the installed contractc may be another
    checkout (or none), so a throw-away dist-info on PYTHONPATH registers the
    plugin, and PYTHONPATH makes it this checkout's code.
    """
    module, _, _ = PLUGIN.partition(":")
    if not (repo / "compiler" / Path(*module.split("."))).with_suffix(".py").is_file():
        return None
    info = base / "entry-points" / "contractc_bench_plugin-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: contractc-bench-plugin\nVersion: 0\n", "utf-8")
    (info / "entry_points.txt").write_text(f"[mkdocs.plugins]\ncontractc = {PLUGIN}\n", "utf-8")
    return {**env, "PYTHONPATH": os.pathsep.join((env.get("PYTHONPATH", ""), str(info.parent))).strip(os.pathsep)}


def bench_pages(tools, base: Path, pages: int, reps: int) -> tuple[dict[str, Samples], int, str | None]:
    """Samples of the three commands, the number of pages generated, and why the plugin row is missing."""
    root = write_site(base, pages)
    generate = tools.contractc("contractc build (pages)", root, "build", "--site-pages", "docs")
    done = captured(generate)
    if done.returncode != 0:
        raise SystemExit(f"contractc build --site-pages failed at P={pages}: {(done.stdout + done.stderr)[-600:]}")
    stored = root / "docs/contracts"
    count = sum(1 for _ in stored.rglob("*.md"))
    missing = None
    plugin_root = base / f"site-{pages}-plugin"
    cold_tmp = base / f"site-{pages}-tmp"
    plugin_env = register_plugin(tools.repo, base, tools.env)
    argv = (tools.python, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.yml")
    mkdocs = Command("mkdocs build", argv, root, plugin_env or tools.env)
    (root / "mkdocs.yml").write_text(MKDOCS.format(plugin=""), "utf-8")
    commands = [generate, mkdocs]
    if plugin_env is None:
        missing = "this checkout has no mkdocs plugin"
    else:
        shutil.copytree(root, plugin_root)
        shutil.rmtree(plugin_root / "docs/contracts")
        (plugin_root / "docs/anchors.json").unlink(missing_ok=True)
        (plugin_root / "mkdocs.yml").write_text(MKDOCS.format(plugin="  - contractc"), "utf-8")
        commands.append(Command(PLUGIN_ROW, argv, plugin_root, plugin_env))
        commands.append(Command(FIRST_BUILD_ROW, argv, plugin_root, {**plugin_env, "TMPDIR": str(cold_tmp)}))
    built = captured(mkdocs)
    if built.returncode != 0:
        raise SystemExit(f"mkdocs build failed at P={pages}: {(built.stdout + built.stderr)[-600:]}")
    if len(commands) > 2:
        built = captured(commands[2])
        if built.returncode != 0:
            missing = f"`mkdocs build` with the plugin failed: {(built.stdout + built.stderr).strip()[-300:]}"
            del commands[2:]

    def fresh(cmd: Command) -> None:
        if cmd is generate:  # every page is generated and written, not found current
            shutil.rmtree(stored, ignore_errors=True)
        if cmd.label == FIRST_BUILD_ROW:
            shutil.rmtree(cold_tmp, ignore_errors=True)
            cold_tmp.mkdir()
        shutil.rmtree(cmd.cwd / "site", ignore_errors=True)

    samples = rounds(commands, reps, before=fresh)
    shutil.rmtree(root)
    shutil.rmtree(plugin_root, ignore_errors=True)
    shutil.rmtree(cold_tmp, ignore_errors=True)
    return samples, count, missing
