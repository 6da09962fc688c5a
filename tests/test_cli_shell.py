"""``cli.py`` only parses options and prints: each command calls one function and prints what it returned.

Read from the source with ``ast``: a command's body may import (lazily), refuse
a combination of options click cannot express (``raise click.UsageError``),
and must end by returning ``_print(...)`` or ``_report(...)`` of what its one
call into the package returned.  A loop, a ``try``, a branch on a result or a
second call into the package is a decision, and belongs in the module the
command calls (``building``, ``checking``, ``adopt``, ``validate.command`` ...).
"""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[1] / "compiler" / "contractc" / "cli.py"
PRINTERS = {"_print", "_report"}


def commands(tree: ast.Module) -> list[ast.FunctionDef]:
    return [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any("command" in ast.unparse(d) for d in node.decorator_list if ast.unparse(d).startswith("cli."))
    ]


def decisions(function: ast.FunctionDef) -> list[str]:
    """What in a command's body is more than parse -> call one function -> print."""
    found = []
    body = function.body[1:] if ast.get_docstring(function) else function.body
    package_names = {
        alias.asname or alias.name
        for node in body
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("contractc")
        for alias in node.names
    }
    calls = [
        ast.unparse(node.func)
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in package_names
    ]
    if len(calls) != 1:
        found.append(f"calls into the package {len(calls)} times: {calls}")
    for node in body[:-1]:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)):
            continue
        if isinstance(node, ast.If) and all(
            isinstance(n, ast.Raise) and "click." in ast.unparse(n) for n in node.body
        ) and not node.orelse:
            continue  # an option combination click cannot express: still parsing
        found.append(f"line {node.lineno}: {ast.unparse(node).splitlines()[0]}")
    last = body[-1]
    printed = isinstance(last, ast.Return) and isinstance(last.value, ast.Call) and ast.unparse(last.value.func) in PRINTERS
    if not printed:
        found.append(f"line {last.lineno}: does not end by printing what it got: {ast.unparse(last).splitlines()[0]}")
    for node in ast.walk(function):
        if isinstance(node, (ast.For, ast.While, ast.Try, ast.With)):
            found.append(f"line {node.lineno}: {type(node).__name__.lower()}")
    return found


def test_every_command_parses_calls_one_function_and_prints():
    tree = ast.parse(CLI.read_text("utf-8"))
    found = {f.name: decisions(f) for f in commands(tree)}
    assert set(found) >= {"build", "check", "diff", "scan", "adopt", "validate", "hash_", "explain"}
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_a_command_that_decides_is_named_with_its_line():
    source = '''
@cli.command()
def adopt(path, write):
    """Doc."""
    from contractc.adopt import plan_adoption
    from contractc.output.outputs import write_changes

    plan = plan_adoption(path)
    if write and plan.changes:
        write_changes(path, plan.changes)
    click.echo(plan)
    return 0
'''
    (function,) = commands(ast.parse(source))
    assert decisions(function) == [
        "calls into the package 2 times: ['plan_adoption', 'write_changes']",
        "line 9: if write and plan.changes:",
        "line 11: click.echo(plan)",
        "line 12: does not end by printing what it got: return 0",
    ]


def test_diagnostics_are_printed_only_through_the_one_formatter():
    # Outside diagnostics.py no module spells the message format itself: `severity[code]` comes from Diagnostic.format.
    package = CLI.parent
    spelled = [
        f"{path.relative_to(package)}:{n}"
        for path in package.rglob("*.py")
        if path.name != "diagnostics.py"
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "severity.value}[" in line or "{d.severity" in line
    ]
    assert spelled == []
