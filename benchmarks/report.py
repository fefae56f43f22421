"""The harness's bookkeeping and tables: pairs of measurements, their medians, the targets.

Standard library only, like the harness (``benchmarks/run.py``).
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

#: The targets of issue 26, as ratios to the same-run baseline (``*_mb``: megabytes;
#: ``cli``, issue 19's: seconds).
TARGETS = {
    "build": 1.2,
    "warm": 1.05,
    "validate_small": 1.3,
    "validate_large": 1.5,
    "validate_large_memory": 1.25,
    "validate_huge_memory": 1.1,  # of validate's own peak at the large size
    "validate_huge_mb": 800,
    "peer": 0.15,
    "mhc_mb": 2048,
    "cli": 0.1,
    "leaderboard": 1.0,
}
#: The sizes (rows) the validate figures are stated at, by role; a smoke run's stand-ins.
ROLES = {"small": 10_000, "peer": 200_000, "large": 1_000_000, "huge": 4_000_000}
SMOKE_ROLES = {"small": 1_000, "peer": 2_000, "large": 5_000, "huge": 20_000}


@dataclass
class Run:
    """What every group of one run shares."""

    mirror: Path
    repeats: int
    sizes: list[int]
    peer_sizes: list[int]
    tmp: str
    env: dict[str, str]
    smoke: bool
    #: Rows of the validate figures, by role (``ROLES``, or ``SMOKE_ROLES``).
    roles: dict[str, int] = field(default_factory=lambda: dict(ROLES))
    #: The Multilingual HateCheck contribution: its size, and its children's limits.
    mhc_mb: float = 500.0
    mhc_timeout: float = 600.0
    mhc_cap_mb: float = 8192.0
    #: Every config with the files it reads, once asked (``run.list_configs``).
    configs: list[dict] | None = None


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


class Pairs:
    """Interleaved (package, baseline) measurements of one case."""

    def __init__(self) -> None:
        self.a: list[dict | None] = []
        self.b: list[dict | None] = []

    def add(self, a: dict | None, b: dict | None) -> None:
        self.a.append(a)
        self.b.append(b)

    def _median(self, side: str, key: str) -> float | None:
        values = [r[key] for r in getattr(self, side) if r is not None and r.get(key) is not None]
        return median(values) if values else None

    def wall(self, side: str) -> float | None:
        return self._median(side, "wall")

    def step(self, side: str) -> float | None:
        return self._median(side, "step")

    def peak(self, side: str) -> float | None:
        values = [r["peak_mb"] for r in getattr(self, side) if r is not None]
        return max(values) if values else None

    def peak_median(self, side: str) -> float | None:
        return self._median(side, "peak_mb")

    def extra(self, side: str, key: str) -> object:
        values = [r.get(key) for r in getattr(self, side) if r is not None]
        return values[0] if values else None

    def ratio(self, key: str = "wall") -> float | None:
        ratios = [a[key] / b[key] for a, b in zip(self.a, self.b) if a and b and b[key]]
        return median(ratios) if ratios else None

    def failures(self) -> int:
        return sum(r is None for r in self.a + self.b)


# --------------------------------------------------------------------------- formatting


def num(value: float | None, digits: int = 2) -> str:
    return "error" if value is None else f"{value:,.{digits}f}"


def row_count(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else "error"


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


def spread(values: list[float | None]) -> tuple[str, float | None]:
    """``"1.02–1.09x"`` and the worst value, over the measured values."""
    known = [v for v in values if v is not None]
    if not known:
        return "error", None
    low, high = min(known), max(known)
    text = f"{low:.2f}x" if round(low, 2) == round(high, 2) else f"{low:.2f}–{high:.2f}x"
    return text + (" (some failed)" if len(known) < len(values) else ""), high


# --------------------------------------------------------------------------- the tables


def build_table(results: dict, title: str, group: str) -> list[str]:
    target = TARGETS[group]
    rows = []
    for (name, config, validate), pairs in results.items():
        ratio = pairs.ratio()
        rows.append(
            [
                f"{name}/{config}{' (validate=True)' if validate else ''}{failed_note(pairs)}",
                " / ".join(row_count(pairs.extra(side, "rows")) for side in "ab"),
                num(pairs.wall("a")),
                num(pairs.wall("b")),
                num(ratio),
                "-" if validate else f"<= {target}x",
                "-" if validate else verdict(ratio, target),
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
    for command, pairs in results.items():
        wall = pairs.wall("a")
        rows.append(
            [
                f"`hatemoji-datasets {command}`{failed_note(pairs)}",
                num(wall, 3),
                num(pairs.wall("b"), 3),
                num(pairs.ratio(), 1),
                f"< {TARGETS['cli']} s",
                verdict(wall, TARGETS["cli"]),
                both(pairs.peak("a"), pairs.peak("b"), 0),
            ]
        )
    header = ["command", "wall s", "`python -c pass` s", "ratio", "target", "met", "peak MB"]
    return [
        "### CLI start-up (console script, whole process)",
        "",
        *table(header, rows),
        "",
        "Peak MB here is the child's `ru_maxrss` from `wait4`, whose floor is the harness's "
        "own peak RSS (Linux carries it across fork/exec); the other tables' peaks are the "
        "child's own `VmHWM`, but for frictionless (`ru_maxrss` too).",
        "",
    ]


def leaderboard_table(pairs: Pairs) -> list[str]:
    ratio = pairs.ratio()
    target = TARGETS["leaderboard"]
    row = [
        f"{row_count(pairs.extra('a', 'runs'))} runs, "
        f"{row_count(pairs.extra('a', 'rows'))} predictions{failed_note(pairs)}",
        num(pairs.wall("a")),
        num(pairs.wall("b")),
        num(ratio),
        f"<= {target}x",
        verdict(ratio, target),
        both(pairs.step("a"), pairs.step("b")),
        both(pairs.peak("a"), pairs.peak("b"), 0),
    ]
    header = [
        "runs",
        "leaderboard s",
        "plain loop s",
        "ratio",
        "target",
        "met",
        "step s (pkg / loop)",
        "peak MB (pkg / loop)",
    ]
    return [
        "### Leaderboard vs the plain loop (`read_csv` + scikit-learn per run)",
        "",
        *table(header, [row]),
        "",
    ]


def targets_table(found: dict, validate_rows: list[list[str]]) -> list[str]:
    """Every figure of the issue's targets table, from this run, side by side (the
    validate group's rows from ``validate_report.validate_figures``)."""
    rows = []
    for group, what in (("build", "cold build, every config"), ("warm", "warm load, every config")):
        if group in found:
            ratios = [p.ratio() for (_, _, validate), p in found[group].items() if not validate]
            text, worst = spread(ratios)
            rows.append([what, text, f"<= {TARGETS[group]}x", verdict(worst, TARGETS[group])])
    rows += validate_rows
    if "leaderboard" in found:
        ratio = found["leaderboard"].ratio()
        target = TARGETS["leaderboard"]
        rows.append(
            [
                f"leaderboard, {row_count(found['leaderboard'].extra('a', 'runs'))} MHC runs",
                f"{num(ratio)}x",
                f"<= {target}x",
                verdict(ratio, target),
            ]
        )
    for command, pairs in found.get("cli", {}).items():
        wall = pairs.wall("a")
        rows.append(
            [
                f"`{command}`",
                f"{num(wall, 3)} s",
                f"< {TARGETS['cli']} s",
                verdict(wall, TARGETS["cli"]),
            ]
        )
    if not rows:
        return []
    return [
        "### Targets (this run)",
        "",
        *table(["figure", "measured", "target", "met"], rows),
        "",
    ]


# --------------------------------------------------------------------------- the machine


def harness_rss() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def machine(root: Path) -> list[str]:
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
            out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
            return out.stdout.strip()
        except OSError:
            return ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    package = git("log", "-1", "--format=%h", "--", "hatemoji_datasets") or "unknown"
    commit = f"package code at {package} (HEAD {head})"
    if git("status", "--porcelain", "--", "hatemoji_datasets"):
        commit += ", with uncommitted package changes"
    dists = ("hatemoji-datasets", "datasets", "pyarrow", "pandas", "pandera", "frictionless")
    libs = ", ".join(f"{dist} {version(dist)}" for dist in dists)
    return [
        f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {commit}",
        f"- CPU: {cpu}; {os.cpu_count()} logical cores ({usable} usable); RAM {ram}",
        f"- {platform.platform()}; Python {platform.python_version()}",
        f"- {libs}",
    ]


def write_section(results: Path, title: str, body: list[str]) -> None:
    """Replace section ``title`` of ``results`` (or append it), keeping every other one."""
    begin, end = f"<!-- section: {title} -->", f"<!-- end section: {title} -->"
    block = "\n".join([begin, f"## {title}", "", *body, end])
    if results.exists():
        text = results.read_text(encoding="utf-8")
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
    results.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
