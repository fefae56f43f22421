"""Multilingual HateCheck's efficient-strategies table (Röttger et al., EMNLP 2022):
its 15 Spanish cells from the authors' 150 released runs, through the leaderboard, against
the mean macro F1 over seeds their README prints."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from test_leaderboard import MHC_PATTERN, sklearn_scores

from hatemoji_datasets import load_dataset
from hatemoji_datasets.evaluate import leaderboard

pytest.importorskip("sklearn.metrics")

#: The authors' mean macro F1 over 10 seeds on MHC Spanish, by model shorthand and
#: training size (the README of the released runs, from their evaluation notebook).
MHC_SPANISH = {
    "M": (0.42, 0.38, 0.64),
    "X": (0.30, 0.41, 0.63),
    "X+DEN": (0.83, 0.82, 0.80),
    "X+FEN": (0.60, 0.63, 0.64),
    "X+KEN": (0.54, 0.53, 0.61),
}
SIZES = ("20", "200", "2000")
#: Shorthand -> file prefix, as the README names them.
MHC_MODELS = {
    "robertuito_es_bas19_es": "M",
    "xlmt_dyn21_en_0": "X",
    "xlmt_dyn21_en_20000": "X+DEN",
    "xlmt_fou18_en_20000": "X+FEN",
    "xlmt_ken20_en_20000": "X+KEN",
}


@pytest.fixture(scope="module")
def mhc_spanish(reference: Path, mirror: Path, session_cache: Path):
    runs = reference / "mhc-elr-emnlp2022" / "hatecheck_es"
    return leaderboard(
        {"multilingual_hatecheck/spanish": runs},
        pattern=MHC_PATTERN,
        layout="mhc-efficient",
        names=MHC_MODELS,
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )


def test_the_15_published_mhc_spanish_cells(mhc_spanish) -> None:
    found = {
        model: tuple(round(mhc_spanish.cell(model, "ES", "f1_macro", size=s), 2) for s in SIZES)
        for model in MHC_SPANISH
    }
    assert found == MHC_SPANISH
    assert all(cell.runs == 10 for row in mhc_spanish.rows for cell in row.cells.values())
    assert [c.heading for c in mhc_spanish.columns] == ["ES"]


def test_the_mhc_run_checked_by_hand(mhc_spanish, reference: Path, mirror, session_cache):
    """The README's run by hand (0.592 / 0.632 / 0.588), and every run against sklearn."""
    (run,) = [r for r in mhc_spanish.runs if r.path.endswith("robertuito_es_bas19_es_2000_rs1.csv")]
    assert {k: round(v, 3) for k, v in run.scores.items()} == {
        "accuracy": 0.592,
        "f1_hateful": 0.632,
        "f1_macro": 0.588,
    }
    truth = (
        load_dataset(
            "multilingual_hatecheck/spanish",
            split="test",
            cache_dir=str(session_cache),
            mirror=str(mirror),
        )
        .select_columns(["case_id", "label"])
        .to_pandas()
        .set_index("case_id")["label"]
    )
    for run in mhc_spanish.runs[::7]:
        predicted = pd.read_csv(run.path).set_index("case_id")["prediction"].reindex(truth.index)
        assert run.scores == pytest.approx(sklearn_scores(truth, predicted), abs=1e-12), run.path
