"""Child, untimed: write the synthetic contributions ``validate`` is measured on.

ARGS: ``files`` (``[rows, path]`` pairs) and ``mirror``. Each file recombines real
HatemojiCheck rows (``benchmarks/validate_scaling.write_contribution``): new, valid
rows with unique ids.
"""

from __future__ import annotations

import sys
from pathlib import Path

from child import ARGS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from validate_scaling import write_contribution  # noqa: E402 - found beside the harness

for rows, path in ARGS["files"]:
    write_contribution(Path(path), rows, ARGS["mirror"])
