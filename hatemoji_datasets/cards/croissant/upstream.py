"""Croissant 1.0 metadata of the pinned upstream files (``cards/<name>/croissant.json``).

The pinned upstream files are ``FileObject``s with their SHA-256; each split
of a config that keeps whole files is a ``RecordSet`` of the fields a Croissant
reader derives exactly from them
(:mod:`~hatemoji_datasets.cards.croissant.derivable`), with the package's values;
the fields it cannot derive are named, with the reason, in the record set's
description. ClassLabel names are ``sc:Enumeration`` record sets, the ``rai:``
properties come from the data statements, and ``datePublished`` is the date of
the package release that first built the version. The Hub export describes its
own Parquet files instead (:mod:`hatemoji_datasets.cards.croissant.export`).
"""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.cards.croissant.derivable import (
    Derived,
    Omitted,
    read_like_a_croissant_reader,
    upstream_fields,
)
from hatemoji_datasets.cards.croissant.parts import (
    class_names,
    dataset_header,
    enumeration_set,
    field_description,
    field_entry,
    pinned_files,
    rai,
    record_set,
    strip_private,
    upstream_file,
)
from hatemoji_datasets.cards.gather import Built, BuiltConfig
from hatemoji_datasets.core.features import element_of


def croissant_metadata(built: Built) -> dict[str, Any]:
    """The committed ``croissant.json``: what a Croissant reader derives from upstream."""
    spec, source = built.spec, built.source
    rows_per_source = built.rows_per_source()
    # Configs whose every split is one file, all of whose rows it keeps, map one to
    # one onto the files; the others keep part of them (one round of a multi-round
    # file, say), split the rows of the same files anew, or stack several files (each
    # of which has its record set already).
    stacked = [config.spec.name for config in built.configs.values() if _stacks(config)]
    resplit = [config.spec.name for config in built.configs.values() if config.spec.resplit]
    complete = [
        config
        for config in built.configs.values()
        if config.spec.name not in stacked
        and not config.spec.resplit
        and all(
            config.splits[split][0] == rows_per_source[_file_of(config, split)]
            for split in config.spec.split_names
        )
    ]
    partial = [
        config.spec.name
        for config in built.configs.values()
        if config not in complete
        and config.spec.name not in stacked
        and config.spec.name not in resplit
    ]
    description = " ".join(source["description"].split()) + (
        " This file describes the pinned upstream files as a Croissant reader reads them "
        "(CSV parsing, then each field's transform): each record set holds only the "
        "fields such a reader derives exactly, with the package's values (ClassLabels as "
        "ids where upstream writes the id, as names where upstream writes or contains the "
        "name); a record set's description names the fields it leaves out and why. The "
        f"croissant.json of the Hub export (`hatemoji-datasets export {spec.name}`) "
        "describes the built Parquet files, with every field of every config."
    )
    if partial or resplit:
        description += " Record sets describe the configs that keep every row of their files;"
        if partial:
            description += f" configs {', '.join(partial)} keep a subset of the same files"
            description += ";" if resplit else "."
        if resplit:
            description += f" configs {', '.join(resplit)} split the rows of the same files anew."
    if stacked:
        description += (
            f" Configs {', '.join(stacked)} stack files that have record sets of their own, "
            "and so have none."
        )
    distribution = [
        upstream_file(spec, file, "Pinned upstream file") for file in pinned_files(spec)
    ]
    enumerations: dict[str, dict[str, Any]] = {}
    record_sets: list[dict[str, Any]] = []
    for config in complete:
        derived = _derivations(built, config)
        for split in config.spec.split_names:
            file = _file_of(config, split)
            set_id = f"{config.spec.name}/{split}"
            fields = [
                _upstream_field(built, set_id, name, feature, file, way, enumerations)
                for name, feature in config.features.items()
                if isinstance(way := derived[name], Derived)
            ]
            left_out = [
                f"`{name}` ({way.reason})"
                for name, way in derived.items()
                if isinstance(way, Omitted)
            ]
            text = (
                f"Config {config.spec.name}, split {split} ({config.splits[split][0]:,} rows), "
                f"read from upstream file {file}."
            )
            if left_out:
                text += f" Left out: {'; '.join(left_out)}."
            record_sets.append(record_set(set_id, text, fields))
    return strip_private(
        {
            **dataset_header(built, description),
            "distribution": distribution,
            "recordSet": [*enumerations.values(), *record_sets],
            **rai(source),
        }
    )


def _stacks(config: BuiltConfig) -> bool:
    """Whether a split of the config is several files of one format, stacked."""
    return any(len(config.spec.split_sources(split)) > 1 for split in config.spec.split_names)


def _file_of(config: BuiltConfig, split: str) -> str:
    """The one file a split's own rows come from (configs that stack files have none)."""
    return config.spec.split_sources(split)[0]


def _derivations(built: Built, config: BuiltConfig) -> dict[str, Derived | Omitted]:
    fields = built.source.get("fields", {})
    upstream = {
        name: _upstream_column(fields.get(name), config.spec.name) for name in config.features
    }
    raw_format = config.spec.raw_format
    splits = {
        split: (
            read_like_a_croissant_reader(
                built.source_paths[_file_of(config, split)], raw_format.delimiter
            ),
            config.data[split],
        )
        for split in config.spec.split_names
    }
    found = upstream_fields(config.features, upstream, splits, quoted=raw_format.quoted)
    # A column only a joined file holds comes from another file, matched by key.
    joined = _joined_columns(built, config)
    for name, column in upstream.items():
        if column in joined:
            found[name] = Omitted(
                f"upstream column `{column}` is in {joined[column]}, which the package joins "
                "to these rows by key; a Croissant reader does not join files"
            )
    return found


def _joined_columns(built: Built, config: BuiltConfig) -> dict[str, str]:
    """Columns of the config's joined files that its own files lack -> their files."""
    from hatemoji_datasets.schema.raw_columns import layout_of  # generated: no pandera import

    spec = built.spec
    own = set(layout_of(spec, config.spec.schema).columns)
    return {
        column: " and ".join(dict.fromkeys(join.source_names))
        for join in config.spec.joins
        for column in layout_of(spec, join.schema).columns
        if column not in own
    }


def _upstream_column(about: Any, config: str) -> str | None:
    upstream = about.get("upstream") if isinstance(about, dict) else None
    return upstream.get(config) if isinstance(upstream, dict) else upstream


def _upstream_field(
    built: Built,
    set_id: str,
    name: str,
    feature: Any,
    file: str,
    way: Derived,
    enumerations: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    import datasets

    entry = field_entry(set_id, name, field_description(built, name))
    entry["dataType"] = way.data_type
    entry["source"] = way.source(file)
    inner = element_of(feature) or feature
    if way.repeated:
        entry["repeated"] = True
    if isinstance(inner, datasets.ClassLabel):
        enumeration = enumeration_set(name, inner, enumerations)
        key = "index" if way.form == "ids" else "name"
        entry["references"] = {"field": {"@id": f"{enumeration}/{key}"}}
        how = "extracted from upstream's spelling" if way.transforms else "as upstream writes them"
        entry["description"] += (
            f" ClassLabel {'ids' if way.form == 'ids' else 'names'} {how} ({class_names(inner)}); "
            f"record set {enumeration} lists them."
        )
    if way.column != name:
        entry["description"] += f" Upstream column `{way.column}`."
    entry["description"] = entry["description"].strip()
    return entry
