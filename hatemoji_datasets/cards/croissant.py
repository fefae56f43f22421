"""Croissant 1.0 metadata of a dataset, from its built data: files, record sets, RAI.

The pinned upstream files are FileObjects with their SHA-256; each split of a
config that keeps whole files is a RecordSet of typed, described fields
(verbatim columns point at their upstream column); ClassLabel names are
``sc:Enumeration`` record sets; the ``rai:`` properties come from the data
statements.
"""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.cards.gather import Built
from hatemoji_datasets.cards.lint import as_list
from hatemoji_datasets.features import element_of
from hatemoji_datasets.spec import DatasetSpec

LICENSE_URLS = {
    "cc-by-4.0": "https://creativecommons.org/licenses/by/4.0/",
    "cc-by-sa-4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
}
#: The JSON-LD context of Croissant 1.0 (as ``mlcroissant`` writes it).
CROISSANT_CONTEXT: dict[str, Any] = {
    "@language": "en",
    "@vocab": "https://schema.org/",
    "citeAs": "cr:citeAs",
    "column": "cr:column",
    "conformsTo": "dct:conformsTo",
    "cr": "http://mlcommons.org/croissant/",
    "rai": "http://mlcommons.org/croissant/RAI/",
    "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/",
    "equivalentProperty": "cr:equivalentProperty",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract",
    "field": "cr:field",
    "fileProperty": "cr:fileProperty",
    "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet",
    "format": "cr:format",
    "includes": "cr:includes",
    "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath",
    "key": "cr:key",
    "md5": "cr:md5",
    "parentField": "cr:parentField",
    "path": "cr:path",
    "recordSet": "cr:recordSet",
    "references": "cr:references",
    "regex": "cr:regex",
    "repeated": "cr:repeated",
    "replace": "cr:replace",
    "samplingRate": "cr:samplingRate",
    "sc": "https://schema.org/",
    "separator": "cr:separator",
    "source": "cr:source",
    "subField": "cr:subField",
    "transform": "cr:transform",
}
#: ``datasets`` Value dtypes -> Croissant data types.
CROISSANT_TYPES = {
    "string": "sc:Text",
    "large_string": "sc:Text",
    "bool": "sc:Boolean",
    "float32": "sc:Float",
    "float64": "sc:Float",
}


def croissant_metadata(built: Built) -> dict[str, Any]:
    import datasets

    spec, source = built.spec, built.source
    files = spec.source_files()
    hub = source.get("hub", {})
    rows_per_source = built.rows_per_source()
    # Configs whose every split is one file, all of whose rows it keeps, map one to
    # one onto the files; the others keep part of them (one round of a multi-round
    # file, say) or stack several files (each of which has its record set already).
    complete = [
        config
        for config in built.configs.values()
        if all(
            len(config.spec.split_sources(split)) == 1
            and config.splits[split][0] == rows_per_source[config.spec.split_sources(split)[0]]
            for split in config.spec.split_names
        )
    ]
    stacked = [
        config.spec.name
        for config in built.configs.values()
        if any(len(config.spec.split_sources(split)) > 1 for split in config.spec.split_names)
    ]
    partial = [
        config.spec.name
        for config in built.configs.values()
        if config not in complete and config.spec.name not in stacked
    ]
    description = " ".join(source["description"].split())
    if partial:
        description += (
            f" Record sets describe the configs that keep every row of their files; configs "
            f"{', '.join(partial)} keep a subset of the same files."
        )
    if stacked:
        description += (
            f" Configs {', '.join(stacked)} stack files that have record sets of their own, "
            "and so have none."
        )
    distribution = []
    for file in files.values():
        raw_format = _raw_format(spec, file.name)
        distribution.append(
            {
                "@type": "cr:FileObject",
                "@id": file.name,
                "name": file.name,
                "description": f"Pinned upstream file ({file.license}).",
                "contentUrl": file.url,
                "contentSize": f"{file.size} B",
                "encodingFormat": (
                    "text/tab-separated-values" if raw_format.delimiter == "\t" else "text/csv"
                ),
                "sha256": file.sha256,
            }
        )
    enumerations: dict[str, dict[str, Any]] = {}
    record_sets: list[dict[str, Any]] = []
    descriptions = source.get("fields", {})
    for config in complete:
        own_columns = _columns(spec, config.spec.schema)
        for split in config.spec.split_names:
            file = config.spec.split_sources(split)[0]
            joined = {
                column: join.source_of(split)
                for join in config.spec.joins
                for column in _columns(spec, join.schema)
                if column not in own_columns
            }
            set_id = f"{config.spec.name}/{split}"
            fields = []
            for field, feature in config.features.items():
                fields.append(
                    _croissant_field(
                        set_id,
                        field,
                        feature,
                        descriptions.get(field, {}),
                        config.spec.name,
                        file,
                        enumerations,
                        datasets,
                        joined,
                    )
                )
            record_sets.append(
                {
                    "@type": "cr:RecordSet",
                    "@id": set_id,
                    "name": set_id,
                    "description": (
                        f"Config {config.spec.name}, split {split} "
                        f"({config.splits[split][0]:,} rows), built from {file}."
                    ),
                    "field": fields,
                }
            )
    metadata: dict[str, Any] = {
        "@context": CROISSANT_CONTEXT,
        "@type": "sc:Dataset",
        "conformsTo": "http://mlcommons.org/croissant/1.0",
        "name": spec.name,
        "alternateName": source["pretty_name"],
        "description": description,
        "url": source["homepage"],
        "license": LICENSE_URLS.get(source["license"], source["license"]),
        "version": spec.version,
        "citeAs": source["citation"].strip(),
        "inLanguage": as_list(hub.get("language", [])),
        "keywords": as_list(hub.get("tags", [])),
        "distribution": distribution,
        "recordSet": [*enumerations.values(), *record_sets],
        **_rai(source),
    }
    return _strip_private(metadata)


def _raw_format(spec: DatasetSpec, source_name: str) -> Any:
    for config in spec.configs:
        if source_name in config.source_names:
            return config.raw_format
    return spec.configs[0].raw_format


def _columns(spec: DatasetSpec, schema: str) -> set[str]:
    from hatemoji_datasets.schema import compiled

    return set(compiled(spec.load(schema)).columns)


def _croissant_field(
    set_id: str,
    field: str,
    feature: Any,
    about: Any,
    config: str,
    file: str,
    enumerations: dict[str, dict[str, Any]],
    datasets: Any,
    joined: dict[str, str],
) -> dict[str, Any]:
    """A record set field; ``joined`` maps the columns of joined files to their file."""
    text = about.get("description", "") if isinstance(about, dict) else str(about)
    upstream = about.get("upstream") if isinstance(about, dict) else None
    if isinstance(upstream, dict):
        upstream = upstream.get(config)
    entry: dict[str, Any] = {
        "@type": "cr:Field",
        "@id": f"{set_id}/{field}",
        "name": field,
        "description": " ".join(text.split()),
    }
    element = element_of(feature)
    is_list = element is not None
    inner = element if is_list else feature
    if isinstance(inner, datasets.ClassLabel):
        enumeration = _enumeration(field, inner, enumerations)
        entry["dataType"] = "sc:Integer"
        entry["references"] = {"field": {"@id": f"{enumeration}/index"}}
        names = ", ".join(f"{i} {name}" for i, name in enumerate(inner.names))
        entry["description"] += f" ClassLabel ids ({names}); names in record set {enumeration}."
    else:
        entry["dataType"] = CROISSANT_TYPES.get(inner.dtype, "sc:Integer")
    if is_list:
        entry["repeated"] = True
    if upstream in joined:
        # Read from a file joined to the split's rows: named, not extracted from it.
        entry["description"] += (
            f" From upstream column `{upstream}` of {joined[upstream]}, joined by key."
        )
    elif upstream:
        if is_list or isinstance(inner, datasets.ClassLabel):
            # Derived (mapped to ids, parsed or segmented): named, not extracted as is.
            entry["description"] += f" Derived from upstream column `{upstream}` of {file}."
        else:
            entry["source"] = {"fileObject": {"@id": file}, "extract": {"column": upstream}}
    entry["description"] = entry["description"].strip()
    return entry


def _enumeration(field: str, feature: Any, enumerations: dict[str, dict[str, Any]]) -> str:
    set_id = f"{field}_names"
    suffix = 2
    while set_id in enumerations and enumerations[set_id]["_names"] != feature.names:
        set_id, suffix = f"{field}_names_{suffix}", suffix + 1
    if set_id not in enumerations:
        enumerations[set_id] = {
            "@type": "cr:RecordSet",
            "@id": set_id,
            "name": set_id,
            "dataType": "sc:Enumeration",
            "description": f"The ClassLabel names of `{field}`, by id.",
            "key": {"@id": f"{set_id}/index"},
            "field": [
                {
                    "@type": "cr:Field",
                    "@id": f"{set_id}/index",
                    "name": "index",
                    "dataType": "sc:Integer",
                },
                {
                    "@type": "cr:Field",
                    "@id": f"{set_id}/name",
                    "name": "name",
                    "dataType": "sc:Text",
                },
            ],
            "data": [
                {f"{set_id}/index": index, f"{set_id}/name": name}
                for index, name in enumerate(feature.names)
            ],
            "_names": list(feature.names),
        }
    return set_id


#: Croissant RAI properties and the data statement sections that support them.
RAI_SECTIONS: dict[str, tuple[str, ...]] = {
    "rai:dataCollection": ("curation_rationale", "speech_situation"),
    "rai:dataPreprocessingProtocol": ("preprocessing_and_data_formatting",),
    "rai:annotatorDemographics": ("annotator_demographic",),
    "rai:dataAnnotationAnalysis": ("capture_quality",),
    "rai:dataLimitations": ("limitations",),
}
#: RAI properties that take one text (the others take a list).
RAI_SINGLE = frozenset({"rai:dataCollection"})


def _rai(source: dict[str, Any]) -> dict[str, Any]:
    statements = source.get("data_statements", {})
    several = len(statements) > 1
    found: dict[str, Any] = {}
    for prop, keys in RAI_SECTIONS.items():
        texts = []
        for corpus, statement in statements.items():
            text = " ".join(" ".join(str(statement[key]).split()) for key in keys)
            texts.append(f"{corpus}: {text}" if several else text)
        found[prop] = " ".join(texts) if prop in RAI_SINGLE else texts
    if source.get("intended_uses"):
        found["rai:dataUseCases"] = list(source["intended_uses"])
    return found


def _strip_private(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_private(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [_strip_private(v) for v in value]
    return value
