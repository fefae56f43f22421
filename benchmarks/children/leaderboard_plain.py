"""Child, the baseline of the leaderboard: the loop a researcher writes, in one process.

ARGS as ``leaderboard_package.py``. The gold labels of each language come from the same
``load_dataset`` (the package's cache); then, per run, ``pandas.read_csv``, alignment by
``case_id`` and scikit-learn's accuracy, F1 of hateful and macro F1; then the mean and
standard deviation over seeds with a pandas ``groupby``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pandas as pd
from child import ARGS, report
from sklearn.metrics import accuracy_score, f1_score

from hatemoji_datasets import load_dataset

start = time.perf_counter()
records = []
for language in ARGS["languages"]:
    gold = load_dataset(
        f"multilingual_hatecheck/{language}",
        split="test",
        cache_dir=ARGS["cache"],
        mirror=ARGS["mirror"],
    )
    truth = gold.select_columns(["case_id", "label"]).to_pandas().set_index("case_id")["label"]
    for path in sorted(Path(ARGS["folder"], language).glob("*.csv")):
        model, size, seed = re.fullmatch(r"(.+)_(.+)_rs(.+)\.csv", path.name).groups()
        run = pd.read_csv(path).set_index("case_id")["prediction"].reindex(truth.index)
        records.append(
            {
                "language": language,
                "model": model,
                "size": size,
                "seed": seed,
                "accuracy": accuracy_score(truth, run),
                "f1_hateful": f1_score(truth, run),
                "f1_macro": f1_score(truth, run, average="macro"),
            }
        )
scores = pd.DataFrame(records)
table = scores.groupby(["language", "model", "size"])[["accuracy", "f1_hateful", "f1_macro"]]
shown = table.agg(["mean", "std", "count"]).to_string()
step = time.perf_counter() - start
report(step, runs=len(records))
