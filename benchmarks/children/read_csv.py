"""Child, the baseline of ``validate``: ``pandas.read_csv`` of the same file.

ARGS: ``file``.
"""

from __future__ import annotations

import time

import pandas
from child import ARGS, report

start = time.perf_counter()
frame = pandas.read_csv(ARGS["file"])
step = time.perf_counter() - start
report(step, rows=len(frame))
