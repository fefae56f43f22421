"""Child, untimed: write the synthetic contributions ``validate`` is measured on.

ARGS: ``files`` (``[rows, path]`` pairs), ``mirror``, and optionally ``mhc``
(``folder``, ``megabytes``, ``dataset``, ``config``). Each file recombines real
HatemojiCheck rows (``benchmarks/validate_scaling.write_contribution``): new, valid
rows with unique ids. The ``mhc`` file is one released row of the config's upstream
file repeated to about ``megabytes`` (``validate_scaling.write_repeated_row``); reports
where it and the row alone are, and its rows.
"""

from __future__ import annotations

import sys
from pathlib import Path

from child import ARGS, report

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from validate_scaling import write_contribution, write_repeated_row  # noqa: E402

for rows, path in ARGS["files"]:
    write_contribution(Path(path), rows, ARGS["mirror"])
big = ARGS.get("mhc")
if big:
    written = write_repeated_row(
        Path(big["folder"]), big["megabytes"], ARGS["mirror"], big["dataset"], big["config"]
    )
    report(0.0, mhc=written)
