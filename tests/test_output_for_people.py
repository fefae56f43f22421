"""Output for people: tables fit 100 columns (headers wrap between words, lists between
entries), counts are grouped everywhere, a column's floats share their decimals, and
``info --format json`` is one document in the shape of the other commands' reports."""

from __future__ import annotations

import json
from pathlib import Path

from hatemoji_datasets.building.recorded import compare
from hatemoji_datasets.cli import main
from hatemoji_datasets.cli.output import WIDTH, table, wrap_list
from hatemoji_datasets.core.numbers import column
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.evaluate.render import render_markdown
from hatemoji_datasets.evaluate.report import ScoreReport, Table

#: HateCheck's 29 functionalities (Röttger et al. 2021, table 1), as a ClassLabel lists them.
FUNCTIONALITIES = [
    "derog_neg_emote_h", "derog_neg_attrib_h", "derog_dehum_h", "derog_impl_h", "threat_dir_h",
    "threat_norm_h", "slur_h", "slur_homonym_nh", "slur_reclaimed_nh", "profanity_h",
    "profanity_nh", "ref_subs_clause_h", "ref_subs_sent_h", "negate_pos_h", "negate_neg_nh",
    "phrase_question_h", "phrase_opinion_h", "ident_neutral_nh", "ident_pos_nh",
    "counter_quote_nh", "counter_ref_nh", "target_obj_nh", "target_indiv_nh", "target_group_nh",
    "spell_char_swap_h", "spell_char_del_h", "spell_space_del_h", "spell_space_add_h",
    "spell_leet_h",
]  # fmt: skip


def test_lists_wrap_between_entries() -> None:
    entries = [f"{i} {name}" for i, name in enumerate(FUNCTIONALITIES)]
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
    shown = table(headers, [["test", 3728, 5, 10, 3485, 243, 0, 0.939]], right=range(1, 8))
    lines = shown.splitlines()
    assert max(map(len, lines)) <= WIDTH < len("  ".join(headers))
    rule = next(i for i, line in enumerate(lines) if set(line) <= {"-", " "})
    assert rule > 1  # headers on more lines than one
    words = " ".join(lines[:rule]).split()
    assert sorted(words) == sorted(" ".join(headers).split())  # no word cut or lost
    assert lines[rule + 1].split() == ["test", "3,728", "5", "10", "3,485", "243", "0", "0.939"]


def test_a_table_too_wide_for_its_headers_continues_in_blocks() -> None:
    headers = ["language", *(f"column{i}" for i in range(14))]
    rows = [["arabic", *range(1000, 1014)], ["dutch", *range(2000, 2014)]]
    shown = table(headers, rows, right=range(1, 15))
    assert max(map(len, shown.splitlines())) <= WIDTH
    blocks = shown.split("\n\n")
    assert len(blocks) == 2
    for block in blocks:  # each led by the key column
        assert block.splitlines()[0].startswith("language")
        assert [line.split()[0] for line in block.splitlines()[2:]] == ["arabic", "dutch"]
    assert "1,013" in blocks[1] and "column13" in blocks[1]


def test_a_columns_floats_share_their_decimals() -> None:
    # Multilingual HateCheck's kappas of Arabic and Dutch as the statistics give them.
    assert column([0.573, 0.62, 0.75]) == ["0.573", "0.620", "0.750"]
    assert column([1.69, 1.7, ""]) == ["1.69", "1.70", ""]
    assert column([3570, 36582]) == ["3,570", "36,582"]
    shown = table(["language", "Fleiss' kappa"], [["arabic", 0.573], ["dutch", 0.62]], right=[1])
    assert shown.splitlines()[-1].split() == ["dutch", "0.620"]


def test_markdown_scores_group_their_counts() -> None:
    cells = Table(
        "languages", "Accuracy per language", ("language",), ("n",), ("accuracy",),
        ({"language": "arabic", "n": 3570, "accuracy": 0.5},),
    )  # fmt: skip
    report = ScoreReport(
        "multilingual_hatecheck", "all", "test", "1.0.0", "case_id", 36582, False,
        {"accuracy": 0.5}, {"languages": cells}, ("languages", "accuracy"),
    )  # fmt: skip
    text = render_markdown({"model": report})
    assert "36,582 rows scored" in text
    assert "| arabic | 3,570 | 0.500 |" in text


def test_verify_groups_row_counts() -> None:
    spec = dataset_spec("hatecheck")
    expected = {"test": (3700, "a" * 64)}
    found = {"test": (3728, "b" * 64)}
    (problem,) = compare(spec, "default", "1.0.0", expected, found, what="locked")
    assert problem.endswith("(3,728 rows, locked 3,700)")


def test_info_as_json_and_within_100_columns(mirror: Path, session_cache: Path, capsys) -> None:
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["info", "hatecheck", *where, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["format"], document["exit_code"]) == (1, 0)
    assert document["name"] == "hatecheck" and document["config"] == "default"
    assert document["splits"] == {"test": 3728}  # the paper's test suite
    assert Path(document["cache"]).is_dir()
    assert main(["info", "hatecheck", *where]) == 0
    out = capsys.readouterr().out
    prose = out.split("\ncitation:\n", 1)[0]  # BibTeX is kept as written
    assert max(map(len, prose.splitlines())) <= WIDTH
    assert "threat_dir_h" in out and "4 threat_dir_h" in prose  # an entry stays whole


def test_csv_field_counts_are_grouped(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    header = (
        "case_id,templ_id,test_group_id,text,target,functionality,set,label_gold,"
        "unrealistic_flags,included_in_test_suite"
    )
    Path("wide_row.csv").write_text(header + "\n" + ",".join(["1"] * 1500) + "\n")
    assert main(["validate", "wide_row.csv", "--dataset", "hatemoji_check"]) == 2
    out = capsys.readouterr().out
    assert "rows must have the header's 10 fields, but line 2 has 1,500" in out
