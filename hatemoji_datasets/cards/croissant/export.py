"""Croissant 1.0 metadata of a Hub export: its own Parquet files, as written.

Every config and split of the export is a ``RecordSet`` of every field as the
package builds it (ClassLabels as ids, with their names in the enumeration
record sets and in ``labels.parquet``; lists as lists), read from the Parquet
file whose SHA-256 is that of the bytes written. Each Parquet file names the
pinned upstream file it was built from (``prov:wasDerivedFrom``; Croissant 1.1
recommends PROV-O for provenance), and the upstream files stay in the
distribution with their own SHA-256.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hatemoji_datasets.cards.croissant.derivable import CROISSANT_TYPES
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
from hatemoji_datasets.cards.gather import Built
from hatemoji_datasets.core.features import element_of

PARQUET = "application/x-parquet"
#: The export's table of every ClassLabel name: ``config, feature, id, name``.
LABELS_RECORD_SET = "labels"
LABEL_COLUMNS = (
    ("config", "sc:Text"),
    ("feature", "sc:Text"),
    ("id", "sc:Integer"),
    ("name", "sc:Text"),
)


@dataclass(frozen=True)
class WrittenFile:
    """A file the export wrote: its path in the repository, size and SHA-256."""

    path: str
    size: int
    sha256: str


def export_metadata(
    built: Built,
    parquet: dict[tuple[str, str], WrittenFile],
    labels: WrittenFile,
    generator: str,
) -> dict[str, Any]:
    """The export's ``croissant.json``: every config and split of its Parquet files.

    ``parquet`` maps ``(config, split)`` to the file written; ``generator`` names
    what wrote them (``hatemoji-datasets VERSION``).
    """
    import datasets

    spec, source = built.spec, built.source
    description = " ".join(source["description"].split()) + (
        " This file describes the Parquet files of a Hub export written by "
        f"{generator} (version {spec.version} of {spec.name}, every config): each record "
        "set is one split, every field as the package builds it (ClassLabels as ids, "
        "with their names in the enumeration record sets and in `labels.parquet`, lists as "
        "lists). Each Parquet file names the pinned upstream file it was built from "
        "(prov:wasDerivedFrom), listed here with its SHA-256."
    )
    upstream = [
        upstream_file(spec, file, "Pinned upstream file the export's Parquet files were built from")
        for file in pinned_files(spec)
    ]
    distribution: list[dict[str, Any]] = []
    enumerations: dict[str, dict[str, Any]] = {}
    record_sets: list[dict[str, Any]] = []
    for name, config in built.configs.items():
        for split in config.spec.split_names:
            written = parquet[name, split]
            # Every pinned file the split was built from: its own (stacked) and its joins'.
            origins = [
                *config.spec.split_sources(split),
                *(join.source_of(split) for join in config.spec.joins),
            ]
            derived_from = [{"@id": origin} for origin in origins]
            distribution.append(
                {
                    **_parquet_file(written, f"Config {name}, split {split}: built rows."),
                    "prov:wasDerivedFrom": derived_from[0] if len(origins) == 1 else derived_from,
                    "prov:wasGeneratedBy": {
                        "@type": "prov:Activity",
                        "prov:label": f"built and exported by {generator}",
                    },
                }
            )
            set_id = f"{name}/{split}"
            fields = []
            for field, feature in config.features.items():
                entry = field_entry(set_id, field, field_description(built, field))
                inner = element_of(feature)
                element = inner if inner is not None else feature
                if isinstance(element, datasets.ClassLabel):
                    enumeration = enumeration_set(field, element, enumerations)
                    entry["dataType"] = "sc:Integer"
                    entry["references"] = {"field": {"@id": f"{enumeration}/index"}}
                    entry["description"] += (
                        f" ClassLabel ids ({class_names(element)}); record set "
                        f"{enumeration} lists them."
                    )
                else:
                    entry["dataType"] = CROISSANT_TYPES.get(element.dtype, "sc:Integer")
                if inner is not None:
                    entry["repeated"] = True
                entry["source"] = {
                    "fileObject": {"@id": written.path},
                    "extract": {"column": field},
                }
                entry["description"] = entry["description"].strip()
                fields.append(entry)
            text = f"Config {name}, split {split} ({config.splits[split][0]:,} rows)."
            record_sets.append(record_set(set_id, text, fields))
    distribution.append(
        _parquet_file(labels, "Every ClassLabel name of every config: config, feature, id, name.")
    )
    label_fields = [
        {
            **field_entry(LABELS_RECORD_SET, column, ""),
            "dataType": data_type,
            "source": {"fileObject": {"@id": labels.path}, "extract": {"column": column}},
        }
        for column, data_type in LABEL_COLUMNS
    ]
    for entry in label_fields:
        entry.pop("description")
    record_sets.append(
        record_set(
            LABELS_RECORD_SET,
            "The label table: one row per ClassLabel name of each feature of each config.",
            label_fields,
        )
    )
    return strip_private(
        {
            **dataset_header(built, description),
            "distribution": [*distribution, *upstream],
            "recordSet": [*enumerations.values(), *record_sets],
            **rai(source),
        }
    )


def _parquet_file(written: WrittenFile, text: str) -> dict[str, Any]:
    return {
        "@type": "cr:FileObject",
        "@id": written.path,
        "name": written.path,
        "description": text,
        "contentUrl": written.path,
        "contentSize": f"{written.size} B",
        "encodingFormat": PARQUET,
        "sha256": written.sha256,
    }
