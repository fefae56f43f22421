"""HateCheck's own facts: the suite's and all generated cases' counts, the joined
annotations, agreement, scoring in the paper's layout, `validate` on corrupted copies,
and the schemas on small neutral fixtures. (Split sizes, features, reload, byte-exact
texts and sources are tested for every dataset in test_datasets.py.)

Expected figures are the upstream README's, stated as literals, or recomputed here
from the upstream files read with the csv module.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import datasets
import numpy as np
import pandas as pd
import pytest
from conftest import dummy_data_dir
from support.cards import card_table, committed_card
from support.paths import source_url, upstream_path

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cli import main
from hatemoji_datasets.evaluate import score

SUITE_CASES, ALL_CASES = "suite_cases", "all_cases"
ANNOTATIONS = {"default": "suite_annotations", "all": "all_annotations"}
CASES = {"default": SUITE_CASES, "all": ALL_CASES}
#: The paper's 29 tests, F1..F29, as upstream names them.
PAPER_TESTS = [
    "derog_neg_emote_h", "derog_neg_attrib_h", "derog_dehum_h", "derog_impl_h",
    "threat_dir_h", "threat_norm_h", "slur_h", "slur_homonym_nh", "slur_reclaimed_nh",
    "profanity_h", "profanity_nh", "ref_subs_clause_h", "ref_subs_sent_h", "negate_pos_h",
    "negate_neg_nh", "phrase_question_h", "phrase_opinion_h", "ident_neutral_nh",
    "ident_pos_nh", "counter_quote_nh", "counter_ref_nh", "target_obj_nh", "target_indiv_nh",
    "target_group_nh", "spell_char_swap_h", "spell_char_del_h", "spell_space_del_h",
    "spell_space_add_h", "spell_leet_h",
]  # fmt: skip
#: The paper's eleven groups, with how many of the 29 tests each holds.
PAPER_GROUPS = {
    "Derogation": 4,
    "Threatening language": 2,
    "Slur usage": 3,
    "Profanity usage": 2,
    "Pronoun reference": 2,
    "Negation": 2,
    "Phrasing": 2,
    "Non-hateful group identity": 2,
    "Counter speech": 2,
    "Abuse against non-protected targets": 3,
    "Spelling variations": 5,
}


def upstream_rows(mirror: Path, source: str) -> list[dict[str, str]]:
    """An upstream file's rows, read with the csv module alone."""
    path = upstream_path(mirror, source_url("hatecheck", source))
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def built(mirror: Path, session_cache: Path):
    def load(config: str) -> datasets.Dataset:
        return load_dataset(
            "hatecheck", config, split="test", cache_dir=str(session_cache), mirror=str(mirror)
        )

    return {config: load(config) for config in ("default", "all")}


# -- what the issue and upstream's README promise ------------------------------------------


def test_the_suite(built) -> None:
    suite = built["default"]
    assert suite.num_rows == 3728
    names = suite.features["functionality"].names
    assert names == PAPER_TESTS and len(set(suite["functionality"])) == 29
    labels = Counter(suite.features["label"].int2str(suite["label"]))
    assert labels == {"hateful": 2563, "non-hateful": 1165}
    targets = Counter(suite.features["target"].int2str(suite["target"]))
    assert targets["none"] == 292
    assert suite.features["target"].names == [
        "none", "women", "trans people", "gay people", "black people", "disabled people",
        "Muslims", "immigrants",
    ]  # fmt: skip
    assert suite.features["direction"].names == ["none", "general", "directed"]
    assert "in_test_suite" not in suite.features


def test_all_generated_cases(built) -> None:
    every = built["all"]
    assert every.num_rows == 3901
    assert Counter(every["in_test_suite"]) == {True: 3728, False: 173}
    kept = {i for i, inside in zip(every["case_id"], every["in_test_suite"]) if inside}
    assert kept == set(built["default"]["case_id"])


def test_gold_label_is_the_tests_suffix_and_direction_is_none_exactly_for_non_hate(built):
    for data in built.values():
        names = data.features["functionality"].names
        directions = data.features["direction"].names
        for f, label, direction in zip(data["functionality"], data["label"], data["direction"]):
            assert label == int(names[f].endswith("_h"))
            assert (directions[direction] == "none") == (label == 0)


@pytest.mark.parametrize("config", ["default", "all"])
def test_every_value_matches_upstream(config: str, built, mirror: Path) -> None:
    """Texts byte for byte, ids as integers, the five annotations joined by case id."""
    data = built[config]
    cases = upstream_rows(mirror, CASES[config])
    annotations = {row["case_id"]: row for row in upstream_rows(mirror, ANNOTATIONS[config])}
    assert len(cases) == len(annotations) == data.num_rows
    labels = data.features["label"].names
    for row, case in zip(cases, data):
        assert case["text"].encode("utf-8") == row["test_case"].encode("utf-8")
        assert case["case_id"] == int(row["case_id"])
        assert case["template"] == row["case_templ"]  # no CR from the CRLF file
        assert "\r" not in case["template"]
        for field, column in (("ref_case_id", "ref_case_id"), ("ref_template_id", "ref_templ_id")):
            assert case[field] == (int(float(row[column])) if row[column] else None)
        for field in ("focus_words", "focus_lemma"):
            assert case[field] == (None if row[field] == "-" else row[field])
        note = annotations[row["case_id"]]
        given = [(k, note[f"label_{k}"]) for k in range(1, 11) if note[f"label_{k}"]]
        assert case["annotators"] == [k for k, _ in given]
        assert [labels[label] for label in case["annotator_labels"]] == [v for _, v in given]
        assert labels[case["annotator_majority"]] == note["label_annot_maj"]


def test_suite_texts_end_in_a_space_as_upstream_wrote_them(built) -> None:
    assert sum(text.endswith(" ") for text in built["default"]["text"]) == 3470


# -- agreement -------------------------------------------------------------------------------


def _kappa_by_hand(labels: list[list[int]]) -> float:
    """Fleiss' kappa written out here from its definition, for two categories."""
    counts = np.array([[row.count(0), row.count(1)] for row in labels], dtype=float)
    n = counts.sum(axis=1)[0]
    observed = ((counts**2).sum(axis=1) - n) / (n * (n - 1))
    shares = counts.sum(axis=0) / counts.sum()
    expected = (shares**2).sum()
    return (observed.mean() - expected) / (1 - expected)


@pytest.mark.parametrize(("config", "kappa"), [("default", 0.939), ("all", 0.929)])
def test_info_reports_fleiss_kappa(config: str, kappa: float, built, mirror, session_cache):
    from hatemoji_datasets import dataset_info

    info = dataset_info("hatecheck", config, cache_dir=str(session_cache), mirror=str(mirror))
    agreement = info["statistics"]["annotator agreement"]["test"]
    assert agreement["Fleiss' kappa"] == kappa
    assert round(_kappa_by_hand(built[config]["annotator_labels"]), 3) == kappa
    assert agreement["labels per case"] == 5 and agreement["annotators in the pool"] == 10
    if config == "default":  # every suite case: at least four of five agree with gold
        assert agreement["cases with 5 agreeing with gold"] == 3485
        assert agreement["cases with 4 agreeing with gold"] == 243
        assert agreement["majority differs from gold"] == 0


def test_info_prints_the_kappa(built, mirror, session_cache, capsys) -> None:
    args = ["info", "hatecheck", "--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(args) == 0
    out = capsys.readouterr().out
    section = out.split("annotator agreement:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    rule = next(i for i, line in enumerate(section) if set(line.strip()) == {"-", " "})
    # The headers wrap between words to fit 100 columns; the last column is the kappa.
    assert [line.split()[-1] for line in section[rule - 2 : rule]] == ["Fleiss'", "kappa"]
    assert max(map(len, section)) <= 100
    row = section[rule + 1].split()
    assert row[0] == "test" and row[-1] == "0.939"


# -- scoring, recomputed here ------------------------------------------------------------------


def test_score_in_the_papers_layout(built, mirror, session_cache) -> None:
    suite = built["default"]
    rng = np.random.default_rng(7)
    predicted = rng.integers(0, 2, suite.num_rows)
    frame = suite.to_pandas()
    frame["pred"] = predicted
    report = score(
        "hatecheck",
        dict(zip(frame["case_id"], frame["pred"].tolist())),
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    table = report.table("functionalities")
    assert [row["test"] for row in table.rows] == [f"F{i}" for i in range(1, 30)]
    assert [row["functionality"] for row in table.rows] == PAPER_TESTS
    assert Counter(row["group"] for row in table.rows) == PAPER_GROUPS
    groups = [row["group"] for row in table.rows]
    assert groups == sorted(groups, key=list(PAPER_GROUPS).index)  # each group contiguous
    names = suite.features["functionality"].names
    for row in table.rows:
        rows = frame[frame["functionality"] == names.index(row["functionality"])]
        assert row["n"] == len(rows)
        assert row["label"] == ("hateful" if row["functionality"].endswith("_h") else "non-hateful")
        assert row["accuracy"] == pytest.approx((rows["pred"] == rows["label"]).mean())
    targets = {row["target"]: row for row in report.table("targets").rows}
    target_names = suite.features["target"].names
    for code, rows in frame.groupby("target"):
        row = targets[target_names[code]]
        assert row["n"] == len(rows) and row["n_hateful"] == int(rows["label"].sum())
        assert row["accuracy"] == pytest.approx((rows["pred"] == rows["label"]).mean())
        negatives = rows[rows["label"] == 0]
        if len(negatives):
            assert row["false_positive_rate"] == pytest.approx(negatives["pred"].mean())
    fairness = report.table("fairness").rows[0]
    assert fairness["groups"] == 7 and fairness["n"] == 3728 - 292
    assert report.overall["accuracy"] == pytest.approx((frame["pred"] == frame["label"]).mean())


def test_score_command_prints_the_functional_tests(built, mirror, session_cache, tmp_path, capsys):
    path = tmp_path / "always_hateful.csv"
    pd.DataFrame({"case_id": built["default"]["case_id"], "prediction": 1}).to_csv(path)
    common = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["score", "hatecheck", "--predictions", str(path), *common]) == 0
    out = capsys.readouterr().out
    assert "### Accuracy per functional test, in the paper's groups" in out
    assert "| Slur usage | F8 | slur_homonym_nh | non-hateful | 30 | 0.000 |" in out
    assert "| Derogation | F1 | derog_neg_emote_h | hateful | 140 | 1.000 |" in out


# -- validate on copies of each upstream file ------------------------------------------------


def _corrupt(mirror: Path, tmp_path: Path, source: str) -> tuple[Path, dict[str, int]]:
    """A copy of an upstream file with a changed gold label (line 2), a duplicated case id
    (line 4 takes line 3's) and a broken reference; returns the lines edited."""
    url = source_url("hatecheck", source)
    lines = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    header = lines[0].decode().rstrip("\r\n").split(",")
    at = {name: header.index(name) for name in ("case_id", "label_gold")}
    assert b'"' not in lines[1] + lines[2] + lines[3]

    def field(line: int, column: int, value: bytes) -> None:
        cells = lines[line - 1].split(b",")
        cells[column] = value
        lines[line - 1] = b",".join(cells)

    field(2, at["label_gold"], b"non-hateful")
    field(4, at["case_id"], lines[2].split(b",")[at["case_id"]])
    if "ref_case_id" in header:  # cases: a reference to no case
        ref = header.index("ref_case_id")
        broken = next(
            i + 1
            for i, line in enumerate(lines[1:], start=1)
            if b'"' not in line and line.split(b",")[ref]
        )
        field(broken, ref, b"99999")
    else:  # annotations: a case id naming no case
        broken = 6
        field(broken, at["case_id"], b"99999")
    path = tmp_path / Path(url).name
    path.write_bytes(b"".join(lines))
    return path, {"gold": 2, "duplicate": 4, "reference": broken}


@pytest.mark.parametrize(
    ("config", "source"),
    [
        ("default", "suite_cases"),
        ("default", "suite_annotations"),
        ("all", "all_cases"),
        ("all", "all_annotations"),
    ],
)
def test_validate_finds_label_reference_and_duplicate(
    config: str, source: str, mirror: Path, tmp_path: Path, capsys
) -> None:
    path, edited = _corrupt(mirror, tmp_path, source)
    args = ["validate", str(path), "--dataset", "hatecheck", "--config", config]
    assert main([*args, "--mirror", str(mirror), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    found = {(f["line"], f["column"], f["code"]) for f in report["findings"]}
    assert (edited["gold"], "label_gold", "HCK-LABEL-SUFFIX") in found
    assert (edited["duplicate"], "case_id", "VALUE-DUPLICATE") in found
    if source.endswith("cases"):
        assert (edited["reference"], "ref_case_id", "HCK-REF-CASE") in found
    else:
        assert (edited["reference"], "case_id", "JOIN-UNMATCHED") in found
    # The suite's agreement rule also reads the changed label; one cell, one finding.
    assert (edited["gold"], "label_gold", "HCK-SUITE-AGREEMENT") not in found
    assert all(f["file"] == str(path) for f in report["findings"])
    errors = [(f["line"], f["column"]) for f in report["findings"] if f["severity"] == "error"]
    assert len(errors) == len(set(errors))  # no cell has two errors


def test_released_files_validate_clean(mirror: Path, capsys) -> None:
    for config in ("default", "all"):
        paths = [
            str(upstream_path(mirror, source_url("hatecheck", source)))
            for source in (CASES[config], ANNOTATIONS[config])
        ]
        args = ["validate", *paths, "--dataset", "hatecheck", "--config", config, "--full"]
        assert main([*args, "--mirror", str(mirror), "--strict"]) == 0, capsys.readouterr().out


# -- the schemas and joins on the neutral dummy data -----------------------------------------


def _dummy(source: str) -> Path:
    return upstream_path(dummy_data_dir("hatecheck"), source_url("hatecheck", source))


def _dummy_findings(fake_mirror, replace: dict[str, bytes]) -> list[tuple[int, str, str]]:
    """What a build from the dummy data with some files replaced refuses, and where."""
    from hatemoji_datasets import SchemaViolationError

    mirror = fake_mirror("hatecheck", replace)
    cache = mirror.parent / f"{mirror.name}-cache"
    with pytest.raises(SchemaViolationError) as caught:
        load_dataset("hatecheck", "default", cache_dir=str(cache), mirror=str(mirror))
    assert not any(p.is_dir() for p in cache.glob("hatecheck/*/*"))  # nothing cached
    return sorted(((f.line, f.column, f.code) for f in caught.value.findings), key=str)


def test_a_build_refuses_annotations_that_disagree_with_their_cases(fake_mirror) -> None:
    lines = _dummy("suite_annotations").read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b"A sample statement about immigrants. ", b"Another text. ")
    found = _dummy_findings(fake_mirror, {"suite_annotations": b"".join(lines)})
    assert found == [(3, "test_case", "JOIN-MISMATCH")]


def test_a_build_refuses_a_case_without_annotations(fake_mirror) -> None:
    lines = _dummy("suite_annotations").read_bytes().splitlines(keepends=True)
    del lines[5]  # case 6's annotations
    found = _dummy_findings(fake_mirror, {"suite_annotations": b"".join(lines)})
    assert found == [(6, "case_id", "JOIN-UNMATCHED")]  # line 6 of the cases file


@pytest.mark.parametrize(
    ("line", "old", "new", "expected"),
    [
        # Case 2 (line 3): its five labels, count and majority.
        (3, b". ,hateful,,hateful,hateful,", b". ,hateful,hateful,hateful,hateful,", (3, None, "HCK-FIVE-LABELS")),  # noqa: E501
        (3, b",4,1,hateful", b",3,1,hateful", (3, "count_label_h", "HCK-COUNT-HATEFUL")),
        (3, b",4,1,hateful", b",4,2,hateful", (3, "count_label_nh", "HCK-COUNT-NON-HATEFUL")),
        (3, b",4,1,hateful", b",4,1,non-hateful", (3, "label_annot_maj", "HCK-MAJORITY")),
        # Case 4 (line 5): one more annotator disagreeing is below the suite's four of five.
        (5, b",,,non-hateful,non-hateful,hateful,", b",,,non-hateful,hateful,hateful,", (5, "label_gold", "HCK-SUITE-AGREEMENT")),  # noqa: E501
    ],
)  # fmt: skip
def test_annotation_rules(fake_mirror, line, old, new, expected) -> None:
    lines = _dummy("suite_annotations").read_bytes().splitlines(keepends=True)
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    assert expected in _dummy_findings(fake_mirror, {"suite_annotations": b"".join(lines)})


@pytest.mark.parametrize(
    ("line", "old", "new", "expected"),
    [
        (2, b",hateful,women,general,", b",hateful,women,-,", (2, "direction", "HCK-DIRECTION")),
        (5, b",non-hateful,,-,", b",non-hateful,women,-,", (5, "target_ident", "HCK-NO-TARGET")),
        (4, b",1,1,2,", b",9,1,2,", (4, "ref_case_id", "HCK-REF-CASE")),
        (4, b",1,1,2,", b",1,2,2,", (4, "ref_templ_id", "HCK-REF-TEMPLATE")),
        (4, b",1,1,2,", b",1.5,1,2,", (4, "ref_case_id", "VALUE-PATTERN")),
    ],
)
def test_case_rules(fake_mirror, line, old, new, expected) -> None:
    lines = _dummy("suite_cases").read_bytes().splitlines(keepends=True)
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    assert expected in _dummy_findings(fake_mirror, {"suite_cases": b"".join(lines)})


def test_schema_config_is_not_misspelt() -> None:
    from hatemoji_datasets.datasets.hatecheck.schema import (
        HateCheckAnnotations,
        HateCheckCases,
        HateCheckSuiteAnnotations,
    )

    for model in (HateCheckCases, HateCheckAnnotations, HateCheckSuiteAnnotations):
        schema = model.to_schema()
        assert schema.strict is True and schema.coerce is True
        assert schema.name.startswith("HateCheck raw")
        assert list(schema.columns)[:3] == ["", "functionality", "case_id"]
    assert len(HateCheckAnnotations.to_schema().columns) == 19
    assert len(HateCheckCases.to_schema().columns) == 13


def test_lock_and_verify_both_datasets(built, mirror, session_cache, tmp_path, capsys) -> None:
    """A lockfile pins HateCheck and one MHC language; verify reloads and passes; a lock
    load refuses nothing here and gives the locked rows."""
    lock = tmp_path / "family.lock"
    common = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    refs = ["hatecheck", "hatecheck/all", "multilingual_hatecheck/german"]
    assert main(["lock", *refs, "-o", str(lock), *common]) == 0
    text = lock.read_text(encoding="utf-8")
    assert text.count("test_suite_annotations.csv") == 1 and "hatecheck_cases_final_german" in text
    assert main(["verify", str(lock), *common]) == 0
    assert "differs" not in capsys.readouterr().out
    data = load_dataset(
        "hatecheck", lock=str(lock), cache_dir=str(session_cache), mirror=str(mirror)
    )
    assert data["test"].num_rows == 3728


def test_release_rules_on_a_copy(mirror: Path, tmp_path: Path, capsys) -> None:
    """A changed released cell is RELEASE-CHANGED (with the released value); with --full a
    row left out is RELEASE-MISSING; a new case repeating a released text is named."""
    url = source_url("hatecheck", SUITE_CASES)
    lines = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    assert lines[1].count(b",hate,hate,") == 1
    lines[1] = lines[1].replace(b",hate,hate,", b",loathe,hate,")  # focus_words of case 1
    removed = lines.pop(5)  # case 5
    path = tmp_path / "test_suite_cases.csv"
    path.write_bytes(b"".join(lines))
    common = ["--dataset", "hatecheck", "--mirror", str(mirror), "--format", "json"]
    assert main(["validate", str(path), *common, "--full"]) == 1
    report = json.loads(capsys.readouterr().out)
    found = {(f["line"], f["column"], f["code"]): f for f in report["findings"]}
    changed = found[2, "focus_words", "RELEASE-CHANGED"]
    assert (changed["value"], changed["expected"]) == ("loathe", "hate")
    missing = [f for f in report["findings"] if f["code"] == "RELEASE-MISSING"]
    assert [f["value"] for f in missing] == [removed.split(b",")[2].decode()]
    assert len(report["findings"]) == 2


# -- the card's tables, recomputed independently (moved from test_cards.py) ---------


@pytest.mark.real_data
def test_hatecheck_functional_test_table(card_data) -> None:
    data = card_data("hatecheck").configs["default"].data["test"]
    frame = data.to_pandas()
    names = data.features["functionality"].names
    table = card_table(committed_card("hatecheck"), "Cases per functional test")
    assert list(table) == [f"F{i + 1} {name}" for i, name in enumerate(names)]
    for code, group in frame.groupby("functionality"):
        row = table[f"F{code + 1} {names[code]}"]
        assert int(row["cases"]) == len(group)
        assert row["label"] == ("hateful" if group["label"].iloc[0] == 1 else "non-hateful")
    assert sum(int(row["cases"]) for row in table.values()) == 3728


@pytest.mark.real_data
def test_hatecheck_agreement_tables(card_data) -> None:
    from statsmodels.stats.inter_rater import fleiss_kappa

    for config, title in (
        ("default", "Annotator agreement in the test suite"),
        ("all", "Annotator agreement over all generated cases"),
    ):
        data = card_data("hatecheck").configs[config].data["test"]
        given = np.array(data["annotator_labels"])
        counts = np.column_stack([(given == 0).sum(axis=1), (given == 1).sum(axis=1)])
        row = card_table(committed_card("hatecheck"), title)["test"]
        assert row["Fleiss' kappa"] == f"{fleiss_kappa(counts):.3f}"
        gold = np.array(data["label"])
        agreeing = Counter((given == gold[:, None]).sum(axis=1))
        for n, count in agreeing.items():
            assert int(row[f"cases with {n} agreeing with gold"]) == count
    assert card_table(committed_card("hatecheck"), "All generated cases and the test suite") == {
        "in the suite": {"count": "3728"},
        "not in the suite": {"count": "173"},
    }
