"""Versions you can pin: every released version builds, and fingerprints hold content.

A release may rename a ClassLabel's names (``RENAMED_LABELS`` in the dataset's
``testing.py``); the releases before it stay buildable (the bytes of 1.0.0 are checked
against ``golden/`` in ``test_datasets.py``). Fingerprints are content digests
recorded per release in each dataset package and checked on every fresh build.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import datasets
import pyarrow as pa
import pytest
from conftest import dataset_facts, declaring
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
#: Every dataset with more than one release; the tests of an older release run on the first,
#: at its oldest release, and references are written with its last config.
RELEASED_MORE_THAN_ONCE = [name for name, spec in specs().items() if len(spec.versions) > 1]
OLDER = RELEASED_MORE_THAN_ONCE[0]
OLDEST = dataset_spec(OLDER).versions[-1]
OTHER = dataset_spec(OLDER).configs[-1].name
#: Each release that renames ClassLabel names, with the release before it.
RENAMES = [
    pytest.param(name, version, before, id=f"{name}:{before}->{version}")
    for name in declaring("RENAMED_LABELS")
    for version, before in zip(dataset_spec(name).versions, dataset_spec(name).versions[1:])
    if version in dataset_facts(name).RENAMED_LABELS
]


# -- declarations (no data) ----------------------------------------------------------------


@pytest.mark.parametrize("name", list(specs()))
def test_releases_are_newest_first_with_notes(name: str) -> None:
    spec = dataset_spec(name)
    keys = [tuple(int(p) for p in v.split(".")) for v in spec.versions]
    assert keys == sorted(keys, reverse=True)
    assert len(set(spec.versions)) == len(spec.versions)
    assert all(release.notes.strip() for release in spec.releases)
    assert spec.version == spec.versions[0]


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
    spec = dataset_spec(OLDER)
    current, old = builder_class(OLDER), builder_class(f"{OLDER}:{OLDEST}")
    assert current is builder_class(OLDER, spec.version)
    assert current is not old
    assert {str(c.version) for c in current.BUILDER_CONFIGS} == {spec.version}
    assert {str(c.version) for c in old.BUILDER_CONFIGS} == {OLDEST}
    assert [c.name for c in old.BUILDER_CONFIGS] == [c.name for c in spec.configs_of(OLDEST)]
    released = re.escape(", ".join(spec.versions))
    with pytest.raises(
        UnknownNameError, match=rf"unknown version '9\.9\.9' of {OLDER}; released: {released}$"
    ):
        builder_class(OLDER, "9.9.9")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (OLDER, (OLDER, None, None)),
        (f"{OLDER}:{OLDEST}", (OLDER, None, OLDEST)),
        (f"{OLDER}/{OTHER}", (OLDER, OTHER, None)),
        (f"{OLDER}/{OTHER}:{OLDEST}", (OLDER, OTHER, OLDEST)),
    ],
)
def test_reference_grammar(text: str, expected: tuple) -> None:
    assert parse_reference(text) == expected
    assert format_reference(*expected) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{OLDER}:{OLDEST}/{OTHER}", "write NAME\\[/CONFIG\\]\\[:VERSION\\]"),
        (f"{OLDER}/", "write NAME"),
        (f"{OLDER}/{OTHER}/x", "write NAME"),
        (f"{OLDER}:", "write NAME"),
        (f"{OLDER}:1:2", "write NAME"),
    ],
)
def test_reference_grammar_errors(text: str, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        parse_reference(text)


def test_reference_conflicts() -> None:
    first = dataset_spec(OLDER).configs[0].name
    with pytest.raises(UnknownNameError, match=f"pins config {OTHER} but config='{first}'"):
        parse_reference(f"{OLDER}/{OTHER}", first)
    assert parse_reference(f"{OLDER}/{OTHER}", OTHER) == (OLDER, OTHER, None)


@pytest.mark.parametrize("name", RELEASED_MORE_THAN_ONCE)
def test_list_shows_older_versions(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["list"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(name))
    newest, *older = dataset_spec(name).versions
    shown = [newest, "(also", *[f"{version}," for version in older[:-1]], f"{older[-1]})"]
    assert row.split()[1 : 1 + len(shown)] == shown


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


@pytest.mark.parametrize(("name", "version", "before"), RENAMES)
def test_a_release_that_renames_labels_changes_only_their_names(
    name: str, version: str, before: str, mirror: Path, session_cache: Path
) -> None:
    """The default config of a release that renames ClassLabel names (``RENAMED_LABELS``) and
    of the release before it: the same rows, and features that differ in those names only."""
    config = dataset_spec(name).config().name
    both = {
        release: load_dataset(f"{name}:{release}", cache_dir=str(session_cache), mirror=str(mirror))
        for release in (before, version)
    }
    renamed = dataset_facts(name).RENAMED_LABELS[version]
    assert list(both[before]) == list(both[version])
    for split in both[version]:
        old, new = both[before][split], both[version][split]
        assert str(old.info.version) == before and str(new.info.version) == version
        for release, ds in ((before, old), (version, new)):
            folder = Path(ds.cache_files[0]["filename"]).parent
            assert folder == session_cache / name / config / release
        # Same rows: texts, labels, ClassLabel ids and every other column.
        assert old.data.table.equals(new.data.table)
        assert old["text"] == new["text"] and old["label"] == new["label"]
        for feature, names in renamed.items():
            old_names, new_names = old.features[feature].names, new.features[feature].names
            changed = {at: (a, b) for at, (a, b) in enumerate(zip(old_names, new_names)) if a != b}
            assert changed == names, feature
            assert len(old_names) == len(new_names), feature
        assert {k: v for k, v in old.features.items() if k not in renamed} == {
            k: v for k, v in new.features.items() if k not in renamed
        }
        assert fingerprints.fingerprint(old) != fingerprints.fingerprint(new)


@pytest.mark.parametrize("name", RELEASED_MORE_THAN_ONCE)
def test_the_default_is_the_newest(name: str, mirror: Path, session_cache: Path) -> None:
    spec = dataset_spec(name)
    split = spec.config().eval_split
    data = load_dataset(name, split=split, cache_dir=str(session_cache), mirror=str(mirror))
    assert str(data.info.version) == spec.version
    renamed = (getattr(dataset_facts(name), "RENAMED_LABELS", None) or {}).get(spec.version, {})
    for feature, names in renamed.items():
        for at, (_, new) in names.items():
            assert data.features[feature].names[at] == new, feature


@pytest.mark.slow
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


def _rows(name: str, config: str) -> int:
    return sum(dataset_facts(name).SPLITS[config].values())


#: An older release (``OLDER``'s oldest), and the config besides a default with the fewest
#: rows (``SPLITS``).
STABLE = [
    f"{OLDER}:{OLDEST}",
    min(
        (
            f"{name}/{config.name}"
            for name, spec in specs().items()
            for config in spec.configs
            if config.name != spec.default_config_name
        ),
        key=lambda reference: _rows(*reference.split("/")),
    ),
]


@pytest.mark.parametrize("reference", STABLE)
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
    spec = dataset_spec(OLDER)
    config = spec.config(version=OLDEST)
    split = config.split_names[0]
    real = fp.read_recorded(spec)
    wrong = "sha256:" + "0" * 64
    altered = {
        key: (
            fp.Recorded(*[*vars(r).values()][:4], wrong, r.sources) if key[1] == config.name else r
        )
        for key, r in real.items()
    }
    monkeypatch.setattr(fp, "read_recorded", lambda s: altered if s is spec else {})
    with pytest.raises(FingerprintError) as caught:
        load_dataset(f"{OLDER}:{OLDEST}", cache_dir=str(tmp_path), mirror=str(mirror))
    message = str(caught.value)
    good = real[OLDEST, config.name, split].fingerprint
    assert f"{OLDER}/{config.name} {OLDEST} split {split}" in message
    assert good in message and wrong in message
    assert "nothing was cached" in message
    # Nothing is left: no build folder, no .incomplete one (datasets' lock file may stay).
    left = [p.name for p in (tmp_path / OLDER / config.name).glob("*")]
    assert [name for name in left if not name.endswith(".lock")] == []
    monkeypatch.undo()
    data = load_dataset(f"{OLDER}:{OLDEST}", cache_dir=str(tmp_path), mirror=str(mirror))
    assert fingerprints.fingerprint(data[split]) == good


def test_warm_loads_compute_no_fingerprint(
    synthetic: str, mirror: Path, session_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_dataset(synthetic, cache_dir=str(session_cache), mirror=str(mirror))

    def refuse(*args: object) -> str:
        raise AssertionError("a cache hit computed a fingerprint")

    monkeypatch.setattr("hatemoji_datasets.building.builder.fingerprint_table", refuse)
    data = load_dataset(synthetic, cache_dir=str(session_cache), mirror=str(mirror))
    assert {split: ds.num_rows for split, ds in data.items()} == {"train": 24, "test": 16}


@pytest.mark.parametrize(("name", "version", "before"), RENAMES)
def test_info_of_an_older_version(
    name: str,
    version: str,
    before: str,
    mirror: Path,
    session_cache: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``info`` of the release before a rename shows its version, the names it had and every
    release's notes."""
    args = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert cli_main(["info", f"{name}:{before}", *args]) == 0
    out = capsys.readouterr().out
    assert f"version {before}\n" in out
    words = " ".join(out.split())  # wrapped lines joined
    for feature, names in dataset_facts(name).RENAMED_LABELS[version].items():
        listing = words.split(f" {feature} ClassLabel (", 1)[1].split(")", 1)[0]
        for at, (old, new) in names.items():
            assert f"{at} {old}," in f"{listing},", feature
            assert new not in listing, feature
    for release in dataset_spec(name).releases:
        assert " ".join(f"{release.version}: {release.notes}".split()) in words
