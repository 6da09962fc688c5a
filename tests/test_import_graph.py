"""The import graph points one way: entry points -> pipeline -> stages -> model/load.

``cli`` (and the mkdocs plugin, mkdocs' way in) -> ``pipeline`` ->
{``drift``, ``emit``, ``site``, ``diff``, ``validate``} -> the model and its loader.
Every package (or module) of ``contractc`` is listed below in exactly one layer.
A module may import its own layer or any lower one, never a higher one, and a
stage never imports another stage: what two stages share sits below both (the
site's layout, the compiled schemas, what a region must hold), and what one
stage computes for another is handed over by the pipeline (the site's Changes
pages get their change records from ``release``, which runs ``diff``).

Read from the source with ``ast`` (every import, the ones inside functions
too), so a lazy import that goes the wrong way fails here as well.  A
violation names the importing module, its file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "compiler" / "contractc"

MODEL = "model/load"
STAGES = "stages"
PIPELINE = "pipeline"
ENTRY = "entry points"

# Lowest first.  Each key is a top-level module or package of contractc, or one module of a
# package (``site.plugin``): a module belongs to the longest key it is, or sits inside.
LAYERS: dict[str, tuple[str, ...]] = {
    MODEL: (
        "model", "load", "notation", "checks", "layout", "fields", "example", "shape_schemas", "budget",
        "diagnostics", "report", "explain",  # messages and their formats: below every command that prints them
        "files", "output", "journal", "written",  # reading and all-or-nothing writing
        "progress",  # the progress line on stderr: every stage may report into it
        "filled",  # targets refilled and role-file prompts: written by emit, published by the site
        "data", "site_templates",  # package data (no Python, listed for completeness)
    ),
    STAGES: ("emit", "drift", "site", "diff", "validate"),
    PIPELINE: ("pipeline", "release", "building", "checking", "changed", "cache", "scan", "adopt", "init"),
    ENTRY: ("cli", "__main__", "__init__", "site.plugin"),
}  # fmt: skip
ORDER = tuple(LAYERS)
STAGE_PACKAGES = LAYERS[STAGES]


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" and len(rel.parts) > 1 else rel.parts
    return ".".join(parts)


def key_of(name: str) -> str:
    """The entry of :data:`LAYERS` that places the module ``name`` (the longest that matches)."""
    keys = [k for keys in LAYERS.values() for k in keys if name == k or name.startswith(k + ".")]
    if not keys:
        raise AssertionError(f"contractc.{name} is in no layer: add it to LAYERS in {__file__}")
    return max(keys, key=len)


def layer_of(name: str) -> int:
    key = key_of(name)
    return next(i for i, layer in enumerate(ORDER) if key in LAYERS[layer])


def stage_of(name: str) -> str | None:
    """The stage package a module belongs to, or None outside the stages layer."""
    return key_of(name) if ORDER[layer_of(name)] == STAGES else None


def imports_of(path: Path) -> dict[str, int]:
    """Every ``contractc.*`` module imported anywhere in the file, with the line of its first import
    (TYPE_CHECKING blocks aside: they never run)."""
    tree = ast.parse(path.read_text("utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for child in node.body for n in ast.walk(child))
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("contractc"):
            if node.module == "contractc":  # `from contractc import x`: x is a module, or a name of the package
                names = [alias.name for alias in node.names if (PACKAGE / alias.name).exists() or (PACKAGE / f"{alias.name}.py").exists()]
            else:
                names = [node.module.removeprefix("contractc.")]
        elif isinstance(node, ast.Import):
            names = [a.name.removeprefix("contractc.") for a in node.names if a.name.startswith("contractc.")]
        for name in names:
            found[name] = min(found.get(name, node.lineno), node.lineno)
    return found


def edges() -> list[tuple[str, str, str]]:
    """``(importer, imported, "file:line")`` for every import between modules of the package."""
    return sorted(
        (module_name(path), imported, f"{path.relative_to(PACKAGE.parent).as_posix()}:{line}")
        for path in PACKAGE.rglob("*.py")
        for imported, line in imports_of(path).items()
    )


def layer_name(name: str) -> str:
    return ORDER[layer_of(name)]


def test_every_package_is_in_exactly_one_layer():
    keys = [k for keys in LAYERS.values() for k in keys]
    assert len(keys) == len(set(keys)), "a key is listed in two layers"
    listed_tops = {k.split(".")[0] for k in keys}
    on_disk = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or (p.is_dir() and not p.name.startswith((".", "_")))}
    assert on_disk - listed_tops == set(), "add these to LAYERS"
    for path in PACKAGE.rglob("*.py"):
        key_of(module_name(path))


def test_the_layers_are_the_intended_ones():
    # The direction the design states, so a change to it is a change to this test, on purpose.
    assert ORDER == (MODEL, STAGES, PIPELINE, ENTRY)
    assert set(STAGE_PACKAGES) == {"emit", "drift", "site", "diff", "validate"}
    assert layer_name("cli") == ENTRY and layer_name("site.plugin") == ENTRY
    assert layer_name("pipeline") == PIPELINE and layer_name("release") == PIPELINE
    assert layer_name("diff.gate") == STAGES and layer_name("site.changes") == STAGES
    assert layer_name("model") == MODEL and layer_name("load.config") == MODEL


def upward(found: list[tuple[str, str, str]]) -> list[str]:
    return [
        f"{where}: contractc.{a} ({layer_name(a)}) imports contractc.{b} ({layer_name(b)})"
        for a, b, where in found
        if layer_of(b) > layer_of(a)
    ]


def sideways(found: list[tuple[str, str, str]]) -> list[str]:
    return [
        f"{where}: contractc.{a} (stage {stage_of(a)}) imports contractc.{b} (stage {stage_of(b)})"
        for a, b, where in found
        if stage_of(a) and stage_of(b) and stage_of(a) != stage_of(b)
    ]


def test_no_module_imports_a_higher_layer():
    assert upward(edges()) == []


def test_no_stage_imports_another_stage():
    assert sideways(edges()) == []


def test_the_site_gets_its_change_records_from_the_pipeline():
    # The edge this layering was drawn to remove: the site's Changes pages ran the diff themselves.
    assert [(a, b) for a, b, _ in edges() if a.startswith("site") and b.startswith("diff")] == []
    assert ("release", "diff.gate") in {(a, b) for a, b, _ in edges()}


def test_the_graph_check_sees_lazy_imports(tmp_path):
    # A function-level import is an import: the checks above would miss the cycles they exist for otherwise.
    probe = tmp_path / "probe.py"
    probe.write_text("import os\n\n\ndef f():\n    from contractc.site.pages import render_site\n", "utf-8")
    assert imports_of(probe) == {"site.pages": 5}


def test_a_violation_names_the_importing_module_and_line():
    found = [
        ("diff.gate", "pipeline", "contractc/diff/gate.py:12"),
        ("model", "site.pages", "contractc/model.py:40"),
        ("site.changes", "diff.gate", "contractc/site/changes.py:37"),
        ("site.plugin", "pipeline", "contractc/site/plugin.py:75"),  # mkdocs' entry point: allowed
        ("pipeline", "site.stored", "contractc/pipeline.py:26"),  # downward: allowed
        ("site.pages", "site.changes", "contractc/site/pages.py:30"),  # within a stage: allowed
    ]
    assert upward(found) == [
        "contractc/diff/gate.py:12: contractc.diff.gate (stages) imports contractc.pipeline (pipeline)",
        "contractc/model.py:40: contractc.model (model/load) imports contractc.site.pages (stages)",
    ]
    assert sideways(found) == [
        "contractc/site/changes.py:37: contractc.site.changes (stage site) imports contractc.diff.gate (stage diff)"
    ]
