"""Lockfiles: ``lock`` writes what was built, ``verify`` and ``load_dataset(lock=)`` check it.

Tampering with a cached Arrow file (same row count) or with an upstream file is
caught, naming the dataset, config, split and both digests.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from conftest import upstream_path

from hatemoji_datasets import FingerprintError, load_dataset
from hatemoji_datasets.building.recorded import read_recorded
from hatemoji_datasets.cli import main as cli_main
from hatemoji_datasets.core.errors import LockError
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.pinning import lockfile

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


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
                "apeach",
                "default",
                "1.0.0",
                sources=(lockfile.LockedSource("apeach_test", "https://h/p.csv", 10, "ab" * 32),),
                splits=(lockfile.LockedSplit("test", 3, "sha256:" + "cd" * 32),),
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
    path.write_text("lock_format = 1\n[[dataset]]\nname = 'apeach'\n", encoding="utf-8")
    assert lockfile.read(path).invalid == (
        lockfile.InvalidEntry(1, "entry 1 (apeach) lacks 'config'"),
    )
    assert _verify(path, tmp_path, tmp_path) == 1
    assert capsys.readouterr().out == "differs: entry 1 (apeach) lacks 'config'\n"


def test_missing_lockfile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["verify", str(tmp_path / "nope.lock")]) == 2
    assert "cannot read the lockfile" in capsys.readouterr().err


# -- real data -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def locked(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A lock of three specs built into a cache of the module's own."""
    folder = tmp_path_factory.mktemp("lock")
    path, cache = folder / "hatemoji.lock", folder / "cache"
    refs = ["apeach:1.0.0", "hatemoji_build/r5", "hatemoji_build/pair_safe", "hatemoji_check"]
    assert _lock(path, refs, cache, mirror) == 0
    return path, cache


def test_lock_records_what_was_built(locked: tuple[Path, Path]) -> None:
    path, _ = locked
    document = tomllib.loads(path.read_text(encoding="utf-8"))
    assert document["package"] == "hatemoji-datasets"
    assert document["package_version"]
    entries = {(d["name"], d["config"], d["version"]): d for d in document["dataset"]}
    current = dataset_spec("hatemoji_build").version
    assert list(entries) == [
        ("apeach", "default", "1.0.0"),
        ("hatemoji_build", "r5", current),
        ("hatemoji_build", "pair_safe", current),
        ("hatemoji_check", "default", "1.0.0"),
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


def test_round_trip_verifies(
    locked: tuple[Path, Path], mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, cache = locked
    assert _verify(path, cache, mirror) == 0
    out = capsys.readouterr().out
    current = dataset_spec("hatemoji_build").version
    assert "ok: apeach/default:1.0.0" in out and f"ok: hatemoji_build/r5:{current}" in out
    assert f"ok: hatemoji_build/pair_safe:{current}" in out


def test_load_with_lock_takes_the_locked_version(locked: tuple[Path, Path], mirror: Path) -> None:
    path, cache = locked
    data = load_dataset("apeach", lock=path, cache_dir=str(cache), mirror=str(mirror))
    assert str(data["test"].info.version) == "1.0.0"
    test = load_dataset(
        "hatemoji_build/r5", split="test", lock=path, cache_dir=str(cache), mirror=str(mirror)
    )
    assert test.num_rows == 200
    with pytest.raises(LockError, match="does not lock apeach/default:2.0.0; it locks apeach"):
        load_dataset("apeach:2.0.0", lock=path, cache_dir=str(cache), mirror=str(mirror))
    with pytest.raises(LockError, match="does not lock apeach/beep"):
        load_dataset("apeach/beep", lock=path, cache_dir=str(cache), mirror=str(mirror))


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
    assert _lock(path, ["apeach:1.0.0"], cache, mirror) == 0
    (arrow,) = (cache / "apeach" / "default" / "1.0.0").glob("*.arrow")
    _rewrite_one_text(arrow)
    capsys.readouterr()
    assert _verify(path, cache, mirror) == 1
    out = capsys.readouterr().out
    locked = read_recorded(dataset_spec("apeach"))["1.0.0", "default", "test"].fingerprint
    line = next(line for line in out.splitlines() if line.startswith("differs:"))
    assert "apeach/default 1.0.0 split test: fingerprint sha256:" in line
    assert f"locked {locked}" in line
    with pytest.raises(FingerprintError, match="apeach/default 1.0.0 split test") as caught:
        load_dataset("apeach", lock=path, cache_dir=str(cache), mirror=str(mirror))
    assert locked in str(caught.value)


def test_a_tampered_source_fails_verify(
    mirror: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, cache = tmp_path / "a.lock", tmp_path / "cache"
    assert _lock(path, ["apeach:1.0.0"], cache, mirror) == 0
    # A copy of the mirror with one byte of APEACH's test.csv changed, and no cache.
    url = dataset_spec("apeach").source_files()["apeach_test"].url
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
    assert "differs: apeach/default 1.0.0 (splits test): cannot be loaded or built" in out
    assert "checksum mismatch" in out and "expected sha256" in out
    assert not list((tmp_path / "fresh").glob("apeach/default/1.0.0*/*.arrow"))
