"""The cache never serves altered data, and ``info`` never trusts its stored summary.

Every build records the size and sha256 of each of its files in a manifest
(``hatemoji_manifest.json``); every load checks them before ``datasets`` reads
anything. Each test here failed on 3eb3066 (main before the digests): an
in-place edit of one character of a cached text was served by
``load_dataset``, ``score`` and ``info``; a replaced summary gave tracebacks.

They run on the tests' synthetic dataset (``tests/synthetic/README.md``, its ``test``
split of 16 rows); loading an older version, on APEACH (the synthetic dataset has one
release).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from support.cli import run_cli
from support.synthetic import SPLIT, SYNTHETIC

from hatemoji_datasets import CacheError, load_dataset
from hatemoji_datasets.building import manifest, summary
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.columns import TEXT_COLUMN
from hatemoji_datasets.core.registry import lookup

pytestmark = pytest.mark.usefixtures("synthetic")
#: Rows of the split (``tests/synthetic/README.md``).
ROWS = 16
FOLDER = ("synthetic", "default", "1.0.0")
#: The split's Arrow file, as ``datasets`` names it.
ARROW = f"{SYNTHETIC}-{SPLIT}.arrow"


@pytest.fixture
def built(fresh_build) -> Path:
    """A fresh cache holding the dataset as its build wrote it; returns the cache root."""
    return fresh_build(SYNTHETIC, "default")


def _folder(cache: Path) -> Path:
    return cache.joinpath(*FOLDER)


def _texts(arrow: Path) -> list[str]:
    with pa.memory_map(str(arrow)) as source:
        return pa.ipc.open_stream(source).read_all().column(TEXT_COLUMN).to_pylist()


def _edit_one_character_in_place(arrow: Path) -> tuple[str, str]:
    """Change one letter of the first text that occurs once in the file, in place.

    Same length, same row count, the file still reads: only the bytes differ.
    Returns the text before and after.
    """
    raw = arrow.read_bytes()
    for text in _texts(arrow):
        encoded = text.encode("utf-8")
        if raw.count(encoded) == 1 and "a" in text:
            break
    else:  # pragma: no cover - the real data has such texts
        raise AssertionError("no text to edit")
    offset = raw.index(encoded) + encoded.index(b"a")
    with open(arrow, "r+b") as handle:
        handle.seek(offset)
        handle.write(b"o")
    edited = text.replace("a", "o", 1)
    assert edited in _texts(arrow) and len(_texts(arrow)) == ROWS
    return text, edited


def _arrow(cache: Path) -> Path:
    return _folder(cache) / ARROW


def _cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The command in this process (its exit status and both streams are what is checked)."""
    return run_cli(*args, cwd=cwd, env=env)


def _cli_process(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """The command in a new process: what ``datasets`` itself logs there is checked."""
    return subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def test_a_build_records_the_digest_of_every_file(built: Path) -> None:
    recorded = json.loads((_folder(built) / manifest.MANIFEST_FILE).read_text())["files"]
    assert set(recorded) == {
        "LICENSE",
        "dataset_info.json",
        "synthetic-train.arrow",
        "synthetic-test.arrow",
    }
    arrow = _arrow(built)
    assert recorded[arrow.name]["size"] == arrow.stat().st_size


def test_an_in_place_edit_of_one_character_is_never_served(
    built: Path, mirror: Path, tmp_path: Path
) -> None:
    before, after = _edit_one_character_in_place(_arrow(built))
    with pytest.raises(CacheError) as raised:
        load_dataset(SYNTHETIC, cache_dir=str(built), mirror=str(mirror))
    message = str(raised.value)
    assert str(_folder(built)) in message and "--force" in message
    assert f"{ARROW} was changed" in message and "\n" not in message
    predictions = tmp_path / "model.csv"
    predictions.write_text("sentence_id,prediction\n25,1\n", encoding="utf-8")
    for command in (
        ["info", SYNTHETIC],
        ["score", SYNTHETIC, "--predictions", str(predictions)],
        ["build", SYNTHETIC],
    ):
        done = _cli(*command, "--cache-dir", str(built), "--mirror", str(mirror), cwd=tmp_path)
        assert done.returncode == 1, (command, done.stderr)
        assert done.stdout == "" and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and "is damaged" in done.stderr, done.stderr
    # --force rebuilds it from verified sources; the edit is gone.
    assert _cli("build", SYNTHETIC, "--force", "--cache-dir", str(built), cwd=tmp_path,
                env={"HATEMOJI_DATASETS_MIRROR": str(mirror)}).returncode == 0  # fmt: skip
    texts = load_dataset(SYNTHETIC, split=SPLIT, cache_dir=str(built))[TEXT_COLUMN]
    assert before in texts and after not in texts


@pytest.mark.parametrize(
    "damage",
    ["dataset_info.json garbage", "dataset_info.json deleted", "an added shard", "LICENSE"],
)
def test_other_damage_is_one_line(built: Path, mirror: Path, damage: str) -> None:
    folder = _folder(built)
    if damage == "dataset_info.json garbage":
        (folder / "dataset_info.json").write_text("{not json", encoding="utf-8")
    elif damage == "dataset_info.json deleted":
        (folder / "dataset_info.json").unlink()
        (folder / "dataset_info.json").mkdir()  # still "there" for a careless check
    elif damage == "an added shard":
        (folder / f"{SYNTHETIC}-{SPLIT}-00001-of-00002.arrow").write_bytes(
            _arrow(built).read_bytes()
        )
    else:
        (folder / "LICENSE").write_text("changed", encoding="utf-8")
    with pytest.raises(CacheError, match="is damaged: .*--force"):
        load_dataset(SYNTHETIC, cache_dir=str(built), mirror=str(mirror))
    rebuilt = load_dataset(
        SYNTHETIC,
        split=SPLIT,
        cache_dir=str(built),
        mirror=str(mirror),
        download_mode="force_redownload",
    )
    assert rebuilt.num_rows == ROWS


def test_a_garbage_manifest_is_damage(built: Path, mirror: Path) -> None:
    (_folder(built) / manifest.MANIFEST_FILE).write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(CacheError, match="manifest"):
        load_dataset(SYNTHETIC, cache_dir=str(built), mirror=str(mirror))


def test_a_map_cache_beside_the_build_is_not_damage(built: Path, mirror: Path) -> None:
    data = load_dataset(SYNTHETIC, split=SPLIT, cache_dir=str(built), mirror=str(mirror))
    data.map(lambda row: {"n": len(row[TEXT_COLUMN])})  # datasets writes cache-*.arrow beside it
    assert list(_folder(built).glob("cache-*.arrow"))
    assert load_dataset(SYNTHETIC, split=SPLIT, cache_dir=str(built)).num_rows == ROWS


# -- builds from before manifests ------------------------------------------------------------


def test_a_build_without_a_manifest_is_checked_against_the_recorded_fingerprints(
    built: Path, mirror: Path
) -> None:
    """A cache from 0.2.0 has no manifest: it is served once its fingerprints are the
    recorded ones, and the manifest is written then; an altered one is refused."""
    path = _folder(built) / manifest.MANIFEST_FILE
    path.unlink()
    assert load_dataset(SYNTHETIC, split=SPLIT, cache_dir=str(built)).num_rows == ROWS
    assert path.is_file()  # adopted: later loads check the digests only
    _edit_one_character_in_place(_arrow(built))
    path.unlink()
    with pytest.raises(CacheError, match=f"split {SPLIT}: fingerprint sha256:.*recorded sha256:"):
        load_dataset(SYNTHETIC, cache_dir=str(built), mirror=str(mirror))
    assert not path.exists()


# -- info and its stored summary -------------------------------------------------------------

SUMMARIES = {
    "a list": "[]",
    "an empty object": "{}",
    "null": "null",
    "a number": "3",
    "empty": "",
    "cut short": f'{{"format": 2, "name": "{SYNTHETIC}", "pretty',
    "not UTF-8": b"\xff\xfe{}",
    "deeply nested": "[" * 100_000 + "]" * 100_000,
}


def _summary_path(cache: Path) -> Path:
    return _folder(cache) / summary.SUMMARY_FILE


def _good_summary(cache: Path, mirror: Path) -> dict:
    assert main(["info", SYNTHETIC, "--cache-dir", str(cache), "--mirror", str(mirror)]) == 0
    return json.loads(_summary_path(cache).read_text(encoding="utf-8"))


def _wrong_shapes(good: dict) -> dict[str, dict]:
    """Valid JSON summaries with a missing key, a wrong type, or another build's figures."""
    missing = {k: v for k, v in good.items() if k != "pretty_name"}
    return {
        "missing pretty_name": missing,
        "splits a string": {**good, "splits": "test"},
        "sources a mapping": {**good, "sources": {"a": 1}},
        "a source without a sha256": {**good, "sources": [{"name": "test"}]},
        "features a list": {**good, "features": ["text"]},
        "statistics a list": {**good, "statistics": [1, 2]},
        "another version": {**good, "version": "9.9.9"},
        "other split sizes": {**good, "splits": {SPLIT: 1}},
    }


def _info_is_right(cache: Path, mirror: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    code = main(["info", SYNTHETIC, "--cache-dir", str(cache), "--mirror", str(mirror)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("Synthetic sentences (tests only): synthetic (default), version 1.0.0\n")
    assert f"{ROWS:,}" in out and err == ""


@pytest.mark.parametrize("content", list(SUMMARIES))
def test_info_recomputes_a_replaced_summary(
    built: Path, mirror: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _good_summary(built, mirror)
    data = SUMMARIES[content]
    _summary_path(built).write_bytes(data if isinstance(data, bytes) else data.encode())
    _info_is_right(built, mirror, capsys)
    assert json.loads(_summary_path(built).read_text(encoding="utf-8")) == good


@pytest.mark.parametrize("case", list(_wrong_shapes({"pretty_name": 0})))
def test_info_recomputes_a_summary_of_the_wrong_shape_even_when_vouched_for(
    built: Path, mirror: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A summary in the manifest (as one an older release wrote might be) is still checked."""
    good = _good_summary(built, mirror)
    _summary_path(built).write_text(json.dumps(_wrong_shapes(good)[case]), encoding="utf-8")
    manifest.add(_folder(built), summary.SUMMARY_FILE)
    spec, config, version = lookup(SYNTHETIC)
    assert summary.read(spec, config, version, str(built)) is None
    _info_is_right(built, mirror, capsys)
    assert json.loads(_summary_path(built).read_text(encoding="utf-8")) == good


@pytest.mark.parametrize("special", ["fifo", "folder"])
def test_info_with_a_special_file_as_its_summary(
    built: Path, mirror: Path, special: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _good_summary(built, mirror)
    path = _summary_path(built)
    path.unlink()
    if special == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    else:
        path.mkdir()
    _info_is_right(built, mirror, capsys)


def test_the_summary_schema_names_what_is_wrong() -> None:
    assert summary.problems([]) == ["summary is not a mapping"]
    assert "summary lacks 'name'" in summary.problems({"format": 2})
    assert "summary.splits.test is not int" in summary.problems({"splits": {"test": "3"}})
    assert "summary.sources[0] lacks 'sha256'" in summary.problems(
        {"sources": [{"name": "a", "url": "u", "size": 1, "license": "l"}]}
    )
    assert "summary.format is not int" in summary.problems({"format": True})


# -- older versions load quietly ---------------------------------------------------------------

#: A dataset released more than once (APEACH, named: the synthetic dataset has one
#: release), and its first release.
OLDER = "apeach:1.0.0"


def test_loading_an_older_version_is_quiet(tmp_path: Path, mirror: Path) -> None:
    cache = str(tmp_path / "cache")
    env = {"HATEMOJI_DATASETS_MIRROR": str(mirror)}
    name = OLDER.partition(":")[0]
    assert _cli("build", name, "--cache-dir", cache, cwd=tmp_path, env=env).returncode == 0
    for command in (["build", OLDER], ["lock", OLDER]):
        done = _cli_process(*command, "--cache-dir", cache, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        assert "Found a different version" not in done.stderr
