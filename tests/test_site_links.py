"""`contractc check` verifies every link into a contract or the contract site names a real anchor."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ECHO_SECTION, write_tree
from contractc.drift.links import _may_cite

CONTRACT = "# Echo\n\n" + ECHO_SECTION + "\nSee [the check](#echoreturn-check-1).\n"
CONFIG = "site_url: https://docs.example.com/\ncontracts:\n  - path: contracts/echo.md\n"


@pytest.fixture
def project(tmp_path, run_cli):
    root = write_tree(tmp_path, {"contractc.yaml": CONFIG, "contracts/echo.md": CONTRACT})
    assert run_cli("build", "--root", str(root)).code == 0
    return root


def test_a_dangling_anchor_inside_a_contract_is_drift_with_file_line_and_a_suggestion(project, run_cli):
    write_tree(
        project, {"contracts/echo.md": CONTRACT.replace("[the check]", "[a typo](#echoreturn-chek-1), [the check]")}
    )
    run_cli("build", "--root", str(project))  # the outputs follow the edited contract; the link stays wrong
    result = run_cli("check", "--root", str(project))
    assert result.code == 1
    assert result.out.splitlines() == [
        "contracts/echo.md:15:14: error[drift-link]: link #echoreturn-chek-1 names no anchor 'echoreturn-chek-1' of contracts/echo.md",
        "  hint: did you mean #echoreturn-check-1? (edit the link; anchors come from the contract's headings and checks); more: `contractc explain drift-link`",
        "contractc: 1 drifted, 2 checked; fix each as its hint says",
    ]


def test_build_writes_what_it_can_and_still_fails_on_a_dangling_link(project, run_cli):
    write_tree(project, {"contracts/echo.md": CONTRACT + "\n## More\n\n[gone](#nowhere)\n"})
    result = run_cli("build", "--root", str(project))
    assert result.code == 1
    assert "wrote prompts/manifest.json" in result.out  # the contract's hash changed: outputs are current again
    assert (
        "contracts/echo.md:19:8: error[drift-link]: link #nowhere names no anchor 'nowhere' of contracts/echo.md"
        in result.err
    )


def test_links_by_path_and_by_site_url_are_checked_and_good_ones_pass(project, run_cli):
    write_tree(
        project,
        {
            "contracts/echo.md": CONTRACT.replace("chek", "check")
            + (
                "\n[ok](echo.md#echoreturn) [ok](./echo.md#echo)"
                "\n[bad](echo.md#nowhere)"
                "\n<https://docs.example.com/contracts/echo/#echoreturn-check-1> ok"
                "\nhttps://docs.example.com/contracts/shapes/echoreturn/#echoreturn-check-1 ok, on the shape page"
                "\nhttps://docs.example.com/contracts/echo/#echoreturn-check-9 bad"
                "\nhttps://docs.example.com/contracts/gone/#x bad page"
                "\nhttps://docs.example.com/guide/#anything not ours to judge"
                "\n[other site](https://elsewhere.example.com/contracts/echo/#nope)"
                "\n[ref]: echo.md#missing-ref\n"
            )
        },
    )
    run_cli("build", "--root", str(project))
    result = run_cli("check", "--root", str(project))
    assert result.code == 1
    errors = [line for line in result.out.splitlines() if "error[" in line]
    assert errors == [
        "contracts/echo.md:18:7: error[drift-link]: link echo.md#nowhere names no anchor 'nowhere' of contracts/echo.md",
        "contracts/echo.md:21:1: error[drift-link]: link https://docs.example.com/contracts/echo/#echoreturn-check-9 names no anchor 'echoreturn-check-9' of contracts/echo.md",
        "contracts/echo.md:22:1: error[drift-link]: link https://docs.example.com/contracts/gone/#x names no page of the contract site",
        "contracts/echo.md:25:8: error[drift-link]: link echo.md#missing-ref names no anchor 'missing-ref' of contracts/echo.md",
    ]


def test_links_in_target_files_are_checked_too(project, run_cli):
    write_tree(
        project,
        {
            "contractc.yaml": CONFIG + "targets:\n  - agents/*.md\n",
            "agents/echoer.md": "Return the shape of [EchoReturn](../contracts/echo.md#echo-return).\n",
        },
    )
    result = run_cli("check", "--root", str(project))
    assert result.code == 1
    assert (
        "agents/echoer.md:1:34: error[drift-link]: link ../contracts/echo.md#echo-return names no anchor 'echo-return' of contracts/echo.md"
        in result.out
    )


SITE = b"https://docs.example.com/"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([b"#", b".md", b"(", b": ", b":", b" ", b"m", b"d", b"\n", SITE, b"x"]), max_size=30))
def test_the_citation_prefilter_passes_every_file_with_a_citation_mark(parts):
    # The prefilter (which keeps the link regexes off most files) must pass every file that
    # holds one of the marks a citation starts from; a file it wrongly skips hides a dangling link.
    data = b"".join(parts)
    marks = (b".md#", b"(#", b": #", SITE)
    assert _may_cite(data, SITE) == any(mark in data for mark in marks)


def test_every_url_in_anchors_json_names_the_contracts_folder_once_and_passes_check(tmp_path, run_cli):
    """Under the default site_url (which already ends in `contracts/`) anchors.json records
    `…/contracts/echo/#…`, never `…/contracts/contracts/…`, and a file citing any recorded URL checks clean."""
    import json

    root = write_tree(
        tmp_path,
        {"contractc.yaml": "contracts:\n  - path: contracts/echo.md\nout:\n  site: site\n", "contracts/echo.md": CONTRACT},
    )
    assert run_cli("build", "--root", str(root)).code == 0
    anchors = json.loads((root / "site/anchors.json").read_text("utf-8"))["anchors"]
    urls = [a["url"] for a in anchors]
    assert "https://example.invalid/contracts/echo/#echoreturn-check-1" in urls
    assert "https://example.invalid/contracts/shapes/echoreturn/#echoreturn-check-1" in urls
    assert not [u for u in urls if "contracts/contracts/" in u]
    cited = "".join(f"- <{u}>\n" for u in urls) + "- https://example.invalid/contracts/echo/#echoreturn-chek-1\n"
    write_tree(root, {"contractc.yaml": "contracts:\n  - path: contracts/echo.md\nout:\n  site: site\ntargets:\n  - README.md\n", "README.md": cited})
    result = run_cli("check", "--root", str(root))
    assert result.code == 1
    drifted = [line for line in result.out.splitlines() if "error[drift-link]" in line]
    assert drifted == [
        f"README.md:{len(urls) + 1}:3: error[drift-link]: link https://example.invalid/contracts/echo/#echoreturn-chek-1 "
        "names no anchor 'echoreturn-chek-1' of contracts/echo.md"
    ]


def test_a_templates_own_table_of_contents_is_no_link_into_the_contract(project, run_cli):
    # a report template links the report's own headings: those anchors are the report's, never the contract's;
    # the same link outside the template is a dangling link all the same
    template = "```\n# Report\n\n- [Findings](#findings)\n\n## Findings\n\n<one line each>\n```\n"
    section = f"## ReportReturn\n\nProduced by `reporter`; consumed by `echo-skill`.\n\n{template}\nReceiver checks:\n\n1. Line 1 begins `# Report`.\n"
    write_tree(project, {"contracts/echo.md": CONTRACT + "\n" + section})
    assert run_cli("build", "--root", str(project)).code == 0
    assert run_cli("check", "--root", str(project)).code == 0
    write_tree(project, {"contracts/echo.md": CONTRACT + "\n" + section + "\nSee [findings](#findings).\n"})
    run_cli("build", "--root", str(project))
    result = run_cli("check", "--root", str(project))
    assert result.code == 1 and "error[drift-link]: link #findings names no anchor 'findings' of contracts/echo.md" in result.out
