"""``score``: one report column per predictions file."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatemoji_datasets.cli.output import whole_number
from hatemoji_datasets.core.errors import PredictionError


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    scoring = commands.add_parser(
        "score", help="score model predictions on a dataset's evaluation split"
    )
    scoring.add_argument("name", help="dataset name, optionally NAME[/CONFIG][:VERSION]")
    scoring.add_argument("--config", help="config name (default: the dataset's default)")
    scoring.add_argument("--split", help="split to score (default: the dataset's evaluation split)")
    scoring.add_argument(
        "--predictions",
        nargs="+",
        required=True,
        metavar="FILE",
        help="CSV or JSON Lines (id column, prediction, optional score) or an lm-eval "
        "per-sample log (samples_TASK_*.jsonl); one file per model",
    )
    scoring.add_argument(
        "--names",
        nargs="+",
        metavar="NAME",
        help="one model name per predictions file (default: the file's name; an lm-eval "
        "log's model folder)",
    )
    scoring.add_argument(
        "--format", choices=("markdown", "json", "csv", "latex"), default="markdown"
    )
    scoring.add_argument(
        "--plot",
        metavar="PATH",
        help="draw a heatmap, one column per model: PNG, SVG or PDF by the path's suffix",
    )
    scoring.add_argument(
        "--examples",
        type=whole_number,
        default=0,
        metavar="N",
        help="list up to N wrong predictions per table cell and model, in id order",
    )
    scoring.add_argument(
        "--stats",
        action="store_true",
        help="add each accuracy's 95%% Wilson interval and, with two or more models, exact "
        "McNemar tests against the first model (Holm-corrected)",
    )
    scoring.add_argument(
        "--baseline",
        metavar="NAME",
        help="the model the McNemar tests compare against (default: the first; implies --stats)",
    )
    scoring.add_argument(
        "--html",
        metavar="PATH.html",
        help="also write a self-contained HTML report (tables, intervals, tests, heatmap, "
        "failing cases behind a content warning)",
    )
    scoring.add_argument(
        "--lock",
        metavar="FILE",
        help="score the version the lockfile FILE pins, after checking its fingerprints",
    )
    source_options(scoring)
    scoring.set_defaults(command=run_score)


def model_names(files: list[str], given: list[str] | None = None) -> list[str]:
    """``given`` (one per file), else each file's stem, or for an lm-eval per-sample log the
    folder the harness names after the model; repeated names get their parent folder as a
    prefix."""
    from hatemoji_datasets.evaluate.harness_log import is_sample_log, model_of

    if given is not None:
        if len(given) != len(files):
            raise PredictionError(
                f"--names gives {len(given)} name(s) for {len(files)} predictions file(s)"
            )
        repeated = sorted({n for n in given if given.count(n) > 1})
        if repeated:
            raise PredictionError(f"--names gives the same model name twice: {repeated[0]}")
        return list(given)
    stems = [model_of(f) if is_sample_log(f) else Path(f).stem for f in files]
    names = [
        f"{Path(f).resolve().parent.name}/{Path(f).stem}" if stems.count(stem) > 1 else stem
        for f, stem in zip(files, stems, strict=True)
    ]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise PredictionError(f"two prediction files give the same model name: {repeated[0]}")
    return names


#: What ``--plot`` writes, by the path's suffix.
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def run_score(args: argparse.Namespace) -> int:
    from hatemoji_datasets.cli.output import show_progress
    from hatemoji_datasets.core.file_writes import check_destination, write_text
    from hatemoji_datasets.evaluate.comparison import Comparison
    from hatemoji_datasets.evaluate.metrics import require_extras
    from hatemoji_datasets.evaluate.report import ScoreReport
    from hatemoji_datasets.evaluate.scoring import score

    if args.plot and Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
        raise PredictionError(
            f"--plot writes a PNG, SVG or PDF; give a path ending in .png, .svg or .pdf, "
            f"not {args.plot}"
        )
    if args.html and Path(args.html).suffix.lower() not in (".html", ".htm"):
        raise PredictionError(f"--html writes a page; give a path ending in .html, not {args.html}")
    names = model_names(args.predictions, args.names)
    if args.baseline is not None and args.baseline not in names:
        raise PredictionError(
            f"--baseline {args.baseline!r} is none of the models scored: {', '.join(names)}"
        )
    # Everything that can fail without the data fails first: extras, the outputs' folders.
    require_extras(plot=bool(args.plot or args.html))
    for path in (args.plot, args.html):
        if path:
            check_destination(path)  # as lock -o: a missing folder is refused
    show_progress()
    reports: dict[str, ScoreReport] = {}
    for name, path in zip(names, args.predictions, strict=True):
        reports[name] = score(
            args.name,
            path,
            config=args.config,
            split=args.split,
            cache_dir=args.cache_dir,
            mirror=args.mirror,
            examples=args.examples,
            lock=args.lock,
        )
    stats = args.stats or args.baseline is not None
    comparison = Comparison(reports, stats=stats, baseline=args.baseline)
    rendered = comparison.render(args.format)
    # Files before the report, so a file that cannot be written prints no report.
    if args.plot:
        from hatemoji_datasets.evaluate.plot import plot_heatmap

        plot_heatmap(reports, args.plot)
    if args.html:
        write_text(args.html, comparison.to_html())
    print(rendered, end="")
    return 0
