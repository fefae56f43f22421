"""Messages that lead to the fix (issue 45): each names what the file's own config allows,
the config or dataset the file fits, or the id to use instead.

The expectations are the upstream files' own values (German names seven groups, no
Muslims) and the ids a released file holds, never the messages' code.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from support.cli import validate_json
from support.frames import frame_of, predictions_frame, random_labels
from support.paths import REPO, source_lines, source_url, upstream_name, upstream_path, write_lines

MHC = "multilingual_hatecheck"


def _german_groups(mirror: Path) -> list[str]:
    """The groups the German upstream file names, in the order it first names them."""
    path = upstream_path(mirror, source_url(MHC, "german"))
    with path.open(encoding="utf-8", newline="") as handle:
        groups = [row["target_ident"] for row in csv.DictReader(handle)]
    return [group for group in dict.fromkeys(groups) if group]


def _german_case_with_target(mirror: Path, tmp_path: Path, target: str) -> tuple[str, int]:
    """A copy of the German file whose first case naming ``women`` names ``target``."""
    lines = source_lines(mirror, MHC, "german")
    at = next(i for i, line in enumerate(lines) if b",women," in line)
    lines[at] = lines[at].replace(b",women,", f",{target},".encode(), 1)
    return write_lines(tmp_path, "de.csv", lines), at + 1


@pytest.mark.parametrize("config", ["german", "all"])
def test_a_group_no_language_names_lists_germans_own(
    mirror: Path, tmp_path: Path, capsys, config: str
) -> None:
    # The contributor's first try: every language's groups were listed (an empty item
    # first, cut at "jewish peo…"), and `Muslims`, taken from them, is not German's.
    path, line = _german_case_with_target(mirror, tmp_path, "muslims")
    code, findings = validate_json(capsys, mirror, MHC, path, "--config", config)
    assert code == 1
    [finding] = findings
    assert (finding["code"], finding["line"], finding["column"], finding["value"]) == (
        "VALUE-NOT-ALLOWED",
        line,
        "target_ident",
        "muslims",
    )
    german = _german_groups(mirror)
    assert "Muslims" not in german and "jews" in german
    assert finding["expected"] == f"one of {', '.join(german)}, or empty"
    assert "did you mean" not in finding["message"]  # German has no group close to it


def test_the_docs_list_each_languages_own_groups(mirror: Path) -> None:
    # No doc listed each language's groups: the contributor read the upstream CSV.
    from hatemoji_datasets.validate.vocabularies import render

    page = (REPO / "docs" / "datasets.md").read_text(encoding="utf-8")
    assert render(page) == page  # the generated tables are current
    rows = {line.split(" | ")[0]: line.split(" | ") for line in page.splitlines() if "| " in line}
    every, german = rows["| every config"][2], rows["| `german`"][2]
    listed = [g.strip("` |") for g in f"{every}, {german}".split(", ") if g != "(empty)"]
    assert sorted(listed) == sorted(_german_groups(mirror))


def test_a_close_group_is_suggested_from_the_languages_own(
    mirror: Path, tmp_path: Path, capsys
) -> None:
    path, _ = _german_case_with_target(mirror, tmp_path, "refugee")
    code, [finding] = validate_json(capsys, mirror, MHC, path, "--config", "german")
    assert finding["code"] == "VALUE-NOT-ALLOWED"
    assert finding["message"].endswith("(did you mean 'refugees'?)")


def test_another_languages_group_names_germans_and_the_closest(
    mirror: Path, tmp_path: Path, capsys
) -> None:
    # Arabic writes `Jews`, German `jews`: the second try ends with German's spelling.
    path, line = _german_case_with_target(mirror, tmp_path, "Jews")
    code, [finding] = validate_json(capsys, mirror, MHC, path, "--config", "german")
    assert (finding["code"], finding["line"]) == ("MHC-TARGET-LANGUAGE", line)
    assert "'Jews' is a group of arabic only, not of german" in finding["message"]
    assert "(did you mean 'jews'?)" in finding["message"]
    assert finding["expected"] == f"one of {', '.join(_german_groups(mirror))}, or empty"


def test_a_value_not_allowed_suggests_the_closest(mirror: Path, tmp_path: Path, capsys) -> None:
    """Every dataset's column checks suggest too: a HatemojiCheck functionality misspelt."""
    lines = source_lines(mirror, "hatemoji_check", "test")
    header = lines[0].decode().rstrip("\r\n").split(",")
    cells = lines[1].decode().rstrip("\r\n").split(",")
    at = header.index("functionality")
    right = cells[at]
    cells[at] = right[:-1]
    lines[1] = (",".join(cells) + "\n").encode()
    path = write_lines(tmp_path, "check.csv", lines[:2])
    code, findings = validate_json(capsys, mirror, "hatemoji_check", path)
    [finding] = [f for f in findings if f["code"] == "VALUE-NOT-ALLOWED"]
    assert finding["message"] == f"value is not allowed (did you mean {right!r}?)"


# -- score: predictions of another config or dataset ----------------------------------------


def _score_error(capsys, where: dict[str, str], name: str, path: Path) -> str:
    from hatemoji_datasets.cli import main

    capsys.readouterr()
    argv = ["score", name, "--predictions", str(path), "--format", "json"]
    assert main([*argv, "--cache-dir", where["cache_dir"], "--mirror", where["mirror"]]) == 1
    return json.loads(capsys.readouterr().out)["error"]["message"]


def test_one_languages_predictions_on_all_name_the_language(
    mirror: Path, where: dict[str, str], tmp_path: Path, capsys
) -> None:
    # `score multilingual_hatecheck` scores its default, all: German predictions were told
    # "32,937 missing case_id values" and nothing of --config german.
    lines = source_lines(mirror, MHC, "german")
    ids = [row["mhc_case_id"] for row in csv.DictReader(line.decode() for line in lines)]
    path = tmp_path / "de.csv"
    path.write_text("case_id,prediction\n" + "".join(f"{i},1\n" for i in ids), encoding="utf-8")
    message = _score_error(capsys, where, MHC, path)
    assert message.startswith(f"{path}: 32,937 missing case_id values: arabic-1, ")
    assert message.endswith(
        "; the case_id values are those of multilingual_hatecheck/german: "
        "score them with --config german"
    )


def test_another_datasets_predictions_name_it(where: dict[str, str], tmp_path: Path, capsys):
    # HateCheck's predictions scored as HatemojiCheck: "202 missing case_id values" only.
    hatecheck = frame_of("hatecheck", "default", "test", where)
    path = tmp_path / "hc.csv"
    predictions_frame(hatecheck, "case_id", random_labels(hatecheck)).to_csv(path, index=False)
    message = _score_error(capsys, where, "hatemoji_check", path)
    assert "missing case_id values" in message
    assert message.endswith(
        "; the case_id values are those of hatecheck: "
        f"score them with `hatemoji-datasets score hatecheck --predictions {path}`"
    )
    # In Python, the argument to give instead of the command line.
    from hatemoji_datasets.core.errors import PredictionError
    from hatemoji_datasets.evaluate import score

    frame = predictions_frame(hatecheck, "case_id", random_labels(hatecheck))
    with pytest.raises(PredictionError) as raised:
        score("hatemoji_check", frame, **where)
    assert str(raised.value).endswith("those of hatecheck: score them with 'hatecheck'")


def test_predictions_missing_a_few_rows_get_no_hint(where: dict[str, str], tmp_path: Path, capsys):
    """A file of the scored config's ids with rows left out fits no other config better."""
    frame_of("hatecheck", "default", "test", where)  # built: a candidate, not a fit
    check = frame_of("hatemoji_check", "default", "test", where)
    path = tmp_path / "some.csv"
    predictions_frame(check, "case_id", random_labels(check))[5:].to_csv(path, index=False)
    message = _score_error(capsys, where, "hatemoji_check", path)
    assert message.startswith(f"{path}: 5 missing case_id values: ")
    assert "those of" not in message


# -- validate: a one-language file under all ------------------------------------------------


def _validate_report(capsys, mirror: Path, *args: str) -> tuple[int, dict]:
    from hatemoji_datasets.cli import main

    capsys.readouterr()
    argv = ["validate", *args, "--dataset", MHC, "--mirror", str(mirror), "--format", "json"]
    return main(argv), json.loads(capsys.readouterr().out)


def test_a_german_file_under_all_is_pointed_to_its_language(
    mirror: Path, tmp_path: Path, capsys
) -> None:
    # Without --config german, a French id in a German file was read as a changed French
    # row, with nothing pointing to the language the file is in.
    german, french = source_lines(mirror, MHC, "german"), source_lines(mirror, MHC, "french")
    french_id = french[-1].split(b",", 1)[0]
    mine = german[1].replace(german[1].split(b",", 1)[0], french_id, 1)
    path = write_lines(tmp_path, "de.csv", [german[0], *german[2:7], mine])
    code, report = _validate_report(capsys, mirror, path)
    assert code == 1 and {f["line"] for f in report["findings"]} == {7}
    assert report["hints"] == [
        f"{path}: 5 of its 6 rows have ids of {MHC}/german: validate it with --config german"
    ]
    code, report = _validate_report(capsys, mirror, path, "--config", "german")
    found = {(f["code"], f["value"]) for f in report["findings"]}
    assert ("MHC-ID-LANGUAGE", french_id.decode()) in found  # and its text is german-1's
    assert "RELEASE-CHANGED" not in {code for code, _ in found}
    # A file named like the upstream German file is German already: no hint.
    named = write_lines(tmp_path, upstream_name(MHC, "german"), [german[0], *german[2:7], mine])
    assert _validate_report(capsys, mirror, named)[1].get("hints", []) == []


# -- validate: a new row given a released id ------------------------------------------------


def test_a_reused_released_id_is_one_finding_naming_the_next_free_id(
    mirror: Path, tmp_path: Path, capsys
) -> None:
    # A new HatemojiCheck case written under the released id of the file's last case got one
    # RELEASE-CHANGED per differing column, and nothing said the id was taken.
    lines = source_lines(mirror, "hatemoji_check", "test")
    rows = list(csv.reader(line.decode() for line in lines))
    header, first, last = rows[0], rows[1], rows[-1]
    key, text = header.index("case_id"), header.index("text")
    highest = max(int(row[key]) for row in rows[1:])
    new = list(first)
    new[key], new[text] = last[key], "I want to 🌻 all women today"
    assert sum(a != b for a, b in zip(new, last, strict=True)) > 2  # text and more differ
    path = tmp_path / "new.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([header, new])
    code, findings = validate_json(capsys, mirror, "hatemoji_check", str(path))
    assert code == 1
    [finding] = findings
    assert (finding["code"], finding["line"], finding["value"], finding["expected"]) == (
        "ID-RELEASED",
        2,
        last[key],
        str(highest + 1),
    )
    assert (
        f"case_id={last[key]} is the id of a released row (text {last[text]!r})"
        in (finding["message"])
    )


def test_a_changed_released_row_is_still_named_cell_by_cell(
    mirror: Path, tmp_path: Path, capsys
) -> None:
    """A released row whose text is kept (a flag corrected) is a change, not a new row."""
    lines = source_lines(mirror, "hatemoji_check", "test")
    header = lines[0].decode().rstrip("\n").split(",")
    cells = lines[1].decode().rstrip("\n").split(",")
    at = header.index("unrealistic_flags")
    cells[at] = str(1 - int(cells[at]))
    path = write_lines(tmp_path, "fix.csv", [lines[0], (",".join(cells) + "\n").encode()])
    code, findings = validate_json(capsys, mirror, "hatemoji_check", path, "--allow-changes")
    assert [(f["code"], f["column"]) for f in findings] == [
        ("RELEASE-CHANGED", "unrealistic_flags")
    ]
    assert "ID-RELEASED" not in {f["code"] for f in findings}


def test_a_reused_id_in_multilingual_hatecheck_names_its_languages_next(
    mirror: Path, tmp_path: Path, capsys
) -> None:
    german = source_lines(mirror, MHC, "german")
    ids = [row["mhc_case_id"] for row in csv.DictReader(line.decode() for line in german)]
    highest = max(int(i.split("-")[1]) for i in ids)
    mine = german[-1].replace(ids[-1].encode(), ids[0].encode(), 1)  # german-1, not its case
    path = write_lines(tmp_path, "de.csv", [german[0], mine])
    code, findings = validate_json(capsys, mirror, MHC, path, "--config", "german")
    [finding] = [f for f in findings if f["code"] == "ID-RELEASED"]
    assert (finding["value"], finding["expected"]) == (ids[0], f"german-{highest + 1}")
    assert "RELEASE-CHANGED" not in {f["code"] for f in findings}
