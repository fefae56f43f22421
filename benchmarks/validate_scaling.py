"""Benchmark: `validate` against a bare `pandas.read_csv` of the same file.

Writes synthetic HatemojiCheck contributions of 10k, 100k and 1M rows, built by
recombining real rows from the mirror (each text joined with another of the
same kind, so every row is new and valid, with unique ids), then times, in
fresh child processes so peak memory is per measurement:

- ``read_csv``: ``pandas.read_csv(path)``, the baseline;
- ``validate``: ``validate_contributions([path], "hatemoji_check")``;
- ``naive emoji``: one ``emoji.emoji_count`` call per row (the approach the
  vectorised emoji rule replaces), for scale.

``write_contribution`` and ``write_repeated_row`` (one released row of a
dataset's upstream file repeated to a size) also write the files of
``benchmarks/run.py``'s validate group.

Prints the best of ``--repeats`` wall times, the ratio to ``read_csv`` and
peak RSS. Usage: ``python benchmarks/validate_scaling.py [--sizes 10000 100000
1000000] [--repeats 3]`` with ``HATEMOJI_DATASETS_MIRROR`` set.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd


def write_contribution(path: Path, rows: int, mirror: str) -> None:
    from hatemoji_datasets.core.registry import dataset_spec
    from hatemoji_datasets.sources.settings import resolve_url

    url = dataset_spec("hatemoji_check").source_files()["test"].url
    released = pd.read_csv(resolve_url(url, mirror), dtype=str, keep_default_na=False)
    rng = np.random.default_rng(0)
    base = released.iloc[rng.integers(0, len(released), rows)].reset_index(drop=True)
    # Join each text with another of the same kind: no-emoji cases stay emoji-free.
    no_emoji = released["set"] == "no_emoji_perturb"
    pools = {True: released.loc[no_emoji, "text"].to_numpy(), False: released["text"].to_numpy()}
    extra = np.empty(rows, dtype=object)
    for kind, pool in pools.items():
        mask = (base["set"] == "no_emoji_perturb").to_numpy() == kind
        extra[mask] = pool[rng.integers(0, len(pool), mask.sum())]
    base["text"] = base["text"] + " and " + pd.Series(extra)
    base["case_id"] = (np.arange(rows) + 100_000).astype(str)
    base.to_csv(path, index=False)


def write_repeated_row(
    folder: Path, megabytes: float, mirror: str, dataset: str, source: str
) -> dict[str, object]:
    """A contribution of one released row repeated, named like the upstream file ``source``.

    Keeps that file's header and repeats its first row that is one line long until
    the file is about ``megabytes``; beside it, under ``alone/``, the same header and
    row once. Returns both paths and the big file's rows.
    """
    import csv
    import io
    from urllib.parse import unquote

    from hatemoji_datasets.core.registry import dataset_spec
    from hatemoji_datasets.sources.settings import resolve_url

    url = dataset_spec(dataset).source_files()[source].url
    lines = Path(resolve_url(url, mirror)).read_bytes().splitlines(keepends=True)
    header = lines[0] if lines[0].endswith(b"\n") else lines[0] + b"\n"
    width = len(next(csv.reader(io.StringIO(header.decode("utf-8")))))

    def one_record(line: bytes) -> bool:
        try:
            records = list(csv.reader(io.StringIO(line.decode("utf-8")), strict=True))
        except (csv.Error, UnicodeDecodeError):
            return False
        return len(records) == 1 and len(records[0]) == width

    row = next(line for line in lines[1:] if line.endswith(b"\n") and one_record(line))
    name = unquote(url.rsplit("/", 1)[1])
    alone = folder / "alone" / name
    alone.parent.mkdir(parents=True, exist_ok=True)
    alone.write_bytes(header + row)
    rows = max(1, int(megabytes * 1e6 - len(header)) // len(row))
    path = folder / name
    chunk = 10_000
    with path.open("wb") as out:
        out.write(header)
        for start in range(0, rows, chunk):
            out.write(row * min(chunk, rows - start))
    return {"path": str(path), "alone": str(alone), "rows": rows}


def measure(kind: str, path: str) -> dict[str, float]:
    """Run one measurement in this (child) process."""
    if kind == "validate":
        from hatemoji_datasets.validate.contributions import validate_contributions

        def run() -> object:
            report = validate_contributions([path], "hatemoji_check")
            assert report.exit_code == 0, report.violations[:5]
            return report
    elif kind == "naive emoji":
        import emoji

        def run() -> object:
            texts = pd.read_csv(path, dtype=str, keep_default_na=False)["text"]
            return sum(emoji.emoji_count(text) > 0 for text in texts)
    else:

        def run() -> object:
            return pd.read_csv(path)

    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "peak_mb": _peak_rss_mb()}


def _peak_rss_mb() -> float:
    # VmHWM belongs to this process image; ru_maxrss would carry over the parent's
    # peak across fork and exec on Linux.
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(kind: str, path: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--measure", kind, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--naive", action="store_true", help="also time the naive emoji pass")
    parser.add_argument("--measure", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(*args.measure)))
        return
    mirror = os.environ.get("HATEMOJI_DATASETS_MIRROR")
    if not mirror:
        sys.exit("set HATEMOJI_DATASETS_MIRROR to the offline mirror of the upstream files")
    kinds = ["read_csv", "validate"] + (["naive emoji"] if args.naive else [])
    print(f"{'rows':>9} {'MB':>6} {'kind':>12} {'best s':>8} {'x read_csv':>10} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for rows in args.sizes:
            path = Path(folder) / f"contribution_{rows}.csv"
            write_contribution(path, rows, mirror)
            size_mb = path.stat().st_size / 1e6
            results = {}
            for kind in kinds:
                runs = [child(kind, path) for _ in range(args.repeats)]
                results[kind] = {
                    "seconds": min(r["seconds"] for r in runs),
                    "peak_mb": max(r["peak_mb"] for r in runs),
                }
            baseline = results["read_csv"]["seconds"]
            for kind, result in results.items():
                print(
                    f"{rows:>9,} {size_mb:>6.1f} {kind:>12} {result['seconds']:>8.2f} "
                    f"{result['seconds'] / baseline:>10.1f} {result['peak_mb']:>8.0f}"
                )


if __name__ == "__main__":
    main()
