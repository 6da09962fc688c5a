"""``contractc hook``: judge an agent's return where it returns, as a Claude Code ``SubagentStop`` (or ``Stop``) hook.

Claude Code runs the hook command with the event's JSON on standard input.  For
``SubagentStop`` that holds ``agent_type`` (the agent that returned; a plugin's
agent is ``plugin:name``), ``agent_transcript_path``, ``last_assistant_message``
(its final message, when Claude Code has it) and ``stop_hook_active`` (true when
this stop follows a block by a stop hook; the strings ``"true"`` and ``"false"`` are read
as what they say, any other value that is no boolean is the hook's own error); ``Stop`` holds ``transcript_path``,
``stop_hook_active`` and ``last_assistant_message``.  The hook answers on
standard output, exit 0:

- the return passes, or no shape is produced by that agent: nothing (the stop goes through);
- a check fails: ``{"decision": "block", "reason": <the failure evidence>}``, so the agent
  returns again once, with the evidence as its instruction;
- a check fails again while ``stop_hook_active`` (the second failure): the stop goes through,
  leaving the malformed return as it is, and ``{"systemMessage": ...}`` shows the user the
  failed checks (degradation rule 4 of the seed: show it, do not dispatch a third time);
- its own error (a payload that is not JSON, a project that does not load, nothing to
  check): the stop goes through with a ``systemMessage`` saying why.  The hook never
  blocks for a reason of its own, and never exits 2 (which Claude Code reads as a block).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from contractc.report.diagnostics import ContractcError
from contractc.report.format import Outcome

EVENTS = ("SubagentStop", "Stop")
TRANSCRIPT_LIMIT = 256 * 1024 * 1024
"""A transcript larger than this (bytes) is not read: the message then says no last message was found."""


class Answer(NamedTuple):
    """What the hook tells Claude Code: the JSON it prints (None: nothing), and a line for standard error."""

    document: dict[str, Any] | None = None
    note: str = ""

    def outcome(self) -> Outcome:
        out = json.dumps(self.document, ensure_ascii=False) + "\n" if self.document is not None else ""
        return Outcome(out, err=f"contractc hook: {self.note}\n" if self.note else "")


def _let_through(why: str) -> Answer:
    """The hook's own trouble: the stop goes through, and the user is told why nothing was judged."""
    message = f"contractc hook: {why}; the return was not judged"
    return Answer({"systemMessage": message}, why)


def run_hook(root: Path, payload: str, producer: str | None = None) -> Outcome:
    """The hook's answer to one event (``payload``: the JSON Claude Code wrote on standard input)."""
    try:
        return answer(root, payload, producer).outcome()
    except Exception as exc:  # noqa: BLE001 -- a hook that crashes would leave the agent's stop to chance
        return _let_through(f"internal error ({type(exc).__name__}: {exc})").outcome()


def answer(root: Path, payload: str, producer: str | None = None) -> Answer:
    try:
        event = json.loads(payload)
    except ValueError as exc:
        return _let_through(f"the hook input is not JSON ({exc})")
    if not isinstance(event, dict):
        return _let_through("the hook input is not a JSON object")
    name = event.get("hook_event_name")
    if name not in EVENTS:
        return _let_through(f"hook_event_name is {name!r}; contractc hook answers {' and '.join(EVENTS)}")
    active = event.get("stop_hook_active", False)
    if isinstance(active, str):  # read as what it says: the string "false" is no second stop
        active = {"true": True, "false": False}.get(active.strip().lower(), active)
    if not isinstance(active, bool):
        return _let_through(f"stop_hook_active is {active!r}, neither true nor false")
    agent = producer or _agent(event)
    if not agent:
        return Answer()  # a Stop of the main session with no --producer: nothing of ours returned
    from contractc.validate.receiver import Receiver, text_candidates

    try:
        receiver = Receiver.load(root)
    except ContractcError as exc:
        return _let_through(f"the project at {root} does not load: {exc.diagnostics[0].format(short=True)}")
    shapes = [s for _, s in text_candidates(receiver.project, agent)]
    if not shapes:
        return Answer()  # this agent produces no text shape: its stop is not ours to judge
    text = _last_message(event)
    if text is None:
        return _let_through(f"{agent}'s last message is neither in the hook input nor in its transcript")
    shape = shapes[0] if len(shapes) == 1 else _dispatched(event, shapes)
    if shape is None:
        modes = ", ".join(s.name for s in shapes)
        return _let_through(f"{agent} produces {len(shapes)} shapes ({modes}) and its dispatch prompt names none of them")
    try:
        verdict = receiver.validate(shape, text)
    except ContractcError as exc:
        return _let_through(exc.diagnostics[0].format(short=True))
    if verdict.passed:
        return Answer()
    evidence = receiver.evidence(verdict)
    if not active:
        return Answer({"decision": "block", "reason": evidence})
    from contractc.validate.render import summary

    failed = ", ".join(str(n) for n in verdict.failed)
    message = (
        f"{agent}'s return fails receiver check{'s' * (len(verdict.failed) > 1)} {failed} of {shape.name} again after one "
        f"re-dispatch; it is left as returned: judge it by reading, do not dispatch a third time.\n\n{evidence}"
    )
    return Answer({"systemMessage": message}, summary(agent, verdict))


def _agent(event: dict) -> str:
    """The agent that returned: ``agent_type`` without a plugin's ``name:`` prefix."""
    kind = event.get("agent_type") if event.get("hook_event_name") == "SubagentStop" else None
    return kind.rsplit(":", 1)[-1] if isinstance(kind, str) else ""


def _transcript(event: dict) -> list[dict]:
    """The entries of the returning agent's transcript (JSON Lines); none when it cannot be read."""
    key = "agent_transcript_path" if event.get("hook_event_name") == "SubagentStop" else "transcript_path"
    path = event.get(key)
    if not isinstance(path, str) or not path:
        return []
    try:
        # Opened without blocking (a FIFO would wait for a writer); only a regular file of bounded size is
        # read (a read of /dev/zero never ends).
        with os.fdopen(os.open(Path(path).expanduser(), os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > TRANSCRIPT_LIMIT:
                return []
            lines = handle.read(TRANSCRIPT_LIMIT).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    entries = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def _text_of(entry: dict) -> str | None:
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        return "".join(texts) if texts else None
    return None


def _last_message(event: dict) -> str | None:
    """``last_assistant_message`` when Claude Code gives it, else the text of the transcript's last assistant entry."""
    given = event.get("last_assistant_message")
    if isinstance(given, str):
        return given
    for entry in reversed(_transcript(event)):
        if entry.get("type") == "assistant":
            text = _text_of(entry)
            if text is not None:
                return text
    return None


def _dispatched(event: dict, shapes: list) -> Any:
    """Of a producer's shapes, the one its dispatch prompt (the transcript's first user message) names."""
    first = next((_text_of(e) for e in _transcript(event) if e.get("type") == "user" and _text_of(e)), None)
    if not first:
        return None
    import re

    named = [s for s in shapes if re.search(rf"^#+[ \t]+{re.escape(s.name)}[ \t]*$", first, re.MULTILINE)]
    return named[0] if len(named) == 1 else None
