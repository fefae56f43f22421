"""Child, the baseline of builds and warm loads: plain ``datasets`` reading the same files.

ARGS: ``files`` (split -> upstream file in the mirror), ``cache``, and ``kw`` (the csv
builder's reading options, e.g. BEEP!'s tab-separated, unquoted files).
"""

from __future__ import annotations

import time

import datasets
from child import ARGS, report

start = time.perf_counter()
data = datasets.load_dataset("csv", data_files=ARGS["files"], cache_dir=ARGS["cache"], **ARGS["kw"])
step = time.perf_counter() - start
report(step, rows=sum(split.num_rows for split in data.values()))
