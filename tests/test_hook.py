"""``contractc hook`` end to end, with hook inputs recorded in the format Claude Code documents (tests/hooks/).

SubagentStop gives ``agent_type``, ``agent_transcript_path``, ``last_assistant_message`` and
``stop_hook_active``; the answer is JSON on standard output, exit 0: nothing to let the stop
through, ``{"decision": "block", "reason": ...}`` to make the agent return again.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO

HOOKS = REPO / "tests" / "hooks"
GOOD = "status: done\n\n1. `src/cli.py:40` — the --strict flag is parsed and never read.\n\nUnread: none\n"
BAD = "status: done\n\n1. the --strict flag is parsed and never read.\n\nUnread: none\n"


@pytest.fixture
def plugin(tmp_path):
    root = tmp_path / "review-plugin"
    shutil.copytree(REPO / "examples" / "review-plugin", root)
    return root


def _payload(name: str, root: Path, tmp_path: Path, message: str | None = None, prompt: str = "Review this change.") -> str:
    transcript = tmp_path / "agent.jsonl"
    final = message if message is not None else GOOD
    lines = (HOOKS / "agent-transcript.jsonl").read_text("utf-8")
    lines = lines.replace("{prompt}", json.dumps(prompt)[1:-1]).replace("{final}", json.dumps(final)[1:-1])
    transcript.write_text(lines, "utf-8")
    text = (HOOKS / name).read_text("utf-8")
    for key, value in {"{root}": str(root), "{home}": str(tmp_path), "{agent_transcript}": str(transcript),
                       "{transcript}": str(transcript)}.items():
        text = text.replace(key, value)
    event = json.loads(text)
    if message is not None and "last_assistant_message" in event:
        event["last_assistant_message"] = message
    return json.dumps(event)


def _hook(run_cli, monkeypatch, root: Path, payload: str, *args: str):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(payload.encode("utf-8"))))
    result = run_cli("hook", "--root", str(root), *args)
    assert result.code == 0  # always: Claude Code reads exit 2 as a block
    return (json.loads(result.out) if result.out else None), result.err


def test_a_passing_return_lets_the_stop_through_and_prints_nothing(plugin, tmp_path, run_cli, monkeypatch):
    answer, err = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop.json", plugin, tmp_path))
    assert answer is None and err == ""


def test_one_failure_blocks_with_the_evidence_then_the_corrected_return_passes(plugin, tmp_path, run_cli, monkeypatch):
    from contractc import Receiver

    answer, _ = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop.json", plugin, tmp_path, BAD))
    receiver = Receiver.load(plugin)
    assert answer == {"decision": "block", "reason": receiver.evidence(receiver.validate("findingsreturn", BAD))}
    assert "It failed receiver check 2 of FindingsReturn." in answer["reason"]
    assert "    3 | 1. the --strict flag is parsed and never read." in answer["reason"]
    again, err = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop-active.json", plugin, tmp_path, GOOD))
    assert again is None and err == ""


def test_a_second_failure_lets_the_stop_through_and_shows_the_failed_checks(plugin, tmp_path, run_cli, monkeypatch):
    first, _ = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop.json", plugin, tmp_path, BAD))
    assert first["decision"] == "block"
    second, err = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop-active.json", plugin, tmp_path, BAD))
    assert "decision" not in second  # never a second block: the return is left as returned
    assert second["systemMessage"].startswith(
        "code-reviewer's return fails receiver check 2 of FindingsReturn again after one re-dispatch; it is left as returned"
    )
    assert "## Failure evidence" in second["systemMessage"] and "    3 | 1. the --strict flag" in second["systemMessage"]
    assert err.startswith("contractc hook: contractc: code-reviewer fails check 2 of the 3 receiver checks of FindingsReturn")


@pytest.mark.parametrize("written", ["false", "False", " false "])
def test_stop_hook_active_written_as_the_string_false_is_read_as_false_and_blocks(written, plugin, tmp_path, run_cli, monkeypatch):
    event = json.loads(_payload("subagent-stop.json", plugin, tmp_path, BAD))
    event["stop_hook_active"] = written
    answer, _ = _hook(run_cli, monkeypatch, plugin, json.dumps(event))
    assert answer["decision"] == "block"  # a first failure: the agent returns again, once
    event["stop_hook_active"] = "true"
    again, _ = _hook(run_cli, monkeypatch, plugin, json.dumps(event))
    assert "decision" not in again and "again after one re-dispatch" in again["systemMessage"]


def test_an_agent_that_produces_no_shape_is_let_through_silently(plugin, tmp_path, run_cli, monkeypatch):
    event = json.loads(_payload("subagent-stop.json", plugin, tmp_path, "whatever"))
    event["agent_type"] = "general-purpose"
    assert _hook(run_cli, monkeypatch, plugin, json.dumps(event)) == (None, "")
    stop = _payload("stop.json", plugin, tmp_path)  # the main session's stop, no --producer: not ours
    assert _hook(run_cli, monkeypatch, plugin, stop) == (None, "")


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        ("not json at all", "the hook input is not JSON"),
        ("[1, 2]", "the hook input is not a JSON object"),
        ('{"hook_event_name": "PreToolUse", "tool_name": "Write"}', "hook_event_name is 'PreToolUse'"),
        ('{"hook_event_name": "SubagentStop", "agent_type": "code-reviewer", "stop_hook_active": false}',
         "code-reviewer's last message is neither in the hook input nor in its transcript"),
        ("", "the hook input is not JSON"),
        ('{"hook_event_name": "SubagentStop", "agent_type": "code-reviewer", "stop_hook_active": "yes"}',
         "stop_hook_active is 'yes', neither true nor false"),
        ('{"hook_event_name": "SubagentStop", "agent_type": "code-reviewer", "stop_hook_active": 0}',
         "stop_hook_active is 0, neither true nor false"),
    ],
    ids=["not-json", "not-an-object", "other-event", "no-message", "empty", "active-not-boolean", "active-a-number"],
)
def test_a_malformed_payload_never_blocks_and_says_why(plugin, run_cli, monkeypatch, payload, why):
    answer, err = _hook(run_cli, monkeypatch, plugin, payload)
    assert set(answer) == {"systemMessage"} and why in answer["systemMessage"]
    assert answer["systemMessage"].endswith("; the return was not judged")
    assert err.startswith(f"contractc hook: {why}")


def test_a_project_that_does_not_load_never_blocks(tmp_path, run_cli, monkeypatch):
    answer, _ = _hook(run_cli, monkeypatch, tmp_path, '{"hook_event_name": "SubagentStop", "agent_type": "x", "last_assistant_message": ""}')
    assert set(answer) == {"systemMessage"} and "does not load" in answer["systemMessage"]


def test_the_last_message_is_read_from_the_agent_transcript_when_the_input_lacks_it(plugin, tmp_path, run_cli, monkeypatch):
    answer, _ = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop-no-message.json", plugin, tmp_path, BAD))
    assert answer["decision"] == "block"
    answer, _ = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop-no-message.json", plugin, tmp_path, GOOD))
    assert answer is None


def test_a_skills_own_return_is_judged_on_stop_with_producer(tmp_path, run_cli, monkeypatch, seeds):
    from test_seed_conformance import seed_project

    root = seed_project(tmp_path / "seed", seeds)
    bad = (REPO / "tests/returns/return-shapes/consultationreturn/tension-without-citation.txt").read_text("utf-8")
    event = json.loads(_payload("stop.json", root, tmp_path, bad))
    event["last_assistant_message"] = bad
    answer, _ = _hook(run_cli, monkeypatch, root, json.dumps(event), "--producer", "pattern-librarian")
    assert answer["decision"] == "block" and "check 3 of ConsultationReturn" in answer["reason"]


def test_a_producer_with_several_shapes_is_judged_by_the_shape_its_dispatch_prompt_holds(tmp_path, run_cli, monkeypatch, seeds):
    from contractc import Receiver
    from test_seed_conformance import seed_project

    root = seed_project(tmp_path / "seed", seeds)
    receiver = Receiver.load(root)
    audit = (REPO / "tests/returns/return-shapes/auditreturn/findings-valid.txt").read_text("utf-8")
    for shape, verdict in (("auditreturn", None), ("editplanreturn", "block")):
        prompt = receiver.dispatch(shape) + "\nThe task: audit skills/plan."
        event = json.loads(_payload("subagent-stop-no-message.json", root, tmp_path, audit, prompt=prompt))
        event["agent_type"] = "design-auditor"
        answer, _ = _hook(run_cli, monkeypatch, root, json.dumps(event))
        assert (answer or {}).get("decision") == verdict, shape
    event = json.loads(_payload("subagent-stop-no-message.json", root, tmp_path, audit, prompt="no shape named here"))
    event["agent_type"] = "design-auditor"
    answer, _ = _hook(run_cli, monkeypatch, root, json.dumps(event))
    assert "design-auditor produces 2 shapes (AuditReturn, EditPlanReturn)" in answer["systemMessage"]


def test_the_example_plugins_hooks_json_runs_contractc_hook_on_subagent_stop():
    hooks = json.loads((REPO / "examples/review-plugin/hooks/hooks.json").read_text("utf-8"))
    (entry,) = hooks["hooks"]["SubagentStop"]
    (command,) = entry["hooks"]
    assert command["type"] == "command"
    assert command["command"] == 'contractc hook --root "${CLAUDE_PLUGIN_ROOT}"'


def test_a_shape_with_nothing_mechanised_is_let_through_with_a_message_never_a_pass_or_a_block(plugin, tmp_path, run_cli, monkeypatch):
    contract = plugin / "contracts/review.md"
    text = contract.read_text("utf-8")
    for n, check in ((1, "1. Line 1 is `status: done` or `status: partial`."), (2, "2. Every numbered line carries the location form."),
                     (3, "3. The last line begins `Unread: `.")):
        text = text.replace(check, f"{n}. It reads well.")
    contract.write_text(text, "utf-8")
    answer, _ = _hook(run_cli, monkeypatch, plugin, _payload("subagent-stop.json", plugin, tmp_path, BAD))
    assert set(answer) == {"systemMessage"}
    assert answer["systemMessage"].startswith("contractc hook: contracts/review.md:30: FindingsReturn cannot be validated: none of its 3")
