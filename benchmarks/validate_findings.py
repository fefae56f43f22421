"""Benchmark: `validate` of a contribution where every row is a finding, in text and JSON.

Writes a HatemojiCheck contribution of ``--rows`` rows that repeat the released
rows (``test.csv`` from the mirror, cycled) under new ids, so that every row is
a ``RELEASE-REPEATED-TEXT``: the issue 46 case. Then runs whole
``python -m hatemoji_datasets validate FILE --dataset hatemoji_check
[--format json]`` processes, standard output to a file, and reports each one's
wall time, peak RSS (``ru_maxrss`` from ``wait4``; the harness stays at about
15 MB, below any child) and the totals it printed: the summary line, or the
JSON report's counts and how many findings it lists.

``--before TREE`` also measures the package in ``TREE`` (a copy of another
commit's ``hatemoji_datasets/``, put first on ``PYTHONPATH``), e.g.
``git archive main hatemoji_datasets | tar -x -C /tmp/before``. A child past
``--cap-mb`` of memory is stopped, and that is its result.

Usage: ``python benchmarks/validate_findings.py [--rows 2000000] [--before TREE]``
with ``HATEMOJI_DATASETS_MIRROR`` set.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TEST_CSV = "HannahKirk/Hatemoji/a626f63216158748d072e581efc00267031f4404/HatemojiCheck/test.csv"
SUMMARY = re.compile(r"^([\d,]+) error\(s\), ([\d,]+) warning\(s\) in ")


def write_repeats(path: Path, rows: int, mirror: str) -> None:
    """Released rows, cycled, under new ids (streamed: the harness stays small)."""
    source = Path(mirror, "raw.githubusercontent.com", TEST_CSV)
    with source.open(encoding="utf-8", newline="") as released:
        header, *records = list(csv.reader(released))
    key = header.index("case_id")
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        for row in range(rows):
            record = list(records[row % len(records)])
            record[key] = str(100_000 + row)
            writer.writerow(record)


def totals(output: Path) -> dict[str, int | None]:
    """Errors, warnings (and for JSON, findings listed) as the report states them."""
    with output.open(encoding="utf-8") as printed:
        first = printed.read(1)
        printed.seek(0)
        if first == "{":
            head, listed = "", 0
            for line in printed:
                if len(head) < 4000:
                    head += line
                listed += line == "    {\n"  # a finding: an object two levels in
            counts = dict(re.findall(r'^  "(errors|warnings)": (\d+),$', head, re.M))
            errors, warnings = counts.get("errors"), counts.get("warnings")
            return {
                "errors": None if errors is None else int(errors),
                "warnings": None if warnings is None else int(warnings),
                "listed": listed,
            }
        last = ""
        for line in printed:
            if SUMMARY.match(line):
                last = line
    found = SUMMARY.match(last)
    if not found:
        return {"errors": None, "warnings": None}
    errors, warnings = (int(group.replace(",", "")) for group in found.groups())
    return {"errors": errors, "warnings": warnings}


def run(command: list[str], env: dict[str, str], output: Path, cap_mb: float) -> dict:
    """One whole process: wall seconds, peak MB, exit code (or why it was stopped)."""
    with output.open("wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.DEVNULL, env=env, cwd=output.parent
        )
        stopped: list[str] = []
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.25):
                try:
                    with open(f"/proc/{proc.pid}/status", encoding="ascii") as status:
                        hwm = next((x for x in status if x.startswith("VmHWM:")), None)
                except OSError:
                    return
                if hwm and int(hwm.split()[1]) / 1024 > cap_mb:
                    stopped.append(f"stopped over {cap_mb:,.0f} MB")
                    proc.kill()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        _, status, usage = os.wait4(proc.pid, 0)
        done.set()
        watcher.join()
    return {
        "seconds": round(time.perf_counter() - start, 1),
        "peak_mb": round(usage.ru_maxrss / 1024),
        "exit_code": os.waitstatus_to_exitcode(status),
        **({"stopped": stopped[0]} if stopped else {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--before", help="a tree holding another commit's hatemoji_datasets/")
    parser.add_argument("--cap-mb", type=float, default=6000.0)
    parser.add_argument("--formats", nargs="+", default=["text", "json"])
    args = parser.parse_args()
    mirror = os.environ.get("HATEMOJI_DATASETS_MIRROR")
    if not mirror:
        sys.exit("set HATEMOJI_DATASETS_MIRROR to the offline mirror of the upstream files")
    trees = {"after": None, **({"before": args.before} if args.before else {})}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "repeats.csv")
        write_repeats(path, args.rows, mirror)
        size_mb = path.stat().st_size / 1e6
        print(f"{args.rows:,} rows, {size_mb:,.0f} MB", file=sys.stderr)
        for fmt in args.formats:
            for label, tree in trees.items():
                env = dict(os.environ)
                if tree:
                    env["PYTHONPATH"] = os.pathsep.join([tree, env.get("PYTHONPATH", "")])
                command = [sys.executable, "-m", "hatemoji_datasets", "validate", str(path)]
                command += ["--dataset", "hatemoji_check", "--format", fmt]
                output = Path(folder, "report.out")
                result = run(command, env, output, args.cap_mb)
                result.update(totals(output), format=fmt, code=label, rows=args.rows)
                output.unlink()
                print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
