"""Side-by-side benchmark: ``contractc check`` against ``cog --check`` and a read-and-compare floor.

    python bench/run.py                 # N = 10, 100, 1000, 5000; writes docs/performance.md
    python bench/run.py --smoke         # N = 10, one round, nothing written unless --out

Every row is a set of whole processes timed from outside (see ``timing.py``);
each checker is first shown to FAIL on a corpus with drifted copies and to pass
on the clean one, so a fast no-op cannot win.  A row whose feature is missing
from this checkout is reported as "not available" instead of failing the run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import BEGIN, BLOCK, CONTRACT, END, Corpus, drift, restore, write_corpus
from report import Report, render
from timing import DEFAULT_REPS, SITE_REPS, Command, Samples, captured, rounds

PY = sys.executable
CONTRACTC_MAIN = "import sys; from contractc.cli import main; sys.exit(main())"
COG_MAIN = "import sys; from cogapp import main; sys.exit(main())"


@dataclass
class Tools:
    """The commands under test, bound to a corpus folder."""

    env: dict[str, str] = field(default_factory=lambda: _env())
    python: str = PY
    repo: Path = REPO

    # Both tools run as their console scripts do (`from pkg import main; main()`), with one interpreter.
    def contractc(self, label: str, root: Path, *args: str) -> Command:
        return Command(label, (PY, "-c", CONTRACTC_MAIN, *args), root, self.env)

    def cog(self, label: str, root: Path, *args: str) -> Command:
        return Command(label, (PY, "-c", COG_MAIN, *args, "-I", ".", "@files.txt"), root, self.env)

    def floor(self, root: Path) -> Command:
        return Command("floor", (PY, str(HERE / "floor.py"), str(root)), root, self.env)

    def python_pass(self, root: Path) -> Command:
        return Command("python -c pass", (PY, "-c", "pass"), root, self.env)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # The checkout under test, not whatever contractc is installed.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO / "compiler"), env.get("PYTHONPATH", "")) if p)
    # As installed tools run: bytecode cached (the warm-up writes it) and stdout buffered.
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONPROFILEIMPORTTIME", "PYTHONDEVMODE"):
        env.pop(name, None)
    return env


def prove_it_fails(cmd: Command, corpus: Corpus, root: Path) -> str | None:
    """Clean corpus: exit 0.  One copy in ten edited by hand: exit non-zero.  Else: why not."""
    clean = captured(cmd)
    if clean.returncode != 0:
        return f"fails on the clean corpus (exit {clean.returncode}): {(clean.stdout + clean.stderr).strip()[:300]}"
    saved = drift(root, corpus.targets, every=10)
    try:
        drifted = captured(cmd)
    finally:
        restore(root, saved)
    if drifted.returncode == 0:
        return "passes a corpus with drifted copies"
    return None


def prepare_contractc(tools: Tools, corpus: Corpus) -> str | None:
    """Fill the empty regions with one ``build``; None when regions work, else why not."""
    built = captured(tools.contractc("build", corpus.contractc, "build"))
    if built.returncode != 0:
        return f"`contractc build` exit {built.returncode}: {(built.stdout + built.stderr).strip().splitlines()[-1:]}"
    first = (corpus.contractc / corpus.targets[0]).read_bytes()
    if b"waves: 3" not in first:
        return "`contractc build` left the managed regions empty"
    return None


def fill_regions(corpus: Corpus) -> None:
    """Without a working ``build``, put the block in the regions as the benchmark expects them."""
    for name in corpus.targets:
        path = corpus.contractc / name
        path.write_bytes(path.read_bytes().replace((BEGIN + END).encode(), (BEGIN + BLOCK + END).encode()))


def bench_size(tools: Tools, corpus: Corpus, reps: int, report: Report) -> None:
    n = corpus.n
    print(f"== N = {n}: {reps} rounds ({time.strftime('%H:%M:%S')})", flush=True)
    check = tools.contractc("contractc check", corpus.contractc, "check")
    cold = Command("contractc check --no-cache", check.argv + ("--no-cache",), check.cwd, check.env)
    cog_check = tools.cog("cog --check", corpus.cog, "--check")
    floor = tools.floor(corpus.contractc)
    missing = prepare_contractc(tools, corpus)
    if missing:
        fill_regions(corpus)  # so the floor still has copies to compare
    peers = [cog_check, floor]
    for cmd, root in ((cog_check, corpus.cog), (floor, corpus.contractc)):
        problem = prove_it_fails(cmd, corpus, root)
        if problem:
            raise SystemExit(f"{cmd.label} at N={n} {problem}: the benchmark would be meaningless")
    ours: list[Command] = []
    if missing is None:
        for cmd in (check, cold):
            problem = prove_it_fails(cmd, corpus, corpus.contractc)
            if problem:
                missing = f"{cmd.label} {problem}"
                break
            ours.append(cmd)
    if missing:
        report.unavailable[f"check N={n}"] = missing
        print(f"   contractc: not available ({missing})", flush=True)
    else:
        clean = captured(check)
        report.clean_lines[n] = clean.stdout.splitlines()
    samples = rounds([*ours, *peers, tools.python_pass(corpus.contractc)], reps)
    report.checks[n] = samples
    for label, s in samples.items():
        print(f"   {label:28s} {s.median * 1000:8.1f} ms  {s.peak_rss / 1024:6.1f} MiB", flush=True)
    if ours:
        build = tools.contractc("contractc build (nothing to change)", corpus.contractc, "build")
        report.noop_build[n] = rounds([build, check], reps)


def bench_rewrite(tools: Tools, corpus: Corpus, reps: int, report: Report) -> None:
    """The contract changed: ``build`` rewriting every region vs ``cog -r`` regenerating every region.

    Run on the corpus's own disk, then again on a RAM disk (tmpfs) when the machine has
    one, which takes the file system's cost of new files out of the comparison.
    """
    report.rewrite[corpus.n] = _rewrite_rounds(tools, corpus.contractc, corpus.cog, reps, corpus.n)
    report.disk = disk_costs(corpus.cog / "docs", corpus.targets)
    ram = _ram_disk()
    if ram is not None:
        try:
            copies = [shutil.copytree(src, ram / src.name, symlinks=True) for src in (corpus.contractc, corpus.cog)]
            report.rewrite_ram[corpus.n] = _rewrite_rounds(tools, *copies, reps, corpus.n)
        finally:
            shutil.rmtree(ram, ignore_errors=True)


def _rewrite_rounds(tools: Tools, cc_root: Path, cog_root: Path, reps: int, n: int) -> dict[str, Samples]:
    build = tools.contractc("contractc build (all regions stale)", cc_root, "build")
    cog_r = tools.cog("cog -r", cog_root, "-r")
    versions = {cmd.label: [CONTRACT, CONTRACT.replace("waves: 3", "waves: 4")] for cmd in (build, cog_r)}

    def edit_contract(cmd: Command) -> None:
        # Alternate between two versions of the block, so every run finds every copy stale.
        versions[cmd.label].reverse()
        (cmd.cwd / "contracts/release.md").write_text(versions[cmd.label][0], "utf-8", newline="\n")

    samples = rounds([build, cog_r], reps, before=edit_contract)
    for cmd in (build, cog_r):
        (cmd.cwd / "contracts/release.md").write_text(CONTRACT, "utf-8", newline="\n")
        if captured(cmd).returncode != 0:
            raise SystemExit(f"{cmd.label} could not restore the corpus in {cmd.cwd}")
    for probe in (
        tools.contractc("check", cc_root, "check", "--no-cache"),
        tools.cog("check", cog_root, "--check"),
    ):
        if captured(probe).returncode != 0:  # both repaired every copy
            raise SystemExit(f"{probe.label} fails after the rewrite in {probe.cwd}: a rewrite was incomplete")
    print(
        f"   rewrite all in {cc_root.parent}: build {samples[build.label].median * 1000:.1f} ms, "
        f"cog -r {samples[cog_r.label].median * 1000:.1f} ms",
        flush=True,
    )
    return samples


def _ram_disk() -> Path | None:
    """A new folder on a tmpfs (/dev/shm), or None when the machine has none."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        return None
    return Path(tempfile.mkdtemp(prefix="contractc-bench-", dir=shm))


def disk_costs(folder: Path, names: tuple[str, ...], count: int = 300) -> dict[str, float]:
    """Microseconds per file on this disk: rewriting in place (what ``cog -r`` does) vs a new file renamed
    over the old one (what an all-or-nothing ``build`` must do)."""
    data = [(folder.parent / name).read_bytes() for name in names[:count]]
    paths = [str(folder.parent / name) for name in names[:count]]
    start = time.perf_counter()
    for path, body in zip(paths, data):
        with open(path, "wb") as handle:
            handle.write(body)
    middle = time.perf_counter()
    for path, body in zip(paths, data):
        fd, tmp = tempfile.mkstemp(prefix=".bench.", dir=folder)
        with os.fdopen(fd, "wb") as handle:
            handle.write(body)
        os.replace(tmp, path)
    end = time.perf_counter()
    return {"in place": (middle - start) / len(paths) * 1e6, "new file + rename": (end - middle) / len(paths) * 1e6}


def bench_startup(tools: Tools, root: Path, reps: int, report: Report) -> None:
    cmds = [
        tools.contractc("contractc --help", root, "--help"),
        tools.contractc("contractc --version", root, "--version"),
        Command('python -c "import click"', (PY, "-c", "import click"), root, tools.env),
        tools.python_pass(root),
    ]
    report.startup = rounds(cmds, reps)
    for label, s in report.startup.items():
        print(f"   {label:28s} {s.median * 1000:8.1f} ms", flush=True)


# Judges a 100-line FindingsReturn of this repository's own contract with the compiled receiver
# checks, after one load: the cost a skill pays per return.  In-process by nature (a process
# would time Python's start-up), in a child so that it runs this checkout's code.
VALIDATE_SCRIPT = """
import statistics, sys, time
from contractc import Receiver
receiver = Receiver.load(sys.argv[1])
shape = receiver.shape("findingsreturn")
lines = ["verdict: changes", ""]
while len(lines) < 98:
    n = len(lines)
    lines += [f"- **Problem {n}** `src/m{n}.py:{n}-{n + 2}`", f"  - why it matters for this change, case {n}."]
text = "\\n".join(lines + ["", "**Not checked**: nothing"]) + "\\n"
assert text.count("\\n") == 100 and receiver.validate(shape, text).failed == (4,)
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    for _ in range(200):
        receiver.validate(shape, text)
    times.append((time.perf_counter() - start) / 200)
print(statistics.median(times) * 1e6)
"""


def bench_validate(tools: Tools, reps: int, report: Report) -> None:
    """Judging a 100-line return against compiled receiver checks, after the project is loaded."""
    done = captured(Command("validate", (PY, "-c", VALIDATE_SCRIPT, str(REPO), str(reps)), REPO, tools.env))
    if done.returncode != 0:
        report.unavailable["validate"] = (done.stderr.strip().splitlines() or ["failed"])[-1]
        print("   validate: not available", flush=True)
        return
    report.validate_us = float(done.stdout.strip())
    print(f"   validate a 100-line return: {report.validate_us:.0f} us", flush=True)


def bench_site(tools: Tools, base: Path, pages: list[int], reps: int | None, report: Report) -> None:
    """Site page generation vs ``mkdocs build`` of the same pages; only when this checkout has a site."""
    probe = captured(
        Command("probe", (PY, "-c", "from contractc.pipeline import EMITTERS; print(' '.join(EMITTERS))"), base, tools.env)
    )
    if "site" not in probe.stdout.split():
        report.unavailable["site"] = "this checkout has no site emitter yet (issue 5)"
        print("   site: not available", flush=True)
        return
    from site_corpus import bench_pages

    for p in pages:
        samples, count, missing = bench_pages(tools, base, p, reps or SITE_REPS.get(p, 3))
        report.site[p], report.site_pages[p] = samples, count
        if missing:
            report.unavailable["mkdocs build with the plugin"] = missing
        print(
            f"   P = {p} ({count} pages): " + ", ".join(f"{k} {v.median * 1000:.0f} ms" for k, v in samples.items()),
            flush=True,
        )


def bench_estimator(report: Report, reps: int) -> None:
    """The context-budget estimator, in-process: per snippet, next to the SHA-256 the manifest already takes.

    Snippets are the sizes real dispatch snippets have (1-16 KB of contract prose
    with fences and tables); the estimate is ``contractc.model.budget.estimate_tokens``.
    """
    import hashlib
    import timeit

    sys.path.insert(0, str(REPO / "compiler"))  # this checkout's estimator, as the timed children use
    from contractc.model.budget import estimate_tokens

    paragraph = (
        "## FindingsReturn\n\nProduced by `code-reviewer`; consumed by `reviewing-changes`.\n\n"
        "```\nverdict: changes\n\n- **<problem>** `<path>:<first>-<last>`\n```\n\n"
        "| value | meaning |\n|---|---|\n| `approve` | nothing to fix |\n\n"
        "1. Line 1 is exactly `verdict: ` followed by one of `approve` / `changes` / `blocked`.\n"
    ).encode()
    for kb in (1, 4, 16):
        data = (paragraph * (kb * 1024 // len(paragraph) + 1))[: kb * 1024]
        number = 2000
        estimate = min(timeit.repeat(lambda: estimate_tokens(data), number=number, repeat=max(reps, 3))) / number
        digest = min(timeit.repeat(lambda: hashlib.sha256(data).digest(), number=number, repeat=max(reps, 3))) / number
        report.estimator[kb] = (estimate * 1e6, digest * 1e6, estimate_tokens(data))
        print(f"   {kb} KB snippet: estimate {estimate * 1e6:.3f} us, sha256 {digest * 1e6:.3f} us", flush=True)


def bench_scan(tools: Tools, base: Path, files: int, reps: int, report: Report) -> None:
    """``contractc scan`` of a P-file plugin that predates contractc, paired against markdown-it-py's parse of
    the same files (issue 24: at most 2x) and the read-and-compare floor."""
    from scan_corpus import clean, restore, write_scan_corpus

    root = write_scan_corpus(base, files)
    scan = tools.contractc("contractc scan", root, "scan", ".")
    floor = Command("scan floor", (PY, str(HERE / "scan_floor.py"), str(root)), root, tools.env)
    saved = clean(root)  # fail first: both pass the clean plugin, both fail the drifted one
    try:
        for cmd in (scan, floor):
            found = captured(cmd)
            if found.returncode != 0:
                why = (found.stdout + found.stderr).strip()[-300:]
                if cmd is scan:
                    report.unavailable[f"scan P={files}"] = f"contractc scan fails the clean plugin: {why}"
                    print("   scan: not available", flush=True)
                    return
                raise SystemExit(f"the scan floor fails the clean plugin: {why}")
    finally:
        restore(saved)
    for cmd in (scan, floor):
        if captured(cmd).returncode != 1:
            raise SystemExit(f"{cmd.label} passes a plugin with drifted copies: the row would be meaningless")
    parse = Command("parse floor", (PY, str(HERE / "parse_floor.py"), str(root)), root, tools.env)
    report.scan[files] = rounds([scan, parse, floor, tools.python_pass(root)], reps, expect=None)
    for label, s in report.scan[files].items():
        print(f"   {label:28s} {s.median * 1000:8.1f} ms", flush=True)


def bench_shapes(tools: Tools, base: Path, shapes: int, reps: int, report: Report) -> None:
    """``contractc check --no-cache`` of one contract of S shapes: the cost per shape must not grow with S."""
    from shapes_corpus import write_shapes_corpus

    root = write_shapes_corpus(base / f"shapes-{shapes}", shapes)
    built = captured(tools.contractc("build", root, "build"))
    check = tools.contractc("contractc check --no-cache", root, "check", "--no-cache")
    clean = captured(check) if built.returncode == 0 else built
    if clean.returncode != 0:
        report.unavailable[f"shapes S={shapes}"] = (clean.stdout + clean.stderr).strip()[-300:]
        print("   many shapes: not available", flush=True)
        return
    report.shapes[shapes] = rounds([check, tools.python_pass(root)], reps)
    for label, s in report.shapes[shapes].items():
        print(f"   {label:28s} {s.median * 1000:8.1f} ms", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10,100,1000,5000", help="comma-separated corpus sizes N")
    parser.add_argument("--pages", default="10,100,500", help="comma-separated site sizes P")
    parser.add_argument("--scan-files", default="500,5000", help="comma-separated plugin sizes P for the scan rows")
    parser.add_argument("--shapes", default="250,1000,2000", help="comma-separated shape counts S for the many-shapes row")
    parser.add_argument("--reps", type=int, help=f"timed rounds per row (default: by N, {DEFAULT_REPS}; by site size P, {SITE_REPS})")
    parser.add_argument(
        "--out", type=Path, help="results page to write (default docs/performance.md; none with --smoke)"
    )
    parser.add_argument("--smoke", action="store_true", help="N = 10, P = 10, one round: proves the harness works")
    parser.add_argument("--keep", action="store_true", help="keep the generated corpora")
    args = parser.parse_args(argv)
    if args.smoke:
        args.sizes, args.pages, args.reps, args.scan_files, args.shapes = "10", "10", args.reps or 1, "10", "20"
    sizes = [int(s) for s in args.sizes.split(",") if s]
    pages = [int(p) for p in args.pages.split(",") if p]
    out = args.out or (None if args.smoke else REPO / "docs" / "performance.md")
    tools = Tools()
    report = Report(sizes=sizes, pages=pages)
    base = Path(tempfile.mkdtemp(prefix="contractc-bench-"))
    try:
        print("== start-up", flush=True)
        bench_startup(tools, base, max(args.reps or 31, 1), report)
        print("== context-budget estimator", flush=True)
        bench_estimator(report, args.reps or 5)
        print("== validate", flush=True)
        bench_validate(tools, max(args.reps or 15, 1), report)
        # The site rows run before the large corpora: the rewrite of N = 5000 targets frees
        # thousands of inodes, which makes new files slow on some file systems for a while.
        print(f"== site ({time.strftime('%H:%M:%S')})", flush=True)
        bench_site(tools, base, pages, args.reps, report)
        for files in (int(f) for f in args.scan_files.split(",") if f):
            print(f"== scan P = {files} ({time.strftime('%H:%M:%S')})", flush=True)
            bench_scan(tools, base, files, args.reps or 11, report)
        for count in (int(s) for s in args.shapes.split(",") if s):
            print(f"== many shapes S = {count} ({time.strftime('%H:%M:%S')})", flush=True)
            bench_shapes(tools, base, count, args.reps or 3, report)
        for n in sizes:
            reps = args.reps or DEFAULT_REPS.get(n, 5)
            corpus = write_corpus(base, n)
            bench_size(tools, corpus, reps, report)
            if n == max(sizes) and f"check N={n}" not in report.unavailable:
                bench_rewrite(tools, corpus, min(reps, 5), report)
            if not args.keep:
                shutil.rmtree(corpus.contractc)
                shutil.rmtree(corpus.cog)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print(f"corpora kept in {base}")
    text = render(report)
    print(text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, "utf-8")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
