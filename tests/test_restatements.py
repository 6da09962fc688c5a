"""Restatement detection: a shape copied by hand outside a managed region is drift."""

from __future__ import annotations

from conftest import write_tree
from region_project import CONFIG, project_files

HINT = (
    "  hint: replace the block with the managed region <!-- contractc:begin shape={id} --> ... <!-- contractc:end --> "
    "and run `contractc build`; or, if the copy is on purpose, allow it under allow_restatements in contractc.yaml; more: `contractc explain drift-restatement`"
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


def check(tmp_path, run_cli, files: dict, config: str = CONFIG):
    root = write_tree(tmp_path, project_files(**{"contractc.yaml": config, **files}))
    run_cli("build", "--root", str(root))
    return run_cli("check", "--root", str(root), "--no-diff")


def test_pasted_data_and_text_shapes_are_reported_with_the_marker_that_replaces_them(tmp_path, run_cli):
    result = check(tmp_path, run_cli, {"agents/builder.md": PASTED})
    assert result.code == 1
    assert result.out == "\n".join(
        [
            "agents/builder.md:5:1: error[drift-restatement]: unmanaged copy of building.task_brief",
            HINT.format(id="building.task_brief"),
            "agents/builder.md:13:1: error[drift-restatement]: unmanaged copy of echoreturn",
            HINT.format(id="echoreturn"),
            "contractc: 2 drifted, 7 checked; run `contractc build` to fix",
            "",
        ]
    )


def test_build_writes_what_it_can_and_still_fails_on_a_restatement(tmp_path, run_cli):
    root = write_tree(tmp_path, project_files(**{"agents/builder.md": PASTED}))
    result = run_cli("build", "--root", str(root))
    assert result.code == 1
    assert "wrote prompts/manifest.json" in result.out
    assert result.err.startswith(
        "agents/builder.md:5:1: error[drift-restatement]: unmanaged copy of building.task_brief\n"
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
    assert (result.code, result.out) == (0, "contractc: 8 files checked, all current\n")


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
    assert [line for line in result.out.splitlines() if "error[" in line] == [
        "agents/after.md:13:1: error[drift-restatement]: unmanaged copy of echoreturn",
        "agents/before.md:1:1: error[drift-restatement]: unmanaged copy of echoreturn",
        "agents/between.md:7:1: error[drift-restatement]: unmanaged copy of building.task_brief",
    ]
