"""``pin``, ``lock``, ``verify`` and ``fingerprints``: pinning exact data, and checking it
still holds."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from hatemoji_datasets.cli.output import show_progress
from hatemoji_datasets.core.findings import safe


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    pinning = commands.add_parser(
        "pin", help="measure an upstream file and print (or add) its checksums.tsv row"
    )
    pinning.add_argument("url", help="the file's URL, pinned at a commit")
    pinning.add_argument(
        "--licence", required=True, metavar="SPDX", help="its licence, e.g. CC-BY-4.0"
    )
    pinning.add_argument("--name", help="the row's name (default: from the URL's file name)")
    pinning.add_argument("--into", metavar="DATASET", help="append the row to its checksums.tsv")
    pinning.add_argument("--format", choices=("table", "json"), default="table")
    pinning.add_argument(
        "--mirror", help="folder or URL to read it from (default: $HATEMOJI_DATASETS_MIRROR)"
    )
    pinning.set_defaults(command=run_pin)

    prints = commands.add_parser(
        "fingerprints",
        help="build every released version and compare with the recorded fingerprints",
    )
    prints.add_argument("names", nargs="*", metavar="NAME", help="datasets (default: all)")
    prints.add_argument(
        "--write", action="store_true", help="rewrite each dataset's fingerprints.tsv"
    )
    source_options(prints, "datasets cache to build into (default: a fresh temporary one)")
    prints.set_defaults(command=run_fingerprints)

    locking = commands.add_parser(
        "lock", help="write a lockfile: versions, sources and fingerprints of datasets"
    )
    locking.add_argument(
        "references", nargs="+", metavar="SPEC", help="NAME[/CONFIG][:VERSION], e.g. NAME:1.0.0"
    )
    locking.add_argument(
        "-o", "--output", default="-", help="lockfile to write (default: standard output)"
    )
    source_options(locking)
    locking.set_defaults(command=run_lock)

    verify = commands.add_parser(
        "verify", help="reload or rebuild what a lockfile names and check its fingerprints"
    )
    verify.add_argument("lockfile", help='a file written by "hatemoji-datasets lock"')
    source_options(verify)
    verify.set_defaults(command=run_verify)


def run_pin(args: argparse.Namespace) -> int:
    import json
    from dataclasses import asdict

    from hatemoji_datasets.core.checksums import CHECKSUM_COLUMNS
    from hatemoji_datasets.sources.pin import pin, row

    target = None
    if args.into:
        from hatemoji_datasets.core.registry import dataset_spec
        from hatemoji_datasets.core.spec import CHECKSUMS_FILE

        target = dataset_spec(args.into).package_dir / CHECKSUMS_FILE  # before any download
    source = pin(args.url, args.licence, name=args.name, mirror=args.mirror, into=target)
    if args.format == "json":
        print(json.dumps({"format": 1, **asdict(source)}, indent=2, ensure_ascii=False))
    else:
        if target is None:
            print("\t".join(CHECKSUM_COLUMNS))
        print(row(source))  # the URL was checked to hold no control characters
    if target is not None:
        print(f"added {source.name} to {safe(str(target))}", file=sys.stderr)
    return 0


def run_fingerprints(args: argparse.Namespace) -> int:
    import tempfile

    from hatemoji_datasets.core.registry import check_registry, dataset_spec, specs
    from hatemoji_datasets.pinning.record import record_all

    check_registry()
    chosen = [dataset_spec(name) for name in args.names] if args.names else list(specs().values())
    show_progress()
    with tempfile.TemporaryDirectory(prefix="hatemoji-fingerprints-") as scratch:
        stale = record_all(
            chosen, write=args.write, cache_dir=args.cache_dir or scratch, mirror=args.mirror
        )
    for path, _ in stale:
        print(f"{'wrote' if args.write else 'differs'}: {safe(str(path))}")
    if not stale:
        names = ", ".join(spec.name for spec in chosen)
        print(f"recorded fingerprints match fresh builds of every release of {names}")
    return 1 if stale and not args.write else 0


def run_lock(args: argparse.Namespace) -> int:
    from hatemoji_datasets.core.file_writes import check_destination
    from hatemoji_datasets.pinning.lock import lock_datasets
    from hatemoji_datasets.pinning.lockfile import dumps, write

    if args.output != "-":
        check_destination(args.output)  # before anything is built
    show_progress()
    locked = lock_datasets(args.references, cache_dir=args.cache_dir, mirror=args.mirror)
    if args.output == "-":
        sys.stdout.write(dumps(locked))
    else:
        write(locked, args.output)
        names = ", ".join(entry.reference for entry in locked.datasets)
        print(f"wrote {safe(args.output)}: {names}", file=sys.stderr)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from hatemoji_datasets.pinning.lock import describe, verify_lock

    show_progress()
    results = verify_lock(args.lockfile, cache_dir=args.cache_dir, mirror=args.mirror)
    for line in describe(results):
        print(safe(line))
    failed = sum(1 for result in results if result.problems)
    unchecked = sum(1 for result in results if result.unchecked and not result.problems)
    if failed:
        print(
            f"error: {failed:,} of {len(results):,} locked dataset(s) differ from "
            f"{safe(args.lockfile)}",
            file=sys.stderr,
        )
    if unchecked:
        print(
            f"error: {unchecked:,} of {len(results):,} locked dataset(s) could not be checked: "
            "they are not in the cache and their sources cannot be fetched; set "
            "HATEMOJI_DATASETS_MIRROR (or --mirror) to a folder that holds them, "
            "or run where the network reaches them",
            file=sys.stderr,
        )
    # A known difference outranks what could not be checked.
    return 1 if failed else 2 if unchecked else 0
