"""What the cache's digest check costs a warm load: the package against plain ``datasets``.

Every warm ``hatemoji_datasets.load_dataset`` hashes the build's files and
compares them with its manifest (``hatemoji_datasets.building.manifest``)
before ``datasets`` reads them. :func:`measure_warm_loads` times, per config,
three whole fresh processes on already-built caches, interleaved in each
round and repeated:

- ``checked``: the package's warm load, digests checked (what users run);
- ``unchecked``: the same with the check switched off in the child (to see
  the check's own share);
- ``baseline``: plain ``datasets.load_dataset("csv", ...)`` of the same upstream
  files, warm (``benchmarks/run.py``'s warm baseline).

Ratios are medians of per-round ratios. ``benchmarks/run.py`` (the performance
issue's harness) can call :func:`measure_warm_loads` with its own ``ctx``
pieces; run alone::

    HATEMOJI_DATASETS_MIRROR=/path/to/mirror python benchmarks/cache_digest.py [--repeats 5]

Imports only the standard library and ``run.py``'s harness.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import (  # noqa: E402 - the harness lives beside this file
    BUILD_BASELINE,
    BUILD_PACKAGE,
    CONFIGS,
    build_args,
    median,
    progress,
    python_child,
    run_child,
    upstream_files,
)

#: The package's warm load with the digest check switched off (for the check's share only).
UNCHECKED_PACKAGE = BUILD_PACKAGE.replace(
    "import hatemoji_datasets\n",
    "import hatemoji_datasets\n"
    "from hatemoji_datasets.building import manifest\n"
    "manifest.check = lambda *args, **kwargs: None\n",
    1,
)
assert UNCHECKED_PACKAGE != BUILD_PACKAGE, "run.py's BUILD_PACKAGE changed its imports"


@dataclass
class WarmLoad:
    """Wall seconds (medians) of one config's warm loads, and the ratios between them."""

    name: str
    config: str
    checked: list[float] = field(default_factory=list)
    unchecked: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)

    def _ratio(self, top: list[float], bottom: list[float]) -> float | None:
        ratios = [a / b for a, b in zip(top, bottom, strict=False) if a and b]
        return median(ratios) if ratios else None

    @property
    def vs_datasets(self) -> float | None:
        """Checked warm load / plain ``datasets`` warm load (the 1.05x target)."""
        return self._ratio(self.checked, self.baseline)

    @property
    def unchecked_vs_datasets(self) -> float | None:
        return self._ratio(self.unchecked, self.baseline)

    @property
    def check_cost(self) -> float | None:
        """Checked / unchecked: what the digest check adds to a whole process."""
        return self._ratio(self.checked, self.unchecked)


def measure_warm_loads(
    mirror: Path,
    *,
    repeats: int = 5,
    configs: Iterable[tuple[str, str]] = CONFIGS,
    env: dict[str, str] | None = None,
    tmp: str | None = None,
) -> list[WarmLoad]:
    """Per config: build both caches once (untimed), then ``repeats`` interleaved rounds of
    checked, unchecked and baseline warm loads, each a whole fresh process."""
    env = env or _quiet_env(tmp or tempfile.gettempdir())
    files = upstream_files(mirror)
    results = []
    for name, config in configs:
        dirs = [tempfile.mkdtemp(prefix="digest-", dir=tmp) for _ in range(2)]
        package, baseline = build_args(name, config, dirs[0], mirror, files)
        baseline["cache"] = dirs[1]
        progress(f"digest {name}/{config}: building caches")
        built = run_child(python_child(BUILD_PACKAGE, package), env, "build package")
        built_base = run_child(python_child(BUILD_BASELINE, baseline), env, "build baseline")
        loads = WarmLoad(name, config)
        if built is None or built_base is None:
            results.append(loads)
            continue
        for repeat in range(repeats):
            progress(f"digest {name}/{config} #{repeat}")
            runs = (
                (loads.checked, BUILD_PACKAGE, package),
                (loads.unchecked, UNCHECKED_PACKAGE, package),
                (loads.baseline, BUILD_BASELINE, baseline),
            )
            for times, code, args in runs:
                done = run_child(python_child(code, args), env, f"{name}/{config}")
                times.append(done["wall"] if done else 0.0)
        results.append(loads)
    return results


def _quiet_env(tmp: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("HATEMOJI_DATASETS_MIRROR", None)  # both sides get the mirror explicitly
    env.update(HF_HOME=str(Path(tmp) / "hf-home"), HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    return env


def table(results: list[WarmLoad]) -> list[str]:
    def num(value: float | None, digits: int = 3) -> str:
        return "error" if value is None else f"{value:.{digits}f}"

    lines = [
        "| config | checked s | unchecked s | plain datasets s | checked / datasets "
        "| unchecked / datasets | checked / unchecked |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        walls = [median(t) if t else None for t in (r.checked, r.unchecked, r.baseline)]
        lines.append(
            f"| {r.name}/{r.config} | "
            + " | ".join(num(w, 2) for w in walls)
            + f" | {num(r.vs_datasets)} | {num(r.unchecked_vs_datasets)} | {num(r.check_cost)} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--mirror", default=os.environ.get("HATEMOJI_DATASETS_MIRROR"))
    args = parser.parse_args()
    if not args.mirror:
        sys.exit("set HATEMOJI_DATASETS_MIRROR (or --mirror) to the offline mirror")
    with tempfile.TemporaryDirectory(prefix="hatemoji-digest-") as tmp:
        results = measure_warm_loads(Path(args.mirror).resolve(), repeats=args.repeats, tmp=tmp)
    print("\n".join(table(results)))


if __name__ == "__main__":
    main()
