"""Every rule of a config holds for every row, whatever the file or language; no finding
hides another.

Each case failed on 0.3.0: a Mandarin-only spelling test (or another language's
spelling of a group) in a ``--config german`` contribution passed; a file named like
the French file holding German rows passed ``--config german``; the same case id in
two files of one contribution passed; a HateCheck case whose text differs between its
cases and annotations files lost its ``JOIN-MISMATCH`` behind the edge-space warning.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import source_url, upstream_path

from hatemoji_datasets.cli import main
from hatemoji_datasets.datasets.multilingual_hatecheck.spec import (
    FUNCTIONALITIES_OF,
    LANGUAGES,
    UPSTREAM_TARGETS,
)

MHC = "multilingual_hatecheck"


def _validate(capsys, mirror: Path, dataset: str, *args: str) -> tuple[int, list[dict]]:
    capsys.readouterr()
    code = main(
        ["validate", *args, "--dataset", dataset, "--mirror", str(mirror), "--format", "json"]
    )
    return code, json.loads(capsys.readouterr().out)["findings"]


def _lines(mirror: Path, dataset: str, source: str) -> list[bytes]:
    return upstream_path(mirror, source_url(dataset, source)).read_bytes().splitlines(keepends=True)


def _upstream_name(dataset: str, source: str) -> str:
    return Path(source_url(dataset, source)).name.replace("%20", " ")


def _write(folder: Path, name: str, lines: list[bytes]) -> str:
    path = folder / name
    path.write_bytes(b"".join(lines))
    return str(path)


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
    lines = _lines(mirror, MHC, language)
    at = _first_hateful(lines)
    cells = lines[at].split(b",")
    cells[1] = test.encode()
    lines[at] = b",".join(cells)
    path = _write(tmp_path, f"{language}-new.csv", lines)
    code, findings = _validate(capsys, mirror, MHC, path, "--config", language)
    assert code == 1
    [finding] = [f for f in findings if f["code"] == "MHC-FUNCTIONALITY-LANGUAGE"]
    assert (finding["line"], finding["column"], finding["value"]) == (at + 1, "functionality", test)
    owners = [lang for lang in LANGUAGES if test in FUNCTIONALITIES_OF[lang]]
    assert f"is a test of {', '.join(owners)} only, not of {language}" in finding["message"]
    # one cell, one finding: the changed released cell is this rule's to report
    assert [f["code"] for f in findings if f["line"] == at + 1] == ["MHC-FUNCTIONALITY-LANGUAGE"]


def test_every_language_keeps_its_own_tests(mirror: Path) -> None:
    """The declared per-language tests and groups are what each upstream file holds."""
    for language in LANGUAGES:
        lines = [line.decode("utf-8") for line in _lines(mirror, MHC, language)]
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
    lines = _lines(mirror, MHC, language)
    at = next(i for i, line in enumerate(lines) if old in line)
    lines[at] = lines[at].replace(old, new, 1)
    path = _write(tmp_path, "mine.csv", lines)
    code, findings = _validate(capsys, mirror, MHC, path, "--config", language)
    [finding] = [f for f in findings if f["code"] == "MHC-TARGET-LANGUAGE"]
    assert code == 1 and finding["line"] == at + 1
    assert f"is a group of {owners} only, not of {language}" in finding["message"]


def test_a_file_named_like_another_language(mirror: Path, tmp_path: Path, capsys) -> None:
    """German rows in a file named like the French one: the name is another source's."""
    lines = _lines(mirror, MHC, "german")
    path = _write(tmp_path, _upstream_name(MHC, "french"), lines)
    code, findings = _validate(capsys, mirror, MHC, path, "--config", "german")
    assert code == 1
    assert [(f["code"], f["line"]) for f in findings] == [("NAME-OTHER-SOURCE", None)]
    assert "source french" in findings[0]["message"] and "it reads german" in findings[0]["message"]
    # named as its own language, it passes; under config all its ids disagree with its name
    right = _write(tmp_path, _upstream_name(MHC, "german"), lines)
    assert _validate(capsys, mirror, MHC, right, "--config", "german") == (0, [])
    code, findings = _validate(capsys, mirror, MHC, path, "--config", "all")
    ids = [f for f in findings if f["code"] == "MHC-ID-LANGUAGE"]
    assert code == 1 and len(ids) == len(lines) - 1


def test_a_hatecheck_file_named_like_another_configs(mirror: Path, tmp_path: Path, capsys) -> None:
    lines = _lines(mirror, "hatecheck", "suite_cases")
    path = _write(tmp_path, _upstream_name("hatecheck", "all_cases"), lines)
    code, findings = _validate(capsys, mirror, "hatecheck", path, "--config", "default")
    assert code == 1 and [f["code"] for f in findings] == ["NAME-OTHER-SOURCE"]


def test_an_id_in_two_files(mirror: Path, tmp_path: Path, capsys) -> None:
    german = _lines(mirror, MHC, "german")
    whole = _write(tmp_path, _upstream_name(MHC, "german"), german)
    again = _write(tmp_path, "more-german.csv", [german[0], german[5]])
    for config in ("all", "german"):
        code, findings = _validate(capsys, mirror, MHC, whole, again, "--config", config)
        assert code == 1
        assert [(Path(f["file"]).name, f["line"], f["code"]) for f in findings] == [
            ("more-german.csv", 2, "KEY-REPEATED-ACROSS-FILES")
        ]
        assert f"{whole}:6" in findings[0]["message"]
    # HateCheck: a case in two cases files
    cases = _lines(mirror, "hatecheck", "suite_cases")
    first = _write(tmp_path, "cases-1.csv", cases[:20])
    second = _write(tmp_path, "cases-2.csv", [cases[0], *cases[15:30]])
    code, findings = _validate(capsys, mirror, "hatecheck", first, second)
    repeated = [(Path(f["file"]).name, f["line"]) for f in findings if f["code"].startswith("KEY")]
    assert code == 1 and repeated == [("cases-2.csv", n) for n in range(2, 7)]


def _hatecheck_pair(folder: Path, cases_text: str, annotations_text: str) -> tuple[str, str]:
    """A new HateCheck case and its annotations, each file with its own text."""
    cases = (
        ",functionality,case_id,test_case,label_gold,target_ident,direction,focus_words,"
        "focus_lemma,ref_case_id,ref_templ_id,templ_id,case_templ\n"
        f"0,derog_neg_emote_h,5001,{cases_text},hateful,women,general,hate,hate,,,900,"
        "I hate [IDENTITY_P].\n"
    )
    annotations = (
        ",functionality,case_id,templ_id,test_case,label_gold,label_1,label_2,label_3,label_4,"
        "label_5,label_6,label_7,label_8,label_9,label_10,count_label_h,count_label_nh,"
        "label_annot_maj\n"
        f"0,derog_neg_emote_h,5001,900,{annotations_text},hateful,hateful,,,hateful,,,hateful,"
        "hateful,,hateful,5,0,hateful\n"
    )
    (folder / "cases.csv").write_text(cases, encoding="utf-8")
    (folder / "annotations.csv").write_text(annotations, encoding="utf-8")
    return str(folder / "cases.csv"), str(folder / "annotations.csv")


@pytest.mark.parametrize("space", ["", " "], ids=["no edge space", "an edge space"])
def test_a_join_mismatch_is_never_hidden_by_a_warning(
    mirror: Path, tmp_path: Path, capsys, space: str
) -> None:
    """Upstream's texts end in a space: the warning is shown, and so is the mismatch."""
    paths = _hatecheck_pair(tmp_path, f"Rain on mondays.{space}", f"Rain on tuesdays.{space}")
    code, findings = _validate(capsys, mirror, "hatecheck", *paths)
    codes = sorted((Path(f["file"]).name, f["code"]) for f in findings)
    expected = [("annotations.csv", "JOIN-MISMATCH")]
    if space:
        expected += [("annotations.csv", "TEXT-EDGE-SPACE"), ("cases.csv", "TEXT-EDGE-SPACE")]
    assert code == 1 and codes == sorted(expected)
