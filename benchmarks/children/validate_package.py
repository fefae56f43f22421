"""Child: ``hatemoji-datasets validate FILE --dataset NAME`` through the CLI's ``main``.

ARGS: ``argv`` (the command line after the program name). The CLI's modules are
imported before the step; what ``validate`` imports lazily counts in the step.
"""

from __future__ import annotations

import sys
import time

from child import ARGS, report

from hatemoji_datasets.cli import main

start = time.perf_counter()
code = main(ARGS["argv"])
step = time.perf_counter() - start
report(step, exit_code=code)
sys.exit(code)
