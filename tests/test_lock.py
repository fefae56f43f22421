"""Lockfiles: ``lock`` writes what was built, ``verify`` and ``load_dataset(lock=)`` check it.

Tampering with a cached Arrow file (same row count) or with an upstream file is
caught, naming the dataset, config, split and both digests.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from conftest import dataset_facts
from support.paths import upstream_path
from support.synthetic import SYNTHETIC, registered

from hatemoji_datasets import CacheError, FingerprintError, load_dataset
from hatemoji_datasets.building import manifest
from hatemoji_datasets.building.recorded import read_recorded
from hatemoji_datasets.cli import main as cli_main
from hatemoji_datasets.core.errors import LockError
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.pinning import lockfile

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

pytestmark = pytest.mark.usefixtures("synthetic")

#: The datasets locked here, named (the synthetic dataset has one release and one config):
#: APEACH, released twice, at its oldest (its default config); HatemojiBuild, whose newest
#: release adds configs, with a config of its oldest release besides the default (r5) and
#: one added since (pair_safe); and the tests' synthetic dataset, as named alone.
OLDER, OLDEST = "apeach", "1.0.0"
OLDER_CONFIG = dataset_spec(OLDER).config(version=OLDEST)
ADDED, KEPT, NEW = "hatemoji_build", "r5", "pair_safe"


def _lock(path: Path, references: list[str], cache: Path, mirror: Path) -> int:
    args = ["--cache-dir", str(cache), "--mirror", str(mirror)]
    return cli_main(["lock", *references, "-o", str(path), *args])


def _verify(path: Path, cache: Path, mirror: Path) -> int:
    return cli_main(["verify", str(path), "--cache-dir", str(cache), "--mirror", str(mirror)])


# -- the file (no data) --------------------------------------------------------------------


def test_toml_strings_round_trip() -> None:
    for text in ["plain", 'q"uote', "back\\slash", "tab\tnew\nline", "é ✓ 🙂", "\x7f\x00"]:
        assert tomllib.loads(f"x = {lockfile._string(text)}")["x"] == text


def test_dumps_and_read_round_trip(tmp_path: Path) -> None:
    lock = lockfile.Lock(
        package_version="0.1.0",
        datasets=(
            lockfile.LockedDataset(
                OLDER,
                OLDER_CONFIG.name,
                OLDEST,
                sources=(
                    lockfile.LockedSource(
                        OLDER_CONFIG.source_names[0], "https://h/p.csv", 10, "ab" * 32
                    ),
                ),
                splits=(
                    lockfile.LockedSplit(OLDER_CONFIG.split_names[0], 3, "sha256:" + "cd" * 32),
                ),
            ),
        ),
    )
    path = tmp_path / "x.lock"
    lockfile.write(lock, path)
    assert lockfile.read(path) == lock


@pytest.mark.parametrize(
    ("text", "message", "status"),
    [
        ("not toml [", "FILE-UNPARSEABLE is not valid TOML", 2),
        ("lock_format = 9", "lock_format 9 is not 1", 1),
        ("lock_format = 1\n", "locks no datasets", 1),
    ],
)
def test_bad_lockfiles_are_named(tmp_path: Path, text: str, message: str, status: int) -> None:
    path = tmp_path / "bad.lock"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LockError, match=message) as raised:
        lockfile.read(path)
    assert raised.value.exit_code == status
    assert _verify(path, tmp_path, tmp_path) == status


def test_a_malformed_entry_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.lock"
    path.write_text(f"lock_format = 1\n[[dataset]]\nname = '{SYNTHETIC}'\n", encoding="utf-8")
    assert lockfile.read(path).invalid == (
        lockfile.InvalidEntry(1, f"entry 1 ({SYNTHETIC}) lacks 'config'"),
    )
    assert _verify(path, tmp_path, tmp_path) == 1
    assert capsys.readouterr().out == f"differs: entry 1 ({SYNTHETIC}) lacks 'config'\n"


def test_missing_lockfile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["verify", str(tmp_path / "nope.lock")]) == 2
    assert "cannot read the lockfile" in capsys.readouterr().err


# -- real data -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def locked(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A lock of three datasets built into a cache of the module's own."""
    folder = tmp_path_factory.mktemp("lock")
    path, cache = folder / "hatemoji.lock", folder / "cache"
    refs = [f"{OLDER}:{OLDEST}", f"{ADDED}/{KEPT}", f"{ADDED}/{NEW}", SYNTHETIC]
    with registered():  # made before the test's own registration
        assert _lock(path, refs, cache, mirror) == 0
    return path, cache


def test_lock_records_what_was_built(locked: tuple[Path, Path]) -> None:
    path, _ = locked
    document = tomllib.loads(path.read_text(encoding="utf-8"))
    assert document["package"] == "hatemoji-datasets"
    assert document["package_version"]
    entries = {(d["name"], d["config"], d["version"]): d for d in document["dataset"]}
    current = dataset_spec(ADDED).version
    assert list(entries) == [
        (OLDER, OLDER_CONFIG.name, OLDEST),
        (ADDED, KEPT, current),
        (ADDED, NEW, current),
        (
            SYNTHETIC,
            dataset_spec(SYNTHETIC).default_config_name,
            dataset_spec(SYNTHETIC).version,
        ),
    ]
    for (name, config, version), entry in entries.items():
        spec = dataset_spec(name)
        pinned = spec.config_sources(spec.config(config))
        assert {s["name"]: (s["url"], s["sha256"], s["size"]) for s in entry["source"]} == {
            n: (s.url, s.sha256, s.size) for n, s in pinned.items()
        }
        recorded = read_recorded(spec)
        for split in entry["split"]:
            record = recorded[version, config, split["name"]]
            assert (split["rows"], split["fingerprint"]) == (record.rows, record.fingerprint)


def test_what_cannot_be_fetched_is_not_checked_rather_than_different(
    locked: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Offline with an empty cache, verify said "4 of 4 locked dataset(s) differ" (exit 1):
    # nothing was compared. It now says so, with the fix, and exits 2.
    path, _ = locked
    empty = tmp_path / "empty-mirror"
    empty.mkdir()
    assert _verify(path, tmp_path / "empty-cache", empty) == 2
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 4 and all(line.startswith("not checked: ") for line in lines)
    assert "differs" not in captured.out and "differ " not in captured.err
    assert (
        f"not checked: {SYNTHETIC}/" in captured.out and "is missing from the mirror" in lines[-1]
    )
    assert captured.err == (
        "error: 4 of 4 locked dataset(s) could not be checked: they are not in the cache and "
        "their sources cannot be fetched; set HATEMOJI_DATASETS_MIRROR (or --mirror) to a "
        "folder that holds them, or run where the network reaches them\n"
    )


def test_round_trip_verifies(
    locked: tuple[Path, Path], mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, cache = locked
    assert _verify(path, cache, mirror) == 0
    out = capsys.readouterr().out
    current = dataset_spec(ADDED).version
    assert f"ok: {OLDER}/{OLDER_CONFIG.name}:{OLDEST}" in out
    assert f"ok: {ADDED}/{KEPT}:{current}" in out and f"ok: {ADDED}/{NEW}:{current}" in out


def test_load_with_lock_takes_the_locked_version(locked: tuple[Path, Path], mirror: Path) -> None:
    path, cache = locked
    data = load_dataset(OLDER, lock=path, cache_dir=str(cache), mirror=str(mirror))
    assert {str(ds.info.version) for ds in data.values()} == {OLDEST}
    split = dataset_spec(ADDED).config(KEPT).eval_split
    kept = load_dataset(
        f"{ADDED}/{KEPT}", split=split, lock=path, cache_dir=str(cache), mirror=str(mirror)
    )
    assert kept.num_rows == dataset_facts(ADDED).SPLITS[KEPT][split]
    newest, default = dataset_spec(OLDER).version, OLDER_CONFIG.name
    current, plain = dataset_spec(ADDED).version, dataset_spec(SYNTHETIC)
    locks = (
        f"{OLDER}/{default}:{OLDEST}, {ADDED}/{KEPT}:{current}, {ADDED}/{NEW}:{current}, "
        f"{SYNTHETIC}/{plain.default_config_name}:{plain.version}"
    )
    message = f"does not lock {OLDER}/{default}:{newest}; it locks {locks}"
    with pytest.raises(LockError, match=re.escape(message) + "$"):
        load_dataset(f"{OLDER}:{newest}", lock=path, cache_dir=str(cache), mirror=str(mirror))
    unlocked = next(c.name for c in dataset_spec(OLDER).configs if c.name != default)
    with pytest.raises(LockError, match=f"does not lock {OLDER}/{unlocked}"):
        load_dataset(f"{OLDER}/{unlocked}", lock=path, cache_dir=str(cache), mirror=str(mirror))


def _rewrite_one_text(arrow: Path) -> None:
    """Change row 0's text in a cached Arrow stream, keeping schema, metadata and rows."""
    table = pa.ipc.open_stream(pa.py_buffer(arrow.read_bytes())).read_all()
    texts = table.column("text").to_pylist()
    texts[0] = texts[0] + " (altered)"
    index = table.schema.get_field_index("text")
    table = table.set_column(index, table.schema.field(index), pa.array(texts, pa.string()))
    # A new file moved into place: this process may still map the old one.
    partial = arrow.with_suffix(".tmp")
    with pa.OSFile(str(partial), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    os.replace(partial, arrow)


def test_a_tampered_cache_fails_verify(
    mirror: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, cache = tmp_path / "a.lock", tmp_path / "cache"
    assert _lock(path, [f"{OLDER}:{OLDEST}"], cache, mirror) == 0
    config, split = OLDER_CONFIG.name, OLDER_CONFIG.split_names[0]
    folder = cache / OLDER / config / OLDEST
    (arrow,) = folder.glob(f"*-{split}.arrow")
    _rewrite_one_text(arrow)
    capsys.readouterr()
    assert _verify(path, cache, mirror) == 1  # damage, named as build names it
    out = capsys.readouterr().out
    assert f"{arrow.name} was changed after the build wrote it" in out
    assert f"hatemoji-datasets build {OLDER}/{config}:{OLDEST} --force" in out
    with pytest.raises(CacheError, match=f"{arrow.name} was changed.*--force"):
        load_dataset(OLDER, lock=path, cache_dir=str(cache), mirror=str(mirror))
    manifest.record(folder)  # who rewrites the data can rewrite its manifest: the lock holds
    assert _verify(path, cache, mirror) == 1
    out = capsys.readouterr().out
    locked = read_recorded(dataset_spec(OLDER))[OLDEST, config, split].fingerprint
    line = next(line for line in out.splitlines() if line.startswith("differs:"))
    assert f"{OLDER}/{config} {OLDEST} split {split}: fingerprint sha256:" in line
    assert f"locked {locked}" in line
    with pytest.raises(
        FingerprintError, match=f"{OLDER}/{config} {OLDEST} split {split}"
    ) as caught:
        load_dataset(OLDER, lock=path, cache_dir=str(cache), mirror=str(mirror))
    assert locked in str(caught.value)


def test_a_tampered_source_fails_verify(
    mirror: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, cache = tmp_path / "a.lock", tmp_path / "cache"
    assert _lock(path, [f"{OLDER}:{OLDEST}"], cache, mirror) == 0
    # A copy of the mirror with one byte of the config's first file changed, and no cache.
    url = dataset_spec(OLDER).source_files()[OLDER_CONFIG.source_names[0]].url
    copy = tmp_path / "mirror"
    target = upstream_path(copy, url)
    target.parent.mkdir(parents=True)
    shutil.copyfile(upstream_path(mirror, url), target)
    raw = bytearray(target.read_bytes())
    raw[-2] = ord("X") if raw[-2] != ord("X") else ord("Y")
    target.write_bytes(bytes(raw))
    capsys.readouterr()
    assert _verify(path, tmp_path / "fresh", copy) == 1
    out = capsys.readouterr().out
    place = f"{OLDER}/{OLDER_CONFIG.name} {OLDEST} (splits {', '.join(OLDER_CONFIG.split_names)})"
    assert f"differs: {place}: cannot be loaded or built" in out
    assert "checksum mismatch" in out and "expected sha256" in out
    assert not list((tmp_path / "fresh").glob(f"{OLDER}/{OLDER_CONFIG.name}/{OLDEST}*/*.arrow"))
