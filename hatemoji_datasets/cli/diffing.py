"""``diff``: what differs between two versions or configs of one dataset."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from hatemoji_datasets.cli.output import show_progress, table
from hatemoji_datasets.core.findings import safe


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    diffing = commands.add_parser(
        "diff",
        help="features and rows (per split) that differ between two versions or configs",
    )
    diffing.add_argument("old", metavar="SPEC_A", help="NAME[/CONFIG][:VERSION], e.g. NAME:1.0.0")
    diffing.add_argument("new", metavar="SPEC_B", help="the same dataset, another version/config")
    diffing.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    diffing.add_argument(
        "--labels",
        choices=("id", "name"),
        default="id",
        help="compare ClassLabel cells by id (default) or by name",
    )
    diffing.add_argument(
        "--examples",
        type=int,
        default=3,
        metavar="N",
        help="changed cells shown per split, cut to a few characters (default: 3)",
    )
    source_options(diffing)
    diffing.set_defaults(command=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    """Exit 0 whatever differs; bad input is the package's error (with ``--format json``, one
    JSON error document, as for every command)."""
    from hatemoji_datasets.diff import diff
    from hatemoji_datasets.diff.render import as_json, markdown

    show_progress()
    found = diff(
        args.old,
        args.new,
        labels=args.labels,
        examples=args.examples,
        cache_dir=args.cache_dir,
        mirror=args.mirror,
    )
    if args.format == "json":
        sys.stdout.write(as_json(found))
    elif args.format == "markdown":
        sys.stdout.write(markdown(found))
    else:
        sys.stdout.write(text_report(found))
    return 0


def text_report(found: Any) -> str:
    """A :class:`~hatemoji_datasets.diff.model.DatasetDiff` as aligned text tables."""
    from hatemoji_datasets.diff.render import sections, summary

    parts = ["\n".join(safe(line) for line in summary(found))]
    for title, headers, rows, right in sections(found):
        parts.append(f"{title}:\n{table(headers, rows, right=right)}")
    return "\n\n".join(parts) + "\n"
