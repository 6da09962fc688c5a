"""Role-file dispatch prompts: the agent's role body, front matter stripped, then the shape's bundle."""

from __future__ import annotations

import pytest

from conftest import snapshot, write_tree
from region_project import CONFIG, RETURNS, project_files, section

ROLE = (
    "---\nname: echoer\ndescription: Echoes, carefully.\ntools: [Read]\n---\nYou are the echoer.\n\nAnswer briefly.\n"
)
BUNDLE = section(RETURNS, "## Shared forms") + section(RETURNS, "## EchoReturn")


def role_project(tmp_path, role: str | bytes, agents: str = "agents:\n  echoer: agents/echoer.md\n"):
    return write_tree(tmp_path, project_files(**{"contractc.yaml": CONFIG + agents, "agents/echoer.md": role}))


def test_full_prompt_is_the_role_body_then_the_bundle(tmp_path, run_cli):
    root = role_project(tmp_path, ROLE)
    result = run_cli("build", "--root", str(root))
    assert result.code == 0 and "wrote prompts/echoer/echoreturn.full.md" in result.out
    assert (
        root / "prompts/echoer/echoreturn.full.md"
    ).read_text() == "You are the echoer.\n\nAnswer briefly.\n" + BUNDLE
    assert not (root / "prompts/pinger/pingreturn.full.md").exists()
    assert run_cli("check", "--root", str(root)).code == 0


@pytest.mark.parametrize(
    ("role", "full"),
    [
        ("You are the echoer, no front matter.", "You are the echoer, no front matter.\n"),
        (b"---\r\nname: echoer\r\n---\r\nCRLF body\r\n", b"CRLF body\r\n"),
        ("---\n---\nEmpty front matter.\n", "Empty front matter.\n"),
        ("---\nname: x\n...\nEnded with dots.\n", "Ended with dots.\n"),
    ],
)
def test_front_matter_forms(tmp_path, run_cli, role, full):
    root = role_project(tmp_path, role)
    assert run_cli("build", "--root", str(root)).code == 0
    expected = full if isinstance(full, bytes) else full.encode()
    assert (root / "prompts/echoer/echoreturn.full.md").read_bytes() == expected + BUNDLE.encode()


@pytest.mark.parametrize(
    ("role", "message"),
    [
        (
            "---\nname: echoer\ndescription: [unclosed\n---\nBody\n",
            "agents/echoer.md:3:23: error[role-front-matter]: front matter YAML: expected ',' or ']', but got '<stream end>'",
        ),
        (
            "---\nname: echoer\n  bad: indent\n---\nBody\n",
            "agents/echoer.md:3:6: error[role-front-matter]: front matter YAML: mapping values are not allowed here",
        ),
        (
            "---\nname: echoer\nBody without a closing line\n",
            "agents/echoer.md:1:1: error[role-front-matter]: front matter begun on line 1 is never closed",
        ),
        (
            "---\n- a\n- b\n---\nBody\n",
            "agents/echoer.md:2:1: error[role-front-matter]: front matter must be a mapping of keys, not a list",
        ),
        (
            "---\nx: !!python/object:os.system echo\n---\nBody\n",
            "agents/echoer.md:2:4: error[role-front-matter]: front matter YAML: tag !!python/object:os.system is not allowed",
        ),
    ],
)
def test_malformed_front_matter_is_exit_2_at_its_line(tmp_path, run_cli, role, message):
    root = role_project(tmp_path, role)
    before = snapshot(root)
    result = run_cli("build", "--root", str(root))
    assert result.code == 2
    assert result.err.startswith(message), result.err
    assert snapshot(root) == before


def test_unknown_agent_and_missing_role_file_are_exit_2(tmp_path, run_cli):
    root = role_project(tmp_path, ROLE, "agents:\n  echoer: agents/missing.md\n  echoe: agents/echoer.md\n")
    result = run_cli("check", "--root", str(root))
    assert result.code == 2
    assert result.err.splitlines()[0] == "contractc.yaml:9:3: error[file-missing]: agents/missing.md does not exist"
    assert (
        result.err.splitlines()[2]
        == "contractc.yaml:10:3: error[unknown-agent]: agent 'echoe' produces no shape in the contracts"
    )
    assert result.err.splitlines()[3] == "  hint: agents that produce a shape: echoer, pinger; more: `contractc explain unknown-agent`"


def test_a_role_file_that_is_also_a_target_is_built_in_one_pass(tmp_path, run_cli):
    role = ROLE + "\nReturn a report like:\n\n<!-- contractc:begin shape=report -->\n<!-- contractc:end -->\n"
    root = role_project(tmp_path, role)
    assert run_cli("build", "--root", str(root)).code == 0
    full = (root / "prompts/echoer/echoreturn.full.md").read_text()
    assert "report:\n  outcome: passed | failed" in full and full.endswith(BUNDLE)
    assert run_cli("build", "--root", str(root)).out.startswith("contractc: 0 written, ")


def test_a_region_in_front_matter_is_refused(tmp_path, run_cli):
    role = "---\nname: echoer\ndescription: |\n  <!-- contractc:begin shape=report -->\n  <!-- contractc:end -->\n---\nBody\n"
    root = role_project(tmp_path, role)
    result = run_cli("check", "--root", str(root))
    assert result.code == 2
    assert result.err.startswith(
        "agents/echoer.md:4:3: error[marker-syntax]: region shape=report sits in the role file's front matter\n"
    )


def test_dropping_an_agent_makes_its_full_prompts_orphans_that_build_removes(tmp_path, run_cli):
    root = role_project(tmp_path, ROLE)
    run_cli("build", "--root", str(root))
    (root / "contractc.yaml").write_text(CONFIG)
    result = run_cli("check", "--root", str(root), "--no-diff")
    assert result.code == 1
    assert "prompts/echoer/echoreturn.full.md: error[drift-orphan]: no contract produces this file any more" in result.out
    assert "removed prompts/echoer/echoreturn.full.md" in run_cli("build", "--root", str(root)).out
