"""The ``score`` subcommand: one report column per predictions file."""

from __future__ import annotations

import argparse
from pathlib import Path

from hatemoji_datasets.errors import PredictionError
from hatemoji_datasets.evaluate import Report, score
from hatemoji_datasets.evaluate_render import RENDERERS, plot_heatmap


def model_names(files: list[str]) -> list[str]:
    """Each file's stem; repeated stems get their parent folder as a prefix."""
    stems = [Path(f).stem for f in files]
    names = [
        f"{Path(f).parent.name}/{stem}" if stems.count(stem) > 1 else stem
        for f, stem in zip(files, stems, strict=True)
    ]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise PredictionError(f"two prediction files give the same model name: {repeated[0]}")
    return names


def run_score(args: argparse.Namespace) -> int:
    if args.plot and Path(args.plot).suffix.lower() != ".png":
        raise PredictionError(f"--plot writes a PNG; give a path ending in .png, not {args.plot}")
    reports: dict[str, Report] = {}
    for name, path in zip(model_names(args.predictions), args.predictions, strict=True):
        reports[name] = score(
            args.name,
            path,
            config=args.config,
            split=args.split,
            cache_dir=args.cache_dir,
            mirror=args.mirror,
        )
    print(RENDERERS[args.format](reports), end="")
    if args.plot:
        plot_heatmap(reports, args.plot)
    return 0
