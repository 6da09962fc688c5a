"""Every hint names `contractc explain CODE` (and a `see:` URL only when docs_url is set), never a
path of this repository's docs, which a user's checkout does not have."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import write_tree

PACKAGE = Path(__file__).resolve().parents[1] / "compiler" / "contractc"
DOCS_PATH = re.compile(r"docs/[\w-]+\.md")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_no_message_hint_or_written_comment_names_a_repository_docs_path():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                if DOCS_PATH.search(node.value):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r}")
    assert offenders == []


CONTRACT = "# Echo\n\n## EchoReturn\n\nProduced by `echoer`; consumed by `echo-skill`.\n\n```\necho: <text>\n```\n"


def test_config_approval_file_and_marker_hints_name_explain_and_a_url_only_with_docs_url(tmp_path, run_cli):
    root = write_tree(
        tmp_path,
        {
            "contractc.yaml": "contracts:\n  - path: contracts/echo.md\n    shared: 3\n",
            "contracts/echo.md": CONTRACT,
        },
    )
    bad_config = run_cli("check", "--root", str(root))
    assert bad_config.code == 2
    assert "  hint: correct or remove the key; more: `contractc explain config-invalid`" in bad_config.err
    assert "see:" not in bad_config.err

    config = "docs_url: https://docs.example.com/contractc/drift-codes/\ncontracts:\n  - path: contracts/echo.md\ntargets: [agents/*.md]\n"
    write_tree(root, {"contractc.yaml": config, "agents/a.md": "<!-- contractc:begin shape=nope -->\n<!-- contractc:end -->\n"})
    marker = run_cli("check", "--root", str(root))
    assert marker.code == 2
    assert "  hint: name a shape id or a section anchor of a configured contract; more: `contractc explain marker-reference`" in marker.err
    assert "  see: https://docs.example.com/contractc/drift-codes/#marker-reference" in marker.err

    write_tree(root, {"agents/a.md": "fine\n", "contractc.changes.yaml": "accepted:\n  - change: x\n"})
    from diff_repo import git

    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-q", "-m", "one")
    approval = run_cli("diff", "--root", str(root), "--against", "HEAD")
    assert approval.code == 2
    assert "hint: correct the file: each entry under accepted: needs change: and why:; more: `contractc explain changes-invalid`" in approval.err
    for result in (bad_config, marker, approval):
        assert not DOCS_PATH.search(result.out + result.err)
