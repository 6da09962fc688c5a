"""Properties of the comparison: a revision against itself is no change; enum and field edits are exact set differences."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from contractc.diff.compare import compare_projects
from contractc.diff.sides import load_contracts
from diff_repo import CONFIG, CONTRACTS

WORDS = st.lists(
    st.sampled_from(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta"]), min_size=2, max_size=5, unique=True
)
FIELDS = st.lists(st.sampled_from(["owner", "due", "scope", "notes", "labels", "area"]), max_size=4, unique=True)


def project(handoffs: str):
    """This project's contracts with ``handoffs`` as handoffs.md, loaded (the model holds every byte it needs)."""
    with tempfile.TemporaryDirectory(prefix="contractc-diff-prop-") as tmp:
        folder = Path(tmp)
        (folder / "contracts").mkdir()
        (folder / "contractc.yaml").write_text(CONFIG, "utf-8")
        for name, text in CONTRACTS.items():
            (folder / "contracts" / name).write_text(handoffs if name == "handoffs.md" else text, "utf-8")
        return load_contracts(folder)


def with_kind(values: list[str], extra: list[str] = ()) -> str:
    text = CONTRACTS["handoffs.md"].replace("kind: feature | fix | chore", "kind: " + " | ".join(values))
    added = "".join(f"  {name}: string\n" for name in extra)
    return text.replace("  budget_hours: 8\n", "  budget_hours: 8\n" + added)


def test_a_revision_compared_with_itself_has_no_change():
    same = project(CONTRACTS["handoffs.md"])
    assert compare_projects(same, same, {}) == []
    assert compare_projects(same, project(CONTRACTS["handoffs.md"]), {}) == []


@settings(max_examples=12, deadline=None)
@given(old=WORDS, new=WORDS, old_fields=FIELDS, new_fields=FIELDS)
def test_enum_values_and_fields_added_and_removed_are_exactly_the_set_differences(old, new, old_fields, new_fields):
    records = compare_projects(project(with_kind(old, old_fields)), project(with_kind(new, new_fields)), {})
    by_kind: dict[str, list] = {}
    for r in records:
        by_kind.setdefault(r.kind, []).append(r)
    added = [v for v in new if v not in old]
    removed = [v for v in old if v not in new]
    assert [r.message for r in by_kind.get("enum-values-added", [])] == (
        [f"planning-stage.task_brief $.kind: new value(s) {', '.join(added)}"] if added else []
    )
    assert [r.verdicts for r in by_kind.get("enum-values-removed", [])] == ([("producers",)] if removed else [])
    # fields of one form (string, required) in one object: one gone and one come is a rename; more is no guess
    gone = [f for f in old_fields if f not in new_fields]
    came = [f for f in new_fields if f not in old_fields]
    renamed = by_kind.get("field-renamed", [])
    assert len(renamed) == (1 if len(gone) == len(came) == 1 else 0)
    assert len(renamed) + len(by_kind.get("field-removed", [])) == len(gone)
    assert len(renamed) + len(by_kind.get("field-added-required", [])) == len(came)
    assert all(r.verdicts == ("producers", "receivers") for r in renamed + by_kind.get("field-removed", []))
