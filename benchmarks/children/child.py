"""What every measured child program shares: its arguments, and one JSON report line.

A child is started by ``benchmarks/run.py`` as ``python CHILD.py ARGS_JSON``. It
times its own step (the call being measured, after its imports) and prints one
line, ``MARK`` then JSON with the step time and its own peak RSS (``VmHWM`` of
this process image; ``ru_maxrss`` would carry the parent's peak across exec).
"""

from __future__ import annotations

import json
import sys

MARK = "@@BENCH@@"

#: The arguments the harness passed, as a dict.
ARGS: dict = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}


def peak_mb() -> float | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def report(step: float, **extra: object) -> None:
    """Print the report line the harness reads (the last such line of stdout counts)."""
    print("\n" + MARK + json.dumps({"step": step, "peak_mb": peak_mb(), **extra}), flush=True)
