"""Child: ``hatemoji-datasets validate FILE --dataset NAME`` through the CLI's ``main``.

ARGS: ``argv`` (the command line after the program name). The CLI's modules are
imported before the step; what ``validate`` imports lazily counts in the step. The
report it prints is passed on, and its count of findings (errors and warnings: the
text report's last line, or the JSON report's counts) reported as ``findings``.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import time

from child import ARGS, report

from hatemoji_datasets.cli import main

SUMMARY = re.compile(r"^([\d,]+) error\(s\), ([\d,]+) warning\(s\) in ")


def count_findings(text: str) -> int | None:
    """Errors plus warnings, as the report states them; None if it states none."""
    if text.lstrip().startswith("{"):
        try:
            document = json.loads(text)
            return int(document["errors"]) + int(document["warnings"])
        except (ValueError, KeyError, TypeError):
            return None
    for line in reversed(text.splitlines()):
        found = SUMMARY.match(line)
        if found:
            return sum(int(group.replace(",", "")) for group in found.groups())
    return None


printed = io.StringIO()
start = time.perf_counter()
with contextlib.redirect_stdout(printed):
    code = main(ARGS["argv"])
step = time.perf_counter() - start
text = printed.getvalue()
sys.stdout.write(text)
report(step, exit_code=code, findings=count_findings(text))
sys.exit(code)
