"""Every Croissant file the package writes yields the package's data through mlcroissant.

For the committed ``cards/<name>/croissant.json`` (the pinned upstream files,
read from the offline mirror through ``mapping``) and for the Hub export's
``croissant.json`` (its own Parquet files, read through their relative
``contentUrl``), every RecordSet is loaded with ``mlcroissant`` and every field
of every record compared with ``load_dataset``: equal, in order, none missing,
``None`` only where the package's value is missing (a nullable column). Sockets
are closed for the whole load: nothing may reach the network.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import socket
from pathlib import Path
from typing import Any

import datasets
import pytest
from support.paths import REPO, upstream_path
from support.real import HATEMOJI_CHECK

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cards.croissant.repository import parquet_name
from hatemoji_datasets.core.features import element_of
from hatemoji_datasets.core.registry import dataset_spec, specs

mlc = pytest.importorskip("mlcroissant")

CARDS = REPO / "cards"
NAMES = list(specs())
#: Package releases as CHANGELOG.md heads them: ``## [0.1.0] - 2026-11-29``.
PACKAGE_RELEASE = re.compile(r"^## \[\d+\.\d+\.\d+\] - (\d{4}-\d{2}-\d{2})$", re.M)


@pytest.mark.parametrize("name", NAMES)
def test_release_dates_are_package_release_dates(name: str) -> None:
    """A version's ``datePublished`` (its declared ``Release.date``) is the date of a package
    release in CHANGELOG.md: the release that first built it."""
    released = set(PACKAGE_RELEASE.findall((REPO / "CHANGELOG.md").read_text(encoding="utf-8")))
    assert len(released) >= 3  # 0.1.0, 0.2.0, 0.3.0
    for release in dataset_spec(name).releases:
        assert release.date is None or release.date in released, release


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("mlcroissant tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def read_every_record_set(
    name: str, jsonld: Path, mapping: dict[str, str] | None = None
) -> dict[str, list]:
    """``{record set id: records}``; each record set is read once (mlcroissant 1.1.1 yields
    a record set's records only on the first call of a ``Dataset``)."""
    dataset = mlc.Dataset(jsonld=jsonld, mapping=mapping)
    issues = dataset.metadata.ctx.issues
    assert not issues.errors, issues.report()
    # The only warning allowed: no datePublished for a version not released yet.
    unreleased = dataset_spec(name).releases[0].date is None
    warnings = [w for w in issues.warnings if not (unreleased and "datePublished" in w)]
    assert not warnings, issues.report()
    return {rs.id: list(dataset.records(rs.id)) for rs in dataset.metadata.record_sets}


def decoded(value: Any) -> Any:
    """mlcroissant yields text as UTF-8 ``bytes``."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, list):
        return [decoded(item) for item in value]
    return value


def class_label(feature: Any) -> datasets.ClassLabel | None:
    element = element_of(feature)
    found = element if element is not None else feature
    return found if isinstance(found, datasets.ClassLabel) else None


def as_declared(feature: Any, data_type: str, value: Any) -> Any:
    """The package's value in the form the field declares: ClassLabel names for ``sc:Text``."""
    label = class_label(feature)
    if label is None or data_type != "sc:Text":
        return value
    if isinstance(value, list):
        return [label.names[i] for i in value]
    return label.names[value]


def compare(
    name: str, metadata: dict, records: dict[str, list], where: dict[str, str]
) -> tuple[int, int]:
    """Assert every record set equals the package's data; ``(records, values)`` compared."""
    spec = dataset_spec(name)
    compared_records = compared_values = 0
    declared = {rs["@id"]: rs for rs in metadata["recordSet"]}
    assert sorted(records) == sorted(declared)
    referenced: dict[str, list[str]] = {}
    for set_id, record_set in declared.items():
        if "data" in record_set or set_id == "labels":
            continue
        config, split = set_id.split("/")
        data = load_dataset(name, config, split=split, **where)
        rows = data.to_list()
        got = records[set_id]
        assert len(got) == len(rows), set_id
        fields = record_set["field"]
        assert fields, f"{set_id} declares no field"
        for field in fields:
            assert field.get("source"), f"{field['@id']} has no source: it would yield nothing"
            feature = data.features[field["name"]]
            label = class_label(feature)
            if label is not None:
                enumeration = field["references"]["field"]["@id"].split("/")[0]
                referenced[enumeration] = list(label.names)
        assert all(len(record) == len(fields) for record in got), set_id
        # Field by field, a whole column at a time (MHC's record sets hold 73k records).
        for field in fields:
            feature, data_type = data.features[field["name"]], field["dataType"]
            values = [decoded(record[field["@id"]]) for record in got]
            built = [row[field["name"]] for row in rows]
            # None only where the package's value is missing too.
            expected = [None if v is None else as_declared(feature, data_type, v) for v in built]
            if values != expected:
                at = next(i for i, (a, b) in enumerate(zip(values, expected)) if a != b)
                raise AssertionError((field["@id"], at, values[at], rows[at]))
            compared_values += len(values)
        compared_records += len(got)
    for enumeration, names in referenced.items():
        rows = [(r[f"{enumeration}/index"], r[f"{enumeration}/name"]) for r in records[enumeration]]
        assert [(i, decoded(n)) for i, n in rows] == list(enumerate(names)), enumeration
    # The current version's release date, as its declaration states it (none before release).
    assert metadata.get("datePublished") == spec.releases[0].date
    assert spec.version == metadata["version"]
    return compared_records, compared_values


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_committed_croissant_yields_the_package_data_from_upstream(
    name: str, mirror: Path, session_cache: Path, offline: None
) -> None:
    path = CARDS / name / "croissant.json"
    metadata = json.loads(path.read_text(encoding="utf-8"))
    pinned = dataset_spec(name).source_files()
    mapping = {file: str(upstream_path(mirror, pinned[file].url)) for file in pinned}
    records = read_every_record_set(name, path, mapping)
    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    compared_records, compared_values = compare(name, metadata, records, where)
    assert compared_records > 0 and compared_values > compared_records


@pytest.mark.parametrize("name", NAMES)
def test_committed_croissant_leaves_out_what_a_reader_cannot_derive(name: str) -> None:
    """Each config's RecordSet has the config's features, in order, but those a reader cannot
    derive from upstream; its description names each left out, with why."""
    spec = dataset_spec(name)
    metadata = json.loads((CARDS / name / "croissant.json").read_text(encoding="utf-8"))
    described = 0
    for record_set in metadata["recordSet"]:
        config_name, slash, split = record_set["@id"].partition("/")
        if not slash:
            continue  # a label table
        config = spec.config(config_name)
        assert split in config.split_names, record_set["@id"]
        declared = list(spec.load(config.features)(config, spec.version))
        fields = [field["name"] for field in record_set["field"]]
        assert fields == [feature for feature in declared if feature in fields], record_set["@id"]
        left_out = [feature for feature in declared if feature not in fields]
        description = record_set["description"]
        assert ("Left out: " in description) == bool(left_out), record_set["@id"]
        for feature in left_out:
            assert f"`{feature}` (" in description.split("Left out: ", 1)[1], feature
        described += 1
    assert described > 0
    assert "Hub export" in metadata["description"]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_export_croissant_yields_every_field_of_every_config(
    name: str, exported, mirror: Path, session_cache: Path, offline: None
) -> None:
    folder = exported(name)
    path = folder / "croissant.json"
    metadata = json.loads(path.read_text(encoding="utf-8"))
    records = read_every_record_set(name, path)  # relative contentUrl: the export alone suffices
    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    compare(name, metadata, records, where)
    spec = dataset_spec(name)
    sets = {rs["@id"]: rs for rs in metadata["recordSet"]}
    for config in spec.configs:
        for split in config.split_names:
            declared = [field["name"] for field in sets[f"{config.name}/{split}"]["field"]]
            data = load_dataset(name, config.name, split=split, **where)
            assert declared == list(data.features), f"{config.name}/{split}: not every field"
    labels = [tuple(decoded(v) for v in record.values()) for record in records["labels"]]
    expected = []
    for config in spec.configs:
        features = load_dataset(name, config.name, split=config.eval_split, **where).features
        for feature_name, feature in features.items():
            label = class_label(feature)
            if label is not None:
                expected += [(config.name, feature_name, i, n) for i, n in enumerate(label.names)]
    assert labels == expected


@pytest.mark.parametrize("name", NAMES)
def test_export_croissant_pins_the_bytes_written_and_their_upstream(name: str, exported) -> None:
    folder = exported(name)
    metadata = json.loads((folder / "croissant.json").read_text(encoding="utf-8"))
    files = {item["@id"]: item for item in metadata["distribution"]}
    pinned = dataset_spec(name).source_files()
    for file_id, item in files.items():
        if file_id in pinned:
            assert item["sha256"] == pinned[file_id].sha256
            assert item["contentUrl"] == pinned[file_id].url
            continue
        data = (folder / item["contentUrl"]).read_bytes()
        assert item["sha256"] == hashlib.sha256(data).hexdigest(), file_id
        assert item["contentSize"] == f"{len(data)} B"
        if file_id.startswith("data/"):  # one pinned file, or several (stacked or joined)
            origins = item["prov:wasDerivedFrom"]
            origins = origins if isinstance(origins, list) else [origins]
            assert origins and all(origin["@id"] in pinned for origin in origins)
    written = {p.relative_to(folder).as_posix() for p in folder.rglob("*.parquet")}
    assert written == set(files) - set(pinned)


def test_export_croissant_refuses_an_edited_parquet_file(
    exported, tmp_path: Path, offline: None
) -> None:
    copy = tmp_path / "export"
    shutil.copytree(exported(HATEMOJI_CHECK), copy)
    config = dataset_spec(HATEMOJI_CHECK).config()
    split = config.split_names[0]
    target = copy / parquet_name(config.name, split)
    target.write_bytes(target.read_bytes() + b"\0")
    dataset = mlc.Dataset(jsonld=copy / "croissant.json")
    with pytest.raises(Exception) as raised:  # noqa: B017 (mlcroissant wraps the cause)
        list(dataset.records(f"{config.name}/{split}"))
    chain, error = [], raised.value
    while error is not None:
        chain.append(str(error))
        error = error.__cause__ or error.__context__
    assert any("Hash of downloaded file" in text for text in chain), chain
