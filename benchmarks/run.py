"""One benchmark command: the package against plain ``datasets`` / pandas, same run.

Every number is a ratio to a baseline measured in the same run, interleaved
(package, baseline, package, baseline, ...), the median over ``--repeats``
pairs. Each measurement is a whole fresh process timed from outside (imports
count); the child also reports the in-process step time (timed around the call
itself) and its peak RSS (``VmHWM``) as JSON.

Groups (``--only`` runs one):

- ``build``: cold ``hatemoji_datasets.load_dataset(name, config, cache_dir=FRESH,
  mirror=MIRROR)`` per dataset/config vs ``datasets.load_dataset("csv",
  data_files=..., cache_dir=FRESH)`` of the same upstream files from the mirror.
- ``warm``: the same two calls again on their already-built caches.
- ``cli``: ``hatemoji-datasets list | sources | --help`` (the console script)
  vs ``python -c pass``; absolute times are reported too.
- ``validate``: ``hatemoji-datasets validate FILE --dataset hatemoji_check``
  (the CLI's ``main``, released data cached by a warm-up run) on synthetic files
  from ``validate_scaling.write_contribution`` vs ``pandas.read_csv(FILE)``.

Usage: ``HATEMOJI_DATASETS_MIRROR=/path/to/mirror python benchmarks/run.py
[--repeats 5 | --quick] [--only GROUP] [--sizes 10000 100000 1000000]
[--write [--section TITLE]]``. ``--write`` replaces only the section TITLE
(default "Latest run") of ``benchmarks/RESULTS.md`` and keeps every other one.

The harness imports only the standard library (the synthetic files are written
by a child process), so its own small RSS is the floor of the peak memory
reported for the console-script rows (``cli``), which cannot report ``VmHWM``
themselves: Linux carries the parent's peak into a child's ``ru_maxrss``
across fork/exec.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PACKAGE = ROOT / "hatemoji_datasets"
RESULTS = HERE / "RESULTS.md"
MARK = "@@BENCH@@"
TIMEOUT = 1800.0

CONFIGS = [
    ("hatemoji_check", "default"),
    ("hatemoji_build", "all"),
    ("hatemoji_build", "r5"),
    ("hatemoji_build", "r6"),
    ("hatemoji_build", "r7"),
    ("apeach", "default"),
    ("apeach", "beep"),
]
# split -> checksums.tsv name of the upstream file(s) the baseline reads, per config.
BASELINE_FILES = {
    ("hatemoji_check", "default"): {"test": "test"},
    ("hatemoji_build", "all"): {"train": "train", "validation": "validation", "test": "test"},
    ("apeach", "default"): {"test": "apeach_test"},
    ("apeach", "beep"): {"train": "beep_train", "validation": "beep_dev"},
}
for _round in ("r5", "r6", "r7"):  # the rounds read the same three files as "all"
    BASELINE_FILES[("hatemoji_build", _round)] = BASELINE_FILES[("hatemoji_build", "all")]
TSV = {"delimiter": "\t", "quoting": 3}  # BEEP!: tab-separated, no quoting (csv.QUOTE_NONE)

TARGETS = {"build": 1.3, "warm": 1.1, "cli_abs": 0.1, "validate": 2.0}

# Code every measured child starts with: a clock, its peak RSS, one JSON line out.
PRELUDE = f"""
import json, sys, time
ARGS = json.loads(sys.argv[1])
def _hwm():
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
def _report(step, **extra):
    print("\\n{MARK}" + json.dumps({{"step": step, "peak_mb": _hwm(), **extra}}), flush=True)
"""

BUILD_PACKAGE = (
    PRELUDE
    + """
import datasets  # imported before the step, as the baseline does
import hatemoji_datasets
start = time.perf_counter()
data = hatemoji_datasets.load_dataset(
    ARGS["name"], ARGS["config"], cache_dir=ARGS["cache"], mirror=ARGS["mirror"]
)
step = time.perf_counter() - start
_report(step, rows=sum(split.num_rows for split in data.values()))
"""
)

BUILD_BASELINE = (
    PRELUDE
    + """
import datasets
start = time.perf_counter()
data = datasets.load_dataset("csv", data_files=ARGS["files"], cache_dir=ARGS["cache"], **ARGS["kw"])
step = time.perf_counter() - start
_report(step, rows=sum(split.num_rows for split in data.values()))
"""
)

VALIDATE_PACKAGE = (
    PRELUDE
    + """
from hatemoji_datasets.cli import main
# imports outside the step
import hatemoji_datasets.validate.contributions, hatemoji_datasets.validate.report
start = time.perf_counter()
code = main(ARGS["argv"])
step = time.perf_counter() - start
_report(step, exit_code=code)
sys.exit(code)
"""
)

VALIDATE_BASELINE = (
    PRELUDE
    + """
import pandas
start = time.perf_counter()
frame = pandas.read_csv(ARGS["file"])
step = time.perf_counter() - start
_report(step, rows=len(frame))
"""
)

GENERATE = """
import json, sys
sys.path.insert(0, {here!r})
from validate_scaling import write_contribution
args = json.loads(sys.argv[1])
for rows, path in args["files"]:
    write_contribution(path, rows, args["mirror"])
"""


# --------------------------------------------------------------------------- running children


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def run_child(cmd: list[str], env: dict[str, str], label: str) -> dict | None:
    """Run one whole process; wall time from outside, its report, peak RSS; None on failure."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=tempfile.gettempdir())
        timer = threading.Timer(TIMEOUT, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)  # rusage of this one child
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = "\n".join(stderr.strip().splitlines()[-25:]) or stdout[-2000:]
        print(f"\n[error] {label}: exit code {proc.returncode}\n{tail}\n", file=sys.stderr)
        return None
    result = {"wall": wall, "step": None, "peak_mb": usage.ru_maxrss / 1024, "peak_src": "rusage"}
    for line in reversed(stdout.splitlines()):
        if line.startswith(MARK):
            report = json.loads(line[len(MARK) :])
            result.update(report, peak_src="VmHWM")
            break
    return result


def python_child(code: str, args: dict) -> list[str]:
    return [sys.executable, "-c", code, json.dumps(args)]


def console_script() -> list[str]:
    script = Path(sys.executable).parent / "hatemoji-datasets"
    if script.exists():
        return [str(script)]
    found = shutil.which("hatemoji-datasets")
    return [found] if found else [sys.executable, "-m", "hatemoji_datasets"]


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Pairs:
    """Interleaved (package, baseline) measurements of one case."""

    def __init__(self) -> None:
        self.a: list[dict | None] = []
        self.b: list[dict | None] = []

    def add(self, a: dict | None, b: dict | None) -> None:
        self.a.append(a)
        self.b.append(b)

    @staticmethod
    def _median(runs: list[dict | None], key: str) -> float | None:
        values = [r[key] for r in runs if r is not None and r.get(key) is not None]
        return median(values) if values else None

    def wall(self, side: str) -> float | None:
        return self._median(getattr(self, side), "wall")

    def step(self, side: str) -> float | None:
        return self._median(getattr(self, side), "step")

    def peak(self, side: str) -> float | None:
        values = [r["peak_mb"] for r in getattr(self, side) if r is not None]
        return max(values) if values else None

    def extra(self, side: str, key: str) -> object:
        values = [r.get(key) for r in getattr(self, side) if r is not None]
        return values[0] if values else None

    def ratio(self) -> float | None:
        ratios = [a["wall"] / b["wall"] for a, b in zip(self.a, self.b) if a and b]
        return median(ratios) if ratios else None

    def failures(self) -> int:
        return sum(r is None for r in self.a + self.b)


# --------------------------------------------------------------------------- the groups


def upstream_files(mirror: Path) -> dict[str, dict[str, Path]]:
    """dataset -> checksums name -> mirror path, from the pinned checksums.tsv files."""
    files: dict[str, dict[str, Path]] = {}
    for dataset in {name for name, _ in CONFIGS}:
        with open(PACKAGE / "datasets" / dataset / "checksums.tsv", encoding="utf-8") as table:
            rows = csv.DictReader(table, delimiter="\t")
            files[dataset] = {row["name"]: mirror / row["url"].split("://", 1)[1] for row in rows}
    return files


def build_args(name: str, config: str, cache: str, mirror: Path, files: dict) -> tuple[dict, dict]:
    package = {"name": name, "config": config, "cache": cache, "mirror": str(mirror)}
    data_files = {
        split: str(files[name][source]) for split, source in BASELINE_FILES[name, config].items()
    }
    kw = TSV if (name, config) == ("apeach", "beep") else {}
    baseline = {"files": data_files, "cache": cache, "kw": kw}
    return package, baseline


def run_build(ctx: dict) -> tuple[dict, dict]:
    """Cold builds; returns the results and one built cache per side and config (for warm)."""
    results, caches = {}, {}
    files = upstream_files(ctx["mirror"])
    warm_up = True
    for name, config in CONFIGS:
        pairs = Pairs()
        for repeat in range(ctx["repeats"] + warm_up):
            dirs = [tempfile.mkdtemp(prefix="cold-", dir=ctx["tmp"]) for _ in range(2)]
            pkg, base = build_args(name, config, dirs[0], ctx["mirror"], files)
            base["cache"] = dirs[1]
            label = f"build {name}/{config} #{repeat}"
            progress(label)
            a = run_child(python_child(BUILD_PACKAGE, pkg), ctx["env"], f"{label} package")
            b = run_child(python_child(BUILD_BASELINE, base), ctx["env"], f"{label} baseline")
            if warm_up:  # the first pair of the whole group is untimed (file cache, .pyc)
                warm_up = False
                continue
            pairs.add(a, b)
            caches[name, config] = (dirs[0] if a else None, dirs[1] if b else None)
        results[name, config] = pairs
    return results, caches


def run_warm(ctx: dict, caches: dict) -> dict:
    results = {}
    files = upstream_files(ctx["mirror"])
    for name, config in CONFIGS:
        built = caches.get((name, config))
        if built is None:  # --only warm: build both caches once, untimed
            dirs = [tempfile.mkdtemp(prefix="warm-", dir=ctx["tmp"]) for _ in range(2)]
            pkg, base = build_args(name, config, dirs[0], ctx["mirror"], files)
            base["cache"] = dirs[1]
            progress(f"warm {name}/{config}: building caches")
            a = run_child(python_child(BUILD_PACKAGE, pkg), ctx["env"], "warm-up package")
            b = run_child(python_child(BUILD_BASELINE, base), ctx["env"], "warm-up baseline")
            built = (dirs[0] if a else None, dirs[1] if b else None)
        pkg, base = build_args(name, config, built[0] or "", ctx["mirror"], files)
        base["cache"] = built[1] or ""
        pairs = Pairs()
        for repeat in range(ctx["repeats"]):
            label = f"warm {name}/{config} #{repeat}"
            progress(label)
            a = b = None
            if built[0]:
                a = run_child(python_child(BUILD_PACKAGE, pkg), ctx["env"], f"{label} package")
            if built[1]:
                b = run_child(python_child(BUILD_BASELINE, base), ctx["env"], f"{label} baseline")
            pairs.add(a, b)
        results[name, config] = pairs
    return results


def run_cli(ctx: dict) -> dict:
    script = console_script()
    baseline = [sys.executable, "-c", "pass"]
    commands = {"list": ["list"], "sources": ["sources"], "--help": ["--help"]}
    for argv in commands.values():  # untimed warm-up
        run_child(script + argv, ctx["env"], "cli warm-up")
    results = {"floor_mb": harness_rss()}
    for command, argv in commands.items():
        pairs = Pairs()
        for repeat in range(ctx["repeats"]):
            progress(f"cli {command} #{repeat}")
            a = run_child(script + argv, ctx["env"], f"cli {command}")
            b = run_child(baseline, ctx["env"], "python -c pass")
            pairs.add(a, b)
        results[command] = pairs
    return results


def run_validate(ctx: dict) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="validate-", dir=ctx["tmp"]))
    cache = str(folder / "cache")
    files = [(rows, str(folder / f"contribution_{rows}.csv")) for rows in ctx["sizes"]]
    progress(f"validate: writing {', '.join(str(rows) for rows, _ in files)} row files")
    generate = GENERATE.format(here=str(HERE))
    made = run_child(
        python_child(generate, {"files": files, "mirror": str(ctx["mirror"])}),
        ctx["env"],
        "writing synthetic files",
    )
    if made is None:
        return {rows: (None, Pairs()) for rows, _ in files}

    def argv(path: str) -> list[str]:
        return ["validate", path, "--dataset", "hatemoji_check"] + [
            "--mirror",
            str(ctx["mirror"]),
            "--cache-dir",
            cache,
        ]

    progress("validate: warm-up (caches the released data)")
    run_child(
        python_child(VALIDATE_PACKAGE, {"argv": argv(files[0][1])}), ctx["env"], "validate warm-up"
    )
    results = {}
    for rows, path in files:
        pairs = Pairs()
        for repeat in range(ctx["repeats"]):
            label = f"validate {rows} rows #{repeat}"
            progress(label)
            a = run_child(python_child(VALIDATE_PACKAGE, {"argv": argv(path)}), ctx["env"], label)
            b = run_child(python_child(VALIDATE_BASELINE, {"file": path}), ctx["env"], label)
            pairs.add(a, b)
        results[rows] = (os.path.getsize(path) / 1e6, pairs)
    return results


# --------------------------------------------------------------------------- reporting


def num(value: float | None, digits: int = 2) -> str:
    return "error" if value is None else f"{value:.{digits}f}"


def both(a: float | None, b: float | None, digits: int = 2) -> str:
    return f"{num(a, digits)} / {num(b, digits)}"


def verdict(value: float | None, limit: float) -> str:
    if value is None:
        return "error"
    return "yes" if value <= limit else "**no**"


def failed_note(pairs: Pairs) -> str:
    count = pairs.failures()
    return f" ({count} failed)" if count else ""


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def build_table(results: dict, title: str, target: float) -> list[str]:
    rows = []
    for (name, config), pairs in results.items():
        ratio = pairs.ratio()
        rows.append(
            [
                f"{name}/{config}{failed_note(pairs)}",
                " / ".join(str(pairs.extra(side, "rows") or "error") for side in "ab"),
                num(pairs.wall("a")),
                num(pairs.wall("b")),
                num(ratio),
                f"<= {target}x",
                verdict(ratio, target),
                both(pairs.step("a"), pairs.step("b")),
                both(pairs.peak("a"), pairs.peak("b"), 0),
            ]
        )
    header = [
        "dataset/config",
        "rows (pkg / csv)",
        "package s",
        "plain datasets s",
        "ratio",
        "target",
        "met",
        "step s (pkg / csv)",
        "peak MB (pkg / csv)",
    ]
    return [f"### {title}", "", *table(header, rows), ""]


def cli_table(results: dict) -> list[str]:
    rows = []
    floor = results.pop("floor_mb")
    for command, pairs in results.items():
        wall = pairs.wall("a")
        limit = TARGETS["cli_abs"] if command in ("list", "sources") else None
        rows.append(
            [
                f"`hatemoji-datasets {command}`{failed_note(pairs)}",
                num(wall, 3),
                num(pairs.wall("b"), 3),
                num(pairs.ratio(), 1),
                f"< {limit} s" if limit else "-",
                verdict(wall, limit) if limit else "-",
                both(pairs.peak("a"), pairs.peak("b"), 0),
            ]
        )
    header = [
        "command",
        "wall s",
        "`python -c pass` s",
        "ratio",
        "target (absolute)",
        "met",
        "peak MB (cmd / pass)",
    ]
    return [
        "### CLI start-up (console script, whole process)",
        "",
        *table(header, rows),
        "",
        "Peak MB here is the child's `ru_maxrss` from `wait4`, whose floor is the harness's "
        f"own peak RSS, {floor:.0f} MB (Linux carries it across fork/exec; `python -c pass` "
        "alone peaks at about 11 MB); all other peaks are the child's own `VmHWM`.",
        "",
    ]


def slope(points: list[tuple[float, float | None]]) -> list[float | None]:
    """MB of peak memory per MB of file between consecutive sizes."""
    out: list[float | None] = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        out.append(None if y0 is None or y1 is None or x1 == x0 else (y1 - y0) / (x1 - x0))
    return out


def linearity(points: list[tuple[float, float | None]]) -> str:
    slopes = slope(points)
    if not slopes:
        return "n/a (one size)"
    if any(s is None for s in slopes):
        return "error"
    text = ", ".join(f"{s:.1f}" for s in slopes)
    first = max(slopes[0], 0.1)
    linear = len(slopes) < 2 or slopes[-1] <= 1.5 * first
    word = "linear" if linear else "**grows faster than linear**"
    return f"{word} (MB of peak per MB of file between consecutive sizes: {text})"


def validate_table(results: dict) -> list[str]:
    rows = []
    for rows_count, (size_mb, pairs) in sorted(results.items()):
        ratio = pairs.ratio()
        limit = TARGETS["validate"] if rows_count >= 1_000_000 else None  # the target is at 1M
        codes = {r.get("exit_code") for r in pairs.a if r}
        rows.append(
            [
                f"{rows_count:,}{failed_note(pairs)}",
                num(size_mb, 1),
                num(pairs.wall("a")),
                num(pairs.wall("b")),
                num(ratio),
                f"<= {limit}x" if limit else "-",
                verdict(ratio, limit) if limit else "-",
                both(pairs.step("a"), pairs.step("b")),
                both(pairs.peak("a"), pairs.peak("b"), 0),
                ", ".join(str(c) for c in sorted(codes, key=str)) or "-",
            ]
        )
    header = [
        "rows",
        "file MB",
        "validate s",
        "read_csv s",
        "ratio",
        "target",
        "met",
        "step s (validate / read_csv)",
        "peak MB (validate / read_csv)",
        "exit code",
    ]
    points = sorted(results.items())
    validate_points = [(size, pairs.peak("a")) for _, (size, pairs) in points]
    read_points = [(size, pairs.peak("b")) for _, (size, pairs) in points]
    return [
        "### `validate` vs `pandas.read_csv` (whole processes)",
        "",
        *table(header, rows),
        "",
        f"- Memory of `validate`: {linearity(validate_points)}.",
        f"- Memory of `read_csv`: {linearity(read_points)}.",
        "- Rule: linear when the last slope is at most 1.5x the first. Target: memory linear.",
        "",
    ]


def machine() -> list[str]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    ram = "unknown"
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            kb = int(next(line.split()[1] for line in info if line.startswith("MemTotal")))
            ram = f"{kb / 1024**2:.1f} GiB"
    except (OSError, StopIteration):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()

    import importlib.metadata  # late: it costs the harness ~5 MB of RSS

    def version(dist: str) -> str:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    def git(*args: str) -> str:
        try:
            out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
            return out.stdout.strip()
        except OSError:
            return ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    package = git("log", "-1", "--format=%h", "--", "hatemoji_datasets") or "unknown"
    commit = f"package code at {package} (HEAD {head})"
    if git("status", "--porcelain", "--", "hatemoji_datasets"):
        commit += ", with uncommitted package changes"
    libs = ", ".join(
        f"{dist} {version(dist)}" for dist in ("hatemoji-datasets", "datasets", "pyarrow", "pandas")
    )
    return [
        f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {commit}",
        f"- CPU: {cpu}; {os.cpu_count()} logical cores ({usable} usable); RAM {ram}",
        f"- {platform.platform()}; Python {platform.python_version()}",
        f"- {libs}",
    ]


def harness_rss() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def write_section(title: str, body: list[str]) -> None:
    begin, end = f"<!-- section: {title} -->", f"<!-- end section: {title} -->"
    block = "\n".join([begin, f"## {title}", "", *body, end])
    if RESULTS.exists():
        text = RESULTS.read_text(encoding="utf-8")
    else:
        text = (
            "# Benchmark results\n\n"
            "Written by `python benchmarks/run.py --write [--section TITLE]`. A run replaces\n"
            'only its own section (default "Latest run"); every other section is kept.\n'
        )
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    RESULTS.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="pairs per case (default 5)")
    parser.add_argument("--quick", action="store_true", help="1 repeat; validate 10k and 100k")
    parser.add_argument("--only", choices=("build", "warm", "cli", "validate"))
    parser.add_argument("--sizes", type=int, nargs="+", help="validate rows (10k 100k 1M)")
    parser.add_argument("--mirror", default=os.environ.get("HATEMOJI_DATASETS_MIRROR"))
    parser.add_argument("--write", action="store_true", help="write benchmarks/RESULTS.md")
    parser.add_argument("--section", default="Latest run", help="RESULTS.md section to replace")
    args = parser.parse_args()
    if not args.mirror:
        sys.exit("set HATEMOJI_DATASETS_MIRROR (or --mirror) to the offline mirror")
    repeats = 1 if args.quick else args.repeats
    sizes = args.sizes or ([10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000])
    groups = [args.only] if args.only else ["build", "warm", "cli", "validate"]
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="hatemoji-bench-") as tmp:
        env = dict(os.environ)
        env.pop("HATEMOJI_DATASETS_MIRROR", None)  # both sides get the mirror explicitly
        env.update(
            HF_HOME=str(Path(tmp) / "hf-home"),  # no shared ~/.cache between runs
            HF_HUB_OFFLINE="1",
            HF_DATASETS_OFFLINE="1",
        )
        ctx = {
            "mirror": Path(args.mirror).resolve(),
            "repeats": repeats,
            "sizes": sizes,
            "tmp": tmp,
            "env": env,
        }
        out: list[str] = []
        caches: dict = {}
        if "build" in groups:
            build, caches = run_build(ctx)
            out += build_table(build, "Cold build vs plain `datasets` csv", TARGETS["build"])
        if "warm" in groups:
            warm = run_warm(ctx, caches)
            out += build_table(warm, "Warm load vs plain `datasets` csv", TARGETS["warm"])
        if "cli" in groups:
            out += cli_table(run_cli(ctx))
        if "validate" in groups:
            out += validate_table(run_validate(ctx))
    elapsed = time.perf_counter() - began
    body = [
        *machine(),
        f"- Command: `python benchmarks/run.py {shlex.join(sys.argv[1:])}`; "
        f"median of {repeats} interleaved pairs; whole run {elapsed / 60:.1f} min; "
        f"harness peak RSS {harness_rss():.0f} MB",
        "- Times are wall seconds of whole processes (imports count), medians; ratio is the "
        "median of per-pair ratios; step = in-process time around the call itself (the "
        "package's step includes what it imports lazily inside the call).",
        "",
        *out,
    ]
    print("\n".join(body))
    if args.write:
        write_section(args.section, body)
        print(f"\nwrote section {args.section!r} of {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
