"""Reference baselines for ``hatemoji-datasets score``, reproducible with fixed seeds.

Models:

- ``tfidf_lr``: character 1-4-gram TF-IDF (word-boundary aware) + logistic
  regression (liblinear, seed 0), trained on HatemojiBuild ``train`` and scored
  on HatemojiBuild ``test`` and HatemojiCheck ``test``; the same model trained
  on BEEP! ``train`` (``apeach``/``beep``), scored on BEEP! ``validation`` and
  APEACH ``test``.
- ``always_hateful``: predicts hateful for every row.
- ``any_emoji``: hateful if the text has an emoji (the dataset's ``emoji``
  column for the Hatemoji datasets, the ``emoji`` package on the text for
  APEACH/BEEP!).

Writes one CSV per model and target (``OUT/<dataset>-<config>/<model>.csv``:
id column, ``prediction``, ``score``) and prints the reports::

    python scripts/baselines.py --output baselines
    hatemoji-datasets score hatemoji_check --predictions baselines/hatemoji_check-default/*.csv

``--table PAGE`` writes the summary table into PAGE between its
``<!-- baselines:start -->`` and ``<!-- baselines:end -->`` markers;
``--check-table PAGE`` exits 1 when the page's table differs from this run's.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from hatemoji_datasets import load_dataset
from hatemoji_datasets.core.emoji_search import has_emoji
from hatemoji_datasets.core.generated import replace_block
from hatemoji_datasets.evaluate import score
from hatemoji_datasets.evaluate.plot import plot_heatmap
from hatemoji_datasets.evaluate.render import render_markdown
from hatemoji_datasets.evaluate.scoring import ROW_INDEX, scoring_target

SEED = 0
MODELS = ("tfidf_lr", "always_hateful", "any_emoji")
#: (train dataset, config, split) -> the (dataset, config) targets it is scored on.
PLAN = {
    ("hatemoji_build", "all", "train"): (("hatemoji_build", "all"), ("hatemoji_check", "default")),
    ("apeach", "beep", "train"): (("apeach", "beep"), ("apeach", "default")),
}


def tfidf_lr():
    return make_pipeline(
        TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 4), min_df=2, sublinear_tf=True),
        LogisticRegression(C=4.0, solver="liblinear", random_state=SEED, max_iter=1000),
    )


def emoji_flags(frame: pd.DataFrame) -> np.ndarray:
    if "emoji" in frame.columns:
        return np.array([len(found) > 0 for found in frame["emoji"]], dtype=int)
    return np.array([has_emoji(text) for text in frame["text"]], dtype=int)


def predictions(frame: pd.DataFrame, id_column: str, labels, scores) -> pd.DataFrame:
    ids = range(len(frame)) if id_column == ROW_INDEX else frame[id_column]
    return pd.DataFrame(
        {id_column: list(ids), "prediction": np.asarray(labels, dtype=int), "score": scores}
    )


START, END = "<!-- baselines:start -->", "<!-- baselines:end -->"


def summary(results: list[tuple[str, str, dict]]) -> str:
    """The committed table: per scored split, trainer and model, the overall metrics."""
    lines = [
        "| scored on | trained on | model | accuracy | F1 hateful | macro F1 |",
        "|---|---|---|---:|---:|---:|",
    ]
    extras = []
    for scored, trained, reports in results:
        for i, (model_name, report) in enumerate(reports.items()):
            overall = report.overall
            first = (scored, trained) if i == 0 else ("", "")
            figures = [f"{overall[m]:.3f}" for m in ("accuracy", "f1_hateful", "f1_macro")]
            lines.append(
                f"| {first[0]} | {first[1]} | `{model_name}` | " + " | ".join(figures) + " |"
            )
        tfidf = reports["tfidf_lr"]
        for table in tfidf.tables.values():
            if table.name == "fairness":
                row = table.rows[0]
                extras.append(
                    f"- `tfidf_lr` on {scored}: demographic parity ratio "
                    f"{row['demographic_parity_ratio']:.3f}, equalized odds ratio "
                    f"{row['equalized_odds_ratio']:.3f}"
                )
            if table.name == "pairs":
                row = table.rows[0]
                extras.append(
                    f"- `tfidf_lr` on {scored}: pair consistency {row['both_correct']:.3f} "
                    f"({row['pairs']:,} pairs)"
                )
    return "\n".join([*lines, "", *extras])


def page_with_table(page: str, table: str) -> str:
    try:
        return replace_block(page, START, END, table)
    except ValueError as error:
        raise SystemExit(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default="baselines", help="folder for prediction CSVs")
    parser.add_argument("--cache-dir", help="datasets cache folder")
    parser.add_argument("--mirror", help="folder or URL laid out as HOST/PATH")
    parser.add_argument("--plot", action="store_true", help="also write OUT/<target>.png")
    parser.add_argument("--table", type=Path, help="write the summary table into this page")
    parser.add_argument("--check-table", type=Path, help="exit 1 if this page's table differs")
    args = parser.parse_args(argv)
    results: list[tuple[str, str, dict]] = []
    random.seed(SEED)
    np.random.seed(SEED)
    where = {"cache_dir": args.cache_dir, "mirror": args.mirror}
    output = Path(args.output)
    for (name, config, split), targets in PLAN.items():
        train = load_dataset(name, config, split=split, **where).to_pandas()
        model = tfidf_lr().fit(train["text"], train["label"])
        for target_name, target_config in targets:
            _, target = scoring_target(target_name, target_config)
            frame = load_dataset(
                target_name, target_config, split=target.eval_split, **where
            ).to_pandas()
            probability = model.predict_proba(frame["text"])[:, 1]
            emoji = emoji_flags(frame)
            outputs = {
                "tfidf_lr": ((probability >= 0.5).astype(int), probability.round(6)),
                "always_hateful": (np.ones(len(frame), dtype=int), np.ones(len(frame))),
                "any_emoji": (emoji, emoji.astype(float)),
            }
            folder = output / f"{target_name}-{target_config}"
            folder.mkdir(parents=True, exist_ok=True)
            reports = {}
            for model_name in MODELS:
                labels, scores = outputs[model_name]
                path = folder / f"{model_name}.csv"
                predictions(frame, target.id_column, labels, scores).to_csv(path, index=False)
                reports[model_name] = score(target_name, path, config=target_config, **where)
            print(f"# trained on {name}/{config} {split} ({len(train):,} rows)\n")
            print(render_markdown(reports))
            if args.plot:
                plot_heatmap(reports, output / f"{target_name}-{target_config}.png")
            scored = f"`{target_name}/{target_config}` `{target.eval_split}` ({len(frame):,})"
            results.append((scored, f"`{name}/{config}` `{split}`", reports))
    table = summary(results)
    if args.table:
        args.table.write_text(page_with_table(args.table.read_text("utf-8"), table), "utf-8")
        print(f"wrote the summary table into {args.table}")
    if args.check_table:
        page = args.check_table.read_text("utf-8")
        if page_with_table(page, table) != page:
            print(f"{args.check_table}: the baseline table differs from this run:\n{table}")
            return 1
        print(f"{args.check_table}: the committed baseline table is reproduced")
    return 0


if __name__ == "__main__":
    sys.exit(main())
