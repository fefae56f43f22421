"""``hatemoji-datasets``: list, build, describe, validate, score, card, export and pin datasets.

Every command imports what it needs inside its function, so ``--help``, ``list``
and ``sources`` start without ``datasets`` or pandera.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from hatemoji_datasets.errors import HatemojiDatasetsError
from hatemoji_datasets.findings import safe


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    try:
        return args.command(args)
    except HatemojiDatasetsError as error:
        print(f"error: {safe(str(error))}", file=sys.stderr)
        return error.exit_code
    except BrokenPipeError:  # the reader went away (| head): nothing left to say
        sys.stderr.close()
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


MIRROR_HELP = "folder or URL laid out as HOST/PATH (or $HATEMOJI_DATASETS_MIRROR)"


def _source_options(parser: argparse.ArgumentParser, cache_help: str = "datasets cache folder"):
    """``--cache-dir`` and ``--mirror``: where data is cached, and where sources come from."""
    parser.add_argument("--cache-dir", help=cache_help)
    parser.add_argument("--mirror", help=MIRROR_HELP)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hatemoji-datasets", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    listing = commands.add_parser("list", help="list the datasets, versions and configs")
    listing.set_defaults(command=_list)

    sources = commands.add_parser("sources", help="list every pinned upstream file")
    sources.set_defaults(command=_sources)

    validate = commands.add_parser(
        "validate", help="check proposed data files against a dataset's schema and released data"
    )
    validate.add_argument(
        "files", nargs="+", metavar="FILE", help="CSV/TSV in upstream format, or built Parquet"
    )
    validate.add_argument("--dataset", required=True, help="dataset name")
    validate.add_argument("--config", help="config name (default: the dataset's first)")
    validate.add_argument("--format", choices=("text", "json", "github"), default="text")
    validate.add_argument(
        "--allow-changes", action="store_true", help="changed released rows warn instead of fail"
    )
    validate.add_argument(
        "--full", action="store_true", help="the files hold the whole dataset: report lost rows"
    )
    validate.add_argument("--strict", action="store_true", help="warnings fail too")
    _source_options(validate, "where released files are downloaded")
    validate.set_defaults(command=_validate)

    scoring = commands.add_parser(
        "score", help="score model predictions on a dataset's evaluation split"
    )
    scoring.add_argument("name", help="dataset name, optionally NAME:VERSION")
    scoring.add_argument("--config", help="config name (default: the dataset's first)")
    scoring.add_argument("--split", help="split to score (default: the dataset's evaluation split)")
    scoring.add_argument(
        "--predictions",
        nargs="+",
        required=True,
        metavar="FILE",
        help="CSV or JSON Lines: id column, prediction, optional score; one file per model",
    )
    scoring.add_argument("--format", choices=("markdown", "json", "csv"), default="markdown")
    scoring.add_argument("--plot", metavar="PATH.png", help="draw a heatmap, one column per model")
    _source_options(scoring)
    scoring.set_defaults(command=_score)

    export = commands.add_parser(
        "export-schemas",
        help="write the language-neutral schema files (pandera YAML, Frictionless)",
    )
    export.add_argument("--output", default="schemas", help="folder to write (default: schemas)")
    export.add_argument(
        "--check", action="store_true", help="only report files that differ from the code"
    )
    export.set_defaults(command=_export_schemas)

    card = commands.add_parser(
        "card", help="render a dataset's card (README.md) and Croissant metadata, or --check them"
    )
    card.add_argument("name", help="dataset name")
    card.add_argument("--out", help="folder to write (default: cards/NAME)")
    card.add_argument(
        "--check",
        action="store_true",
        help="lint the card in --out against the built data and report files that differ",
    )
    _source_options(card)
    card.set_defaults(command=_card)

    hub = commands.add_parser(
        "export",
        help="write a dataset's Hub repository: card, Croissant, Parquet per config and split",
    )
    hub.add_argument("name", help="dataset name (its current version is exported)")
    hub.add_argument(
        "--out", required=True, help="folder to write: new, empty, or a previous export"
    )
    _source_options(hub)
    hub.set_defaults(command=_export)

    pushing = commands.add_parser(
        "push", help="export a dataset and upload it to a Hub dataset repository, tagged v<version>"
    )
    pushing.add_argument("name", help="dataset name (its current version is pushed)")
    pushing.add_argument("--repo-id", required=True, help="ORG/NAME on the Hugging Face Hub")
    pushing.add_argument(
        "--dry-run", action="store_true", help="print the files, commit and tag; upload nothing"
    )
    pushing.add_argument(
        "--token", help="Hub token (default: $HF_TOKEN or the one `hf auth login` saved)"
    )
    pushing.add_argument("--private", action="store_true", help="create the repository private")
    _source_options(pushing)
    pushing.set_defaults(command=_push)

    prints = commands.add_parser(
        "fingerprints",
        help="build every released version and compare with the recorded fingerprints",
    )
    prints.add_argument("names", nargs="*", metavar="NAME", help="datasets (default: all)")
    prints.add_argument(
        "--write", action="store_true", help="rewrite each dataset's fingerprints.tsv"
    )
    _source_options(prints, "datasets cache to build into (default: a fresh temporary one)")
    prints.set_defaults(command=_fingerprints)

    locking = commands.add_parser(
        "lock", help="write a lockfile: versions, sources and fingerprints of datasets"
    )
    locking.add_argument(
        "references", nargs="+", metavar="SPEC", help="NAME[/CONFIG][:VERSION], e.g. apeach:1.0.0"
    )
    locking.add_argument(
        "-o", "--output", default="-", help="lockfile to write (default: standard output)"
    )
    _source_options(locking)
    locking.set_defaults(command=_lock)

    verify = commands.add_parser(
        "verify", help="reload or rebuild what a lockfile names and check its fingerprints"
    )
    verify.add_argument("lockfile", help="a file written by `hatemoji-datasets lock`")
    _source_options(verify)
    verify.set_defaults(command=_verify)

    for name, function, text in (
        ("info", _info, "version, features, split sizes, licence, citation"),
        ("build", _build, "build a dataset into the cache and summarise it"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("name", help="NAME[/CONFIG][:VERSION]")
        sub.add_argument("--config", help="config name (default: the dataset's first)")
        _source_options(sub)
        sub.set_defaults(command=function)
        if name == "build":
            sub.add_argument(
                "--force", action="store_true", help="rebuild from freshly verified sources"
            )
    return parser


def _builder_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    return {"cache_dir": args.cache_dir, "mirror": args.mirror}


def _force(args: argparse.Namespace) -> dict[str, Any]:
    return {"download_mode": "force_redownload"} if getattr(args, "force", False) else {}


def _validate(args: argparse.Namespace) -> int:
    from hatemoji_datasets.contributions import Options, validate_contributions
    from hatemoji_datasets.reports import render

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


def _score(args: argparse.Namespace) -> int:
    from hatemoji_datasets.evaluate_cli import run_score

    return run_score(args)


def _export_schemas(args: argparse.Namespace) -> int:
    from hatemoji_datasets.schema_export import write_exports

    stale = write_exports(args.output, check_only=args.check)
    for path in stale:
        print(f"{'differs' if args.check else 'wrote'}: {path}")
    return 1 if args.check and stale else 0


def _card(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hatemoji_datasets.card_lint import lint_text
    from hatemoji_datasets.cards import DEFAULT_OUT, README, build, rendered_files
    from hatemoji_datasets.registry import dataset_spec

    name = dataset_spec(args.name).name  # an unknown name fails before anything is built
    folder = Path(args.out) if args.out else DEFAULT_OUT / name
    built = build(name, **_builder_kwargs(args))
    rendered = rendered_files(built)
    problems: list[str] = []
    if args.check:
        for file_name, text in rendered.items():
            path = folder / file_name
            try:
                current = path.read_text(encoding="utf-8")
            except OSError:
                problems.append(f"{path}: missing; render it with `hatemoji-datasets card {name}`")
                continue
            if current != text:
                problems.append(
                    f"{path}: differs from the card rendered from the data; render it again "
                    f"with `hatemoji-datasets card {name}`"
                )
            if file_name == README:
                problems += [
                    f"{path}: {problem}" for problem in lint_text(current, built.expected())
                ]
    else:
        folder.mkdir(parents=True, exist_ok=True)
        for file_name, text in rendered.items():
            path = folder / file_name
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote: {path}")
        problems += [
            f"{folder / README}: {problem}"
            for problem in lint_text(rendered[README], built.expected())
        ]
    for problem in problems:
        print(f"error: {safe(problem)}", file=sys.stderr)
    if args.check and not problems:
        print(f"{folder}: card and Croissant metadata are up to date and pass the lint")
    return 1 if problems else 0


def _export(args: argparse.Namespace) -> int:
    from hatemoji_datasets.hub import export

    for path in export(args.name, args.out, **_builder_kwargs(args)):
        print(f"wrote: {path}")
    return 0


def _push(args: argparse.Namespace) -> int:
    from hatemoji_datasets.hub import push

    push(
        args.name,
        args.repo_id,
        token=args.token,
        dry_run=args.dry_run,
        private=args.private,
        **_builder_kwargs(args),
    )
    return 0


def _list(args: argparse.Namespace) -> int:
    from hatemoji_datasets.registry import specs

    for name, spec in specs().items():
        configs = ", ".join(spec.config_names)
        older = f" (also {', '.join(spec.versions[1:])})" if len(spec.versions) > 1 else ""
        print(f"{name}  {spec.version}{older}  configs: {configs}  {spec.pretty_name}")
    return 0


def _fingerprints(args: argparse.Namespace) -> int:
    import tempfile

    from hatemoji_datasets.fingerprint import record_all
    from hatemoji_datasets.registry import dataset_spec, specs

    chosen = [dataset_spec(name) for name in args.names] if args.names else list(specs().values())
    with tempfile.TemporaryDirectory(prefix="hatemoji-fingerprints-") as scratch:
        stale = record_all(
            chosen, write=args.write, cache_dir=args.cache_dir or scratch, mirror=args.mirror
        )
    for path, _ in stale:
        print(f"{'wrote' if args.write else 'differs'}: {path}")
    if not stale:
        print("recorded fingerprints match fresh builds")
    return 1 if stale and not args.write else 0


def _lock(args: argparse.Namespace) -> int:
    from hatemoji_datasets import lock

    locked = lock.lock_datasets(args.references, cache_dir=args.cache_dir, mirror=args.mirror)
    if args.output == "-":
        sys.stdout.write(lock.dumps(locked))
    else:
        lock.write(locked, args.output)
        names = ", ".join(entry.reference for entry in locked.datasets)
        print(f"wrote {args.output}: {names}", file=sys.stderr)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from hatemoji_datasets import lock

    results = lock.verify_lock(args.lockfile, cache_dir=args.cache_dir, mirror=args.mirror)
    for line in lock.describe(results):
        print(safe(line))
    failed = sum(1 for _, problems in results if problems)
    if failed:
        print(
            f"error: {failed} of {len(results)} locked dataset(s) differ from {args.lockfile}",
            file=sys.stderr,
        )
    return 1 if failed else 0


def _sources(args: argparse.Namespace) -> int:
    from hatemoji_datasets.registry import specs

    for name, spec in specs().items():
        for source in spec.source_files().values():
            print(
                f"{name}\t{source.name}\t{source.url}\t{source.size}\t{source.sha256}"
                f"\t{source.license}"
            )
    return 0


def _info(args: argparse.Namespace) -> int:
    from hatemoji_datasets import summary
    from hatemoji_datasets.registry import resolve

    spec, config, version = resolve(args.name, args.config)
    info = summary.read(spec, config, version, args.cache_dir)  # a build's stored summary
    if info is None:
        from hatemoji_datasets.api import dataset_info

        info = dataset_info(spec.name, config.name, version=version, **_builder_kwargs(args))
    print(f"{info['pretty_name']}: {info['name']} ({info['config']}), version {info['version']}")
    print(f"configs: {', '.join(info['configs'])}")
    print("release notes:")
    for release, note in info["release_notes"].items():
        print(f"  {release}: {note}")
    print("features:")
    for feature, kind in info["features"].items():
        print(f"  {feature}: {_describe_feature(kind)}")
    print("splits:")
    for split, rows in info["splits"].items():
        print(f"  {split}: {rows:,} rows")
    print(f"license: {info['license']}")
    print(f"homepage: {info['homepage']}")
    print("sources:")
    for source in info["sources"]:
        print(f"  {source['url']} (sha256 {source['sha256']}, {source['license']})")
    if info["statistics"]:
        print("statistics:")
        _print_nested(info["statistics"], indent=2)
    print("citation:")
    print(info["citation"])
    return 0


def _build(args: argparse.Namespace) -> int:
    from hatemoji_datasets.api import prepared_builder, verified_data
    from hatemoji_datasets.registry import resolve

    spec, config, version = resolve(args.name, args.config)
    builder = prepared_builder(
        spec.name, config.name, version=version, **_builder_kwargs(args), **_force(args)
    )
    data = verified_data(builder)
    print(f"built {builder.SPEC.name} ({builder.config.name}) {builder.config.version}")
    print(f"written to {builder.cache_dir}")
    for split, dataset in data.items():
        line = f"  {split}: {dataset.num_rows:,} rows"
        label = dataset.features.get("label")
        if label is not None and hasattr(label, "names"):
            counts = Counter(dataset["label"])
            shares = ", ".join(f"{name} {counts[k]:,}" for k, name in enumerate(label.names))
            line += f" ({shares})"
        print(line)
    return 0


def _describe_feature(feature: dict[str, Any]) -> str:
    """A feature as ``datasets`` serialises it (``Features.to_dict``), in a few words."""
    kind = feature.get("_type")
    if kind == "ClassLabel":
        return f"ClassLabel({', '.join(feature['names'])})"
    if kind == "Value":
        return feature["dtype"]
    if "feature" in feature:
        return f"list of {_describe_feature(feature['feature'])}"
    return str(feature)


def _print_nested(value: Any, indent: int) -> None:
    for key, item in value.items():
        if isinstance(item, dict):
            print(" " * indent + f"{key}:")
            _print_nested(item, indent + 2)
        else:
            print(" " * indent + f"{key}: {item}")
