"""Soak: `validate` on unreadable inputs, many times, each in a fresh process.

Before the reliability work, a pyarrow worker thread still holding a Python
callback aborted the interpreter at exit (status 134) in about 1 run of 10.
This runs the unreadable-input cases ``--runs`` times (two at a time) and
prints how often each exit status came back; every run must exit 2.

Usage: ``python benchmarks/abort_soak.py [--runs 300]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder)
        (tree / "empty.csv").write_bytes(b"")
        (tree / "folder.csv").mkdir()
        (tree / "latin1.csv").write_bytes(b"case_id,text\n1,caf\xe9\n")
        (tree / "short.csv").write_text("case_id,text\n1\n2,b,c\n")
        names = ["empty.csv", "folder.csv", "latin1.csv", "short.csv", "missing.csv"]
        command = [sys.executable, "-m", "hatemoji_datasets", "validate", *names]
        command += ["--dataset", "hatemoji_check"]

        def run(_: int) -> int:
            return subprocess.run(command, cwd=tree, capture_output=True).returncode

        with ThreadPoolExecutor(max_workers=2) as pool:
            statuses = Counter(pool.map(run, range(args.runs)))
    print(f"{args.runs} runs, exit statuses: {dict(sorted(statuses.items()))}")
    return 0 if set(statuses) == {2} else 1


if __name__ == "__main__":
    raise SystemExit(main())
