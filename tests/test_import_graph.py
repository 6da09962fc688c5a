"""The import graph has no cycles, and its packages are stacked in one order.

Read from the source with ``ast``: every import of a ``contractc`` module, the
ones inside functions too (a lazy import is still an import), absolute or
relative (``from .x import y`` counts as ``contractc.<package>.x``).  Imports
under ``if TYPE_CHECKING:`` never run and are left out.  ``from p import name``
is an import of the module ``p.name`` when there is one, else of ``p``; an
import of a module that is not in the package's files (a name of a package)
counts as an import of that package's ``__init__``.  That Python imports a
module's parent packages first is not counted: it is true of every module.

1. **No cycles.** Every strongly connected component of the graph is a single
   module.  What two modules share sits below both; what one stage computes
   for another is handed over by the pipeline (the site's Changes pages get
   their change records from ``diff.release``, called by the pipeline and by
   the mkdocs plugin, never by the page emitter).

2. **One order of the packages**, :data:`ORDER`, lowest first.  A module
   belongs to the longest entry it is, or sits inside (``drift.check`` is its
   own entry, the rest of ``drift`` is ``drift``), and imports only modules of
   its own entry or of an entry listed before it.  From the top::

       contractc (the package: its public names, lazily)
       __main__ -> cli                 entry points (and site.plugin, mkdocs' way in)
       init                            a starter project, then its first build (output.build)
       output.build, drift.check       build and check: the pipeline run, and what it says about it
       adopt                           compiles its plan with the pipeline
       pipeline                        load -> emit -> compare or write -> drift
       diff                            beside the pipeline; diff.release feeds the site's Changes pages
       emit                            every output kind, the site's pages (emit.site) included
       site                            what a page is made of (annotated contract, graph, changes, code spans)
       drift                           what check says beyond "this file differs"
       validate, scan                  commands beside the pipeline, on the loader
       load                            contractc.yaml, contracts and targets -> the model
       output                          reads of whole files, all-or-nothing writes, journal, record, cache
       model                           records, notation, names, fields, layout, schemas, check rules
       report                          diagnostics and their codes, formats, progress, explain

A violation names the importing module, its file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "compiler" / "contractc"

# Lowest first.  Each entry is a module or package of contractc, named without the ``contractc.``.
ORDER: tuple[str, ...] = (
    "report", "model", "output", "load", "scan", "validate", "drift", "site", "emit", "diff",
    "pipeline", "adopt", "drift.check", "output.build", "init", "site.plugin", "cli", "__main__", "",
)  # fmt: skip
"""``""`` is the package itself, ``contractc/__init__.py``."""

Edge = tuple[str, str, str]
"""(importing module, imported module, ``file:line`` of the import), module names without ``contractc.``."""


def module_name(path: Path, package: Path = PACKAGE) -> str:
    rel = path.relative_to(package).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    return {module_name(path, package): path for path in sorted(package.rglob("*.py"))}


def imports_of(path: Path, package: Path = PACKAGE, known: set[str] | None = None) -> dict[str, int]:
    """Every module of the package that the file imports, with the line of its first import."""
    known = set(modules(package)) if known is None else known
    name = module_name(path, package)
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]  # the package a relative import starts from
    tree = ast.parse(path.read_text("utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for child in node.body for n in ast.walk(child))
    found: dict[str, int] = {}

    def add(dotted: str, line: int) -> None:
        while dotted not in known:  # a name inside a module, or a module not on disk: its package
            if not dotted:
                return
            dotted = dotted.rpartition(".")[0]
        if dotted != name:
            found[dotted] = min(found.get(dotted, line), line)

    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "contractc" or alias.name.startswith("contractc."):
                    add(alias.name.removeprefix("contractc").removeprefix("."), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".") if here else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                module = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module == "contractc" or (node.module or "").startswith("contractc."):
                module = node.module.removeprefix("contractc").removeprefix(".")
            else:
                continue
            for alias in node.names:
                inner = f"{module}.{alias.name}" if module else alias.name
                add(inner if inner in known else module, node.lineno)
    return found


def edges(package: Path = PACKAGE) -> list[Edge]:
    """Every import between modules of the package."""
    found = modules(package)
    known = set(found)
    return sorted(
        (name, imported, f"{path.relative_to(package.parent).as_posix()}:{line}")
        for name, path in found.items()
        for imported, line in imports_of(path, package, known).items()
    )


def components(nodes: set[str], found: list[Edge]) -> list[list[str]]:
    """The strongly connected components of the graph (Tarjan's algorithm, without recursion)."""
    graph: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b, _ in found:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    result.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(graph[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return result


def cycles(nodes: set[str], found: list[Edge]) -> list[str]:
    """One message per cycle: its modules and every import that closes it."""
    messages = []
    for component in components(nodes, found):
        if len(component) > 1:
            members = set(component)
            inside = [f"  {where}: contractc.{a} imports contractc.{b}" for a, b, where in found if a in members and b in members]
            messages.append(f"a cycle of {len(component)} modules: " + ", ".join(component) + "\n" + "\n".join(inside))
    return messages


def entry_of(name: str) -> str:
    """The entry of :data:`ORDER` that places the module ``name`` (the longest that it is or sits inside)."""
    entries = [e for e in ORDER if e and (name == e or name.startswith(e + "."))]
    if not entries:
        if name == "":
            return ""
        raise AssertionError(f"contractc.{name} is in no entry of ORDER: add its package to ORDER in {__file__}")
    return max(entries, key=len)


def level(name: str) -> int:
    return ORDER.index(entry_of(name))


def _label(name: str) -> str:
    return f"contractc.{name}" if name else "contractc"


def upward(found: list[Edge]) -> list[str]:
    return [
        f"{where}: {_label(a)} ({entry_of(a) or 'the package'}) imports {_label(b)} ({entry_of(b) or 'the package'}), "
        "which ORDER lists above it"
        for a, b, where in found
        if level(b) > level(a)
    ]


def test_every_module_is_placed_in_the_order():
    assert len(ORDER) == len(set(ORDER)), "an entry is listed twice"
    # A folder left holding only __pycache__ (a module moved away in this checkout) is not a package.
    on_disk = {
        p.stem if p.is_file() else p.name
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" or (p.is_dir() and any(q.name != "__pycache__" for q in p.iterdir())))
        and not p.name.startswith((".", "__pycache__"))
    }
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(ORDER), "add these packages to ORDER"
    assert on_disk - packages - {"__init__", "__main__", "cli", "pipeline"} <= {"data", "site_templates"}, "a loose module at the package root"
    for name in modules():
        entry_of(name)


def test_the_package_root_holds_only_the_entry_points_and_the_pipeline():
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "cli.py", "pipeline.py"]


def test_the_order_is_the_intended_one():
    # The stack the docstring draws, so a change to it is a change to this test, on purpose.
    assert ORDER.index("pipeline") > max(ORDER.index(s) for s in ("load", "emit", "output", "drift", "diff"))
    assert ORDER.index("report") == 0 and ORDER.index("model") == 1
    assert entry_of("drift.check") == "drift.check" and entry_of("drift.links") == "drift"
    assert entry_of("site.plugin") == "site.plugin" and entry_of("site.changes") == "site"
    assert level("emit.site") > level("site.changes") and level("diff.release") > level("emit.site")


def test_there_are_no_import_cycles():
    assert cycles(set(modules()), edges()) == []


def test_no_module_imports_a_package_listed_above_it():
    assert upward(edges()) == []


def test_the_site_gets_its_change_records_from_the_pipeline():
    # The edge this order was drawn to remove: the site's Changes pages ran the diff themselves.
    found = edges()
    assert [(a, b) for a, b, _ in found if a.startswith(("site.", "emit.")) and a != "site.plugin" and b.startswith("diff")] == []
    assert ("diff.release", "diff.gate") in {(a, b) for a, b, _ in found}


def test_lazy_and_relative_imports_count(tmp_path):
    # A function-level or relative import is an import: the checks above would miss the cycles they exist for otherwise.
    package = tmp_path / "contractc"
    (package / "emit").mkdir(parents=True)
    for name in ("__init__.py", "emit/__init__.py", "emit/site.py", "emit/regions.py", "pipeline.py"):
        (package / name).write_text("", "utf-8")
    probe = package / "emit" / "regions.py"
    probe.write_text(
        "import os\nfrom . import site\nfrom .site import render_site\nfrom .. import pipeline\n\n\ndef f():\n"
        "    from contractc.emit.site import render_site\n    import contractc.pipeline\n"
        "if TYPE_CHECKING:\n    from contractc.emit import nothing\n",
        "utf-8",
    )
    assert imports_of(probe, package) == {"emit.site": 2, "pipeline": 4}
    assert edges(package) == [("emit.regions", "emit.site", "contractc/emit/regions.py:2"), ("emit.regions", "pipeline", "contractc/emit/regions.py:4")]


def test_a_cycle_is_found_and_named_with_its_imports():
    found = [
        ("model.records", "model.layout", "contractc/model/records.py:526"),
        ("model.layout", "load.config", "contractc/model/layout.py:105"),
        ("load.config", "model.records", "contractc/load/config.py:19"),
        ("load.config", "report.diagnostics", "contractc/load/config.py:17"),
    ]
    nodes = {"model.records", "model.layout", "load.config", "report.diagnostics"}
    assert cycles(nodes, found) == [
        "a cycle of 3 modules: load.config, model.layout, model.records\n"
        "  contractc/model/records.py:526: contractc.model.records imports contractc.model.layout\n"
        "  contractc/model/layout.py:105: contractc.model.layout imports contractc.load.config\n"
        "  contractc/load/config.py:19: contractc.load.config imports contractc.model.records"
    ]
    assert cycles(nodes, found[1:]) == []


def test_a_violation_names_the_importing_module_and_line():
    found = [
        ("diff.gate", "pipeline", "contractc/diff/gate.py:12"),
        ("model.records", "emit.site", "contractc/model/records.py:40"),
        ("site.plugin", "pipeline", "contractc/site/plugin.py:75"),  # mkdocs' entry point: allowed
        ("pipeline", "emit.site", "contractc/pipeline.py:26"),  # downward: allowed
        ("emit.site", "site.changes", "contractc/emit/site.py:30"),  # downward: allowed
        ("report.format", "", "contractc/report/format.py:20"),  # the package's lazy names import everything
    ]
    assert upward(found) == [
        "contractc/diff/gate.py:12: contractc.diff.gate (diff) imports contractc.pipeline (pipeline), which ORDER lists above it",
        "contractc/model/records.py:40: contractc.model.records (model) imports contractc.emit.site (emit), which ORDER lists above it",
        "contractc/report/format.py:20: contractc.report.format (report) imports contractc (the package), which ORDER lists above it",
    ]
