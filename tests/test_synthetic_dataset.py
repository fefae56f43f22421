"""The tests' synthetic dataset: registered only where a test asks for it, and built,
validated and checked like any dataset (``tests/synthetic/README.md``)."""

from __future__ import annotations

from pathlib import Path

from support.cli import run_cli
from support.synthetic import LABELS, SPLITS, SYNTHETIC, TOPICS, mirror_file

from hatemoji_datasets.core.registry import list_datasets


def test_it_is_registered_only_where_a_test_asks_for_it(synthetic: str, monkeypatch) -> None:
    assert SYNTHETIC in list_datasets()
    assert SYNTHETIC in run_cli("list").stdout
    monkeypatch.undo()
    assert SYNTHETIC not in list_datasets()
    assert SYNTHETIC not in run_cli("list").stdout


def test_it_builds_the_rows_written_by_hand(synthetic: str, mirror: Path, tmp_path: Path):
    from hatemoji_datasets import load_dataset

    data = load_dataset(synthetic, cache_dir=str(tmp_path), mirror=str(mirror))
    assert {split: data[split].num_rows for split in data} == SPLITS
    for split, (non_hateful, hateful) in LABELS.items():
        assert sorted(data[split]["label"][:]) == [0] * non_hateful + [1] * hateful
    assert tuple(data["test"].features["topic"].names) == TOPICS
    assert data["test"][0] == {
        "sentence_id": 25,
        "text": "Oranges are juicy in winter",
        "topic": 0,
        "label": 0,
    }


def test_its_files_are_valid_and_its_fingerprints_recorded(synthetic: str, mirror: Path, tmp_path):
    files = [str(mirror_file(source, mirror)) for source in ("train", "test")]
    done = run_cli("validate", "--dataset", synthetic, *files)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (
        0,
        "0 error(s), 0 warning(s) in 2 file(s)",
    )
    done = run_cli(
        "regenerate",
        synthetic,
        "--check",
        "--fingerprints",
        "--cache-dir",
        str(tmp_path),
        "--mirror",
        str(mirror),
        "--only",
        "raw_columns,fingerprints",
    )  # fmt: skip (the files of its folder; it has no card or task of the repository's)
    assert done.returncode == 0, done.stdout + done.stderr
