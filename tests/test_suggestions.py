"""Mistakes get suggestions: "did you mean ...?" for a misspelt name, the dataset a file
fits, the task a harness log belongs to; every missing column named; join messages that
read as sentences. A suggestion only adds words: exit statuses and the JSON error shape
stay as they were, and none is offered without a close match."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import source_url, upstream_path

from hatemoji_datasets.api import _check_split
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import UnknownNameError
from hatemoji_datasets.core.registry import lookup
from hatemoji_datasets.core.suggest import close_matches, did_you_mean

#: README.md's contribution: a HatemojiCheck-shaped file.
NEW_CASES = (
    "case_id,templ_id,test_group_id,text,target,functionality,set,label_gold,"
    "unrealistic_flags,included_in_test_suite\n"
    "10000,90.0,90,I want to 🌻 all women today,women,verb_swap,orig,1,0,1\n"
)


def test_close_matches_only() -> None:
    assert did_you_mean("hatecheks", ["hatecheck", "apeach"]) == " (did you mean 'hatecheck'?)"
    assert did_you_mean("zzz", ["hatecheck", "apeach"]) == ""
    assert close_matches("hatecheck", ["hatecheck"]) == []  # an exact name needs none


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        ("hatecheks", "unknown dataset 'hatecheks' (did you mean 'hatecheck'?); available: "),
        ("hatecheck/defualt", "unknown config 'defualt' of hatecheck (did you mean 'default'?)"),
        (
            "hatemoji_build/r6_pairsafe",
            "unknown config 'r6_pairsafe' of hatemoji_build (did you mean 'r6_pair_safe'?)",
        ),
        ("apeach:2.0", "unknown version '2.0' of apeach (did you mean '2.0.0'?); released: "),
    ],
)
def test_misspelt_names_get_a_suggestion(reference: str, message: str) -> None:
    with pytest.raises(UnknownNameError) as raised:
        lookup(reference)
    assert str(raised.value).startswith(message)


def test_no_suggestion_without_a_close_match() -> None:
    with pytest.raises(UnknownNameError) as raised:
        lookup("no_such_dataset")
    assert "did you mean" not in str(raised.value)
    assert "available: apeach, hatecheck" in str(raised.value)  # the list stays


def test_a_misspelt_split_gets_a_suggestion() -> None:
    builder = SimpleNamespace(
        info=SimpleNamespace(splits={"train": 1, "validation": 1, "test": 1}),
        SPEC=SimpleNamespace(name="hatemoji_build"),
        config=SimpleNamespace(name="all"),
    )
    with pytest.raises(UnknownNameError, match=r"'tset' .*\(did you mean 'test'\?\); available"):
        _check_split(builder, "tset")  # type: ignore[arg-type]
    with pytest.raises(UnknownNameError, match=r"'valdation\[:10\]'|'valdation' .*'validation'"):
        _check_split(builder, "train+valdation[:10]")  # type: ignore[arg-type]


def test_the_cli_keeps_exit_status_and_json_shape(capsys) -> None:
    assert main(["biuld", "hatemoji_check"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'biuld'" in err and "(did you mean 'build'?)" in err
    assert main(["info", "hatecheks"]) == 1
    assert "(did you mean 'hatecheck'?)" in capsys.readouterr().err
    assert main(["info", "hatecheks", "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"format", "exit_code", "error"} and document["exit_code"] == 1
    assert set(document["error"]) == {"code", "message"}
    assert document["error"]["code"] == "UNKNOWN-NAME"
    assert "did you mean 'hatecheck'?" in document["error"]["message"]
    assert main(["list", "--format", "jsno"]) == 2
    assert "(did you mean 'json'?)" in capsys.readouterr().err
    assert main(["list", "--format", "xml"]) == 2
    assert "did you mean" not in capsys.readouterr().err  # nothing close: no suggestion


def _validate(tmp_path: Path, monkeypatch, capsys, dataset: str, *extra: str):
    monkeypatch.chdir(tmp_path)
    Path("new_cases.csv").write_text(NEW_CASES, encoding="utf-8")
    status = main(["validate", "new_cases.csv", "--dataset", dataset, *extra])
    return status, capsys.readouterr()


def test_a_file_of_another_dataset_is_named(tmp_path, monkeypatch, capsys, mirror) -> None:
    status, out = _validate(tmp_path, monkeypatch, capsys, "hatecheck", "--mirror", str(mirror))
    assert status == 1
    assert (
        "hint: new_cases.csv has the columns of hatemoji_check, not of hatecheck: "
        "did you mean --dataset hatemoji_check?"
    ) in out.out
    status, out = _validate(
        tmp_path, monkeypatch, capsys, "hatecheck", "--mirror", str(mirror), "--format", "json"
    )
    report = json.loads(out.out)
    assert status == 1 == report["exit_code"]
    assert report["hints"] == [
        "new_cases.csv has the columns of hatemoji_check, not of hatecheck: "
        "did you mean --dataset hatemoji_check?"
    ]
    # Every missing column is named: the unnamed one by its place.
    missing = [f for f in report["findings"] if f["code"] == "COLUMN-MISSING"]
    upstream = upstream_path(mirror, source_url("hatecheck", "suite_cases"))
    header = upstream.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[0] == ""  # upstream's index column has no name
    assert sorted(f["column"] for f in missing) == sorted(
        set(header) - set(NEW_CASES.split("\n")[0].split(","))
    )
    unnamed = [f for f in missing if not f["column"]]
    assert [f["message"] for f in unnamed] == [
        "missing column: the unnamed first column (an empty header cell: upstream's row "
        "index, the row's position in its file)"
    ]
    # The join's message reads as a sentence, wherever the other side comes from.
    (unmatched,) = [f for f in report["findings"] if f["code"] == "JOIN-UNMATCHED"]
    assert unmatched["message"] == "no annotations row has this case_id (in the released files)"
    # The right dataset: no hint, nothing wrong.
    status, out = _validate(
        tmp_path, monkeypatch, capsys, "hatemoji_check", "--mirror", str(mirror)
    )
    assert status == 0 and "hint:" not in out.out
