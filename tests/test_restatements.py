"""Restatement detection: a shape copied by hand outside a managed region is drift."""

from __future__ import annotations

from conftest import write_tree
from region_project import CONFIG, project_files

HINT = (
    "  hint: wrap lines {lines} in a managed region: a line `<!-- contractc:begin shape={id} -->` above and a line "
    "`<!-- contractc:end -->` below; build then refuses to overwrite its bytes until you carry the difference into "
    "the contract (the diff shows it), or take the contract's bytes with `build --force`, which deletes the lines the "
    "diff shows with `-`; if it differs by design, write `instance=` for `shape=` in the begin marker; or, if the copy "
    "is on purpose, allow exactly these bytes: add "
    '`- {{path: "agents/builder.md", shape: {id}, sha256: {sha256}}}` under allow_restatements in contractc.yaml; '
    "more: `contractc explain drift-restatement`"
)
PASTED = """\
# Builder

Hand back:

```yaml
task_brief:
  plan: string
  workspace: string   # edited copy
```

Return this:

~~~
status: ok
echo: <your text>
~~~
"""


def _sha256(text: str, opening: str, closing: str) -> str:
    """The SHA-256 of a copy's bytes, opening fence line through closing fence line."""
    import hashlib

    start = text.index(opening)
    end = text.index(closing, start + len(opening)) + len(closing)
    return hashlib.sha256(text[start:end].encode()).hexdigest()


def check(tmp_path, run_cli, files: dict, config: str = CONFIG):
    root = write_tree(tmp_path, project_files(**{"contractc.yaml": config, **files}))
    run_cli("build", "--root", str(root))
    return run_cli("check", "--root", str(root), "--no-diff")


def test_pasted_data_and_text_shapes_are_reported_with_the_marker_that_replaces_them(tmp_path, run_cli):
    result = check(tmp_path, run_cli, {"agents/builder.md": PASTED})
    assert result.code == 1
    assert result.out == "\n".join(
        [
            "agents/builder.md:5:1: error[drift-restatement]: unmanaged copy of building.task_brief, different from the contract",
            HINT.format(id="building.task_brief", lines="5-9", sha256=_sha256(PASTED, "```yaml\n", "```\n")),
            "agents/builder.md:13:1: error[drift-restatement]: unmanaged copy of echoreturn, different from the contract",
            HINT.format(id="echoreturn", lines="13-16", sha256=_sha256(PASTED, "~~~\n", "~~~\n")),
            "contractc: 2 drifted, 8 checked; fix each as its hint says",
            "",
        ]
    )


def test_build_writes_what_it_can_and_still_fails_on_a_restatement(tmp_path, run_cli):
    root = write_tree(tmp_path, project_files(**{"agents/builder.md": PASTED}))
    result = run_cli("build", "--root", str(root))
    assert result.code == 1
    assert "wrote prompts/manifest.json" in result.out
    assert result.err.startswith(
        "agents/builder.md:5:1: error[drift-restatement]: unmanaged copy of building.task_brief, different from the contract\n"
    )


def test_copies_inside_regions_mentions_and_other_blocks_are_not_restatements(tmp_path, run_cli):
    agent = """\
<!-- contractc:begin shape=report -->
<!-- contractc:end -->

```yaml
settings:
  report: true
```

```
status: ok
something else entirely
and more
and more still
```

    ```yaml
    report: indented code, not a fence
    ```
"""
    result = check(tmp_path, run_cli, {"agents/a.md": agent})
    assert (result.code, result.out) == (0, "contractc: 9 files checked, all current\n")


def test_allow_list_silences_a_location_on_purpose(tmp_path, run_cli):
    allow = (
        "allow_restatements:\n  - path: agents/*.md\n    shape: echoreturn\n  - path: agents/builder.md\n    line: 99\n"
    )
    result = check(tmp_path, run_cli, {"agents/builder.md": PASTED}, CONFIG + allow)
    assert result.code == 1
    assert "unmanaged copy of building.task_brief" in result.out and "echoreturn" not in result.out
    allow_line = (
        "allow_restatements:\n  - path: agents/builder.md\n    line: 5\n  - path: agents/builder.md\n    line: 13\n"
    )
    result = check(tmp_path, run_cli, {"agents/builder.md": PASTED}, CONFIG + allow_line)
    assert result.code == 0, result.out



def test_copies_before_between_and_after_regions_are_found_in_a_file_with_regions(tmp_path, run_cli):
    region = "<!-- contractc:begin shape=report -->\n<!-- contractc:end -->\n"
    text = "~~~\nstatus: ok\necho: <your text>\n~~~\n"
    data = "```yaml\ntask_brief:\n  plan: string\n```\n"
    files = {
        "agents/before.md": text + region,
        "agents/between.md": region + data + region,
        "agents/after.md": region + region + text,
    }
    result = check(tmp_path, run_cli, files)
    assert result.code == 1
    assert [line.split(",")[0] for line in result.out.splitlines() if "error[" in line] == [
        "agents/after.md:13:1: error[drift-restatement]: unmanaged copy of echoreturn",
        "agents/before.md:1:1: error[drift-restatement]: unmanaged copy of echoreturn",
        "agents/between.md:7:1: error[drift-restatement]: unmanaged copy of building.task_brief",
    ]


def test_an_identical_copy_says_so_and_shows_no_diff(tmp_path, run_cli):
    identical = "# Builder\n\n```yaml\ntask_brief:\n  plan: string\n  workspace: string\n```\n"
    root = write_tree(tmp_path, project_files(**{"agents/builder.md": identical}))
    run_cli("build", "--root", str(root))
    result = run_cli("check", "--root", str(root), "--no-cache")
    assert result.code == 1
    assert "agents/builder.md:3:1: error[drift-restatement]: unmanaged copy of building.task_brief, identical to the contract\n" in result.out
    assert "wrap lines 3-7 in a managed region" in result.out and "build then stamps it" in result.out
    assert "\n---" not in result.out  # nothing to diff


def test_a_differing_copy_shows_its_diff_against_the_contract(tmp_path, run_cli):
    root = write_tree(tmp_path, project_files(**{"agents/builder.md": PASTED}))
    run_cli("build", "--root", str(root))
    result = run_cli("check", "--root", str(root), "--no-cache")
    assert "--- agents/builder.md:5 (on disk)\n+++ contracts/briefs.md:17 (from contracts)\n" in result.out  # the + side is where the contract holds it
    assert "\n-  workspace: string   # edited copy\n+  workspace: string\n" in result.out
    assert "run `contractc build`" not in result.out.splitlines()[-1]  # build cannot fix a restatement


def test_wrapping_a_copy_in_the_hinted_markers_then_build_then_check_is_clean(tmp_path, run_cli):
    identical = "# Builder\n\n```yaml\ntask_brief:\n  plan: string\n  workspace: string\n```\n"
    root = write_tree(tmp_path, project_files(**{"agents/builder.md": identical}))
    wrapped = identical.replace("```yaml", "<!-- contractc:begin shape=building.task_brief -->\n```yaml").replace(
        "```\n", "```\n<!-- contractc:end -->\n"
    )
    (root / "agents/builder.md").write_text(wrapped)
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0


def test_allowances_that_silence_nothing_are_reported_at_their_entry(tmp_path, run_cli):
    allow = (
        "allow_restatements:\n"
        "  - path: agents/builder.md\n    shape: no_such_shape\n"
        "  - path: agents/gone.md\n"
        "  - path: agents/builder.md\n    shape: building.task_brief\n    line: 4\n"
        "  - path: agents/builder.md\n    shape: task_brief\n"
        "  - path: agents/builder.md\n    line: 13\n"
    )
    result = check(tmp_path, run_cli, {"agents/builder.md": PASTED}, CONFIG + allow)
    lines = [line for line in result.out.splitlines() if "drift-allowance" in line and "error[" in line]
    assert lines == [
        "contractc.yaml:9:5: error[drift-allowance]: allow_restatements entry names shape 'no_such_shape', which no contract defines",
        "contractc.yaml:11:5: error[drift-allowance]: allow_restatements entry 'agents/gone.md' matches no target file",
        "contractc.yaml:12:5: error[drift-allowance]: allow_restatements entry allows line 4 of agents/builder.md, "
        "but no copy starts there; copies of building.task_brief start at agents/builder.md:5",
        "contractc.yaml:15:5: error[drift-allowance]: allow_restatements entry names shape 'task_brief', which is used in several stages",
    ]
    assert "hint: name one: building.task_brief, planning.task_brief" in result.out
    assert result.code == 1


def test_build_exit_0_means_check_is_clean_with_allowances(tmp_path, run_cli):
    allow = "allow_restatements:\n  - path: agents/builder.md\n    line: 5\n  - path: agents/builder.md\n    line: 13\n"
    root = write_tree(tmp_path, project_files(**{"contractc.yaml": CONFIG + allow, "agents/builder.md": PASTED}))
    assert run_cli("build", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root), "--no-cache").code == 0
    (root / "agents/builder.md").write_text("moved down\n\n" + PASTED)
    assert run_cli("build", "--root", str(root)).code == 1  # the copies moved: the entries point at nothing
    assert run_cli("check", "--root", str(root), "--no-cache").code == 1


def test_a_copy_in_a_quote_is_found_and_told_to_move_out_of_it(tmp_path, run_cli):
    quoted = "# Builder\n\n> Hand back:\n>\n> ```yaml\n> task_brief:\n>   plan: string\n>   workspace: string   # edited\n> ```\n"
    result = check(tmp_path, run_cli, {"agents/builder.md": quoted})
    assert result.code == 1
    assert "agents/builder.md:5:3: error[drift-restatement]: unmanaged copy of building.task_brief, different from the contract\n" in result.out
    assert "a region cannot sit in a quote: move lines 5-9 out of the quote" in result.out
