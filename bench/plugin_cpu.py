"""The mkdocs plugin's own CPU time inside a real ``mkdocs build`` (a diagnostic, not a row of bench/run.py).

One fresh process per run: mkdocs, the theme and the Markdown extensions are imported
first (a plain ``mkdocs build`` pays for them too), then the plugin module is imported
and each of its hooks timed with ``time.process_time`` while mkdocs builds the site.
What is left is what the plugin adds: its imports (contractc, markdown-it-py), loading
the project, laying out and rendering the pages, and rewriting their links.

    python bench/plugin_cpu.py PROJECT [--runs N] [--profile FILE]

PROJECT holds ``mkdocs.yml`` with the ``contractc`` plugin (``bench/site_corpus.py``
writes one: ``write_site``).  Keep bytecode caching on (``unset PYTHONDONTWRITEBYTECODE``)
and compare checkouts by interleaving their runs (``PYTHONPATH=<other>/compiler``):
on a shared machine the spread between runs is larger than most single changes.
``--profile`` writes a cProfile of ``on_files`` (the load and the pages) for ``pstats``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HOOKS = ("on_config", "on_files", "on_page_content")

_ONE_RUN = """
import json, os, sys, time
os.chdir(sys.argv[1])
profile = sys.argv[2] if len(sys.argv) > 2 else ""
import mkdocs.commands.build as build
from mkdocs.config import load_config
import markdown, markdown.extensions.attr_list, markdown.extensions.tables, markdown.extensions.toc
import pymdownx.highlight, pymdownx.superfences, material, mkdocs.contrib.search, jinja2, yaml
spent = {}
start = time.process_time()
import contractc.site.plugin as plugin
spent["import"] = time.process_time() - start
profiler = None
if profile:
    import cProfile
    profiler = cProfile.Profile()
for name in %(hooks)r:
    def timed(self, *args, _hook=getattr(plugin.ContractSitePlugin, name), _name=name, **kwargs):
        if profiler is not None and _name == "on_files":
            profiler.enable()
        start = time.process_time()
        try:
            return _hook(self, *args, **kwargs)
        finally:
            spent[_name] = spent.get(_name, 0.0) + time.process_time() - start
            if profiler is not None and _name == "on_files":
                profiler.disable()
    setattr(plugin.ContractSitePlugin, name, timed)  # before load_config, which binds the hooks
config = load_config("mkdocs.yml")
config.plugins.on_startup(command="build", dirty=False)
build.build(config)
config.plugins.on_shutdown()
if profiler is not None:
    profiler.dump_stats(profile)
spent["total"] = sum(spent.values())
print(json.dumps({k: round(v * 1000, 1) for k, v in spent.items()}))
""" % {"hooks": HOOKS}


def one_run(project: Path, profile: str | None = None) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    argv = [sys.executable, "-c", _ONE_RUN, str(project), *([profile] if profile else [])]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"mkdocs build failed in {project}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path, help="a folder holding mkdocs.yml with the contractc plugin")
    parser.add_argument("--runs", type=int, default=7, help="fresh processes to run (default 7)")
    parser.add_argument("--profile", help="write a cProfile of on_files (one extra run) to this file")
    args = parser.parse_args()
    one_run(args.project)  # writes the bytecode of any module changed since the last run
    runs = [one_run(args.project) for _ in range(args.runs)]
    for key in runs[0]:
        values = [r.get(key, 0.0) for r in runs]
        print(f"{key:16} median {statistics.median(values):7.1f} ms   min {min(values):7.1f} ms")
    if args.profile:
        one_run(args.project, args.profile)
        print(f"profile of on_files: {args.profile}")


if __name__ == "__main__":
    main()
