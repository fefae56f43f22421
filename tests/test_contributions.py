"""`hatemoji-datasets validate`: contributions checked against schema and released data."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, upstream_path

from hatemoji_datasets.contributions import Options, validate_contributions
from hatemoji_datasets.registry import builder_class

CONTRIBUTION = FIXTURES / "hatemoji_check_contribution.csv"


def released_path(mirror: Path, dataset: str, source: str) -> Path:
    return upstream_path(mirror, builder_class(dataset).source_files()[source].url)


def check(paths, dataset="hatemoji_check", config=None, mirror=None, **options):
    return validate_contributions(
        [str(p) for p in paths], dataset, config, options=Options(**options), mirror=str(mirror)
    )


def write_variant(tmp_path: Path, source: Path, edit, name: str = "variant.csv") -> Path:
    """A copy of ``source`` with ``edit`` applied to its list of lines."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    target = tmp_path / name
    target.write_text("".join(edit(lines)), encoding="utf-8")
    return target


@pytest.mark.parametrize(
    ("dataset", "config", "sources", "full"),
    [
        ("hatemoji_check", None, ["test"], True),
        ("apeach", "default", ["apeach_test"], True),
        ("apeach", "beep", ["beep_train", "beep_dev"], True),
        ("hatemoji_build", None, ["train", "validation", "test"], True),
        ("hatemoji_build", "r6", ["train"], False),  # partners in other files are context
    ],
)
def test_released_files_validate_clean(mirror: Path, dataset, config, sources, full) -> None:
    paths = [released_path(mirror, dataset, s) for s in sources]
    report = check(paths, dataset, config, mirror, full=full, strict=True)
    assert report.violations == [] and report.unreadable == []
    assert report.exit_code == 0


def test_clean_contribution(mirror: Path) -> None:
    report = check([CONTRIBUTION], mirror=mirror, strict=True)
    assert report.violations == []
    assert report.exit_code == 0


def _rules(report) -> set[tuple[int | None, str | None, str]]:
    return {(v.line, v.column, v.rule.split("(")[0]) for v in report.violations}


def test_contribution_rules(mirror: Path, tmp_path: Path) -> None:
    def edit(lines):
        lines[2] = lines[2].replace("10001", "10000")  # duplicate id
        lines[3] = lines[3].replace(",0,0,1", ",1,0,1")  # polarity perturbation labelled hateful
        lines[4] = lines[4].replace("plant flowers for", "🌼")  # emoji in a no-emoji case
        lines.append("10004,91.0,91,I want to 🌻 all women to\x07day,women,verb_swap,orig,1,0,1\n")
        lines.append("10005,91.0,91,Cafe\u0301 🌻 for women,women,verb_swap,orig,1,0,1\n")
        lines.append("10006,91.0,91, I want to 🌻 all women again,women,verb_swap,orig,1,0,1\n")
        lines.append("10007,1.0,1,I want to 🔪 all women,women,verb_swap,orig,1,0,1\n")
        lines.append("10008,91.0,91,,women,verb_swap,orig,1,0,1\n")
        return lines

    report = check([write_variant(tmp_path, CONTRIBUTION, edit)], mirror=mirror)
    rules = _rules(report)
    assert (2, "case_id", "field_uniqueness") in rules and (
        3,
        "case_id",
        "field_uniqueness",
    ) in rules
    assert (4, None, "label_gold disagrees with its functionality x set cell") in rules
    assert any(line == 5 and "emoji" in rule for line, _, rule in rules)
    assert (6, "text", "text has a control character") in rules
    assert (7, "text", "text is not in Unicode NFC") in rules
    assert (8, "text", "text has leading or trailing spaces") in rules
    assert (9, "text", "repeats the text of released case_id=0") in rules
    assert (10, "text", "text is empty") in rules
    warning = next(v for v in report.violations if v.line == 8)
    assert warning.severity == "warning"
    assert report.exit_code == 1


def test_warnings_pass_unless_strict(mirror: Path, tmp_path: Path) -> None:
    spaced = write_variant(
        tmp_path, CONTRIBUTION, lambda lines: [lines[0], lines[1].replace("today", "today ")]
    )
    assert check([spaced], mirror=mirror).exit_code == 0
    assert check([spaced], mirror=mirror, strict=True).exit_code == 1


def test_changed_released_row(mirror: Path, tmp_path: Path) -> None:
    released = released_path(mirror, "hatemoji_check", "test")
    changed = write_variant(
        tmp_path, released, lambda lines: [lines[0], lines[1].replace(",1,0,1\n", ",1,2,1\n")]
    )  # unrealistic_flags 0 -> 2
    report = check([changed], mirror=mirror)
    [violation] = report.violations
    assert (violation.line, violation.column, violation.value) == (2, "unrealistic_flags", "2")
    assert "changes released row case_id=0 (released value '0')" in violation.rule
    assert report.exit_code == 1
    assert check([changed], mirror=mirror, allow_changes=True).exit_code == 0


def test_full_reports_every_lost_row(mirror: Path, tmp_path: Path) -> None:
    released = released_path(mirror, "hatemoji_check", "test")
    shortened = write_variant(tmp_path, released, lambda lines: lines[:-3])
    report = check([shortened], mirror=mirror, full=True)
    lost = [v.value for v in report.violations]
    assert lost == ["3927", "3928", "3929"]
    assert all(v.rule == "released row missing from a --full file" for v in report.violations)
    assert check([shortened], mirror=mirror).exit_code == 0  # without --full a subset is fine


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "file is empty"),
        (b"case_id\ttempl_id\ttext\n1\t1.0\tx\n", "header is split by '\\t'"),
        ("case_id,templ_id\n1,caf\xe9\n".encode("latin-1"), ":2: not UTF-8"),
        (None, "file not found"),
        (b"case_id,templ_id\n1,1.0\n\n2,1.0\n", "blank line(s) 3"),
        (b"case_id,case_id\n1,2\n", "repeats column(s) 'case_id'"),
    ],
)
def test_unreadable_files_exit_2(mirror: Path, tmp_path: Path, content, message) -> None:
    path = tmp_path / "input.csv"
    if content is not None:
        path.write_bytes(content)
    report = check([path], mirror=mirror)
    assert report.exit_code == 2
    assert message in report.unreadable[0] and str(path) in report.unreadable[0]


def test_truncated_line_is_named(mirror: Path, tmp_path: Path) -> None:
    truncated = write_variant(tmp_path, CONTRIBUTION, lambda lines: [*lines[:3], lines[3][:20]])
    report = check([truncated], mirror=mirror)
    assert report.exit_code == 2
    assert "line 4 has 4" in report.unreadable[0]  # "10002,90.2,90,I want"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", "validate", *args],
        capture_output=True,
        text=True,
    )


def test_cli_formats(mirror: Path, tmp_path: Path) -> None:
    broken = write_variant(
        tmp_path, CONTRIBUTION, lambda ls: [*ls[:2], ls[2].replace(",0,0,1", ",1,0,1")]
    )
    common = ["--dataset", "hatemoji_check", "--mirror", str(mirror), str(broken)]
    text = _cli(*common)
    assert text.returncode == 1 and "Traceback" not in text.stderr
    assert f"error: {broken}:3: label_gold disagrees" in text.stdout
    assert text.stdout.strip().endswith("1 error(s), 0 warning(s) in 1 file(s)")
    report = json.loads(_cli(*common, "--format", "json").stdout)
    assert report["exit_code"] == 1
    assert report["violations"][0]["line"] == 3 and report["violations"][0]["severity"] == "error"
    github = _cli(*common, "--format", "github").stdout.splitlines()
    assert github[0].startswith(f"::error file={broken},line=3,title=label_gold disagrees")
    unreadable = _cli(
        "--dataset", "hatemoji_check", "--mirror", str(mirror), str(tmp_path / "x.csv")
    )
    assert unreadable.returncode == 2 and "Traceback" not in unreadable.stderr
    unknown = _cli("--dataset", "nope", str(broken))
    assert unknown.returncode == 1 and unknown.stderr.startswith("error: unknown dataset 'nope'")


def test_parquet_in_the_built_format(mirror: Path, session_cache: Path, tmp_path: Path) -> None:
    from hatemoji_datasets import load_dataset

    built = load_dataset(
        "hatemoji_check", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )
    clean = tmp_path / "test.parquet"
    built.to_parquet(clean)
    options = {"cache_dir": str(session_cache), "mirror": str(mirror)}
    assert (
        validate_contributions(
            [str(clean)], "hatemoji_check", options=Options(full=True), **options
        ).violations
        == []
    )

    rows = built.to_pandas()
    rows.loc[0, "label"] = 7  # not a class id
    rows.loc[1, "case_id"] = rows.loc[2, "case_id"]  # duplicate id
    rows = rows.drop(index=[5])  # a released row lost
    broken = tmp_path / "broken.parquet"
    rows.to_parquet(broken)
    report = validate_contributions(
        [str(broken)], "hatemoji_check", options=Options(full=True), **options
    )
    found = {(v.line, v.column, v.rule.split("(")[0]) for v in report.violations}
    assert (1, "label", "isin") in found  # Parquet rows are numbered from 1
    assert (2, "case_id", "field_uniqueness") in found and (
        3,
        "case_id",
        "field_uniqueness",
    ) in found
    lost = [v.value for v in report.violations if v.rule.startswith("released row missing")]
    assert lost == ["1", "5"]
    assert report.exit_code == 1
    not_parquet = validate_contributions(
        [str(FIXTURES / "apeach_valid.csv")[:-4] + ".parquet"], "hatemoji_check", **options
    )
    assert not_parquet.exit_code == 2
