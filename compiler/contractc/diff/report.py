"""The diff as a report: text and github through :mod:`contractc.report.format`'s formatters, json as its own document.

The JSON document (``data/diff-report.schema.json``) holds every change record
with both locations and its verdicts, beside the same diagnostics the other
formats print.
"""

from __future__ import annotations

import json

from contractc.diff.gate import DiffResult, code_for
from contractc.report import __version__
from contractc.report.diagnostics import ExitCode
from contractc.report.format import Report, diagnostic_document

SCHEMA_ID = "https://contractc.dev/schemas/diff-report.schema.json"


def diff_document(report: Report, result: DiffResult | None, docs_url: str = "") -> dict:
    records = result.records if result is not None else []
    status = {ExitCode.CLEAN: "compatible", ExitCode.DRIFT: "breaking", ExitCode.BAD_INPUT: "bad-input"}[
        report.exit_code
    ]
    return {
        "$schema": SCHEMA_ID,
        "tool": {"name": "contractc", "version": __version__},
        "status": status,
        "exit_code": int(report.exit_code),
        "against": result.against if result is not None else None,
        "summary": report.headline or "contractc: bad input, nothing was compared",
        "records": [
            {
                "id": r.id,
                "kind": r.kind,
                "subject": r.subject,
                "detail": r.detail,
                "contract": r.contract,
                "verdicts": list(r.verdicts),
                "verdict": r.verdict_text,
                "direction": r.direction,
                "code": code_for(r),
                "accepted": r.id in result.accepted,  # type: ignore[union-attr]
                "agents": list(r.agents),
                "anchors": list(r.anchors),
                "old": {"path": r.old.path, "line": r.old.line} if r.old else None,
                "new": {"path": r.new.path, "line": r.new.line} if r.new else None,
                "stood": {"path": r.stood.path, "line": r.stood.line} if r.stood else None,
                "message": r.message,
            }
            for r in records
        ],
        "diagnostics": [diagnostic_document(d, docs_url) for d in report.diagnostics],
    }


def format_diff_json(report: Report, result: DiffResult | None, docs_url: str = "") -> str:
    return json.dumps(diff_document(report, result, docs_url), indent=2, ensure_ascii=False) + "\n"
