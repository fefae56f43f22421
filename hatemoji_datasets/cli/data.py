"""``list``, ``sources``, ``info`` and ``build``: what the package holds, and building it."""

from __future__ import annotations

import argparse
import json
import textwrap
from collections import Counter
from collections.abc import Callable
from typing import Any

from hatemoji_datasets.cli.output import WIDTH, human_size, number, show_progress, table, wrap_list
from hatemoji_datasets.core.columns import LABEL_COLUMN
from hatemoji_datasets.core.findings import safe
from hatemoji_datasets.core.licences import terms

#: A statistic's text longer than this is wrapped under its key rather than tabulated.
LONG_TEXT = 100
#: ``list`` wraps a dataset's pretty name to this width, leaving the room to its configs.
PRETTY_NAME_WIDTH = 22


def add_commands(commands: Any, source_options: Callable[..., None]) -> None:
    listing = commands.add_parser("list", help="list the datasets, versions and configs")
    listing.add_argument("--format", choices=("table", "json"), default="table")
    listing.set_defaults(command=run_list)

    sources = commands.add_parser("sources", help="list every pinned upstream file")
    sources.add_argument("--format", choices=("table", "json"), default="table")
    sources.set_defaults(command=run_sources)

    for name, function, text in (
        ("info", run_info, "version, features, split sizes, statistics, licence, citation"),
        ("build", run_build, "build a dataset into the cache and summarise it"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("name", help="NAME[/CONFIG][:VERSION]")
        sub.add_argument("--config", help="config name (default: the dataset's default)")
        source_options(sub)
        sub.set_defaults(command=function)
        if name == "info":
            sub.add_argument("--format", choices=("text", "json"), default="text")
        if name == "build":
            sub.add_argument(
                "--force", action="store_true", help="rebuild from freshly verified sources"
            )
            sub.add_argument(
                "--validate",
                action="store_true",
                help="check the pinned files against the schema even if their recorded "
                "fingerprints say they were checked (also when the build is cached)",
            )


def run_list(args: argparse.Namespace) -> int:
    from hatemoji_datasets.core.registry import check_registry, specs

    check_registry()

    if args.format == "json":
        listed = [
            {
                "name": name,
                "pretty_name": spec.pretty_name,
                "version": spec.version,
                "versions": spec.versions,
                "default_config": spec.default_config_name,
                "configs": spec.config_names,
            }
            for name, spec in specs().items()
        ]
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return 0
    rows = []
    for name, spec in specs().items():
        older = f" (also {', '.join(spec.versions[1:])})" if len(spec.versions) > 1 else ""
        others = [config for config in spec.config_names if config != spec.default_config_name]
        rows.append(
            [
                name,
                spec.version + older,
                spec.default_config_name,
                ", ".join(others),
                spec.pretty_name,
            ]
        )
    # One header line, and the room goes to the configs: a title wraps between its words.
    headers = ["name", "version", "default", "other configs", "pretty name"]
    print(table(headers, rows, at_most={4: PRETTY_NAME_WIDTH}))
    return 0


def run_sources(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from hatemoji_datasets.core.registry import check_registry, specs

    check_registry()
    pinned = [
        (name, source) for name, spec in specs().items() for source in spec.source_files().values()
    ]
    if args.format == "json":
        listed = [{"dataset": name, **asdict(source)} for name, source in pinned]
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return 0
    rows = [
        [name, source.name, human_size(source.size), source.license, source.sha256[:12], source.url]
        for name, source in pinned
    ]
    print(table(["dataset", "source", "size", "licence", "sha256", "url"], rows, right=[2]))
    print(
        "\nsha256 shortened to 12 digits; `hatemoji-datasets sources --format json` has them whole"
    )
    return 0


#: The version of ``info --format json``'s document (``format``), as other reports carry.
INFO_FORMAT = 1


def run_info(args: argparse.Namespace) -> int:
    from hatemoji_datasets.building import summary
    from hatemoji_datasets.core.features import describe_feature_dict
    from hatemoji_datasets.core.registry import lookup

    spec, config, version = lookup(args.name, args.config)
    info = summary.read(spec, config, version, args.cache_dir)  # a build's stored summary
    if info is None:
        from hatemoji_datasets.api import dataset_info

        show_progress()
        info = dataset_info(
            spec.name, config.name, version=version, cache_dir=args.cache_dir, mirror=args.mirror
        )
    cache = summary.build_dir(spec, config, version, args.cache_dir)
    if args.format == "json":
        # The stored summary's own format version is the file's, not this document's.
        shown = {key: value for key, value in info.items() if key != "format"}
        document = {"format": INFO_FORMAT, "exit_code": 0, "cache": str(cache), **shown}
        document["licence_terms"] = terms(spec)
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return 0
    print(f"{info['pretty_name']}: {info['name']} ({info['config']}), version {info['version']}")
    print("\n         ".join(wrap_list(f"configs: {', '.join(info['configs'])}", WIDTH)))
    print(f"cache: {safe(str(cache))}")
    print(f"license: {info['license']}")
    for sentence in terms(spec):
        print(textwrap.fill(f"terms: {sentence}", WIDTH, subsequent_indent="       "))
    print(f"homepage: {info['homepage']}")
    print("\nsplits:")
    print(table(["split", "rows"], list(info["splits"].items()), right=[1]))
    print("\nfeatures:")
    name_width = max([len("feature"), *(len(safe(name)) for name in info["features"])])
    features = [
        [name if i == 0 else "", line]
        for name, kind in info["features"].items()
        for i, line in enumerate(wrap_list(describe_feature_dict(kind), WIDTH - name_width - 2))
    ]
    print(table(["feature", "type"], features))
    print("\nsources:")
    print(
        table(
            ["source", "size", "licence", "sha256"],
            [
                [s["name"], human_size(s["size"]), s["license"], s["sha256"]]
                for s in info["sources"]
            ],
            right=[1],
        )
    )
    headers = statistic_headers(spec)
    for title, value in info["statistics"].items():
        print()
        print_statistic(title, value, headers=headers.get(title, title_headers(title)))
    print("\nrelease notes:")
    for release, note in info["release_notes"].items():
        print(
            textwrap.fill(
                f"{release}: {note}", WIDTH, initial_indent="  ", subsequent_indent="    "
            )
        )
    print("\ncitation:")
    print(info["citation"])
    return 0


def statistic_headers(spec: Any) -> dict[str, tuple[str, str]]:
    """The headers of each statistic's key and value columns as the card's tables name them
    (``card.yaml``'s ``rows`` and ``value``), else as its title says (:func:`title_headers`)."""
    from hatemoji_datasets.core.card_source import card_source

    found: dict[str, tuple[str, str]] = {}
    for declared in card_source(spec.card_source_path).get("tables", None) or []:
        if isinstance(declared, dict) and isinstance(declared.get("statistic"), str):
            title = declared["statistic"]
            key, value = title_headers(title)
            found[title] = (str(declared.get("rows") or key), str(declared.get("value") or value))
    return found


def title_headers(title: str) -> tuple[str, str]:
    """``("target", "cases")`` for a statistic titled "cases per target"; else no key header."""
    unit, per, key = title.partition(" per ")
    return (key, unit) if per else ("", "value")


def print_statistic(
    title: str, value: Any, indent: int = 0, *, headers: tuple[str, str] = ("", "value")
) -> None:
    """One statistic: a line for a figure, a table for a mapping, nested mappings indented;
    ``headers`` name its key column and (for a mapping of figures) its value column."""
    pad = " " * indent
    if not isinstance(value, dict):
        print(f"{pad}{title}: {number(value)}")
        return
    print(f"{pad}{title}:")
    rows = list(value.values())
    flat_rows = all(isinstance(row, dict) for row in rows) and all(
        not isinstance(cell, dict) for row in rows for cell in row.values()
    )
    if rows and flat_rows:
        columns: list[str] = []
        for row in rows:
            columns += [column for column in row if column not in columns]
        cells = [[key, *(row.get(c, "") for c in columns)] for key, row in value.items()]
        numeric = [
            position
            for position in range(1, len(columns) + 1)
            if all(
                isinstance(cell[position], int | float) for cell in cells if cell[position] != ""
            )
        ]
        fit = WIDTH - len(pad) - 2
        print(indented(table([headers[0], *columns], cells, right=numeric, width=fit), pad))
        return
    figures = {key: item for key, item in value.items() if not isinstance(item, dict)}
    if figures and len(figures) == len(value):
        if any(isinstance(item, str) and len(item) > LONG_TEXT for item in figures.values()):
            for key, item in figures.items():  # long lists of values: wrapped under their key
                print(f"{pad}  {safe(key)}:")
                for line in wrap_list(safe(str(item)), WIDTH - len(pad) - 4):
                    print(f"{pad}    {line}")
            return
        shown = table(list(headers), list(figures.items()), right=[1], width=WIDTH - len(pad) - 2)
        print(indented(shown, pad))
        return
    for key, item in value.items():
        print_statistic(key, item, indent + 2, headers=title_headers(key))


def indented(text: str, pad: str) -> str:
    return "\n".join(f"{pad}  {line}" if line else "" for line in text.splitlines())


def run_build(args: argparse.Namespace) -> int:
    from hatemoji_datasets.building import summary
    from hatemoji_datasets.building.prepare import FORCE, load_verified
    from hatemoji_datasets.core.registry import lookup

    spec, config, version = lookup(args.name, args.config)
    cached = not args.force and summary.is_built(spec, config, version, args.cache_dir)
    show_progress()
    builder, data = load_verified(
        spec,
        config,
        version,
        cache_dir=args.cache_dir,
        mirror=args.mirror,
        download_mode=FORCE if args.force else None,
        validate=args.validate,
    )
    what = "read from the cache" if cached else "built"
    print(f"{what}: {spec.name} ({config.name}) {version}")
    print(f"cache: {safe(str(builder.cache_dir))}")
    if builder.validated:
        from hatemoji_datasets.schema.raw_columns import model_name

        files = len(config.source_names)
        print(f"schema: {files:,} pinned file(s) valid against {model_name(config.schema)}")
    rows = []
    for split, dataset in data.items():
        label = dataset.features.get(LABEL_COLUMN)
        shares = ""
        if label is not None and hasattr(label, "names"):
            counts = Counter(dataset[LABEL_COLUMN][:])
            shares = ", ".join(f"{name} {counts[k]:,}" for k, name in enumerate(label.names))
        rows.append([split, dataset.num_rows, shares])
    print(table(["split", "rows", "labels"], rows, right=[1]))
    return 0
