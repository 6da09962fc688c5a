"""`contractc explain CODE` prints a code's documentation offline; every message names it; links only with docs_url."""

from __future__ import annotations

import ast
import json

import pytest

from conftest import ECHO_CONFIG, ECHO_CONTRACT, REPO, write_tree
from contractc.report.diagnostics import CODES, Diagnostic

PACKAGE = REPO / "compiler" / "contractc"


def emitted_codes() -> dict[str, str]:
    """Every code the package can put in a Diagnostic, read from the source: code -> ``file:line``.

    A ``Diagnostic(path, line, col, CODE, ...)`` call or a ``code=`` keyword with a literal.
    """
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Diagnostic"):
                continue
            args = [a for a in node.args[3:4]] + [k.value for k in node.keywords if k.arg == "code"]
            for arg in args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.setdefault(arg.value, f"{path.relative_to(REPO)}:{node.lineno}")
    return found


def test_every_code_the_tool_can_emit_has_a_section_that_explain_prints(run_cli):
    emitted = emitted_codes()
    assert {"drift-link", "site-config", "site-template", "drift-output"} <= set(emitted)  # the scan finds them
    unknown = {code: where for code, where in emitted.items() if code not in CODES}
    assert not unknown, f"codes emitted but not in diagnostics.CODES: {unknown}"
    page = (REPO / "docs/drift-codes.md").read_text("utf-8")
    for code in sorted(CODES):
        result = run_cli("explain", code)
        assert result.code == 0, code
        heading = f"### {code} {{#{code}}}\n"
        section = page.split(heading, 1)[1].split("\n#", 1)[0].strip()
        assert section and section in result.out, code  # the page's own words, not a summary of them
        assert result.out.startswith(f"{code}: {CODES[code][1]}\n"), code


def test_explain_prints_the_group_and_the_fix_and_lists_every_code(run_cli):
    result = run_cli("explain", "drift-link")
    assert result.out.splitlines()[:2] == [
        "drift-link: a link into a contract or the contract site names no existing anchor",
        "Drift: links and anchors (exit 1)",
    ]
    assert "**Fix:** edit the link" in result.out
    listing = run_cli("explain")
    assert listing.code == 0
    assert listing.out.splitlines()[0] == "Every code contractc can print (`contractc explain CODE` for one):"
    assert len(listing.out.splitlines()) == 1 + len(CODES)
    assert any(line.split() == ["drift-link", "exit", "1", *CODES["drift-link"][1].split()] for line in listing.out.splitlines())


def test_an_unknown_code_is_usage_with_the_nearest_code(run_cli):
    result = run_cli("explain", "drift-lnk")
    assert result.code == 2
    assert "contractc has no code 'drift-lnk'; did you mean drift-link? (`contractc explain` lists every code)" in result.err
    assert result.out == ""


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_message_names_explain_and_no_link_without_docs_url(code):
    bare = Diagnostic("a.md", 3, 1, code, "what is wrong").format()
    hinted = Diagnostic("a.md", 3, 1, code, "what is wrong", "do this").format()
    assert bare.splitlines()[1] == f"  hint: `contractc explain {code}` explains this message"
    assert hinted.splitlines()[1] == f"  hint: do this; more: `contractc explain {code}`"
    assert "see:" not in bare + hinted and "http" not in bare + hinted
    linked = Diagnostic("a.md", 3, 1, code, "what is wrong").format(docs_url="https://docs.example.com/codes/")
    assert linked.splitlines()[2] == f"  see: https://docs.example.com/codes/#{code}"


def test_docs_url_in_contractc_yaml_adds_the_link_in_every_format(tmp_path, run_cli):
    root = write_tree(
        tmp_path,
        {
            "contractc.yaml": "docs_url: https://docs.example.com/drift-codes/\n" + ECHO_CONFIG,
            "contracts/c.md": ECHO_CONTRACT,
        },
    )
    assert run_cli("build", "--root", str(root)).code == 0
    (root / "prompts/echoer/echoreturn.md").write_text("edited\n")
    text = run_cli("check", "--root", str(root), "--no-diff")
    assert text.code == 1
    assert text.out.splitlines()[:3] == [
        "prompts/echoer/echoreturn.md:1:1: error[drift-output]: differs from what the contracts compile to",
        "  hint: run `contractc build` to regenerate it; edit the contract, not the copy; more: `contractc explain drift-output`",
        "  see: https://docs.example.com/drift-codes/#drift-output",
    ]
    document = json.loads(run_cli("check", "--root", str(root), "--format", "json").out)
    (d,) = document["diagnostics"]
    assert (d["explain"], d["url"]) == ("contractc explain drift-output", "https://docs.example.com/drift-codes/#drift-output")
    github = run_cli("check", "--root", str(root), "--format", "github").out
    assert "%0Asee: https://docs.example.com/drift-codes/#drift-output\n" in github
    # without the setting: no link anywhere, the JSON url is null
    (root / "contractc.yaml").write_text(ECHO_CONFIG)
    plain = run_cli("check", "--root", str(root), "--format", "json").out
    assert json.loads(plain)["diagnostics"][0]["url"] is None
    assert "https://" not in run_cli("check", "--root", str(root), "--no-diff").out


def test_a_bad_docs_url_is_a_located_config_error(tmp_path, run_cli):
    root = write_tree(tmp_path, {"contractc.yaml": "docs_url: docs/codes\n" + ECHO_CONFIG, "contracts/c.md": ECHO_CONTRACT})
    result = run_cli("check", "--root", str(root))
    assert result.code == 2
    assert result.err.startswith("contractc.yaml:1:1: error[config-invalid]: $.docs_url: 'docs/codes' does not match")


def test_every_schema_id_the_tool_names_is_a_file_this_repositorys_site_publishes():
    # The report's $schema and the shipped schemas' $id live on contractc.dev, this repository's site:
    # docs/schemas/ holds copies of the shipped files (ordinary files, no symlinks), so mkdocs publishes exactly them.
    from contractc.report.format import SCHEMA_ID

    named = {SCHEMA_ID}
    for path in (PACKAGE / "data").glob("*.json"):
        document = json.loads(path.read_text("utf-8"))
        named.add(document["$id"])
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"  # the dialect, not a fetch
    for url in sorted(named):
        assert url.startswith("https://contractc.dev/schemas/"), url
        published = REPO / "docs" / url.removeprefix("https://contractc.dev/")
        assert published.is_file(), url
        assert published.read_bytes() == (PACKAGE / "data" / published.name).read_bytes(), (
            f"copy compiler/contractc/data/{published.name} into docs/schemas/"
        )


def test_the_published_schemas_are_ordinary_files_equal_to_the_shipped_ones():
    """docs/schemas/ is what this repository's site serves at each shipped schema's $id; a symlink breaks
    checkouts on systems without them, so each is a copy, held equal to the package's here."""
    published = sorted((REPO / "docs/schemas").iterdir())
    shipped = sorted(p.name for p in (PACKAGE / "data").glob("*.schema.json"))
    assert [p.name for p in published] == shipped
    for path in published:
        assert not path.is_symlink(), f"{path.name}: a symlink breaks checkouts on systems without symlinks"
        assert path.read_bytes() == (PACKAGE / "data" / path.name).read_bytes(), (
            f"copy compiler/contractc/data/{path.name} into docs/schemas/"
        )


def test_the_shipped_page_is_the_docs_page():
    """`explain` reads the package's copy (installs have no docs/); it must hold the docs page's bytes."""
    shipped = REPO / "compiler/contractc/data/drift-codes.md"
    assert not shipped.is_symlink(), "a symlink breaks checkouts on systems without symlinks"
    assert shipped.read_bytes() == (REPO / "docs/drift-codes.md").read_bytes(), "copy docs/drift-codes.md into compiler/contractc/data/"
