"""What every Croissant file of the package shares: context, dataset header, enumerations, RAI.

:mod:`hatemoji_datasets.cards.croissant.upstream` (the committed file, of the upstream
files) and :mod:`hatemoji_datasets.cards.croissant.export` (the Hub export's, of its
Parquet files) build their record sets on these.
"""

from __future__ import annotations

from typing import Any

from hatemoji_datasets.cards.gather import Built
from hatemoji_datasets.cards.lint import as_list
from hatemoji_datasets.core.spec import DatasetSpec

LICENSE_URLS = {
    "cc-by-4.0": "https://creativecommons.org/licenses/by/4.0/",
    "cc-by-sa-4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
}
#: The JSON-LD context of Croissant 1.0 (as ``mlcroissant`` writes it), with PROV-O.
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
    "prov": "http://www.w3.org/ns/prov#",
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
CONFORMS_TO = "http://mlcommons.org/croissant/1.0"


def dataset_header(built: Built, description: str) -> dict[str, Any]:
    spec, source = built.spec, built.source
    hub = source.get("hub", {})
    header: dict[str, Any] = {
        "@context": CROISSANT_CONTEXT,
        "@type": "sc:Dataset",
        "conformsTo": CONFORMS_TO,
        "name": spec.name,
        "alternateName": source["pretty_name"],
        "description": description,
        "url": source["homepage"],
        "license": LICENSE_URLS.get(source["license"], source["license"]),
        "version": spec.version,
    }
    published = spec.releases[0].date
    if published:
        header["datePublished"] = published
    header |= {
        "citeAs": source["citation"].strip(),
        "inLanguage": as_list(hub.get("language", [])),
        "keywords": as_list(hub.get("tags", [])),
    }
    return header


def pinned_files(spec: DatasetSpec) -> list[Any]:
    return list(spec.source_files().values())


def upstream_file(spec: DatasetSpec, file: Any, text: str) -> dict[str, Any]:
    raw_format = raw_format_of(spec, file.name)
    return {
        "@type": "cr:FileObject",
        "@id": file.name,
        "name": file.name,
        "description": f"{text} ({file.license}).",
        "contentUrl": file.url,
        "contentSize": f"{file.size} B",
        "encodingFormat": (
            "text/tab-separated-values" if raw_format.delimiter == "\t" else "text/csv"
        ),
        "sha256": file.sha256,
    }


def raw_format_of(spec: DatasetSpec, source_name: str) -> Any:
    for config in spec.configs:
        if source_name in config.source_names:
            return config.raw_format
    return spec.configs[0].raw_format


def record_set(set_id: str, text: str, fields: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "@type": "cr:RecordSet",
        "@id": set_id,
        "name": set_id,
        "description": text,
        "field": fields,
    }


def field_entry(set_id: str, name: str, text: str) -> dict[str, Any]:
    return {"@type": "cr:Field", "@id": f"{set_id}/{name}", "name": name, "description": text}


def field_description(built: Built, field: str) -> str:
    about = built.source.get("fields", {}).get(field, {})
    text = about.get("description", "") if isinstance(about, dict) else str(about)
    return " ".join(text.split())


def class_names(feature: Any) -> str:
    return ", ".join(f"{i} {name}" for i, name in enumerate(feature.names))


def enumeration_set(field: str, feature: Any, enumerations: dict[str, dict[str, Any]]) -> str:
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


def rai(source: dict[str, Any]) -> dict[str, Any]:
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


def strip_private(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: strip_private(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [strip_private(v) for v in value]
    return value
