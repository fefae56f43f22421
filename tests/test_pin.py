"""``pin``: an upstream file's ``checksums.tsv`` row, measured from the mirror.

The expected size and sha256 are UnSmile's validation file as
``/work/shared/sources/README.md`` records them (and ``ls -l`` gives), not this code's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hatemoji_datasets.core.errors import PinError
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.sources.pin import pin
from tests.support.cli import one_error_line, run_cli

UNSMILE_VALID = (
    "https://raw.githubusercontent.com/smilegate-ai/korean_unsmile_dataset/"
    "569ab5f495e046911898805d3bee92469988dcd9/unsmile_valid_v1.0.tsv"
)
UNSMILE_VALID_SIZE = 455315
UNSMILE_VALID_SHA256 = "b391af71ab352eea27cecac0ff059fe2ed72d7c99585c10e86ce77a75bd12e42"


def test_pin_prints_the_row_of_a_mirror_file(mirror: Path) -> None:
    result = run_cli("pin", UNSMILE_VALID, "--licence", "CC-BY-NC-ND-4.0", "--mirror", str(mirror))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "name\turl\tsize\tsha256\tlicense",
        f"unsmile_valid_v1_0\t{UNSMILE_VALID}\t455315\t{UNSMILE_VALID_SHA256}\tCC-BY-NC-ND-4.0",
    ]


def test_pin_json_names_the_row(mirror: Path) -> None:
    result = run_cli(
        "pin", UNSMILE_VALID, "--licence", "CC-BY-NC-ND-4.0", "--name", "valid",
        "--mirror", str(mirror), "--format", "json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "format": 1,
        "name": "valid",
        "url": UNSMILE_VALID,
        "size": UNSMILE_VALID_SIZE,
        "sha256": UNSMILE_VALID_SHA256,
        "license": "CC-BY-NC-ND-4.0",
    }


def test_pin_into_appends_and_refuses_a_repeat(mirror: Path, tmp_path: Path) -> None:
    checksums = tmp_path / "checksums.tsv"
    shutil.copyfile(dataset_spec("apeach").package_dir / "checksums.tsv", checksums)
    before = checksums.read_text(encoding="utf-8")
    pin(UNSMILE_VALID, "CC-BY-NC-ND-4.0", name="valid", mirror=str(mirror), into=checksums)
    added = checksums.read_text(encoding="utf-8").removeprefix(before)
    assert added == (f"valid\t{UNSMILE_VALID}\t455315\t{UNSMILE_VALID_SHA256}\tCC-BY-NC-ND-4.0\n")
    for name in ("valid", "other"):  # the same name, then the same URL
        with pytest.raises(PinError, match="already pins"):
            pin(UNSMILE_VALID, "CC-BY-NC-ND-4.0", name=name, mirror=str(mirror), into=checksums)
    assert checksums.read_text(encoding="utf-8") == before + added


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["ftp://example.org/a.csv", "--licence", "MIT"], 1, "not an http(s) URL"),
        (["https://example.org/data/", "--licence", "MIT"], 1, "names no file"),
        ([UNSMILE_VALID, "--licence", "CC-BY-4"], 1, "licence 'CC-BY-4' is not understood"),
        ([UNSMILE_VALID, "--licence", "GPL-3.0"], 1, "licence 'GPL-3.0' is not understood"),
        ([UNSMILE_VALID, "--licence", "MIT", "--name", "Valid set"], 1, "not a lower-case"),
        (["https://example.org/x/nope.csv", "--licence", "MIT"], 1, "missing from the mirror"),
        (
            [UNSMILE_VALID.replace("valid", "test"), "--licence", "MIT", "--into", "apeach"],
            1,
            "missing from the mirror",
        ),
        (
            [
                dataset_spec("apeach").source_files()["apeach_test"].url,
                "--licence",
                "MIT",
                "--name",
                "again",
                "--into",
                "apeach",
            ],
            1,
            "already pins",
        ),  # fmt: skip
        ([UNSMILE_VALID, "--licence", "MIT", "--into", "no_such_dataset"], 1, "no_such_dataset"),
    ],
)
def test_pin_refuses_with_one_line(
    mirror: Path, args: list[str], status: int, message: str
) -> None:
    result = run_cli("pin", *args, "--mirror", str(mirror))
    assert result.returncode == status
    assert message in one_error_line(result.stderr)
    assert result.stdout == ""
    as_json = run_cli("pin", *args, "--mirror", str(mirror), "--format", "json")
    assert json.loads(as_json.stdout)["exit_code"] == status


def test_pin_names_an_unreachable_host(tmp_path: Path) -> None:
    result = run_cli(
        "pin", "https://no-such-host.invalid/a.csv", "--licence", "MIT",
        env={"HATEMOJI_DATASETS_MIRROR": None},
    )  # fmt: skip
    assert result.returncode == 2
    assert "no-such-host.invalid" in one_error_line(result.stderr)
