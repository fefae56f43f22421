"""What ``validate`` prints, tried as a bot and as a new user would.

``--format json`` is one JSON document on standard output, errors included;
text and GitHub reports are bounded per code while JSON keeps every finding;
expected values are whole in JSON; ``--full`` orders ids as numbers; an
unclosed quote is named with the line where it opens; invisible and combining
characters are escaped in every shown value. Each test failed on 3eb3066.

They run on the tests' synthetic dataset (``tests/synthetic/README.md``): a new row is the
first row of its ``test.csv`` made new (``support.synthetic.new_row``), and a wrong value
goes in its categorical column, ``topic``.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from support.synthetic import CATEGORY as COLUMN
from support.synthetic import KEY, SYNTHETIC, TEXT, mirror_file, new_row
from support.synthetic import TOPICS as ALLOWED

from hatemoji_datasets.cli import main

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("synthetic")]  # slow: scheduled first
#: Rows of the released ``test.csv`` (``tests/synthetic/README.md``).
ROWS = 16
#: The flood's rows: the release 20 times over.
FLOOD = 20 * ROWS


@pytest.fixture(scope="module")
def released(mirror: Path) -> list[dict[str, str]]:
    text = mirror_file("test", mirror).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def _write(path: Path, rows: list[dict[str, str]]) -> Path:
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def _new(released: list[dict[str, str]], **cells: str) -> dict[str, str]:
    """A valid new row (the first released row made new), with ``cells`` changed."""
    return {**new_row(released[0]), **cells}


def _validate(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["validate", *args])
    out, err = capsys.readouterr()
    return code, out, err


# -- --format json is always JSON ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "status"),
    [
        (["--dataset", "no_such"], "UNKNOWN-NAME", 1),
        (["--dataset", SYNTHETIC, "--config", "nope"], "UNKNOWN-NAME", 1),
        (["--dataset", SYNTHETIC, "--mirror", "EMPTY"], "SOURCE", 1),
        (["--dataset", SYNTHETIC, "--mirror", "http://[::1"], "SOURCE", 1),
    ],
    ids=["unknown dataset", "unknown config", "release cannot be fetched", "bad mirror URL"],
)
def test_json_errors_are_one_json_document(
    workdir: Path, released, capsys, args: list[str], code: str, status: int
) -> None:
    (workdir / "EMPTY").mkdir()
    _write(workdir / "new.csv", [_new(released)])
    args = [str(workdir / "EMPTY") if a == "EMPTY" else a for a in args]
    cache = str(workdir / "cache")
    exit_code, out, err = _validate(
        capsys, "new.csv", *args, "--cache-dir", cache, "--format", "json"
    )
    document = json.loads(out)  # one document, nothing else on stdout
    assert exit_code == status == document["exit_code"]
    assert document["error"]["code"] == code and document["findings"] == []
    assert document["files"] == ["new.csv"] and document["format"] == 1
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert document["error"]["message"] == err.removeprefix("error: ").strip()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["validate", "new.csv", "--format", "json"], "required: --dataset"),
        (["validate", "x.csv", "--dataset", "d", "--fo=json", "--max-findings", "-3"], "-3"),
        (["score", SYNTHETIC, "--format", "json"], "required: --predictions"),
        (["score", SYNTHETIC, "--format", "json", "--predictions", "p", "--nope\n::x"], "\\n"),
    ],
    ids=["missing option", "bad value, abbreviated option", "score", "unknown option"],
)
def test_usage_errors_are_json_when_json_is_asked_for(
    workdir: Path, capsys, argv: list[str], message: str
) -> None:
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    document = json.loads(out)  # argparse used to print its usage on stderr only
    assert status == 2 == document["exit_code"]
    assert document["error"]["code"] == "USAGE" and message in document["error"]["message"]
    assert ("findings" in document) == (argv[0] == "validate")
    assert err.count("\n") == 1 and err.startswith("error: ")


def test_usage_errors_escape_what_they_quote(workdir: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["list", "--nope\n::error::forged"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: hatemoji-datasets")
    assert not any(line.startswith("::") for line in err.splitlines())
    assert err.splitlines()[-1].endswith("--nope\\n::error::forged")


# -- bounded reports ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def flood(released, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The release 20 times over with new ids (``FLOOD`` rows), each repeating a released text."""
    rows = [
        {**row, KEY: str(90_000 + copy * len(released) + n)}
        for copy in range(20)
        for n, row in enumerate(released)
    ]
    return _write(tmp_path_factory.mktemp("flood") / "flood.csv", rows)


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_flood_of_findings_is_bounded(workdir: Path, flood: Path, capsys, fmt: str) -> None:
    code, out, _ = _validate(capsys, str(flood), "--dataset", SYNTHETIC, "--format", fmt)
    assert code == 1
    lines = out.splitlines()
    shown = [line for line in lines if "RELEASE-REPEATED-TEXT" in line and "more" not in line]
    assert len(shown) == 20
    assert f"... and {FLOOD - 20:,} more RELEASE-REPEATED-TEXT" in lines
    assert lines[-1] == f"{FLOOD:,} error(s), 0 warning(s) in 1 file(s)"
    assert len(out) < 20_000  # was 11.6 MB in text format
    code, out, _ = _validate(
        capsys, str(flood), "--dataset", SYNTHETIC, "--format", fmt, "--max-findings", "3"
    )
    assert f"... and {FLOOD - 3:,} more RELEASE-REPEATED-TEXT" in out.splitlines()


def test_json_keeps_every_finding(workdir: Path, flood: Path, capsys) -> None:
    code, out, _ = _validate(capsys, str(flood), "--dataset", SYNTHETIC, "--format", "json")
    findings = json.loads(out)["findings"]
    assert code == 1 and len(findings) == FLOOD
    assert {f["code"] for f in findings} == {"RELEASE-REPEATED-TEXT"}


def test_max_findings_zero_shows_all(workdir: Path, released, capsys) -> None:
    rows = [{**row, KEY: str(90_000 + n)} for n, row in enumerate(released * 2)]  # 32 rows
    _write(workdir / "some.csv", rows)
    code, out, _ = _validate(capsys, "some.csv", "--dataset", SYNTHETIC, "--max-findings", "0")
    assert code == 1 and out.count("RELEASE-REPEATED-TEXT") == 32 and "more" not in out
    capsys.readouterr()
    assert main(["validate", "some.csv", "--dataset", SYNTHETIC, "--max-findings", "-1"]) == 2
    assert "must be 0 or more, not -1" in capsys.readouterr().err  # a usage error


# -- details a new user meets ------------------------------------------------------------------


def test_expected_is_never_cut_in_json(workdir: Path, released, capsys) -> None:
    _write(workdir / "new.csv", [_new(released, **{COLUMN: "teapots"})])
    code, out, _ = _validate(capsys, "new.csv", "--dataset", SYNTHETIC, "--format", "json")
    (finding,) = json.loads(out)["findings"]
    assert code == 1 and finding["code"] == "VALUE-NOT-ALLOWED" and finding["value"] == "teapots"
    assert "…" not in finding["expected"]
    assert all(value in finding["expected"] for value in ALLOWED), finding["expected"]


def test_full_orders_missing_ids_as_numbers(workdir: Path, released, capsys) -> None:
    _write(workdir / "part.csv", released[:5])
    code, out, _ = _validate(
        capsys, "part.csv", "--dataset", SYNTHETIC, "--full", "--format", "json"
    )
    missing = [
        int(f["value"]) for f in json.loads(out)["findings"] if f["code"] == "RELEASE-MISSING"
    ]
    # Every released id but the five given: train's 1-24 and test's 30-40.
    assert code == 1 and len(missing) == 35
    assert missing == sorted(missing)  # 9, 10, 11, not 10, 11, 9
    assert missing == [*range(1, 25), *range(30, 41)]


def test_an_unclosed_quote_is_named_with_its_line(workdir: Path, released, capsys) -> None:
    header = ",".join(released[0])
    good = _write(workdir / "x.csv", [_new(released)]).read_text(encoding="utf-8").splitlines()[1]
    text = _new(released)[TEXT]
    assert f",{text}" in good and '"' not in good  # the text opens a field, no quote before
    broken = good.replace(f",{text}", f',"{text}', 1)
    (workdir / "new.csv").write_text(f"{header}\n{good}\n{broken}\n{good}\n", encoding="utf-8")
    code, out, _ = _validate(capsys, "new.csv", "--dataset", SYNTHETIC, "--format", "json")
    (finding,) = json.loads(out)["findings"]
    assert code == 2
    assert (finding["code"], finding["line"]) == ("FILE-UNCLOSED-QUOTE", 3)
    assert "opened on line 3 is never closed" in finding["message"]


def _with_bidi(value: str) -> str:
    """``value`` with a bidi override and a zero-width space after its first two characters."""
    return value[:2] + "\u202e\u200b" + value[2:]


@pytest.mark.parametrize(
    ("cells", "code", "escape"),
    [
        (lambda row: {TEXT: row[TEXT] + " lo\u0301t"}, "TEXT-NOT-NFC", "\\u0301"),  # o + acute
        (lambda row: {TEXT: row[TEXT] + "\u00a0"}, "TEXT-EDGE-SPACE", "\\xa0"),  # no-break space
        (lambda row: {COLUMN: _with_bidi(ALLOWED[0])}, "VALUE-NOT-ALLOWED", "\\u202e"),
    ],
    ids=["combining mark", "no-break space", "bidi override"],
)
@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_invisible_characters_are_escaped_in_every_shown_value(
    workdir: Path, released, capsys, cells, code: str, escape: str, fmt: str
) -> None:
    _write(workdir / "new.csv", [_new(released, **cells(_new(released)))])
    _, out, _ = _validate(capsys, "new.csv", "--dataset", SYNTHETIC, "--format", fmt)
    assert code in out
    shown = json.loads(out)["findings"][0]["value"] if fmt == "json" else out
    assert escape in shown
    assert not any(c in out for c in "\u0301\u00a0\u200b\u202e")


def test_natural_order_takes_any_digits() -> None:
    """Superscripts are digits to ``str.isdigit`` but not numbers to ``int``."""
    from hatemoji_datasets.core.findings import natural_key

    assert sorted(["10", "2", "¹", "a10", "a2"], key=natural_key) == ["2", "10", "a2", "a10", "¹"]
