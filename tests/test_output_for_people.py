"""Output for people: tables fit 100 columns (headers wrap between words, lists between
entries), counts are grouped everywhere, a column's floats share their decimals, and
``info --format json`` is one document in the shape of the other commands' reports."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from conftest import dataset_facts
from support.real import HATEMOJI_CHECK

from hatemoji_datasets.building.recorded import compare
from hatemoji_datasets.cli import main
from hatemoji_datasets.cli.output import WIDTH, WrappedMessages, table, wrap_list
from hatemoji_datasets.core.numbers import column
from hatemoji_datasets.core.registry import dataset_spec, specs
from hatemoji_datasets.evaluate.render import render_markdown
from hatemoji_datasets.evaluate.report import ScoreReport, Table

#: A long ClassLabel's names: 29, of 9 to 16 characters, as a paper's tests may have.
NAMES = [
    f"{colour}_{shape}"
    for colour in ("red", "green", "blue", "amber", "violet", "white")
    for shape in ("circle", "square", "triangle", "star", "hexagon")
][:29]


def test_lists_wrap_between_entries() -> None:
    entries = [f"{i} {name}" for i, name in enumerate(NAMES)]
    text = "ClassLabel (" + ", ".join(entries) + ")"
    lines = wrap_list(text, 70)
    assert all(len(line) <= 70 for line in lines) and len(lines) > 1
    # No entry is cut: each line holds whole entries, each ending in its comma.
    rejoined = " ".join(lines)
    assert rejoined == text
    for line in lines[:-1]:
        assert line.endswith(",")
    assert all(any(entry in line for line in lines) for entry in entries)


def test_a_wide_table_wraps_its_headers_and_fits() -> None:
    headers = [
        "split", "cases", "labels per case", "annotators in the pool",
        "cases with 5 agreeing with gold", "cases with 4 agreeing with gold",
        "majority differs from gold", "Fleiss' kappa",
    ]  # fmt: skip
    shown = table(headers, [["test", 4321, 5, 10, 4100, 221, 0, 0.939]], right=range(1, 8))
    lines = shown.splitlines()
    assert max(map(len, lines)) <= WIDTH < len("  ".join(headers))
    rule = next(i for i, line in enumerate(lines) if set(line) <= {"-", " "})
    assert rule > 1  # headers on more lines than one
    words = " ".join(lines[:rule]).split()
    assert sorted(words) == sorted(" ".join(headers).split())  # no word cut or lost
    assert lines[rule + 1].split() == ["test", "4,321", "5", "10", "4,100", "221", "0", "0.939"]


def test_a_table_too_wide_for_its_headers_continues_in_blocks() -> None:
    headers = ["group", *(f"column{i}" for i in range(14))]
    rows = [["alpha", *range(1000, 1014)], ["beta", *range(2000, 2014)]]
    shown = table(headers, rows, right=range(1, 15))
    assert max(map(len, shown.splitlines())) <= WIDTH
    blocks = shown.split("\n\n")
    assert len(blocks) == 2
    for block in blocks:  # each led by the key column
        assert block.splitlines()[0].startswith("group")
        assert [line.split()[0] for line in block.splitlines()[2:]] == ["alpha", "beta"]
    assert "1,013" in blocks[1] and "column13" in blocks[1]


def test_a_capped_column_leaves_its_room_to_a_list() -> None:
    rows = [["alpha", "one, two, three, four, five, six, seven, eight", "A long title of words"]]
    # The title wraps to 10 first, so the list gets 40 - 5 - 8 - 2 gaps = 23 columns, and both
    # wrapped cells stay on their row's lines.
    assert table(["name", "parts", "title"], rows, width=40, at_most={2: 10}).splitlines() == [
        "name   parts                    title",
        "-----  -----------------------  --------",
        "alpha  one, two, three, four,   A long",
        "       five, six, seven, eight  title of",
        "                                words",
    ]


def test_list_keeps_one_header_line_and_wraps_configs_in_a_column(capsys) -> None:
    # The header wrapped onto two lines, and ten configs took a line each.
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert set(lines[1]) == {"-", " "}  # the rule right under one header line
    assert lines[0].split() == ["name", "version", "default", "other", "configs", "pretty", "name"]
    assert max(map(len, lines)) <= WIDTH
    # The configs column's extent, from the rule under the header.
    start = lines[0].index("other configs")
    end = lines[1].index(" ", start)
    rows = lines[2:]
    for name, spec in specs().items():
        others = [c for c in spec.config_names if c != spec.default_config_name]
        first = next(i for i, line in enumerate(rows) if line.startswith(f"{name} "))
        after = next((i for i in range(first + 1, len(rows)) if rows[i][:start].strip()), None)
        shown = [line[start:end].strip() for line in rows[first:after]]
        shown = [line for line in shown if line]
        joined = " ".join(shown)
        assert (joined.split(", ") if joined else []) == others
        # Several configs a line wherever they fit: no more lines than a 20-column list needs.
        assert len(shown) <= max(1, -(-len(", ".join(others)) // 20)), shown


def test_verbose_messages_wrap_between_entries() -> None:
    # `build -v` printed the files it validated as one line of 1,835 characters.
    files = [f"/data/folder{i}/cases_{i}.csv" for i in range(60)]
    message = f"validated {', '.join(files)} by the schema\n::error::"
    record = logging.LogRecord("hatemoji_datasets", logging.INFO, "", 0, message, None, None)
    lines = WrappedMessages().format(record).split("\n")
    assert len(lines) > 1 and max(map(len, lines)) <= WIDTH
    assert all(line.startswith("  /data/") for line in lines[1:])  # indented under the first
    assert " ".join(line.strip() for line in lines) == message.replace("\n", "\\n")


def test_a_columns_floats_share_their_decimals() -> None:
    # Kappas as the statistics give them.
    assert column([0.573, 0.62, 0.75]) == ["0.573", "0.620", "0.750"]
    assert column([1.69, 1.7, ""]) == ["1.69", "1.70", ""]
    assert column([1234, 56789]) == ["1,234", "56,789"]
    shown = table(["group", "Fleiss' kappa"], [["alpha", 0.573], ["beta", 0.62]], right=[1])
    assert shown.splitlines()[-1].split() == ["beta", "0.620"]


def test_markdown_scores_group_their_counts() -> None:
    cells = Table(
        "groups", "Accuracy per group", ("group",), ("n",), ("accuracy",),
        ({"group": "alpha", "n": 1234, "accuracy": 0.5},),
    )  # fmt: skip
    report = ScoreReport(
        "toy", "all", "test", "1.0.0", "id", 56789, False,
        {"accuracy": 0.5}, {"groups": cells}, ("groups", "accuracy"),
    )  # fmt: skip
    text = render_markdown({"model": report})
    assert "56,789 rows scored" in text
    assert "| alpha | 1,234 | 0.500 |" in text


def test_verify_groups_row_counts(synthetic: str) -> None:
    expected = {"test": (1200, "a" * 64)}
    found = {"test": (1234, "b" * 64)}
    spec = dataset_spec(synthetic)
    (problem,) = compare(spec, "default", "1.0.0", expected, found, what="locked")
    assert problem.endswith("(1,234 rows, locked 1,200)")


def _item(entry: str) -> str:
    """A pattern of ``entry`` as a whole item of a ClassLabel's list, wrapped or not."""
    return rf"(?:\(|, |^ +){re.escape(entry)}(?:,|\)|$)"


def test_info_as_json_and_within_100_columns(mirror: Path, session_cache: Path, capsys) -> None:
    """On HatemojiCheck (named: its seven functionalities are a ClassLabel list too long for
    one line): the JSON document, and the text within 100 columns, each ClassLabel's list
    wrapped between entries (a longer one on several lines)."""
    config = dataset_spec(HATEMOJI_CHECK).config()
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["info", HATEMOJI_CHECK, *where, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["format"], document["exit_code"]) == (1, 0)
    assert document["name"] == HATEMOJI_CHECK and document["config"] == config.name
    assert document["splits"] == dataset_facts(HATEMOJI_CHECK).SPLITS[config.name]
    assert Path(document["cache"]).is_dir()
    assert main(["info", HATEMOJI_CHECK, *where]) == 0
    out = capsys.readouterr().out
    prose = out.split("\ncitation:\n", 1)[0]  # BibTeX is kept as written
    assert max(map(len, prose.splitlines())) <= WIDTH
    features = out.split("\nfeatures:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    spans = []
    for feature in document["features"].values():
        if feature.get("_type") == "ClassLabel":
            entries = [f"{i} {name}" for i, name in enumerate(feature["names"])]
            # An entry stays whole: each is one item of one line of the table.
            held = [
                [at for at, line in enumerate(features) if re.search(_item(entry), line)]
                for entry in entries
            ]
            assert all(len(lines) == 1 for lines in held), held
            spans.append(len({lines[0] for lines in held}))
    assert max(spans) > 1  # a list too long for one line wraps


def test_csv_field_counts_are_grouped(synthetic: str, tmp_path: Path, monkeypatch, capsys):
    """A row far wider than the synthetic dataset's header."""
    monkeypatch.chdir(tmp_path)
    header = "sentence_id,sentence,topic,complaint"
    Path("wide_row.csv").write_text(header + "\n" + ",".join(["1"] * 1500) + "\n")
    assert main(["validate", "wide_row.csv", "--dataset", synthetic]) == 2
    out = capsys.readouterr().out
    assert "rows must have the header's 4 fields, but line 2 has 1,500" in out
