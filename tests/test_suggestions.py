"""Mistakes get suggestions: "did you mean ...?" for a misspelt name, the dataset a file
fits, the task a harness log belongs to; every missing column named; join messages that
read as sentences. A suggestion only adds words: exit statuses and the JSON error shape
stay as they were, and none is offered without a close match."""

from __future__ import annotations

import csv
import io
import itertools
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from support.paths import source_url, upstream_path
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.api import _check_split
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.errors import UnknownNameError
from hatemoji_datasets.core.registry import dataset_spec, lookup, specs
from hatemoji_datasets.core.suggest import close_matches, did_you_mean
from hatemoji_datasets.schema.raw_columns import layout_of

#: Every registered dataset; the first stands for any where one is enough.
DATASETS = list(specs())
#: A registered name to misspell (APEACH, named).
ANY = "apeach"


def _dropped(name: str, at: int) -> str:
    """``name`` with the letter at ``at`` left out."""
    return name[:at] + name[at + 1 :]


def _swapped(name: str, at: int) -> str:
    """``name`` with the letters at ``at`` and the next one swapped."""
    return name[:at] + name[at + 1] + name[at] + name[at + 2 :]


def test_close_matches_only() -> None:
    typo = _dropped(ANY, len(ANY) - 2)
    assert did_you_mean(typo, DATASETS) == f" (did you mean {ANY!r}?)"
    assert did_you_mean("zzz", DATASETS) == ""
    assert close_matches(ANY, DATASETS) == []  # an exact name needs none


def _misspelt(name: str) -> list:
    """The dataset's name with a letter dropped; its longest config's name with its middle
    letters swapped, and with its middle letter dropped; its version with the last part
    dropped: each reference, and how the error it gives starts."""
    spec = dataset_spec(name)
    config = max(spec.config_names, key=len)
    middle = len(config) // 2
    typo, version = _dropped(name, len(name) - 2), spec.version.rpartition(".")[0]
    cases = {
        "name": (typo, f"unknown dataset {typo!r} (did you mean {name!r}?); available: "),
        "version": (
            f"{name}:{version}",
            f"unknown version {version!r} of {name} (did you mean {spec.version!r}?); released: ",
        ),
    }
    for how, wrong in (
        ("swapped", _swapped(config, middle - 1)),
        ("dropped", _dropped(config, middle)),
    ):
        cases[f"config_{how}"] = (
            f"{name}/{wrong}",
            f"unknown config {wrong!r} of {name} (did you mean {config!r}?)",
        )
    return [pytest.param(*case, id=f"{name}-{what}") for what, case in cases.items()]


@pytest.mark.parametrize(("reference", "message"), [c for n in DATASETS for c in _misspelt(n)])
def test_misspelt_names_get_a_suggestion(reference: str, message: str) -> None:
    with pytest.raises(UnknownNameError) as raised:
        lookup(reference)
    assert str(raised.value).startswith(message)


def test_no_suggestion_without_a_close_match() -> None:
    with pytest.raises(UnknownNameError) as raised:
        lookup("no_such_dataset")
    assert "did you mean" not in str(raised.value)
    assert f"available: {', '.join(DATASETS)}" in str(raised.value)  # the list stays


def test_a_misspelt_split_gets_a_suggestion() -> None:
    builder = SimpleNamespace(
        info=SimpleNamespace(splits={"train": 1, "validation": 1, "test": 1}),
        SPEC=SimpleNamespace(name="toy"),
        config=SimpleNamespace(name="default"),
    )
    with pytest.raises(UnknownNameError, match=r"'tset' .*\(did you mean 'test'\?\); available"):
        _check_split(builder, "tset")  # type: ignore[arg-type]
    with pytest.raises(UnknownNameError, match=r"'valdation\[:10\]'|'valdation' .*'validation'"):
        _check_split(builder, "train+valdation[:10]")  # type: ignore[arg-type]


def test_the_cli_keeps_exit_status_and_json_shape(capsys) -> None:
    typo = _dropped(ANY, len(ANY) - 2)
    assert main(["biuld", ANY]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'biuld'" in err and "(did you mean 'build'?)" in err
    assert main(["info", typo]) == 1
    assert f"(did you mean {ANY!r}?)" in capsys.readouterr().err
    assert main(["info", typo, "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"format", "exit_code", "error"} and document["exit_code"] == 1
    assert set(document["error"]) == {"code", "message"}
    assert document["error"]["code"] == "UNKNOWN-NAME"
    assert f"did you mean {ANY!r}?" in document["error"]["message"]
    assert main(["list", "--format", "jsno"]) == 2
    assert "(did you mean 'json'?)" in capsys.readouterr().err
    assert main(["list", "--format", "xml"]) == 2
    assert "did you mean" not in capsys.readouterr().err  # nothing close: no suggestion


def _joined_elsewhere() -> list[str]:
    """Datasets a file of HatemojiCheck's columns is given to by mistake (named: its
    ``case_id`` is the key HateCheck's join is on, which the synthetic dataset lacks):
    those whose default config joins files of another format on a column that file has, and
    whose rows' file has an unnamed column. The file misses their columns, the unnamed one
    included, and its rows have no partner in the join. The first such is enough."""
    plain = dataset_spec(HATEMOJI_CHECK)
    columns = set(layout_of(plain, plain.config().schema).columns)
    found = []
    for name, spec in specs().items():
        config = spec.config()
        joins = [join for join in config.joins if join.indicator is None]
        if (
            name != HATEMOJI_CHECK
            and joins
            and all(join.key_column in columns for join in joins)
            and "" in layout_of(spec, config.schema).columns
        ):
            found.append(name)
    return found[:1]


#: The unnamed first column of an upstream file, as a finding names it.
UNNAMED = (
    "missing column: the unnamed first column (an empty header cell: upstream's row "
    "index, the row's position in its file)"
)


def _new_cases(mirror: Path) -> str:
    """The first row of the plain dataset's file (support.real), made new: a new id (where
    rows have one) and a new text. The release rules accept it."""
    spec = dataset_spec(HATEMOJI_CHECK)
    config = spec.config()
    (pin,) = spec.config_sources(config).values()
    with upstream_path(mirror, pin.url).open(encoding="utf-8", newline="") as handle:
        header, row = itertools.islice(csv.reader(handle), 2)
    column = {name: i for i, name in enumerate(header)}
    if config.key_column != config.text_column:
        row[column[config.key_column]] = "900000"
    row[column[config.text_column]] += " again"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, row])
    return out.getvalue()


def _validate(tmp_path: Path, monkeypatch, capsys, cases: str, dataset: str, *extra: str):
    monkeypatch.chdir(tmp_path)
    Path("new_cases.csv").write_text(cases, encoding="utf-8")
    status = main(["validate", "new_cases.csv", "--dataset", dataset, *extra])
    return status, capsys.readouterr()


@pytest.mark.parametrize("other", _joined_elsewhere())
def test_a_file_of_another_dataset_is_named(other, tmp_path, monkeypatch, capsys, mirror) -> None:
    cases = _new_cases(mirror)
    where = ("--mirror", str(mirror))
    status, out = _validate(tmp_path, monkeypatch, capsys, cases, other, *where)
    hint = (
        f"new_cases.csv has the columns of {HATEMOJI_CHECK}, not of {other}: "
        f"did you mean --dataset {HATEMOJI_CHECK}?"
    )
    assert status == 1
    assert f"hint: {hint}" in out.out
    status, out = _validate(tmp_path, monkeypatch, capsys, cases, other, *where, "--format", "json")
    report = json.loads(out.out)
    assert status == 1 == report["exit_code"]
    assert report["hints"] == [hint]
    # Every missing column is named: the unnamed one by its place.
    missing = [f for f in report["findings"] if f["code"] == "COLUMN-MISSING"]
    config = dataset_spec(other).config()
    upstream = upstream_path(mirror, source_url(other, config.row_sources[0]))
    header = upstream.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert "" in header  # upstream's index column has no name
    assert sorted(f["column"] for f in missing) == sorted(
        set(header) - set(cases.split("\n")[0].split(","))
    )
    unnamed = [f for f in missing if not f["column"]]
    assert [f["message"] for f in unnamed] == [UNNAMED] * header.count("")
    # The join's message reads as a sentence, wherever the other side comes from.
    unmatched = [f["message"] for f in report["findings"] if f["code"] == "JOIN-UNMATCHED"]
    assert unmatched == [
        f"no {join.name} row has this {join.key_column} (in the released files)"
        for join in config.joins
        if join.indicator is None
    ]
    # The right dataset: no hint, nothing wrong.
    status, out = _validate(tmp_path, monkeypatch, capsys, cases, HATEMOJI_CHECK, *where)
    assert status == 0 and "hint:" not in out.out


def test_built_names_and_predictions_files_are_told(
    synthetic: str, tmp_path, monkeypatch, capsys, mirror
) -> None:
    # A file with the names `info` shows, or a predictions file, got only its column errors.
    # The synthetic dataset builds `text` and `label` from `sentence` and `complaint`.
    cases = "sentence_id,text,topic,label\n1,1,1,1\n"
    status, out = _validate(
        tmp_path, monkeypatch, capsys, cases, synthetic, "--mirror", str(mirror)
    )
    assert status == 1
    assert (
        "hint: new_cases.csv has the built dataset's column names (as `info` shows them): a "
        "contribution is written as the upstream file is, with its columns (sentence_id, "
        "sentence, topic, complaint) and its values"
    ) in out.out.splitlines()
    # The columns it renames, each named once on each side.
    assert "new_cases.csv:1: COLUMN-MISSING column 'sentence': missing column" in out.out
    predictions = "sentence_id,prediction\n25,0\n26,1\n"
    status, out = _validate(tmp_path, monkeypatch, capsys, predictions, synthetic)
    assert status == 1
    assert (
        "hint: new_cases.csv looks like a predictions file (a 'prediction' column): score it "
        "with `hatemoji-datasets score synthetic --predictions new_cases.csv`"
    ) in out.out.splitlines()
