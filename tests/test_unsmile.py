"""Korean UnSmile on the real files: its label counts, the per-target score table against
an independent computation from the upstream TSV, and the released train file's repeated
text, a warning and never a changed row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import precision_recall_fscore_support

from hatemoji_datasets import load_dataset
from hatemoji_datasets.evaluate.scoring import score
from hatemoji_datasets.validate.contributions import validate_contributions

UPSTREAM = (
    "raw.githubusercontent.com/smilegate-ai/korean_unsmile_dataset/"
    "569ab5f495e046911898805d3bee92469988dcd9"
)
#: The eight hate-target headers upstream, in the README's order.
TARGET_HEADERS = ("여성/가족", "남성", "성소수자", "인종/국적", "연령", "지역", "종교", "기타 혐오")


@pytest.fixture(scope="module")
def where(mirror: Path, session_cache: Path) -> dict[str, str]:
    return {"mirror": str(mirror), "cache_dir": str(session_cache)}


def _upstream(mirror: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(mirror / UPSTREAM / name, sep="\t", quoting=3, dtype={"문장": str})


def test_label_counts_are_the_issue_counts(where) -> None:
    data = load_dataset("unsmile", **where)
    counts = {split: np.bincount(data[split]["label"][:]).tolist() for split in data}
    assert counts == {"train": [6884, 8121], "validation": [1721, 2016]}


def test_per_target_accuracy_matches_pandas_on_the_upstream_file(mirror: Path, where) -> None:
    raw = _upstream(mirror, "unsmile_valid_v1.0.tsv")
    gold = raw[list(TARGET_HEADERS)].eq(1).any(axis=1).to_numpy()
    rng = np.random.default_rng(7)
    predicted = np.where(rng.random(len(raw)) < 0.3, ~gold, gold)
    ids = [f"unsmile_valid:{line}" for line in range(2, len(raw) + 2)]  # line 1: header
    names = np.where(predicted, "hateful", "non-hateful")
    report = score("unsmile", pd.DataFrame({"row_id": ids, "prediction": names}), **where)
    metrics = ("n", "accuracy", "group_precision", "group_recall", "group_f1")
    found = {row["targets"]: [row[m] for m in metrics] for row in report.tables["targets"].rows}
    expected = {}
    for header, name in zip(TARGET_HEADERS, ("women_family", "men", "sexual_minorities",
                                             "race_nationality", "age", "region", "religion",
                                             "other_hate"), strict=True):  # fmt: skip
        mine = raw[header].eq(1).to_numpy()
        # The target's comments against the non-hateful ones, a hateful prediction a flag.
        kept = mine | ~gold
        p, r, f, _ = precision_recall_fscore_support(mine[kept], predicted[kept], average="binary")
        expected[name] = [int(mine.sum()), (predicted[mine] == gold[mine]).mean(), p, r, f]
    assert list(found) == list(expected)
    assert np.ravel(list(found.values())) == pytest.approx(np.ravel(list(expected.values())))
    # Upstream README's validation counts per target.
    assert [row[0] for row in found.values()] == [394, 334, 280, 426, 146, 260, 290, 134]


def test_released_train_file_validates_with_one_repeated_text_warning(mirror: Path, where) -> None:
    report = validate_contributions(
        [str((mirror / UPSTREAM / "unsmile_train_v1.0.tsv").resolve())], "unsmile", **where
    )
    found = [(f.line, f.code, f.severity) for f in report.findings]
    assert found == [(6551, "TEXT-REPEATED", "warning")]


def test_its_licence_forbids_pushing_an_adapted_copy(tmp_path: Path, capsys) -> None:
    from hatemoji_datasets.cli import main

    args = ["push", "unsmile", "--repo-id", "org/unsmile", "--dry-run"]
    assert main([*args, "--cache-dir", str(tmp_path / "never-built")]) == 1
    err = capsys.readouterr().err
    assert "unsmile: CC-BY-NC-ND-4.0 forbids sharing an adapted copy" in err
    assert "section 2(a)(1)(B)" in err
    assert not (tmp_path / "never-built").exists()
