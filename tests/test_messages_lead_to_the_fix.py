"""Messages that lead to the fix (issue 45): each names what the file's own config allows,
the config or dataset the file fits, or the id to use instead.

The expectations are the upstream files' own values (German names seven groups, no
Muslims) and the ids a released file holds, never the messages' code.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import source_lines, source_url, upstream_path, validate_json, write_lines

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
