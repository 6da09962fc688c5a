"""The import graph points one way: cli -> pipeline -> {drift, emit, site, validate} -> model/load.

Read from the source with ``ast`` (every import, the ones inside functions
too), so a lazy import that goes the wrong way fails here as well.  A stage
never imports another stage: what two stages share sits below both (the
site's layout, the compiled schemas, what a region must hold).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "compiler" / "contractc"

# Lowest first.  A module belongs to the first layer one of whose prefixes it starts with.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "model/load",
        (
            "diagnostics", "report", "explain", "model", "files", "notation", "checks", "example", "fields", "layout",
            "shape_schemas", "budget", "output", "journal", "written", "load", "diff", "filled",
        ),
    ),  # fmt: skip  (report, explain: the output formats of diagnostics and the page of their codes, below
    #    every command that prints them; budget: snippet sizes, shared by emit, site and drift; filled: targets
    #    refilled and role prompts, shared by emit, site and the pipeline; diff: two
    #    loaded models compared, read by the site's Changes page and the `diff` command)
    ("stages", ("emit", "drift", "site", "validate")),
    ("pipeline", ("pipeline", "changed", "cache", "checking", "scan", "adopt")),
    ("cli", ("cli", "__main__", "__init__")),
)
STAGES = ("emit", "drift", "site", "validate")


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" and len(rel.parts) > 1 else rel.parts
    return ".".join(parts)


def layer_of(name: str) -> int:
    top = name.split(".")[0]
    for index, (_, prefixes) in enumerate(LAYERS):
        if top in prefixes:
            return index
    raise AssertionError(f"contractc.{name} is in no layer: add it to LAYERS in {__file__}")


def imports_of(path: Path) -> set[str]:
    """Every ``contractc.*`` module imported anywhere in the file, TYPE_CHECKING blocks aside."""
    tree = ast.parse(path.read_text("utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for child in node.body for n in ast.walk(child))
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("contractc"):
            if node.module == "contractc":
                found.update(alias.name for alias in node.names if alias.name != "__version__")
            else:
                found.add(node.module.removeprefix("contractc."))
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("contractc.") for a in node.names if a.name.startswith("contractc."))
    return found


def edges() -> list[tuple[str, str]]:
    return sorted(
        (module_name(path), imported)
        for path in PACKAGE.rglob("*.py")
        for imported in imports_of(path)
        if imported  # `from contractc import __version__` names the package itself
    )


def test_every_module_is_in_a_layer():
    for path in PACKAGE.rglob("*.py"):
        layer_of(module_name(path))


def test_no_module_imports_a_higher_layer():
    upward = [
        f"contractc.{a} ({LAYERS[layer_of(a)][0]}) imports contractc.{b} ({LAYERS[layer_of(b)][0]})"
        for a, b in edges()
        if layer_of(b) > layer_of(a)
    ]
    assert upward == []


def test_no_stage_imports_another_stage():
    sideways = [
        f"contractc.{a} imports contractc.{b}"
        for a, b in edges()
        if a.split(".")[0] in STAGES and b.split(".")[0] in STAGES and a.split(".")[0] != b.split(".")[0]
    ]
    assert sideways == []


def test_the_graph_check_sees_lazy_imports(tmp_path):
    # A function-level import is an import: the check above would miss the cycles it exists for otherwise.
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from contractc.site.pages import render_site\n", "utf-8")
    assert imports_of(probe) == {"site.pages"}
