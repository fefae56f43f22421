"""Child: ``hatemoji_datasets.evaluate.leaderboard`` over every language's runs.

ARGS: ``folder`` (one sub-folder of runs per language), ``languages``, ``pattern``,
``cache``, ``mirror``. The report is rendered as markdown, as a reader would print it.
"""

from __future__ import annotations

import time

from child import ARGS, report

from hatemoji_datasets.evaluate import leaderboard

start = time.perf_counter()
board = leaderboard(
    {f"multilingual_hatecheck/{lang}": f"{ARGS['folder']}/{lang}" for lang in ARGS["languages"]},
    pattern=ARGS["pattern"],
    cache_dir=ARGS["cache"],
    mirror=ARGS["mirror"],
)
shown = board.to_markdown()
step = time.perf_counter() - start
rows = {column.key: column.n for column in board.columns}
report(step, runs=len(board.runs), rows=sum(rows[run.column] for run in board.runs))
