"""``validate`` and ``export-schemas``: checking contributions, and the schemas other tools read."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    validate = commands.add_parser(
        "validate", help="check proposed data files against a dataset's schema and released data"
    )
    validate.add_argument(
        "files", nargs="+", metavar="FILE", help="CSV/TSV in upstream format, or built Parquet"
    )
    validate.add_argument("--dataset", required=True, help="dataset name")
    validate.add_argument("--config", help="config name (default: the dataset's default)")
    validate.add_argument("--format", choices=("text", "json", "github"), default="text")
    validate.add_argument(
        "--allow-changes", action="store_true", help="changed released rows warn instead of fail"
    )
    validate.add_argument(
        "--full", action="store_true", help="the files hold the whole dataset: report lost rows"
    )
    validate.add_argument("--strict", action="store_true", help="warnings fail too")
    source_options(validate, "where released files are downloaded")
    validate.set_defaults(command=run_validate)

    export = commands.add_parser(
        "export-schemas",
        help="write the language-neutral schema files (pandera YAML, Frictionless)",
    )
    export.add_argument("--output", default="schemas", help="folder to write (default: schemas)")
    export.add_argument(
        "--check", action="store_true", help="only report files that differ from the code"
    )
    export.set_defaults(command=run_export_schemas)


def run_validate(args: argparse.Namespace) -> int:
    from hatemoji_datasets.validate.contributions import Options, validate_contributions
    from hatemoji_datasets.validate.report import render

    options = Options(allow_changes=args.allow_changes, full=args.full, strict=args.strict)
    report = validate_contributions(
        args.files,
        args.dataset,
        args.config,
        options=options,
        mirror=args.mirror,
        cache_dir=args.cache_dir,
    )
    print(render(report, args.format))
    return report.exit_code


def run_export_schemas(args: argparse.Namespace) -> int:
    from hatemoji_datasets.validate.schema_export import exports, write_exports

    stale = write_exports(args.output, check_only=args.check)
    for path in stale:
        print(f"{'differs' if args.check else 'wrote'}: {path}")
    if not stale:
        print(f"{args.output}: all {len(exports()):,} schema files match the code")
    return 1 if args.check and stale else 0
