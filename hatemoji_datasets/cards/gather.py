"""Dataset cards (``README.md``) and Croissant metadata, rendered from the built data.

Everything a card says comes from three places: the declaration
(:mod:`hatemoji_datasets.spec`: configs, splits, releases, pinned files), the
hand-written ``card.yaml`` of the dataset package (prose, Hub metadata, data
statements, field descriptions, which statistics to tabulate), and the data
itself as :func:`hatemoji_datasets.load_dataset` builds it (features, split
sizes, ``size_categories`` and the distribution tables, which the dataset's
``statistics(data)`` computes, so ``hatemoji-datasets info`` shows the same
figures).

Rendering is deterministic: no dates, paths or versions of installed
libraries, so the committed cards can be checked for drift.

``dataset_info.features`` is written in the form every ``datasets`` from 2.x to
5.x reads: ClassLabel names as a mapping ``'0': name``, and lists as
``sequence:`` (datasets >= 4 writes ``list:``, which 3.x cannot read; 5.x still
reads ``sequence:`` and turns it into a ``List``). Checked by hand with
datasets 3.6.0 (``DatasetInfosDict.from_dataset_card_data``: ``Sequence`` of
the same ClassLabel / Value) and in ``tests/test_cards.py`` with the installed
version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from hatemoji_datasets.card_lint import Expected, size_category
from hatemoji_datasets.registry import dataset_spec
from hatemoji_datasets.spec import ConfigSpec, DatasetSpec

if TYPE_CHECKING:
    import datasets

README = "README.md"
CROISSANT = "croissant.json"
#: Where ``hatemoji-datasets card NAME`` writes by default (``cards/<name>/``).
DEFAULT_OUT = Path("cards")

#: The sections of a long-form data statement, in order, with their headings.
DATA_STATEMENT_SECTIONS: dict[str, str] = {
    "curation_rationale": "Curation rationale",
    "language_variety": "Language variety",
    "speaker_demographic": "Speaker demographic",
    "annotator_demographic": "Annotator demographic",
    "speech_situation": "Speech situation",
    "text_characteristics": "Text characteristics",
    "preprocessing_and_data_formatting": "Preprocessing and data formatting",
    "capture_quality": "Capture quality",
    "limitations": "Limitations",
    "metadata": "Metadata",
    "disclosures_and_ethical_review": "Disclosures and ethical review",
}
#: Hub metadata copied from ``card.yaml`` (``hub:``), in the order they are written.
HUB_KEYS = (
    "language",
    "license",
    "pretty_name",
    "task_categories",
    "task_ids",
    "annotations_creators",
    "language_creators",
    "multilinguality",
    "source_datasets",
    "tags",
    "paperswithcode_id",
)
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


@dataclass
class BuiltConfig:
    """One config as built: its declaration, data, statistics and split sizes."""

    spec: ConfigSpec
    data: datasets.DatasetDict
    statistics: dict[str, Any]
    #: ``{split: (num_examples, num_bytes)}``
    splits: dict[str, tuple[int, int]]

    @property
    def features(self) -> datasets.Features:
        return next(iter(self.data.values())).features


@dataclass
class Built:
    """A dataset as the card describes it: declaration, ``card.yaml`` and every config."""

    spec: DatasetSpec
    source: dict[str, Any]
    configs: dict[str, BuiltConfig]

    @property
    def rows(self) -> int:
        """Rows of the dataset, each upstream row counted once.

        Configs may read the same pinned file (HatemojiBuild's round configs keep
        part of the files that ``all`` reads), so a file counts with the largest
        split built from it, and the dataset's rows are the sum over its files.
        """
        per_source: dict[str, int] = {}
        for config in self.configs.values():
            for split, source in config.spec.splits:
                rows = config.splits[split][0]
                per_source[source] = max(per_source.get(source, 0), rows)
        return sum(per_source.values())

    def expected(self) -> Expected:
        """What a card of this data must say, for :mod:`hatemoji_datasets.card_lint`."""
        return Expected(
            rows=self.rows,
            configs={
                name: {
                    "features": list(config.features),
                    "splits": {split: rows for split, (rows, _) in config.splits.items()},
                }
                for name, config in self.configs.items()
            },
        )


def build(name: str, *, cache_dir: str | None = None, mirror: str | None = None) -> Built:
    """Build (or load from the cache) every config of dataset ``name``."""
    from hatemoji_datasets.api import load_dataset

    spec = dataset_spec(name)
    with spec.card_source_path.open(encoding="utf-8") as handle:
        source = yaml.safe_load(handle)
    statistics = spec.resolve(spec.statistics) if spec.statistics else None
    configs: dict[str, BuiltConfig] = {}
    for config in spec.configs:
        data = load_dataset(name, config.name, cache_dir=cache_dir, mirror=mirror)
        splits = {}
        for split, dataset in data.items():
            recorded = (dataset.info.splits or {}).get(split)
            num_bytes = recorded.num_bytes if recorded is not None else dataset.data.nbytes
            splits[split] = (dataset.num_rows, int(num_bytes))
        configs[config.name] = BuiltConfig(
            spec=config,
            data=data,
            statistics=statistics(data) if statistics else {},
            splits=splits,
        )
    return Built(spec=spec, source=source, configs=configs)


# -- the card ---------------------------------------------------------------------------


def render_card(name: str, *, cache_dir: str | None = None, mirror: str | None = None) -> str:
    """The dataset card (``README.md`` text) of dataset ``name``, from its built data."""
    return card_text(build(name, cache_dir=cache_dir, mirror=mirror))


def card_text(built: Built) -> str:
    from huggingface_hub import DatasetCard

    text = f"---\n{card_metadata(built).to_yaml()}\n---\n\n{_body(built)}"
    DatasetCard(text)  # raises if huggingface_hub cannot read the front matter back
    return text


def card_metadata(built: Built) -> Any:
    """The card's YAML metadata as ``huggingface_hub.DatasetCardData``."""
    from huggingface_hub import DatasetCardData

    hub = built.source.get("hub", {})
    values = {key: hub[key] for key in HUB_KEYS if hub.get(key) is not None}
    values["size_categories"] = [size_category(built.rows)]
    default = built.spec.default_config_name
    values["configs"] = [
        {
            "config_name": name,
            **({"default": True} if name == default else {}),
            "data_files": [
                {"split": split, "path": f"data/{name}/{split}-*.parquet"}
                for split in config.splits
            ],
        }
        for name, config in built.configs.items()
    ]
    values["dataset_info"] = [
        {
            "config_name": name,
            "features": yaml_features(config.features),
            "splits": [
                {"name": split, "num_bytes": num_bytes, "num_examples": rows}
                for split, (rows, num_bytes) in config.splits.items()
            ],
            "dataset_size": sum(num_bytes for _, num_bytes in config.splits.values()),
        }
        for name, config in built.configs.items()
    ]
    return DatasetCardData(**values)


def yaml_features(features: datasets.Features) -> list[dict[str, Any]]:
    """``features`` in the card form that datasets 2.x to 5.x all read (see the module doc)."""
    return [{"name": name, **_yaml_feature(feature)} for name, feature in features.items()]


def _yaml_feature(feature: Any) -> dict[str, Any]:
    import datasets

    if isinstance(feature, datasets.ClassLabel):
        names = {str(index): name for index, name in enumerate(feature.names)}
        return {"dtype": {"class_label": {"names": names}}}
    if isinstance(feature, datasets.Value):
        return {"dtype": feature.dtype}
    inner = getattr(feature, "feature", None)
    if inner is not None and getattr(feature, "length", -1) in (-1, None):
        element = _yaml_feature(inner)
        # ``sequence: string`` for a list of Values, ``sequence: {class_label: ...}``
        # for a list of ClassLabels: the form datasets 2.x/3.x write and 4.x/5.x read.
        return {"sequence": element["dtype"]}
    raise TypeError(f"no card form for feature {feature!r}")


def _body(built: Built) -> str:
    spec, source = built.spec, built.source
    parts = [
        f"# Dataset Card for {source['pretty_name']}",
        f"> **Content warning.** {source['content_warning'].strip()}",
        source["description"].strip(),
        _details(built),
        _uses(built),
        _structure(built),
        _creation(built),
        _risks(built),
        _versions(spec),
        _licence(built),
        _citation(source),
        "---\n\n"
        f"*This card is generated by `hatemoji-datasets card {spec.name}` from the package's "
        f"declaration of the dataset, `hatemoji_datasets/datasets/{spec.name}/card.yaml` and "
        "the built data. Edit those and render it again rather than editing this file.*",
    ]
    return "\n\n".join(part.strip() for part in parts) + "\n"


def _details(built: Built) -> str:
    spec, source = built.spec, built.source
    hub = source.get("hub", {})
    lines = [
        "## Dataset Details",
        "",
        "### Dataset Description",
        "",
        f"- **Language(s):** {', '.join(_as_list(hub.get('language', [])))}",
        f"- **License:** {source['license']}",
        f"- **Version:** {spec.version}",
        f"- **Configs:** {', '.join(f'`{c}`' for c in built.configs)} "
        f"(default `{spec.default_config_name}`)",
        f"- **Rows:** {built.rows:,} ({size_category(built.rows)})",
        "",
        "### Dataset Sources",
        "",
        f"- **Repository:** {source['homepage']}",
    ]
    lines += [f"- **Paper:** {paper}" for paper in _papers(source["citation"])]
    lines += [
        "",
        "The package builds the data from these upstream files, pinned to a commit and "
        "checked against their SHA-256 before use:",
        "",
        "| file | URL | bytes | SHA-256 | licence |",
        "|---|---|---:|---|---|",
    ]
    for file in spec.source_files().values():
        lines.append(
            f"| `{file.name}` | {file.url} | {file.size:,} | `{file.sha256}` | {file.license} |"
        )
    return "\n".join(lines)


def _papers(citation: str) -> list[str]:
    found = []
    for entry in re.split(r"\n(?=@)", citation.strip()):
        doi = re.search(r"doi\s*=\s*\{([^}]*)\}", entry)
        url = re.search(r"url\s*=\s*\{([^}]*)\}", entry)
        if doi:
            found.append(f"https://doi.org/{doi.group(1)}")
        elif url:
            found.append(url.group(1))
    return found


def _hub_repo(built: Built) -> tuple[str, bool]:
    repo = built.source.get("hub_repo_id")
    return (repo, True) if repo else (f"<org>/{built.spec.name}", False)


def _uses(built: Built) -> str:
    spec, source = built.spec, built.source
    name, default = spec.name, spec.default_config_name
    others = [config for config in built.configs if config != default]
    repo, known = _hub_repo(built)
    python = [
        "import hatemoji_datasets",
        "",
        f'data = hatemoji_datasets.load_dataset("{name}")  # config "{default}", every split',
    ]
    python += [f'{c} = hatemoji_datasets.load_dataset("{name}", "{c}")' for c in others]
    python.append(
        f'pinned = hatemoji_datasets.load_dataset("{name}:{spec.version}", split='
        f'"{built.configs[default].spec.eval_split}")'
    )
    choices = " or ".join(f'"{c}"' for c in others)
    hub = [
        "import datasets",
        "",
        f'config = "{default}"' + (f"  # or {choices}" if others else ""),
        f'data = datasets.load_dataset("{repo}", config)',
        "# pinned: each pushed version is a commit tagged v<version>, never moved",
        f'pinned = datasets.load_dataset("{repo}", config, revision="v{spec.version}")',
    ]
    placeholder = (
        ""
        if known
        else f" `{repo}` is a placeholder: replace `<org>` with the account that hosts the export."
    )
    lines = [
        "## Uses",
        "",
        "### Loading the data",
        "",
        "With this package (`pip install hatemoji-datasets`), which downloads the pinned "
        "upstream files, verifies them and builds the dataset into the `datasets` cache:",
        "",
        "```python",
        *python,
        "```",
        "",
        "```bash",
        f"hatemoji-datasets build {name}" + (f" --config {others[0]}" if others else ""),
        f"hatemoji-datasets info {name}   # features, split sizes and the statistics below",
        "```",
        "",
        "With plain `datasets`, from a Hub copy exported by this package (Parquet files "
        f"under `data/<config>/`).{placeholder}",
        "",
        "```python",
        *hub,
        "```",
        "",
        "### Direct Use",
        "",
        *(f"- {use}" for use in source.get("intended_uses", [])),
        "",
        "### Out-of-Scope Use",
        "",
        *(f"- {use}" for use in source.get("out_of_scope_uses", [])),
    ]
    return "\n".join(lines)


def _structure(built: Built) -> str:
    lines = ["## Dataset Structure", "", "### Configs and splits", ""]
    lines += ["| config | description | split | rows |", "|---|---|---|---:|"]
    for name, config in built.configs.items():
        for split, (rows, _) in config.splits.items():
            lines.append(f"| `{name}` | {config.spec.description} | `{split}` | {rows:,} |")
    lines += ["", "### Fields", ""]
    groups: dict[str, list[str]] = {}
    for name, config in built.configs.items():
        groups.setdefault(repr(config.features.to_dict()), []).append(name)
    descriptions = built.source.get("fields", {})
    for configs in groups.values():
        features = built.configs[configs[0]].features
        if len(groups) > 1:
            lines += [f"Config(s) {', '.join(f'`{c}`' for c in configs)}:", ""]
        lines += ["| field | type | description |", "|---|---|---|"]
        for field, feature in features.items():
            about = descriptions.get(field, {})
            text = about.get("description", "") if isinstance(about, dict) else str(about)
            lines.append(f"| `{field}` | {_type_text(feature)} | {' '.join(text.split())} |")
        lines.append("")
    lines += ["### Distributions", ""]
    lines.append(
        "Computed from the built data by the dataset's `statistics` function (the same "
        f"figures `hatemoji-datasets info {built.spec.name}` prints)."
    )
    for table in built.source.get("tables", []):
        statistics = built.configs[table["config"]].statistics
        lines += ["", f"#### {table['title']}", ""]
        if table.get("text"):
            lines += [" ".join(table["text"].split()), ""]
        lines.append(_markdown_table(statistics[table["statistic"]], table.get("rows", "")))
    return "\n".join(lines)


def _type_text(feature: Any) -> str:
    import datasets

    if isinstance(feature, datasets.ClassLabel):
        names = ", ".join(f"{index} `{name}`" for index, name in enumerate(feature.names))
        return f"ClassLabel ({names})"
    if isinstance(feature, datasets.Value):
        return feature.dtype
    inner = getattr(feature, "feature", None)
    if inner is not None:
        return f"list of {_type_text(inner)}"
    return type(feature).__name__


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _markdown_table(table: dict[str, Any], row_header: str = "") -> str:
    """A statistics table: a mapping of rows to mappings of columns, or of keys to values."""
    if all(not isinstance(value, dict) for value in table.values()):
        lines = [f"| {row_header} | count |", "|---|---:|"]
        lines += [f"| {key} | {_cell(value)} |" for key, value in table.items()]
        return "\n".join(lines)
    columns: list[str] = []
    for row in table.values():
        columns += [column for column in row if column not in columns]
    lines = [
        "| " + " | ".join([row_header, *columns]) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for key, row in table.items():
        cells = [_cell(row.get(column, "")) for column in columns]
        lines.append("| " + " | ".join([f"**{key}**" if key == "all" else key, *cells]) + " |")
    return "\n".join(lines)


def _creation(built: Built) -> str:
    statements = built.source.get("data_statements", {})
    lines = [
        "## Dataset Creation",
        "",
        "Described below as long-form data statement"
        + ("s, one per corpus" if len(statements) > 1 else "")
        + " (Bender and Friedman 2018; McMillan-Major, Bender and Friedman 2023). "
        "The sections cover what the template's Curation Rationale, Source Data, "
        "Annotations and Personal and Sensitive Information ask for. "
        '"Not reported" marks what the sources this package relies on do not say.',
    ]
    for corpus, statement in statements.items():
        lines += ["", f"### Data statement: {corpus}"]
        for key, heading in DATA_STATEMENT_SECTIONS.items():
            lines += ["", f"#### {heading}", "", " ".join(str(statement[key]).split())]
    return "\n".join(lines)


def _risks(built: Built) -> str:
    statements = built.source.get("data_statements", {})
    which = ", ".join(f"*{corpus}*" for corpus in statements)
    return "\n".join(
        [
            "## Bias, Risks, and Limitations",
            "",
            f"See **Limitations** in the data statement ({which}) above, and the out-of-scope "
            "uses. The texts are offensive by design; keep them away from people who have not "
            "chosen to read them, and do not use them to produce or spread hateful content.",
            "",
            "### Recommendations",
            "",
            "Report results per functionality, round, topic or split as the tables above "
            "allow, not only one overall score, and say which version of the dataset was used "
            "(`name:version`).",
        ]
    )


def _versions(spec: DatasetSpec) -> str:
    lines = ["## Versions", "", "| version | release notes |", "|---|---|"]
    lines += [f"| {release.version} | {release.notes} |" for release in spec.releases]
    lines += ["", f"This card describes version {spec.version}."]
    return "\n".join(lines)


def _licence(built: Built) -> str:
    licences = sorted({file.license for file in built.spec.source_files().values()})
    return "\n".join(
        [
            "## Licence",
            "",
            f"{built.source['license']}, as upstream released the data "
            f"(upstream files: {', '.join(licences)}). The code of this package is "
            "licensed separately (Apache-2.0).",
        ]
    )


def _citation(source: dict[str, Any]) -> str:
    return "\n".join(
        ["## Citation", "", "**BibTeX:**", "", "```bibtex", source["citation"].strip(), "```"]
    )


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


# -- Croissant --------------------------------------------------------------------------


def croissant(
    name: str, *, cache_dir: str | None = None, mirror: str | None = None
) -> dict[str, Any]:
    """Croissant 1.0 JSON-LD metadata of dataset ``name``, from its built data."""
    return croissant_metadata(build(name, cache_dir=cache_dir, mirror=mirror))


def croissant_metadata(built: Built) -> dict[str, Any]:
    import datasets

    spec, source = built.spec, built.source
    files = spec.source_files()
    hub = source.get("hub", {})
    rows_per_source: dict[str, int] = {}
    for config in built.configs.values():
        for split, file in config.spec.splits:
            rows_per_source[file] = max(rows_per_source.get(file, 0), config.splits[split][0])
    # Configs whose splits hold every row of their files map one to one onto the
    # files; the others (a round of HatemojiBuild) keep part of them.
    complete = [
        config
        for config in built.configs.values()
        if all(config.splits[split][0] == rows_per_source[f] for split, f in config.spec.splits)
    ]
    partial = [config.spec.name for config in built.configs.values() if config not in complete]
    description = " ".join(source["description"].split())
    if partial:
        description += (
            f" Record sets describe the configs that keep every row of their files; configs "
            f"{', '.join(partial)} keep a subset of the same files."
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
        for split, file in config.spec.splits:
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
        "inLanguage": _as_list(hub.get("language", [])),
        "keywords": _as_list(hub.get("tags", [])),
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


def _croissant_field(
    set_id: str,
    field: str,
    feature: Any,
    about: Any,
    config: str,
    file: str,
    enumerations: dict[str, dict[str, Any]],
    datasets: Any,
) -> dict[str, Any]:
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
    element = getattr(feature, "feature", None)
    is_list = element is not None and not isinstance(feature, datasets.ClassLabel | datasets.Value)
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
    if upstream:
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


# -- writing ----------------------------------------------------------------------------


def rendered_files(built: Built) -> dict[str, str]:
    """``{file name: text}`` of a dataset's card folder."""
    import json

    metadata = croissant_metadata(built)
    return {
        README: card_text(built),
        CROISSANT: json.dumps(metadata, ensure_ascii=False, indent=2) + "\n",
    }


def write_card(
    name: str,
    out_dir: str | Path,
    *,
    cache_dir: str | None = None,
    mirror: str | None = None,
) -> list[Path]:
    """Render dataset ``name`` and write ``README.md`` and ``croissant.json`` into ``out_dir``."""
    built = build(name, cache_dir=cache_dir, mirror=mirror)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, text in rendered_files(built).items():
        path = folder / file_name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written
