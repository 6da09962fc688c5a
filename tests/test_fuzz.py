"""Fuzzing the parsers with hypothesis: no exception but a located diagnostic ever escapes.

- the contract parser, over Markdown assembled from contract-like pieces and
  hostile names (``Produced by `../x` ``);
- the YAML loader, over text drawn from YAML's own punctuation (anchors,
  aliases, tags, flow brackets, merge keys);
- the notation and the whole build, over random data-shape blocks: ``build``
  either fails with a located exit 2 and writes nothing, or succeeds, after
  which ``check`` is clean, a second ``build`` writes nothing, and the bytes
  of the target file outside its managed region are unchanged.

(The region splicer has its own properties in tests/test_regions_property.py.)
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import snapshot, write_tree
from contractc.cli import main
from contractc.report.diagnostics import ContractcError
from contractc.load.contract import parse_contract
from contractc.model.names import name_problem
from contractc.load.source import source_from_bytes
from contractc.load.yaml_safe import load_yaml

LOCATED = re.compile(r"^\S.*?:[0-9]+:[0-9]+: error\[[a-z0-9-]+\]: ", re.MULTILINE)

name = st.one_of(
    st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True),
    st.sampled_from(["../x", "../../escaped", "/tmp/x", ".", "..", "a b", "a/b", "a\\b", "é", "x:y", ""]),
)
text_line = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n`"), max_size=20)
heading = st.builds(lambda level, title: "#" * level + " " + title, st.integers(1, 4), text_line)
produced = st.builds(lambda p, c: f"Produced by `{p}`; consumed by `{c}`.", name, name)
fence = st.builds(lambda info, body: f"```{info}\n{body}\n```", st.sampled_from(["", "yaml", "text"]), text_line)
checks = st.builds(lambda items: "Receiver checks:\n\n" + "\n".join(f"{i + 1}. {t}" for i, t in enumerate(items)), st.lists(text_line, max_size=3))
piece = st.one_of(heading, produced, fence, checks, text_line, st.just("<script>x</script>"), st.just("```"))


@settings(max_examples=150, deadline=None)
@given(st.lists(piece, max_size=12))
def test_the_contract_parser_raises_only_located_diagnostics_and_keeps_names_plain(pieces):
    data = "\n\n".join(pieces).encode("utf-8")
    try:
        contract = parse_contract(source_from_bytes("contracts/c.md", data))
    except ContractcError as exc:
        assert all(d.path == "contracts/c.md" and d.line >= 1 for d in exc.diagnostics)
        return
    for shape in contract.text_shapes:  # whatever parsed becomes output paths: every name is plain
        assert name_problem(shape.producer) is None and name_problem(shape.id) is None
        assert all(name_problem(c) is None for c in shape.consumers)


yaml_text = st.lists(
    st.sampled_from(list("ab01 :-[]{},&*!<|>#'\"\n\t?%@.") + ["!!python/object/apply:os.system", "<<", "&a", "*a", "!!str", "\n  "]), max_size=60
).map("".join)


@settings(max_examples=300, deadline=None)
@given(yaml_text)
def test_the_yaml_loader_raises_only_located_diagnostics(text):
    try:
        load_yaml(text, "x.yaml", "yaml-syntax", first_line=3)
    except ContractcError as exc:
        (d,) = exc.diagnostics
        assert d.path == "x.yaml" and d.line >= 3 and d.col >= 1 and d.code == "yaml-syntax"


plain_key = st.from_regex(r"[a-z][a-z_]{0,6}", fullmatch=True)
key = st.one_of(plain_key, plain_key, plain_key, st.sampled_from(["../k", "a b", "x/y"]))
good = st.sampled_from(["string", "a | b | c", '"YYYY-MM-DD"', "1", "0", "true", "null", "[]", "[ FR-001, NFR-002 ]", "{ ...full brief... }", "[ { name, summary } ]", "|\n    text", "'8'"])
bad = st.sampled_from(["str", "1.5", "*nope", "!!python/name:os.system", "&a x", "[[[[[[", "9" * 200])
scalar = st.one_of(*[good] * 12, bad)
comment = st.sampled_from(["", "  # ← TRANSIENT", "  # optional", "  # present only when asked", "  # default: 3"])


@st.composite
def shape_block(draw) -> str:
    top = draw(st.one_of(*[plain_key] * 6, st.sampled_from(["../k", "a b", "x/y"])))
    fields = draw(st.lists(st.tuples(plain_key, scalar, comment), min_size=1, max_size=5, unique_by=lambda f: f[0]))
    return f"{top}:\n" + "".join(f"  {k}: {v}{c}\n" for k, v, c in fields)


CONFIG = 'contracts:\n  - path: contracts/c.md\n    shared: [shared]\ntargets: ["agents/*.md"]\n'
TARGET = "# Agent\r\nmine, before\n\n<!-- contractc:begin shape={shape} -->\n<!-- contractc:end -->\n\tmine, after  \n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(block=shape_block())
def test_any_data_shape_builds_cleanly_or_is_a_located_error_that_writes_nothing(block, capsys):
    tmp = Path(tempfile.mkdtemp())
    try:
        shape = block.split(":", 1)[0]
        contract = f"# C\n\n## Shared\n\nRules.\n\n## Brief\n\n```yaml\n{block}```\n"
        root = write_tree(tmp, {"contractc.yaml": CONFIG, "contracts/c.md": contract, "agents/a.md": TARGET.format(shape=shape)})
        before = snapshot(root)
        capsys.readouterr()
        code = main(["build", "--root", str(root)])
        said = capsys.readouterr()
        assert "Traceback" not in said.out + said.err and code in (0, 2), said
        event("built" if code == 0 else "refused with a located error")
        if code == 2:
            assert LOCATED.search(said.err), said.err
            assert snapshot(root) == before
            return
        agent = (root / "agents/a.md").read_bytes()
        assert agent.startswith(b"# Agent\r\nmine, before\n\n<!-- contractc:begin shape=")
        assert agent.endswith(b"<!-- contractc:end -->\n\tmine, after  \n")
        assert main(["check", "--root", str(root), "--no-cache"]) == 0
        built = snapshot(root)
        capsys.readouterr()
        assert main(["build", "--root", str(root)]) == 0
        assert capsys.readouterr().out.splitlines()[0].startswith("contractc: 0 written, ") and snapshot(root) == built
    finally:
        shutil.rmtree(tmp)
