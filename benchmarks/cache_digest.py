"""What the cache's digest check costs a warm load: the package against plain ``datasets``.

Every warm ``hatemoji_datasets.load_dataset`` hashes the build's files and
compares them with its manifest (``hatemoji_datasets.building.manifest.check``)
before ``datasets`` reads them. :func:`measure_warm_loads` times, per config,
three whole fresh processes on caches built once (untimed), interleaved in each
round and repeated:

- ``checked``: the package's warm load, digests checked, as users run it
  (``children/load_package.py``);
- ``unchecked``: the same with the check switched off in the child, for the
  check's own share (``children/load_unchecked.py``);
- ``plain``: plain ``datasets.load_dataset("csv", ...)`` of the same upstream
  files, warm (``children/load_plain.py``, ``benchmarks/run.py``'s warm baseline).

Times are medians; ratios are medians of per-round ratios (``report.Pairs``).
Usage::

    HATEMOJI_DATASETS_MIRROR=/path/to/mirror python benchmarks/cache_digest.py \\
        [--repeats 5] [--only NAME/CONFIG ...]

Without ``--only``, every config that ``run.py``'s warm group loads. Standard library
and the harness only, like ``run.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from processes import FAILED, byte_compile, child, progress, run_child
from report import Pairs, Run, num, table
from run import build_caches, child_env, list_configs, load_args


@dataclass
class WarmLoad:
    """One config's rounds, as the three pairings of the same processes."""

    name: str
    config: str
    vs_plain: Pairs = field(default_factory=Pairs)  # checked, plain
    unchecked_vs_plain: Pairs = field(default_factory=Pairs)  # unchecked, plain
    check_cost: Pairs = field(default_factory=Pairs)  # checked, unchecked

    def add(self, checked: dict | None, unchecked: dict | None, plain: dict | None) -> None:
        self.vs_plain.add(checked, plain)
        self.unchecked_vs_plain.add(unchecked, plain)
        self.check_cost.add(checked, unchecked)

    def row(self) -> list[str]:
        # Seconds as run.py's tables show them; ratios to 3 digits, as the check's
        # share of a whole process is a few thousandths of it.
        walls = (self.vs_plain.wall("a"), self.check_cost.wall("b"), self.vs_plain.wall("b"))
        ratios = (self.vs_plain, self.unchecked_vs_plain, self.check_cost)
        failed = self.vs_plain.failures() + sum(r is None for r in self.check_cost.b)
        return [
            f"{self.name}/{self.config}{f' ({failed} failed)' if failed else ''}",
            *(num(wall) for wall in walls),
            *(num(pairs.ratio(), 3) for pairs in ratios),
        ]


HEADER = [
    "config",
    "checked s",
    "unchecked s",
    "plain datasets s",
    "checked / datasets",
    "unchecked / datasets",
    "checked / unchecked",
]


def measure_warm_loads(run: Run, entries: list[dict]) -> list[WarmLoad]:
    """Per config (``run.list_configs`` entries): both caches built once, untimed, then
    ``run.repeats`` rounds of checked, unchecked and plain warm loads."""
    results = []
    for entry in entries:
        loads = WarmLoad(entry["name"], entry["config"])
        results.append(loads)
        package_cache, plain_cache = build_caches(run, entry, "digest")
        if package_cache is None or plain_cache is None:  # run_child said why
            continue
        mine, plain = load_args(entry, run, (package_cache, plain_cache))
        for repeat in range(run.repeats):
            label = f"digest {loads.name}/{loads.config} #{repeat}"
            progress(label)
            loads.add(
                run_child(child("load_package.py", mine), run.env, f"{label} checked"),
                run_child(child("load_unchecked.py", mine), run.env, f"{label} unchecked"),
                run_child(child("load_plain.py", plain), run.env, f"{label} plain"),
            )
    return results


def pick(run: Run, only: list[str] | None) -> list[dict]:
    """The configs named ``NAME/CONFIG`` (all of them without ``--only``), in their order."""
    entries = list_configs(run)
    if not only:
        return entries
    known = {f"{entry['name']}/{entry['config']}": entry for entry in entries}
    unknown = [name for name in only if name not in known]
    if unknown:
        sys.exit(f"no such config: {', '.join(unknown)} (known: {', '.join(known)})")
    return [known[name] for name in dict.fromkeys(only)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="rounds per config (default 5)")
    parser.add_argument(
        "--only", nargs="+", metavar="NAME/CONFIG", help="these configs (default: every one)"
    )
    parser.add_argument(
        "--mirror",
        default=os.environ.get("HATEMOJI_DATASETS_MIRROR"),
        help="the offline mirror (default: $HATEMOJI_DATASETS_MIRROR)",
    )
    args = parser.parse_args()
    if not args.mirror:
        sys.exit("set HATEMOJI_DATASETS_MIRROR (or --mirror) to the offline mirror")
    with tempfile.TemporaryDirectory(prefix="hatemoji-digest-") as tmp:
        env = child_env(tmp)
        # As run.py does: both sides then load their code from bytecode.
        if not byte_compile(env):
            progress("the package could not be byte-compiled: its children compile it")
        run = Run(Path(args.mirror).resolve(), args.repeats, [], [], tmp, env, smoke=False)
        results = measure_warm_loads(run, pick(run, args.only))
    print("\n".join(table(HEADER, [loads.row() for loads in results])))
    if FAILED:  # a failed child is no measurement: say so by the exit status too
        sys.exit(f"{len(FAILED):,} measurement(s) failed: {', '.join(FAILED[:5])}")


if __name__ == "__main__":
    main()
