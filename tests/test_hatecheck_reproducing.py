"""HateCheck's published results, reproduced from the authors' released predictions.

The HateCheck authors released their models' predictions on the 3,728-case suite
(repository ``paul-rottger/hatecheck-experiments``, a pandas pickle, converted to one
``case_id,prediction`` CSV per model outside this repository). Every figure below is
typed from the paper and the authors' evaluation notebook (percentages to one decimal,
as they printed them), not computed by this package; ``score`` must agree with each
when rounded the same way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("fairlearn")

from hatemoji_datasets.cli import main  # noqa: E402
from hatemoji_datasets.evaluate import leaderboard, score  # noqa: E402

#: Model -> its predictions file, as the authors' folder names them.
MODELS = {"B-D": "bert_davidson2017_weighted.csv", "B-F": "bert_founta2018_weighted.csv"}

#: (B-D, B-F): accuracy over all 3,728 cases (%), and F1 of ``hateful``.
ACCURACY = (63.2, 60.2)
F1_HATEFUL = (0.738, 0.694)
#: Accuracy on the cases of each gold label (%).
GOLD_LABELS = {"hateful": (75.5, 65.5), "non-hateful": (36.0, 48.5)}
#: Accuracy per functional test (%), the paper's F1..F29.
FUNCTIONAL_TESTS = {
    "derog_neg_emote_h": (88.6, 90.7),
    "derog_neg_attrib_h": (88.6, 84.3),
    "derog_dehum_h": (91.4, 80.7),
    "derog_impl_h": (71.4, 61.4),
    "threat_dir_h": (87.2, 75.9),
    "threat_norm_h": (91.4, 83.6),
    "slur_h": (60.4, 41.0),
    "slur_homonym_nh": (66.7, 70.0),
    "slur_reclaimed_nh": (39.5, 33.3),
    "profanity_h": (82.9, 72.9),
    "profanity_nh": (99.0, 100.0),
    "ref_subs_clause_h": (87.1, 80.7),
    "ref_subs_sent_h": (85.7, 70.7),
    "negate_pos_h": (85.0, 60.7),
    "negate_neg_nh": (12.8, 12.0),
    "phrase_question_h": (80.7, 75.0),
    "phrase_opinion_h": (85.7, 75.9),
    "ident_neutral_nh": (20.6, 58.7),
    "ident_pos_nh": (21.7, 52.9),
    "counter_quote_nh": (26.6, 32.9),
    "counter_ref_nh": (29.1, 29.8),
    "target_obj_nh": (87.7, 84.6),
    "target_indiv_nh": (27.7, 55.4),
    "target_group_nh": (35.5, 59.7),
    "spell_char_swap_h": (69.9, 58.6),
    "spell_char_del_h": (59.3, 47.9),
    "spell_space_del_h": (68.1, 51.1),
    "spell_space_add_h": (43.9, 37.6),
    "spell_leet_h": (48.0, 43.9),
}
#: Accuracy per protected group over the template cases (n, B-D %, B-F %).
GROUPS = {
    "women": (421, 34.9, 52.3),
    "trans people": (421, 69.1, 69.4),
    "gay people": (421, 73.9, 74.3),
    "black people": (421, 69.8, 72.2),
    "disabled people": (421, 71.0, 37.1),
    "Muslims": (421, 72.2, 73.6),
    "immigrants": (421, 70.5, 58.9),
}
#: Accuracy on reclaimed slurs per focus lemma (n, B-D %, B-F %).
RECLAIMED = {
    "nigga": (19, 89.5, 0.0),
    "fag": (16, 0.0, 6.2),
    "faggot": (16, 0.0, 6.2),
    "queer": (15, 0.0, 73.3),
    "bitch": (15, 100.0, 93.3),
}
#: Every published cell, per model: 2 overall + 2 gold labels + 29 tests + 7 groups + 5 lemmas.
CELLS_PER_MODEL = 2 + 2 + 29 + 7 + 5


def percent(share: float) -> float:
    return round(100 * share, 1)


@pytest.fixture(scope="module")
def reports(mirror: Path, reference: Path, session_cache: Path) -> dict:
    folder = reference / "hatecheck-acl2021"
    if not folder.is_dir():
        pytest.skip(f"the authors' HateCheck predictions are not in {reference}")
    where = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    return {model: score("hatecheck", folder / file, **where) for model, file in MODELS.items()}


def test_every_published_figure_is_reproduced(reports: dict) -> None:
    reproduced, published = {}, {}
    for i, model in enumerate(MODELS):
        report = reports[model]
        published[model, "accuracy"] = ACCURACY[i]
        reproduced[model, "accuracy"] = percent(report.overall["accuracy"])
        published[model, "f1_hateful"] = F1_HATEFUL[i]
        reproduced[model, "f1_hateful"] = round(report.overall["f1_hateful"], 3)
        for row in report.table("gold_labels").rows:
            published[model, row["label"]] = GOLD_LABELS[row["label"]][i]
            reproduced[model, row["label"]] = percent(row["accuracy"])
        for row in report.table("functionalities").rows:
            published[model, row["functionality"]] = FUNCTIONAL_TESTS[row["functionality"]][i]
            reproduced[model, row["functionality"]] = percent(row["accuracy"])
        for row in report.table("groups_in_templates").rows:
            n, *figures = GROUPS[row["target"]]
            published[model, row["target"]] = (n, figures[i])
            reproduced[model, row["target"]] = (row["n"], percent(row["accuracy"]))
        for row in report.table("reclaimed_slurs").rows:
            n, *figures = RECLAIMED[row["focus_lemma"]]
            published[model, "reclaimed " + row["focus_lemma"]] = (n, figures[i])
            reproduced[model, "reclaimed " + row["focus_lemma"]] = (
                row["n"],
                percent(row["accuracy"]),
            )
    assert len(published) == 2 * CELLS_PER_MODEL  # every published cell has its row
    assert reproduced == published


def test_the_report_says_which_rows_the_group_table_covers(reports: dict) -> None:
    report = reports["B-D"]
    assert "421 template cases per group" in report.table("groups_in_templates").title
    notes = " ".join(report.notes)
    assert "2,947 of the 3,728 scored rows" in notes and "[IDENTITY" in notes
    assert "81 of the 3,728 scored rows" in notes
    # Today's per-target table stays, named as what it is: every case naming the group.
    targets = {row["target"]: row["n"] for row in report.table("targets").rows}
    assert targets["women"] == 509 and "all cases" in report.table("targets").title


def test_predictions_for_another_split_are_one_error(
    reference: Path, mirror: Path, session_cache: Path, tmp_path: Path, capsys
) -> None:
    """The authors' file scored against HateCheck's ``all`` config (3,901 cases): one error
    naming the count and the first missing ids."""
    folder = reference / "hatecheck-acl2021"
    if not folder.is_dir():
        pytest.skip(f"the authors' HateCheck predictions are not in {reference}")
    args = ["score", "hatecheck", "--config", "all", "--predictions", str(folder / MODELS["B-D"])]
    status = main([*args, "--cache-dir", str(session_cache), "--mirror", str(mirror)])
    err = capsys.readouterr().err
    assert status == 1 and err.count("error:") == 1 and "Traceback" not in err
    assert "173" in err  # 3,901 - 3,728 cases have no prediction


# -- the Hatemoji paper's main table, HateCheck column, through the leaderboard ------------

#: The Hatemoji paper's main table, HateCheck column: (accuracy, F1) of B-D and B-F.
HATEMOJI_HATECHECK = {"B-D": (0.632, 0.738), "B-F": (0.602, 0.694)}
HATECHECK_FILES = {"B-D": "bert_davidson2017_weighted.csv", "B-F": "bert_founta2018_weighted.csv"}


def test_the_hatemoji_main_table_hatecheck_cells(reference: Path, mirror, session_cache):
    folder = reference / "hatecheck-acl2021"
    report = leaderboard(
        {"hatecheck": [folder / name for name in HATECHECK_FILES.values()]},
        layout="hatemoji",
        names={Path(name).stem: model for model, name in HATECHECK_FILES.items()},
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    found = {
        model: tuple(round(report.cell(model, "HateCheck", m), 3) for m in report.metrics)
        for model in HATEMOJI_HATECHECK
    }
    assert report.metrics == ("accuracy", "f1_hateful")
    assert found == HATEMOJI_HATECHECK
