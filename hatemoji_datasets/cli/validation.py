"""``validate`` and ``export-schemas``: checking contributions, and the schemas other tools read."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from hatemoji_datasets.cli.output import whole_number
from hatemoji_datasets.core.findings import safe
from hatemoji_datasets.validate.report import MAX_FINDINGS_PER_CODE  # standard library only


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
    validate.add_argument(
        "--max-findings",
        type=whole_number,
        default=MAX_FINDINGS_PER_CODE,
        metavar="N",
        help=f"text and github: show the first N findings of each code (default "
        f"{MAX_FINDINGS_PER_CODE}; 0 shows all); json lists every finding",
    )
    source_options(validate, "where released files are downloaded")
    validate.set_defaults(command=run_validate, json_error=error_report)

    template = commands.add_parser(
        "template",
        help="what a contribution holds: the upstream columns, each one's allowed values "
        "and the next free id",
    )
    template.add_argument("name", help="NAME[/CONFIG]")
    template.add_argument("--config", help="config name (default: the dataset's default)")
    template.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="csv: an empty contribution, its header alone",
    )
    source_options(template, "where released files are downloaded")
    template.set_defaults(command=run_template)

    export = commands.add_parser(
        "export-schemas",
        help="write the language-neutral schema files (pandera YAML, Frictionless) and "
        "each dataset's raw_columns.tsv",
    )
    export.add_argument("--output", default="schemas", help="folder to write (default: schemas)")
    export.add_argument(
        "--check", action="store_true", help="only report files that differ from the code"
    )
    export.set_defaults(command=run_export_schemas)


def error_report(args: argparse.Namespace, document: dict[str, Any]) -> dict[str, Any]:
    """The JSON report of a run that failed before any file was checked: no findings."""
    from hatemoji_datasets.validate.report import REPORT_FORMAT

    return {
        "format": REPORT_FORMAT,
        "files": [safe(name) for name in args.files],
        "exit_code": document["exit_code"],
        "errors": 0,
        "warnings": 0,
        "findings": [],
        "error": document["error"],
    }


def run_validate(args: argparse.Namespace) -> int:
    import sys

    from hatemoji_datasets.validate.contributions import Options, validate_contributions
    from hatemoji_datasets.validate.report import write_report

    options = Options(allow_changes=args.allow_changes, full=args.full, strict=args.strict)
    report = validate_contributions(
        args.files,
        args.dataset,
        args.config,
        options=options,
        mirror=args.mirror,
        cache_dir=args.cache_dir,
    )
    try:  # a finding at a time: millions of them are written, never held
        write_report(report, args.format, sys.stdout, args.max_findings)
    except KeyboardInterrupt:
        # The report is cut short: an error document after it would not make it whole.
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        report.close()
    return report.exit_code


def run_template(args: argparse.Namespace) -> int:
    import csv
    import json
    import sys

    from hatemoji_datasets.cli.output import WIDTH, table, wrap_list
    from hatemoji_datasets.validate.template import contribution_template

    found = contribution_template(
        args.name, args.config, mirror=args.mirror, cache_dir=args.cache_dir
    )
    if args.format == "json":
        print(json.dumps(found.to_dict(), indent=2, ensure_ascii=False))
        return 0
    if args.format == "csv":  # the header alone: an empty contribution
        csv.writer(sys.stdout, delimiter=found.delimiter, lineterminator="\n").writerow(
            found.columns
        )
        return 0
    print(f"{found.dataset} ({found.config}): a contribution is a file with this header,")
    print("written as the upstream file is (its columns and values):\n")
    columns = f"columns: {', '.join(found.columns)}"
    print("\n         ".join(wrap_list(safe(columns), WIDTH - 9)))
    if found.allowed:
        print("\nallowed values:")
        rows = [
            [column, ", ".join(value or "(empty)" for value in values)]
            for column, values in found.allowed.items()
        ]
        print(table(["column", "values"], rows))
    if found.next_id is not None:
        print(f"\nnext free {found.key_column}: {found.next_id}")
    print("\nan empty file to start from, its header alone:")
    print(f"hatemoji-datasets template {found.dataset} --config {found.config} --format csv")
    return 0


def run_export_schemas(args: argparse.Namespace) -> int:
    from hatemoji_datasets.schema.table_schema import (
        exports,
        layouts,
        write_exports,
        write_layouts,
    )

    stale = write_exports(args.output, check_only=args.check)
    stale += write_layouts(check_only=args.check)
    for path in stale:
        print(f"{'differs' if args.check else 'wrote'}: {safe(str(path))}")
    if not stale:
        count = len(exports()) + len(layouts())
        print(f"{safe(args.output)}: all {count:,} schema files match the code")
    return 1 if args.check and stale else 0
