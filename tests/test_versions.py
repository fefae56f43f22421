"""Versions you can pin: every released version builds, and fingerprints hold content.

APEACH 2.0.0 renames one topic; 1.0.0 stays buildable (its bytes are checked
against ``golden/`` in ``test_datasets.py``). Fingerprints are content digests
recorded per release in each dataset package and checked on every fresh build.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import datasets
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hatemoji_datasets import FingerprintError, UnknownNameError, load_dataset
from hatemoji_datasets.building import fingerprint as fingerprints
from hatemoji_datasets.building import recorded as fp
from hatemoji_datasets.building.builder import builder_class
from hatemoji_datasets.cli import main as cli_main
from hatemoji_datasets.core.features import canonical_features
from hatemoji_datasets.core.registry import dataset_spec, format_reference, parse_reference, specs
from hatemoji_datasets.pinning.record import record_all

HEX64 = "[0-9a-f]{64}"


# -- declarations (no data) ----------------------------------------------------------------


@pytest.mark.parametrize("name", list(specs()))
def test_releases_are_newest_first_with_notes(name: str) -> None:
    spec = dataset_spec(name)
    keys = [tuple(int(p) for p in v.split(".")) for v in spec.versions]
    assert keys == sorted(keys, reverse=True)
    assert len(set(spec.versions)) == len(spec.versions)
    assert all(release.notes.strip() for release in spec.releases)
    assert spec.version == spec.versions[0]


def test_apeach_has_two_versions() -> None:
    assert dataset_spec("apeach").versions == ["2.0.0", "1.0.0"]


@pytest.mark.parametrize("name", list(specs()))
def test_fingerprints_cover_every_release(name: str) -> None:
    """``fingerprints.tsv`` has one row per released version, config and split, for the
    files the config is pinned to now, in the order ``fingerprints --write`` writes."""
    spec = dataset_spec(name)
    recorded = fp.read_recorded(spec)
    expected = [
        (version, config.name, split)
        for version in reversed(spec.versions)
        for config in spec.configs_of(version)
        for split in config.split_names
    ]
    assert list(recorded) == expected
    for (_, config, _), record in recorded.items():
        assert record.sources == fp.sources_digest(spec, spec.config(config))
        assert record.fingerprint.startswith("sha256:") and len(record.fingerprint) == 71
        assert record.rows > 0
    text = fp.recorded_path(spec).read_text(encoding="utf-8")
    assert text == fp.render_recorded(recorded.values())


def test_builder_class_per_version() -> None:
    current, old = builder_class("apeach"), builder_class("apeach:1.0.0")
    assert current is builder_class("apeach", "2.0.0")
    assert current is not old
    assert {str(c.version) for c in current.BUILDER_CONFIGS} == {"2.0.0"}
    assert {str(c.version) for c in old.BUILDER_CONFIGS} == {"1.0.0"}
    assert [c.name for c in old.BUILDER_CONFIGS] == ["default", "beep"]
    with pytest.raises(UnknownNameError, match="unknown version '3.0.0' of apeach"):
        builder_class("apeach", "3.0.0")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hatemoji_check", ("hatemoji_check", None, None)),
        ("apeach:1.0.0", ("apeach", None, "1.0.0")),
        ("hatemoji_build/r5", ("hatemoji_build", "r5", None)),
        ("hatemoji_build/r5:1.0.0", ("hatemoji_build", "r5", "1.0.0")),
    ],
)
def test_reference_grammar(text: str, expected: tuple) -> None:
    assert parse_reference(text) == expected
    assert format_reference(*expected) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hatemoji_build:1.0.0/r5", "write NAME\\[/CONFIG\\]\\[:VERSION\\]"),
        ("hatemoji_build/", "write NAME"),
        ("hatemoji_build/r5/x", "write NAME"),
        ("apeach:", "write NAME"),
        ("apeach:1:2", "write NAME"),
    ],
)
def test_reference_grammar_errors(text: str, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        parse_reference(text)


def test_reference_conflicts() -> None:
    with pytest.raises(UnknownNameError, match="pins config r5 but config='r6'"):
        parse_reference("hatemoji_build/r5", "r6")
    assert parse_reference("hatemoji_build/r5", "r5") == ("hatemoji_build", "r5", None)


def test_list_shows_older_versions(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["list"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("apeach"))
    assert row.split()[1:4] == ["2.0.0", "(also", "1.0.0)"]


# -- the digest ----------------------------------------------------------------------------


def _features() -> datasets.Features:
    from hatemoji_datasets.core.features import class_label, list_of

    return datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": class_label(["no", "yes"]),
            "tags": list_of(datasets.Value("string")),
        }
    )


def _dataset(texts: list[str]) -> datasets.Dataset:
    return datasets.Dataset.from_dict(
        {"text": texts, "label": [i % 2 for i in range(len(texts))], "tags": [["a"]] * len(texts)},
        features=_features(),
    )


def test_fingerprint_is_content_only(tmp_path: Path) -> None:
    ds = _dataset(["x", "y", "z"])
    digest = fingerprints.fingerprint(ds)
    assert digest.startswith("sha256:")
    # The same content written elsewhere, chunked differently, read back from disk.
    ds.save_to_disk(str(tmp_path / "a"))
    assert fingerprints.fingerprint(datasets.load_from_disk(str(tmp_path / "a"))) == digest
    table = ds.data.table
    chunked = pa.concat_tables([table.slice(0, 1), table.slice(1)])
    assert fingerprints.fingerprint_table(chunked, ds.features) == digest
    large = table.cast(
        pa.schema([pa.field("text", pa.large_string()), *list(table.schema)[1:]]),
    )
    assert fingerprints.fingerprint_table(large, ds.features) == digest
    # A selection is hashed as the rows it shows.
    assert fingerprints.fingerprint(_dataset(["x", "y", "z", "w"]).select([0, 1, 2])) == digest
    # Content, order and features all matter.
    assert fingerprints.fingerprint(_dataset(["x", "y", "q"])) != digest
    assert fingerprints.fingerprint(_dataset(["y", "x", "z"])) != digest
    renamed = ds.cast(
        datasets.Features({**ds.features, "label": datasets.ClassLabel(names=["no", "si"])})
    )
    assert fingerprints.fingerprint(renamed) != digest


# Text over all of Unicode, with what JSON escapes (quotes, backslashes, every control
# character) made common.
_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(exclude_categories=("Cs",)), st.sampled_from('"\\\n\r\t\b\f\x00\x1f\x7f')
    ),
    max_size=12,
)
_COLUMNS = st.sampled_from(
    [
        (pa.string(), st.none() | _TEXT),
        (pa.large_string(), _TEXT),
        (pa.int64(), st.none() | st.integers(-(2**63), 2**63 - 1)),
        (pa.int8(), st.integers(-128, 127)),
        (pa.uint32(), st.integers(0, 2**32 - 1)),
        (pa.bool_(), st.none() | st.booleans()),
        (pa.float64(), st.none() | st.floats()),  # no kernel: value by value
        (pa.list_(pa.int64()), st.none() | st.lists(st.none() | st.integers(-9, 9), max_size=3)),
        (pa.list_(pa.string()), st.lists(st.none() | _TEXT, max_size=3)),
        (pa.list_(pa.list_(pa.int8())), st.lists(st.lists(st.integers(0, 3), max_size=2))),
    ]
)


@st.composite
def _batches(draw) -> pa.RecordBatch:
    rows = draw(st.integers(1, 12))
    columns = draw(st.lists(_COLUMNS, min_size=1, max_size=4))
    arrays = [pa.array(draw(st.lists(v, min_size=rows, max_size=rows)), t) for t, v in columns]
    batch = pa.RecordBatch.from_arrays(arrays, [f"c{i}" for i in range(len(arrays))])
    start = draw(st.integers(0, rows - 1))  # a slice: arrays that do not start at 0
    return batch.slice(start)


@settings(deadline=None, max_examples=300)
@given(_batches())
def test_fingerprint_lines_are_the_json_of_each_row(batch: pa.RecordBatch) -> None:
    """The hashed lines, written by Arrow kernels, are the JSON of the rows' Python values
    byte for byte (the definition, and what every recorded fingerprint was made from)."""
    rows = zip(*(column.to_pylist() for column in batch.columns), strict=True)
    one_call_per_row = ("\n".join(map(fingerprints._ENCODER.encode, rows)) + "\n").encode()
    assert bytes(fingerprints._row_lines(batch)) == one_call_per_row


def test_canonical_features_ignore_the_datasets_release() -> None:
    """datasets 3.x's ``Sequence(x)`` and 4+'s ``List(x)`` are the same list."""

    class Sequence:  # what datasets < 4 calls a variable-length list
        def __init__(self, feature: object, length: int = -1) -> None:
            self.feature, self.length = feature, length

    value = datasets.Value("string")
    expected = {"list": {"value": "string"}, "length": -1}
    assert canonical_features(Sequence(value)) == expected
    assert canonical_features([value]) == expected
    list_type = getattr(datasets, "List", None)
    if list_type is not None:
        assert canonical_features(list_type(value)) == expected
    # datasets < 4 stores Sequence({...}) as a struct of lists.
    struct = canonical_features(Sequence({"a": value}))
    assert struct == {"struct": {"a": expected}}


# -- real data -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def both_apeach(mirror: Path, session_cache: Path) -> dict[str, datasets.Dataset]:
    return {
        version: load_dataset(
            f"apeach:{version}", split="test", cache_dir=str(session_cache), mirror=str(mirror)
        )
        for version in ("1.0.0", "2.0.0")
    }


def test_apeach_versions_differ_only_in_the_renamed_topic(
    both_apeach: dict[str, datasets.Dataset], session_cache: Path
) -> None:
    old, new = both_apeach["1.0.0"], both_apeach["2.0.0"]
    assert str(old.info.version) == "1.0.0" and str(new.info.version) == "2.0.0"
    folders = {v: Path(ds.cache_files[0]["filename"]).parent for v, ds in both_apeach.items()}
    assert folders["1.0.0"] == session_cache / "apeach" / "default" / "1.0.0"
    assert folders["2.0.0"] == session_cache / "apeach" / "default" / "2.0.0"
    # Same rows: texts, labels, topic ids and every other column.
    assert old.data.table.equals(new.data.table)
    assert old["text"] == new["text"] and old["label"] == new["label"]
    old_names, new_names = old.features["topic"].names, new.features["topic"].names
    changed = [(a, b) for a, b in zip(old_names, new_names) if a != b]
    assert changed == [("sexual_harassment", "sexual_orientation_and_identity")]
    assert len(old_names) == len(new_names) == 10
    assert {k: v for k, v in old.features.items() if k != "topic"} == {
        k: v for k, v in new.features.items() if k != "topic"
    }
    assert fingerprints.fingerprint(old) != fingerprints.fingerprint(new)


def test_apeach_default_is_the_newest(mirror: Path, session_cache: Path) -> None:
    data = load_dataset("apeach", split="test", cache_dir=str(session_cache), mirror=str(mirror))
    assert str(data.info.version) == "2.0.0"
    assert data.features["topic"].names[1] == "sexual_orientation_and_identity"


def test_recorded_fingerprints_match_fresh_builds(mirror: Path, tmp_path: Path) -> None:
    """The drift check: building every release now gives the recorded fingerprints."""
    stale = record_all(specs().values(), write=False, cache_dir=str(tmp_path), mirror=str(mirror))
    assert [str(path) for path, _ in stale] == []


_FINGERPRINTS = """
import json, sys
from hatemoji_datasets import load_dataset
from hatemoji_datasets.building.fingerprint import fingerprint
data = load_dataset(sys.argv[1], cache_dir=sys.argv[2], mirror=sys.argv[3])
print(json.dumps({split: fingerprint(ds) for split, ds in data.items()}))
"""


@pytest.mark.parametrize("reference", ["apeach:1.0.0", "hatemoji_build/r7"])
def test_fingerprints_stable_across_processes_and_caches(
    reference: str, mirror: Path, tmp_path: Path
) -> None:
    found = []
    for folder in ("one", "two"):
        run = subprocess.run(
            [sys.executable, "-c", _FINGERPRINTS, reference, str(tmp_path / folder), str(mirror)],
            capture_output=True,
            text=True,
            check=True,
        )
        found.append(json.loads(run.stdout.strip().splitlines()[-1]))
    assert found[0] == found[1]
    name, config, version = parse_reference(reference)
    spec = dataset_spec(name)
    version = version or spec.version
    config = config or spec.default_config_name
    recorded = fp.read_recorded(spec)
    assert found[0] == {s: recorded[version, config, s].fingerprint for s in found[0]}


def test_a_build_that_differs_from_its_record_is_refused(
    mirror: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = dataset_spec("apeach")
    real = fp.read_recorded(spec)
    wrong = "sha256:" + "0" * 64
    altered = {
        key: (fp.Recorded(*[*vars(r).values()][:4], wrong, r.sources) if key[1] == "default" else r)
        for key, r in real.items()
    }
    monkeypatch.setattr(fp, "read_recorded", lambda s: altered if s is spec else {})
    with pytest.raises(FingerprintError) as caught:
        load_dataset("apeach:1.0.0", cache_dir=str(tmp_path), mirror=str(mirror))
    message = str(caught.value)
    good = real["1.0.0", "default", "test"].fingerprint
    assert "apeach/default 1.0.0 split test" in message
    assert good in message and wrong in message
    assert "nothing was cached" in message
    # Nothing is left: no build folder, no .incomplete one (datasets' lock file may stay).
    left = [p.name for p in (tmp_path / "apeach" / "default").glob("*")]
    assert [name for name in left if not name.endswith(".lock")] == []
    monkeypatch.undo()
    data = load_dataset("apeach:1.0.0", cache_dir=str(tmp_path), mirror=str(mirror))
    assert fingerprints.fingerprint(data["test"]) == good


def test_warm_loads_compute_no_fingerprint(
    mirror: Path, session_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_dataset("apeach:1.0.0", cache_dir=str(session_cache), mirror=str(mirror))

    def refuse(*args: object) -> str:
        raise AssertionError("a cache hit computed a fingerprint")

    monkeypatch.setattr("hatemoji_datasets.building.builder.fingerprint_table", refuse)
    data = load_dataset("apeach:1.0.0", cache_dir=str(session_cache), mirror=str(mirror))
    assert data["test"].num_rows == 3770


def test_info_of_an_older_version(
    mirror: Path, session_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert cli_main(["info", "apeach:1.0.0", *args]) == 0
    out = capsys.readouterr().out
    assert "version 1.0.0" in out
    assert "ClassLabel (0 gender_stereotypes, 1 sexual_harassment," in out
    assert "2.0.0: Topic `sexual_harassment` renamed" in out
