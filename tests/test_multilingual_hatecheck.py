"""Multilingual HateCheck's own facts: upstream's counts per language, one set of features,
target spellings unified, values equal to upstream's, agreement, the language x test
matrix, `validate` on corrupted copies, and the schema on the neutral dummy data.

Expected figures are the upstream README's, stated as literals, or recomputed here from
the upstream files read with the csv module (and ``ast.literal_eval`` for the label lists).
"""

from __future__ import annotations

import ast
import csv
import json
from collections import Counter
from pathlib import Path

import datasets
import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import dummy_data_dir
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cards import card_table, committed_card
from support.cli import validate_json
from support.paths import REPO, source_lines, source_url, upstream_name, upstream_path, write_lines

from hatemoji_datasets import load_dataset
from hatemoji_datasets.cards.lint import front_matter
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.evaluate import score

pytestmark = pytest.mark.slow  # scheduled first: tests/scheduling.py

NAME = "multilingual_hatecheck"
#: Upstream's README: cases per language file.
CASES = {
    "arabic": 3570, "dutch": 3765, "french": 3718, "german": 3645, "hindi": 3565,
    "italian": 3690, "mandarin": 3378, "polish": 3815, "portuguese": 3691, "spanish": 3745,
}  # fmt: skip
LANGUAGES = list(CASES)
#: Upstream's README: cases where the annotators' majority differs from the gold label.
DISAGREEING = {"italian": 27, "french": 789}


def upstream_rows(mirror: Path, language: str) -> list[dict[str, str]]:
    path = upstream_path(mirror, source_url(NAME, language))
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def built(mirror: Path, session_cache: Path) -> dict[str, datasets.Dataset]:
    return {
        config: load_dataset(
            NAME, config, split="test", cache_dir=str(session_cache), mirror=str(mirror)
        )
        for config in [*LANGUAGES, "all"]
    }


@pytest.fixture(scope="module")
def upstream(mirror: Path) -> dict[str, list[dict[str, str]]]:
    return {language: upstream_rows(mirror, language) for language in LANGUAGES}


# -- counts, features, languages -----------------------------------------------------------


def test_upstream_counts(built) -> None:
    assert {language: built[language].num_rows for language in LANGUAGES} == CASES
    assert built["all"].num_rows == sum(CASES.values()) == 36582
    assert Counter(built["all"].features["language"].int2str(built["all"]["language"])) == CASES


def test_every_config_has_one_set_of_features(built) -> None:
    features = built["all"].features
    assert all(data.features == features for data in built.values())
    assert features["language"].names == LANGUAGES
    # so languages concatenate, and give back the stacked config
    stacked = datasets.concatenate_datasets([built[language] for language in LANGUAGES])
    assert stacked["case_id"] == built["all"]["case_id"]


def test_language_is_the_case_ids_and_the_files(built) -> None:
    for language in LANGUAGES:
        data = built[language]
        assert set(data.features["language"].int2str(data["language"])) == {language}
        assert all(case_id.startswith(f"{language}-") for case_id in data["case_id"])


def test_functional_tests(built) -> None:
    names = built["all"].features["functionality"].names
    assert len(names) == 34
    assert "slur_homonym_nh" not in names and "slur_reclaimed_nh" not in names
    per_language = {
        language: {names[f] for f in built[language]["functionality"]} for language in LANGUAGES
    }
    assert {lang: len(tests) for lang, tests in per_language.items()} == {
        **dict.fromkeys(LANGUAGES, 27),
        "mandarin": 25,
    }
    assert {"spell_pinyin_h", "spell_homoph_h", "spell_char_comp_h"} <= per_language["mandarin"]
    assert "spell_sent_arabazi_h" in per_language["arabic"]
    assert set(names) == set().union(*per_language.values())
    for data in built.values():
        for f, label in zip(data["functionality"], data["label"]):
            assert label == int(names[f].endswith("_h"))


def _norm(name: str) -> str:
    """A group's name without case, plural or 'people', so spellings of one group meet."""
    name = name.lower().replace(" people", "").replace("jewish", "jew")
    return name[:-1] if name.endswith("s") else name


def test_no_group_under_two_spellings(built, upstream) -> None:
    names = built["all"].features["target"].names
    assert len({_norm(name) for name in names}) == len(names) == 15
    # Each upstream spelling became one name, and the one its group has everywhere.
    built_of: dict[str, set[str]] = {}
    for language in LANGUAGES:
        data = built[language]
        for row, target in zip(upstream[language], data.features["target"].int2str(data["target"])):
            built_of.setdefault(row["target_ident"], set()).add(target)
    assert all(len(found) == 1 for found in built_of.values()), built_of
    spellings = {spelling: found.pop() for spelling, found in built_of.items()}
    for spelling, name in spellings.items():
        if spelling:
            assert _norm(spelling) == _norm(name)
    assert {s for s in spellings if s != spellings[s] and s} == {
        "Black people", "jews", "jewish people", "immigrant",
    }  # fmt: skip
    assert spellings["Black people"] == "black people" and spellings["jewish people"] == "Jews"
    assert spellings[""] == "none"


def test_the_card_lists_every_unification_as_an_erratum() -> None:
    card = yaml.safe_load(dataset_spec(NAME).card_source_path.read_text(encoding="utf-8"))
    errata = " ".join(card["errata"])
    for spelling, name in (
        ("Black people", "black people"),
        ("jews", "Jews"),
        ("jewish people", "Jews"),
        ("immigrant", "immigrants"),
    ):
        assert f"`{spelling}`" in errata and f"`{name}`" in errata


# -- values, against upstream ----------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_value_matches_upstream(language: str, built, upstream) -> None:
    data = built[language]
    labels = data.features["label"].names
    disagreeing = 0
    for row, case in zip(upstream[language], data):
        assert case["text"].encode("utf-8") == row["test_case"].encode("utf-8")
        assert case["case_id"] == row["mhc_case_id"]
        annotated = ast.literal_eval(row["label_annotated"])
        assert [labels[label] for label in case["annotator_labels"]] == annotated
        assert labels[case["annotator_majority"]] == row["label_annotated_maj"]
        majority = Counter(annotated).most_common(1)[0][0]
        assert row["label_annotated_maj"] == majority
        assert case["disagreement_in_case"] == (row["disagreement_in_case"] == "True")
        assert case["disagreement_in_case"] == (majority != row["label_gold"])
        disagreeing += case["disagreement_in_case"]
        ref = row["ref_case_id"]
        assert case["ref_case_id"] == (f"{language}-{int(float(ref))}" if ref else None)
        assert case["template_id"] == int(row["templ_id"])
        assert case["template"] == (row["case_templ"] or None)
        assert case["template_male"] == (row.get("gender_male") or None)
        assert case["template_female"] == (row.get("gender_female") or None)
    if language in DISAGREEING:
        assert disagreeing == DISAGREEING[language]


def test_references_name_cases_of_the_same_language(built) -> None:
    ids = set(built["all"]["case_id"])
    refs = [ref for ref in built["all"]["ref_case_id"] if ref is not None]
    assert refs and set(refs) <= ids


def test_gendered_templates_only_in_the_eight_inflected_languages(built, upstream) -> None:
    for language in LANGUAGES:
        has_columns = "gender_male" in upstream[language][0]
        assert has_columns == (language not in ("dutch", "mandarin"))
        if not has_columns:
            assert set(built[language]["template_male"]) == {None}


# -- agreement -------------------------------------------------------------------------------


def test_info_reports_fleiss_kappa_per_language(built, mirror, session_cache) -> None:
    from statsmodels.stats.inter_rater import fleiss_kappa

    from hatemoji_datasets import dataset_info

    info = dataset_info(NAME, "all", cache_dir=str(session_cache), mirror=str(mirror))
    agreement = info["statistics"]["annotator agreement"]
    assert list(agreement) == [*LANGUAGES, "all"]
    for language in [*LANGUAGES, "all"]:
        given = np.array(built[language]["annotator_labels"])
        table = np.column_stack([(given == 0).sum(axis=1), (given == 1).sum(axis=1)])
        assert agreement[language]["Fleiss' kappa"] == round(fleiss_kappa(table), 3)
        assert agreement[language]["cases"] == len(given)
    assert agreement["french"]["majority differs from gold"] == 789
    assert agreement["italian"]["majority differs from gold"] == 27
    assert agreement["all"]["Fleiss' kappa"] == 0.657


# -- scoring: the language x test matrix -------------------------------------------------------


def test_language_by_test_matrix(built, mirror, session_cache, tmp_path) -> None:
    data = built["all"]
    frame = data.to_pandas()
    rng = np.random.default_rng(3)
    frame["pred"] = (rng.random(len(frame)) < 0.6).astype(int)
    report = score(
        NAME,
        dict(zip(frame["case_id"], frame["pred"].tolist())),
        config="all",
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    names = {c: data.features[c].names for c in ("functionality", "language")}
    frame["test"] = frame["functionality"].map(names["functionality"].__getitem__)
    frame["lang"] = frame["language"].map(names["language"].__getitem__)
    frame["right"] = frame["pred"] == frame["label"]
    expected = frame.pivot_table(index="test", columns="lang", values="right", aggfunc="mean")
    matrix = report.accuracy_matrix()
    assert list(matrix.index) == names["functionality"]
    assert list(matrix.columns) == LANGUAGES
    for test in matrix.index:
        for language in LANGUAGES:
            want = expected.loc[test, language] if test in expected.index else np.nan
            got = matrix.loc[test, language]
            assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(want)
    assert np.isnan(matrix.loc["spell_pinyin_h", "german"])
    languages = {row["language"]: row for row in report.table("languages").rows}
    for language, rows in frame.groupby("lang"):
        assert languages[language]["n"] == len(rows) == CASES[language]
        assert languages[language]["accuracy"] == pytest.approx(rows["right"].mean())

    from hatemoji_datasets.evaluate.plot import plot_heatmap

    values = plot_heatmap({"model": report}, tmp_path / "matrix.png")
    assert values.shape == (1, 34, 10)
    assert np.allclose(np.nan_to_num(values[0], nan=-1), np.nan_to_num(matrix.to_numpy(), nan=-1))


def test_score_command_prints_the_matrix(built, mirror, session_cache, tmp_path, capsys) -> None:
    path = tmp_path / "always_hateful.csv"
    pd.DataFrame({"case_id": built["all"]["case_id"], "prediction": 1}).to_csv(path, index=False)
    common = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    args = ["score", NAME, "--config", "all", "--predictions", str(path), *common]
    assert main([*args, "--plot", str(tmp_path / "matrix.png")]) == 0
    out = capsys.readouterr().out
    assert "### Accuracy per functional test x language" in out
    assert "Accuracy matrix (functionality x language):" in out
    header = "| functionality | " + " | ".join(LANGUAGES) + " |"
    assert header in out
    assert "| spell_pinyin_h | " + " | ".join(["n/a"] * 6 + ["1.000"] + ["n/a"] * 3) + " |" in out
    assert (tmp_path / "matrix.png").stat().st_size > 0


def test_score_one_language(built, mirror, session_cache) -> None:
    german = built["german"]
    report = score(
        NAME,
        dict.fromkeys(german["case_id"], 0),
        config="german",
        cache_dir=str(session_cache),
        mirror=str(mirror),
    )
    rows = report.table("functionalities").rows
    assert len(rows) == 27 and rows[0]["group"] == "Derogation"
    assert {row["functionality"]: row["accuracy"] for row in rows}["negate_neg_nh"] == 1.0
    assert report.table("fairness").rows[0]["groups"] == 7


#: The issue's count of cases whose ``case_templ`` upstream leaves empty, of all cases:
#: their templates are gendered, in ``gender_male`` and ``gender_female``.
NO_CASE_TEMPLATE = {"italian": (3395, 3690), "spanish": (3450, 3745), "portuguese": (2269, 3691)}
TEMPLATE_COLUMNS = ("case_templ", "gender_male", "gender_female")


def test_group_table_counts_the_cases_whose_template_names_a_group(
    built, upstream, mirror, session_cache
) -> None:
    for language, (empty, cases) in NO_CASE_TEMPLATE.items():
        rows = upstream[language]
        assert (sum(row["case_templ"] == "" for row in rows), len(rows)) == (empty, cases)
    for language in ("italian", "portuguese", "dutch"):
        data = built[language]
        report = score(
            NAME,
            dict.fromkeys(data["case_id"], 1),
            config=language,
            cache_dir=str(session_cache),
            mirror=str(mirror),
        )
        # Recomputed from the upstream file: a case counts when any template column holds
        # an IDENT_ placeholder; its group is its file's target, unified as the build does.
        expected = Counter(
            row["target_ident"]
            for row in upstream[language]
            if any("IDENT_" in row.get(column, "") for column in TEMPLATE_COLUMNS)
        )
        table = report.table("groups_in_templates")
        found = {row["target"]: row["n"] for row in table.rows}
        assert sorted(found.values()) == sorted(expected.values()), language
        if language != "portuguese":  # Portuguese: 433 to 436 per group
            assert set(found.values()) == {435}, language
        hateful = {row["target"]: row["accuracy"] for row in table.rows}
        for row in table.rows:  # all predicted hateful: accuracy is the hateful share
            assert hateful[row["target"]] == pytest.approx(row["n_hateful"] / row["n"])
        assert any("gender_male" in note and "3,395 of 3,690" in note for note in report.notes)
        assert report.table("targets").rows[0]["n"] > 0  # the all-cases table stays


# -- validate on copies of each language's file ----------------------------------------------


def _corrupt(mirror: Path, folder: Path, language: str) -> tuple[Path, int]:
    """A copy with a changed gold label (line 2), a duplicated id (line 4 takes line 3's)
    and a broken reference (returned)."""
    url = source_url(NAME, language)
    lines = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b",hateful,", b",non-hateful,", 1)
    lines[3] = lines[2].split(b",", 1)[0] + b"," + lines[3].split(b",", 1)[1]
    header = lines[0].decode().split(",")
    ref = header.index("ref_case_id")
    broken = next(
        i for i, line in enumerate(lines[1:], start=1) if line.split(b",")[ref].endswith(b".0")
    )
    cells = lines[broken].split(b",")
    cells[ref] = b"99999.0"
    lines[broken] = b",".join(cells)
    path = folder / Path(url).name.replace("%20", " ")
    path.write_bytes(b"".join(lines))
    return path, broken + 1


def test_validate_finds_label_reference_and_duplicate_in_every_language(
    mirror: Path, tmp_path: Path, capsys
) -> None:
    broken = {language: _corrupt(mirror, tmp_path, language) for language in LANGUAGES}
    paths = [str(path) for path, _ in broken.values()]
    args = ["validate", *paths, "--dataset", NAME, "--config", "all", "--mirror", str(mirror)]
    assert main([*args, "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    found = Counter(
        (Path(f["file"]).name, f["line"], f["column"], f["code"]) for f in report["findings"]
    )
    for path, line in broken.values():
        name = path.name
        assert found[name, 2, "label_gold", "MHC-LABEL-SUFFIX"] == 1
        assert found[name, 4, "mhc_case_id", "VALUE-DUPLICATE"] == 1
        assert found[name, line, "ref_case_id", "MHC-REF-CASE"] == 1
    places = [(f["file"], f["line"], f["column"]) for f in report["findings"]]
    assert len(places) == len(set(places))


def test_validate_one_language_and_its_file(mirror: Path, tmp_path: Path, capsys) -> None:
    path, line = _corrupt(mirror, tmp_path, "german")
    args = ["validate", str(path), "--dataset", NAME, "--config", "german"]
    assert main([*args, "--mirror", str(mirror), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    found = {(f["line"], f["column"], f["code"]) for f in report["findings"]}
    assert {(2, "label_gold", "MHC-LABEL-SUFFIX"), (line, "ref_case_id", "MHC-REF-CASE")} <= found
    # a German file named like the Dutch one, under config all: ids of the wrong language
    dutch = tmp_path / Path(source_url(NAME, "dutch")).name.replace("%20", " ")
    dutch.write_bytes(upstream_path(mirror, source_url(NAME, "german")).read_bytes())
    args = ["validate", str(dutch), "--dataset", NAME, "--mirror", str(mirror), "--format", "json"]
    assert main(args) == 1
    report = json.loads(capsys.readouterr().out)
    codes = Counter(f["code"] for f in report["findings"])
    assert codes["MHC-ID-LANGUAGE"] == CASES["german"]


def test_released_files_validate_clean(mirror: Path, capsys) -> None:
    paths = [str(upstream_path(mirror, source_url(NAME, language))) for language in LANGUAGES]
    args = ["validate", *paths, "--dataset", NAME, "--full", "--strict", "--mirror", str(mirror)]
    assert main(args) == 0, capsys.readouterr().out


# -- the schema on the neutral dummy data --------------------------------------------------------


def _dummy_findings(fake_mirror, language: str, edit) -> list[tuple[int | None, str | None, str]]:
    from hatemoji_datasets import SchemaViolationError

    path = upstream_path(dummy_data_dir(NAME), source_url(NAME, language))
    lines = path.read_bytes().splitlines(keepends=True)
    mirror = fake_mirror(NAME, {language: b"".join(edit(lines))})
    cache = mirror.parent / f"{mirror.name}-cache"
    with pytest.raises(SchemaViolationError) as caught:
        load_dataset(NAME, language, cache_dir=str(cache), mirror=str(mirror))
    return [(f.line, f.column, f.code) for f in caught.value.findings]


def _replace(line: int, old: bytes, new: bytes):
    def edit(lines: list[bytes]) -> list[bytes]:
        assert old in lines[line - 1], lines[line - 1]
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
        return lines

    return edit


@pytest.mark.parametrize(
    ("language", "edit", "expected"),
    [
        ("german", _replace(2, b"german-1,", b"dutch-1,"), (2, "mhc_case_id", "MHC-ID-LANGUAGE")),
        ("german", _replace(2, b"german-1,", b"deutsch-1,"), (2, "mhc_case_id", "VALUE-PATTERN")),
        ("german", _replace(2, b",jews,", b",Muslims,"), (2, "target_ident", "MHC-TARGET-LANGUAGE")),  # noqa: E501
        ("german", _replace(3, b",1.0,1.0,", b",5.0,1.0,"), (3, "ref_case_id", "MHC-REF-CASE")),
        ("german", _replace(3, b",1.0,1.0,", b",1.0,2.0,"), (3, "ref_templ_id", "MHC-REF-TEMPLATE")),  # noqa: E501
        # 19 digits: no int64 holds every such number, so the plan leaves it to the schema
        ("german", _replace(3, b",1.0,1.0,", b",1234567890123456789.0,1.0,"), (3, "ref_case_id", "MHC-REF-CASE")),  # noqa: E501
        ("german", _replace(2, b"'non-hateful']", b"'maybe']"), (2, "label_annotated", "MHC-LABELS-LITERAL")),  # noqa: E501
        ("german", _replace(2, b"]\",hateful,", b"]\",non-hateful,"), (2, "label_annotated_maj", "MHC-MAJORITY")),  # noqa: E501
        ("german", _replace(3, b",True,True", b",False,True"), (3, "disagreement_in_case", "MHC-DISAGREEMENT")),  # noqa: E501
        ("dutch", _replace(2, b",hateful,women,", b",non-hateful,women,"), (2, "label_gold", "MHC-LABEL-SUFFIX")),  # noqa: E501
    ],
)  # fmt: skip
def test_schema_rules(fake_mirror, language, edit, expected) -> None:
    assert expected in _dummy_findings(fake_mirror, language, edit)


def test_a_file_without_gender_columns_is_fine_but_one_without_a_required_column_is_not(
    fake_mirror,
) -> None:
    def drop_template(lines: list[bytes]) -> list[bytes]:
        rows = list(csv.reader(line.decode() for line in lines))
        at = rows[0].index("case_templ")
        out = [
            ",".join(f'"{c}"' if "," in c else c for i, c in enumerate(r) if i != at) for r in rows
        ]
        return [(line + "\n").encode() for line in out]

    assert _dummy_findings(fake_mirror, "dutch", drop_template) == [
        (1, "case_templ", "COLUMN-MISSING")
    ]


def test_release_rules_on_a_copy(mirror: Path, tmp_path: Path, capsys) -> None:
    url = source_url(NAME, "spanish")
    lines = upstream_path(mirror, url).read_bytes().splitlines(keepends=True)
    old = lines[1].split(b",")[2]  # spanish-1's text
    lines[1] = lines[1].replace(old, old + b"!", 1)
    path = tmp_path / "spanish.csv"
    path.write_bytes(b"".join(lines))
    common = ["--dataset", NAME, "--config", "spanish", "--mirror", str(mirror)]
    assert main(["validate", str(path), *common, "--format", "json"]) == 1
    [finding] = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["line"], finding["column"], finding["code"]) == (
        2,
        "test_case",
        "RELEASE-CHANGED",
    )
    assert finding["expected"] == old.decode()
    assert main(["validate", str(path), *common, "--allow-changes"]) == 0


# -- the card's tables, recomputed independently (moved from test_cards.py) ---------


#: BCP-47 codes of Multilingual HateCheck's ten languages.
MHC_LANGUAGES = ["ar", "nl", "fr", "de", "hi", "it", "zh", "pl", "pt", "es"]


def test_multilingual_metadata_lists_every_language() -> None:
    from hatemoji_datasets.datasets.multilingual_hatecheck.spec import LANGUAGE_CODES, LANGUAGES

    card = front_matter(committed_card("multilingual_hatecheck"))
    assert card["multilinguality"] == ["multilingual"]
    assert card["language"] == MHC_LANGUAGES == [LANGUAGE_CODES[lang] for lang in LANGUAGES]
    metadata = json.loads(
        (REPO / "cards" / "multilingual_hatecheck" / "croissant.json").read_text("utf-8")
    )
    assert metadata["inLanguage"] == MHC_LANGUAGES
    assert front_matter(committed_card("hatecheck"))["language"] == ["en"]


def test_errata_list_the_unified_spellings() -> None:
    text = committed_card("multilingual_hatecheck")
    errata = text.split("### Errata\n", 1)[1].split("\n### ", 1)[0]
    for spelling in ("`Black people`", "`jews`", "`jewish people`", "`immigrant`"):
        assert spelling in errata


@pytest.mark.real_data
def test_multilingual_hatecheck_language_table(card_data) -> None:
    data = card_data("multilingual_hatecheck").configs["all"].data["test"]
    frame = data.to_pandas()
    languages = data.features["language"].names
    table = card_table(committed_card("multilingual_hatecheck"), "Cases per language")
    assert list(table) == languages
    for code, group in frame.groupby("language"):
        row = table[languages[code]]
        assert int(row["cases"]) == len(group)
        assert int(row["hateful"]) == int(group["label"].sum())
        assert int(row["functionalities"]) == group["functionality"].nunique()
    agreement = card_table(
        committed_card("multilingual_hatecheck"), "Annotator agreement per language"
    )
    assert agreement["french"]["majority differs from gold"] == "789"
    assert agreement["italian"]["majority differs from gold"] == "27"
    assert agreement["all"]["cases"] == "36582"


# -- the whole-column forms of the schema's per-row rules ------------------------------------

_LABEL_PARTS = ["'hateful'", "'non-hateful'", "'hateful '", "hateful", "'Hateful'", "", "'x'"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.sampled_from(_LABEL_PARTS), min_size=0, max_size=4), max_size=40))
def test_majority_is_each_literals_majority(literals: list[list[str]]) -> None:
    """``majority`` counts by regex kernels; here each literal is parsed on its own."""
    import re

    import pyarrow as pa

    from hatemoji_datasets.datasets.multilingual_hatecheck import rules
    from hatemoji_datasets.schema.rules import rows_of

    texts = ["[" + ", ".join(parts) + "]" for parts in literals]
    batch = pa.record_batch({"label_annotated": pa.array(texts, pa.string())})
    got = rules.majority(rows_of(batch)).to_pylist()
    for text, value in zip(texts, got, strict=True):
        if re.fullmatch(rules.LABELS_LITERAL, text) is None:
            assert value is None, text
        else:
            labels = [part.strip("'") for part in text[1:-1].split(", ")]
            assert value == max(("hateful", "non-hateful"), key=labels.count), text


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.data())
def test_of_language_is_each_rows_vocabulary(data) -> None:
    import pyarrow as pa

    from hatemoji_datasets.datasets.multilingual_hatecheck import rules
    from hatemoji_datasets.datasets.multilingual_hatecheck.spec import FUNCTIONALITIES_OF

    words = sorted({w for ws in FUNCTIONALITIES_OF.values() for w in ws}) + ["", "x"]
    languages = [*FUNCTIONALITIES_OF, None, "klingon"]
    rows = data.draw(st.lists(st.tuples(st.sampled_from(words), st.sampled_from(languages))))
    values = pa.array([v for v, _ in rows], pa.string())
    langs = pa.array([lang for _, lang in rows], pa.string())
    got = rules.of_language(values, langs, FUNCTIONALITIES_OF).to_pylist()
    assert len(got) == len(rows)
    for (value, language), allowed in zip(rows, got, strict=True):
        assert allowed == (
            language not in FUNCTIONALITIES_OF or value in FUNCTIONALITIES_OF[language]
        )


# -- validate: each language's own tests, groups and file (from test_hostile_contributions) --
# Each failed on 0.3.0: a Mandarin-only spelling test (or another language's spelling of a
# group) in a ``--config german`` contribution passed; a file named like the French file
# holding German rows passed ``--config german``. (The spec's LANGUAGES, imported in each
# test, are the declared ones in the declared order, which the messages follow.)


def _first_hateful(lines: list[bytes], *, spelling: bool = False) -> int:
    """The index of the first case of a hateful test that is (not) a spelling test."""
    for index, line in enumerate(lines[1:], start=1):
        test = line.split(b",")[1]
        if test.endswith(b"_h") and test.startswith(b"spell_") == spelling:
            return index
    raise AssertionError("no such case")


@pytest.mark.parametrize(
    ("language", "test"),
    [
        ("german", "spell_pinyin_h"),  # the case: Mandarin's only
        ("german", "spell_sent_arabazi_h"),  # Arabic's only
        ("mandarin", "spell_leet_h"),  # eight languages', not Mandarin's
        ("arabic", "spell_char_swap_h"),
        ("hindi", "spell_homoph_h"),
    ],
)
def test_a_test_of_another_language(
    mirror: Path, tmp_path: Path, capsys, language: str, test: str
) -> None:
    from hatemoji_datasets.datasets.multilingual_hatecheck.spec import (
        FUNCTIONALITIES_OF,
        LANGUAGES,
    )

    lines = source_lines(mirror, NAME, language)
    at = _first_hateful(lines)
    cells = lines[at].split(b",")
    cells[1] = test.encode()
    lines[at] = b",".join(cells)
    path = write_lines(tmp_path, f"{language}-new.csv", lines)
    code, findings = validate_json(capsys, mirror, NAME, path, "--config", language)
    assert code == 1
    [finding] = [f for f in findings if f["code"] == "MHC-FUNCTIONALITY-LANGUAGE"]
    assert (finding["line"], finding["column"], finding["value"]) == (at + 1, "functionality", test)
    owners = [lang for lang in LANGUAGES if test in FUNCTIONALITIES_OF[lang]]
    assert f"is a test of {', '.join(owners)} only, not of {language}" in finding["message"]
    # one cell, one finding: the changed released cell is this rule's to report
    assert [f["code"] for f in findings if f["line"] == at + 1] == ["MHC-FUNCTIONALITY-LANGUAGE"]


def test_every_language_keeps_its_own_tests(mirror: Path) -> None:
    """The declared per-language tests and groups are what each upstream file holds."""
    from hatemoji_datasets.datasets.multilingual_hatecheck.spec import (
        FUNCTIONALITIES_OF,
        LANGUAGES,
        UPSTREAM_TARGETS,
    )

    for language in LANGUAGES:
        lines = [line.decode("utf-8") for line in source_lines(mirror, NAME, language)]
        rows = list(csv.DictReader(lines))
        assert {r["functionality"] for r in rows} == set(FUNCTIONALITIES_OF[language])
        assert {r["target_ident"] for r in rows} - {""} == set(UPSTREAM_TARGETS[language])


@pytest.mark.parametrize(
    ("language", "old", "new", "owners"),
    [
        ("french", b",Muslims,", b",jews,", "german, portuguese, spanish"),
        ("german", b",women,", b",North-East Indians,", "hindi"),
    ],
)
def test_a_group_of_another_language(
    mirror: Path, tmp_path: Path, capsys, language: str, old: bytes, new: bytes, owners: str
) -> None:
    lines = source_lines(mirror, NAME, language)
    at = next(i for i, line in enumerate(lines) if old in line)
    lines[at] = lines[at].replace(old, new, 1)
    path = write_lines(tmp_path, "mine.csv", lines)
    code, findings = validate_json(capsys, mirror, NAME, path, "--config", language)
    [finding] = [f for f in findings if f["code"] == "MHC-TARGET-LANGUAGE"]
    assert code == 1 and finding["line"] == at + 1
    assert f"is a group of {owners} only, not of {language}" in finding["message"]


def test_a_file_named_like_another_language(mirror: Path, tmp_path: Path, capsys) -> None:
    """German rows in a file named like the French one: the name is another source's."""
    lines = source_lines(mirror, NAME, "german")
    path = write_lines(tmp_path, upstream_name(NAME, "french"), lines)
    code, findings = validate_json(capsys, mirror, NAME, path, "--config", "german")
    assert code == 1
    assert [(f["code"], f["line"]) for f in findings] == [("NAME-OTHER-SOURCE", None)]
    assert "source french" in findings[0]["message"] and "it reads german" in findings[0]["message"]
    # named as its own language, it passes; under config all its ids disagree with its name
    right = write_lines(tmp_path, upstream_name(NAME, "german"), lines)
    assert validate_json(capsys, mirror, NAME, right, "--config", "german") == (0, [])
    code, findings = validate_json(capsys, mirror, NAME, path, "--config", "all")
    ids = [f for f in findings if f["code"] == "MHC-ID-LANGUAGE"]
    assert code == 1 and len(ids) == len(lines) - 1


def test_template_lists_a_languages_own_groups(mirror: Path, capsys) -> None:
    # A German contributor was told every language's groups, and had to read the CSV.
    import json

    from hatemoji_datasets.cli import main

    name = "multilingual_hatecheck"
    assert main(["template", name, "--config", "german", "--format", "json"]) == 0
    allowed = json.loads(capsys.readouterr().out)["allowed"]
    german = ["women", "trans people", "gay people", "black people", "disabled people"]
    assert allowed["target_ident"] == ["", *german, "jews", "refugees"]  # no Muslims
    upstream = upstream_path(mirror, source_url(name, "german"))
    with upstream.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert set(allowed["target_ident"]) == {row["target_ident"] for row in rows}
    assert set(allowed["functionality"]) == {row["functionality"] for row in rows}
    assert main(["template", name, "--config", "german"]) == 0
    assert "(empty), women, trans people" in capsys.readouterr().out
