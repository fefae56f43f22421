"""Child, the baseline of builds and warm loads: plain ``datasets`` reading the same files.

ARGS: ``files`` (one ``{split: [file, ...]}`` per file format the config reads; each is
one csv load), ``cache``, and ``kw`` (the csv builder's reading options, e.g. BEEP!'s
tab-separated, unquoted files).
"""

from __future__ import annotations

import time

import datasets
from child import ARGS, report

groups = ARGS["files"] if isinstance(ARGS["files"], list) else [ARGS["files"]]
start = time.perf_counter()
loaded = [
    datasets.load_dataset("csv", data_files=files, cache_dir=ARGS["cache"], **ARGS["kw"])
    for files in groups
]
step = time.perf_counter() - start
report(step, rows=sum(split.num_rows for data in loaded for split in data.values()))
