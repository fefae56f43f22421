"""``leaderboard``: many runs of many models over one or more dataset configs, in one table."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatemoji_datasets.core.errors import PredictionError

FORMATS = ("markdown", "json", "csv", "latex", "html")
#: ``NAME[/CONFIG][:VERSION]=`` before a path: the config the runs were made on.
_REFERENCE = re.compile(
    r"(?P<reference>[A-Za-z0-9_]+(?:/[A-Za-z0-9_-]+)?(?::[0-9.]+)?)=(?P<path>.+)"
)


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    board = commands.add_parser(
        "leaderboard",
        help="score many runs of many models and lay them out as one table",
        description="Score many runs (predictions files or lm-eval sample logs) of many "
        "models on one or more dataset configs: one row per model (and setting), one "
        "column per config, the mean and standard deviation over seeds in each cell.",
    )
    board.add_argument(
        "runs",
        nargs="+",
        metavar="[NAME[/CONFIG][:VERSION]=]PATH",
        help="a predictions file, a folder (its .csv and .jsonl files) or a glob, after the "
        "dataset config its runs were made on; lm-eval sample logs need none (their task "
        "names it)",
    )
    board.add_argument(
        "--pattern",
        help="name each run from its file name, e.g. '{model}_{size}_rs{seed}.csv': "
        "{model} is required, {seed} is averaged over, other fields are settings",
    )
    board.add_argument("--layout", help="a paper's table: hatemoji, mhc-efficient")
    board.add_argument(
        "--metrics",
        nargs="+",
        metavar="METRIC",
        help="some of accuracy, f1_hateful, f1_macro (default: all, or the layout's)",
    )
    board.add_argument(
        "--rename",
        nargs="+",
        default=[],
        metavar="MODEL=NAME",
        help="show a model under another name, e.g. xlmt_dyn21_en_20000=X+DEN",
    )
    board.add_argument(
        "--lock", metavar="FILE", help="score each config at the version this lockfile pins"
    )
    board.add_argument("--format", choices=FORMATS, default="markdown")
    board.add_argument("-o", "--output", help="file to write (default: standard output)")
    source_options(board)
    board.set_defaults(command=run_leaderboard)


def run_sources(arguments: list[str]) -> dict[str | None, list[str]]:
    """``{reference or None: [paths]}`` from ``[NAME[/CONFIG][:VERSION]=]PATH`` arguments."""
    sources: dict[str | None, list[str]] = {}
    for argument in arguments:
        named = _REFERENCE.fullmatch(argument)
        if named and not Path(argument).exists():
            sources.setdefault(named.group("reference"), []).append(named.group("path"))
        else:
            sources.setdefault(None, []).append(argument)
    return sources


def renamed(pairs: list[str]) -> dict[str, str]:
    names = {}
    for pair in pairs:
        model, equals, name = pair.partition("=")
        if not equals or not model or not name:
            raise PredictionError(f"--rename takes MODEL=NAME, not {pair!r}")
        names[model] = name
    return names


def run_leaderboard(args: argparse.Namespace) -> int:
    from hatemoji_datasets.cli.output import show_progress
    from hatemoji_datasets.core.file_writes import check_destination, write_text
    from hatemoji_datasets.evaluate.leaderboards import leaderboard

    names = renamed(args.rename)
    if args.output:
        check_destination(args.output)  # before any work, as lock -o
    show_progress()
    report = leaderboard(
        run_sources(args.runs),
        pattern=args.pattern,
        layout=args.layout,
        metrics=args.metrics,
        names=names,
        lock=args.lock,
        cache_dir=args.cache_dir,
        mirror=args.mirror,
    )
    rendered = {
        "markdown": report.to_markdown,
        "json": report.to_json,
        "csv": report.to_csv,
        "latex": report.to_latex,
        "html": report.to_html,
    }[args.format]()
    if args.output:
        write_text(args.output, rendered)
    else:
        print(rendered, end="")
    return 0
