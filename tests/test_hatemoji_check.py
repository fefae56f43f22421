"""HatemojiCheck's own facts: the paper's 28 cells, targets, emoji, and its schema on
small neutral fixtures. (Split sizes, features, reload, byte-exact texts and sources are
tested for every dataset in test_datasets.py.)"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from conftest import check_one_file
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cards import card_table, committed_card
from support.frames import frame_of, load_names, predictions_frame, random_labels
from support.paths import FIXTURES

from hatemoji_datasets import load_dataset
from hatemoji_datasets.core.spec import CSV
from hatemoji_datasets.datasets.hatemoji_check.rules import TEMPLATE_ID, template_ids
from hatemoji_datasets.datasets.hatemoji_check.schema import HatemojiCheckRaw
from hatemoji_datasets.datasets.hatemoji_check.spec import FUNCTIONALITIES, PERTURBATIONS
from hatemoji_datasets.raw.reader import read_raw
from hatemoji_datasets.schema.rules import rows_of

# The paper's per-functionality table: (functionality, perturbation) -> (n, gold label).
PAPER_CELLS = {
    ("verb_swap", "original"): (300, "hateful"),
    ("verb_swap", "identity"): (50, "non-hateful"),
    ("verb_swap", "polarity"): (60, "non-hateful"),
    ("verb_swap", "no_emoji"): (60, "hateful"),
    ("identity_swap", "original"): (120, "hateful"),
    ("identity_swap", "identity"): (20, "non-hateful"),
    ("identity_swap", "polarity"): (120, "non-hateful"),
    ("identity_swap", "no_emoji"): (120, "hateful"),
    ("descriptor_swap", "original"): (260, "hateful"),
    ("descriptor_swap", "identity"): (40, "non-hateful"),
    ("descriptor_swap", "polarity"): (60, "non-hateful"),
    ("descriptor_swap", "no_emoji"): (60, "hateful"),
    ("double_swap", "original"): (288, "hateful"),
    ("double_swap", "identity"): (46, "non-hateful"),
    ("double_swap", "polarity"): (60, "non-hateful"),
    ("double_swap", "no_emoji"): (60, "hateful"),
    ("append", "original"): (288, "hateful"),
    ("append", "identity"): (48, "non-hateful"),
    ("append", "polarity"): (60, "non-hateful"),
    ("append", "no_emoji"): (60, "non-hateful"),
    ("positive_confounder", "original"): (440, "hateful"),
    ("positive_confounder", "identity"): (65, "non-hateful"),
    ("positive_confounder", "polarity"): (112, "non-hateful"),
    ("positive_confounder", "no_emoji"): (88, "hateful"),
    ("emoji_leetspeak", "original"): (430, "hateful"),
    ("emoji_leetspeak", "identity"): (45, "non-hateful"),
    ("emoji_leetspeak", "polarity"): (430, "non-hateful"),
    ("emoji_leetspeak", "no_emoji"): (140, "hateful"),
}


@pytest.fixture(scope="module")
def check(mirror: Path, session_cache: Path) -> datasets.Dataset:
    return load_dataset(
        "hatemoji_check", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )


def test_vocabularies(check: datasets.Dataset) -> None:
    assert check.features["label"].names == ["non-hateful", "hateful"]
    assert check.features["functionality"].names == [
        "verb_swap", "identity_swap", "descriptor_swap", "double_swap",
        "append", "positive_confounder", "emoji_leetspeak",
    ]  # fmt: skip
    assert check.features["functionality"].names == list(FUNCTIONALITIES)
    assert check.features["perturbation"].names == ["original", "identity", "polarity", "no_emoji"]
    assert check.features["perturbation"].names == list(PERTURBATIONS.values())
    assert check.features["case_id"].dtype == "int32"
    assert sum(n for n, _ in PAPER_CELLS.values()) == check.num_rows == 3930


def test_cells_reproduce_the_paper(check: datasets.Dataset) -> None:
    functionality = check.features["functionality"].int2str
    perturbation = check.features["perturbation"].int2str
    label = check.features["label"].int2str
    cells = Counter(
        (functionality(f), perturbation(p), label(y))
        for f, p, y in zip(check["functionality"], check["perturbation"], check["label"])
    )
    expected = Counter({(f, p, y): n for (f, p), (n, y) in PAPER_CELLS.items()})
    assert cells == expected


def test_missing_target_is_explicit(check: datasets.Dataset) -> None:
    targets = [check.features["target"].int2str(t) for t in check["target"]]
    perturbations = [check.features["perturbation"].int2str(p) for p in check["perturbation"]]
    no_target = [p for t, p in zip(targets, perturbations) if t == "none"]
    assert len(no_target) == 314
    assert set(no_target) == {"identity"}
    assert "" not in targets


def test_emoji_feature(check: datasets.Dataset) -> None:
    by_id = dict(zip(check["case_id"], check["emoji"]))
    assert by_id[0] == ["🔪"]  # "I want to 🔪 all women"
    perturbations = check["perturbation"]
    no_emoji = check.features["perturbation"].str2int("no_emoji")
    for found, perturbation in zip(check["emoji"], perturbations):
        assert bool(found) == (perturbation != no_emoji)


def test_pinned_version_loads(mirror: Path, session_cache: Path) -> None:
    data = load_dataset(
        "hatemoji_check:1.0.0", split="test", cache_dir=str(session_cache), mirror=str(mirror)
    )
    assert data.num_rows == 3930


# -- the schema on small neutral fixtures ------------------------------------------------------


def _findings(path: Path) -> list:
    return check_one_file(HatemojiCheckRaw, str(path), CSV)


def test_valid_fixture_passes() -> None:
    path = FIXTURES / "hatemoji_check_valid.csv"
    assert _findings(path) == []
    raw = read_raw(path, CSV)
    assert raw.table["text"][4].as_py() == "Neutral, quoted\ntext over two lines"
    assert raw.lines() == [2, 3, 4, 5, 6]  # a record's line follows multi-line fields


def test_every_finding_names_its_line_and_code() -> None:
    found = _findings(FIXTURES / "hatemoji_check_broken.csv")
    assert {(f.line, f.column, f.code) for f in found} == {
        (2, "case_id", "VALUE-DUPLICATE"),
        (3, "case_id", "VALUE-DUPLICATE"),
        (4, "label_gold", "HC-LABEL-CELL"),
        (5, "text", "HC-EMOJI"),  # no_emoji with an emoji
        (6, "unrealistic_flags", "VALUE-OUT-OF-RANGE"),  # the record starting on line 6
        (8, "target", "VALUE-NOT-ALLOWED"),
        (8, "templ_id", "HC-TEMPLATE-ID"),
        (9, "text", "HC-EMOJI"),  # an original without an emoji
    }
    by_place = {(f.line, f.column): f for f in found}
    assert (by_place[4, "label_gold"].value, by_place[4, "label_gold"].expected) == ("1", "0")
    assert (by_place[8, "templ_id"].value, by_place[8, "templ_id"].expected) == ("3.0", "4.0")
    assert by_place[6, "unrealistic_flags"].value == "9"
    assert by_place[8, "target"].value == "cats"
    assert all(f.file.endswith("hatemoji_check_broken.csv") for f in found)
    assert all(f.severity == "error" for f in found)


def test_missing_column_is_reported_alone(tmp_path: Path) -> None:
    source = (FIXTURES / "hatemoji_check_valid.csv").read_text(encoding="utf-8")
    broken = tmp_path / "no_label.csv"
    broken.write_text(source.replace(",label_gold", ",label"), encoding="utf-8")
    assert sorted((f.line, f.column, f.code) for f in _findings(broken)) == [
        (1, "label", "COLUMN-UNEXPECTED"),
        (1, "label_gold", "COLUMN-MISSING"),
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [(",I want to plant flowers for all women,", 5), (",I want to 🌻 all women,", 2)],
)
def test_empty_text_is_one_finding(tmp_path: Path, text: str, line: int) -> None:
    # On line 2 the original's empty text also lacks its emoji: still one finding.
    source = (FIXTURES / "hatemoji_check_valid.csv").read_text(encoding="utf-8")
    assert source.count(text) == 1
    broken = tmp_path / "empty.csv"
    broken.write_text(source.replace(text, ",,"), "utf-8")
    assert [(f.line, f.column, f.code) for f in _findings(broken)] == [(line, "text", "TEXT-EMPTY")]


# -- the card's tables, recomputed independently (moved from test_cards.py) ---------


@pytest.mark.real_data
def test_hatemoji_check_functionality_table(card_data) -> None:
    data = card_data("hatemoji_check").configs["default"].data
    frame = data["test"].to_pandas()
    features = data["test"].features
    table = card_table(committed_card("hatemoji_check"), "Cases per functionality and perturbation")
    assert len(table) == 7
    for (f, p), group in frame.groupby(["functionality", "perturbation"]):
        row = table[f"F{f + 1} {features['functionality'].names[f]}"]
        perturbation = features["perturbation"].names[p]
        assert int(row[f"{perturbation} cases"]) == len(group)
        labels = group["label"].unique()
        assert len(labels) == 1
        assert row[f"{perturbation} label"] == features["label"].names[labels[0]]
    for f, group in frame.groupby("functionality"):
        assert int(table[f"F{f + 1} {features['functionality'].names[f]}"]["cases"]) == len(group)
    # The paper's originals per functionality (F1..F7).
    originals = [int(table[key]["original cases"]) for key in table]
    assert originals == [300, 120, 260, 288, 288, 440, 430]


# -- scores against independent computations (moved from test_evaluate.py) --------


#: The HatemojiCheck paper's table as the score report names its rows: (case, gold label, n).
PAPER_CASES = [
    ("F1", "hateful", 300), ("F1.1", "non-hateful", 50), ("F1.2", "non-hateful", 60),
    ("F1.3", "hateful", 60), ("F2", "hateful", 120), ("F2.1", "non-hateful", 20),
    ("F2.2", "non-hateful", 120), ("F2.3", "hateful", 120), ("F3", "hateful", 260),
    ("F3.1", "non-hateful", 40), ("F3.2", "non-hateful", 60), ("F3.3", "hateful", 60),
    ("F4", "hateful", 288), ("F4.1", "non-hateful", 46), ("F4.2", "non-hateful", 60),
    ("F4.3", "hateful", 60), ("F5", "hateful", 288), ("F5.1", "non-hateful", 48),
    ("F5.2", "non-hateful", 60), ("F5.3", "non-hateful", 60), ("F6", "hateful", 440),
    ("F6.1", "non-hateful", 65), ("F6.2", "non-hateful", 112), ("F6.3", "hateful", 88),
    ("F7", "hateful", 430), ("F7.1", "non-hateful", 45), ("F7.2", "non-hateful", 430),
    ("F7.3", "hateful", 140),
]  # fmt: skip


def test_hatemoji_check_metrics_match_sklearn_fairlearn_and_pandas(where) -> None:
    pytest.importorskip("fairlearn")
    from fairlearn.metrics import demographic_parity_ratio, equalized_odds_ratio
    from sklearn.metrics import accuracy_score, f1_score

    from hatemoji_datasets.evaluate import score

    frame = frame_of("hatemoji_check", "default", "test", where).copy()
    frame["pred"] = random_labels(frame)
    report = score("hatemoji_check", predictions_frame(frame, "case_id", frame["pred"]), **where)
    gold, pred = frame["label"], frame["pred"]
    assert report.n == 3930 and report.split == "test" and report.config == "default"
    assert report.overall["accuracy"] == pytest.approx(accuracy_score(gold, pred))
    assert report.overall["f1_hateful"] == pytest.approx(f1_score(gold, pred))
    assert report.overall["f1_macro"] == pytest.approx(f1_score(gold, pred, average="macro"))

    frame["correct"] = frame["label"] == frame["pred"]
    cells = frame.groupby(["functionality", "perturbation"]).agg(
        n=("correct", "size"), accuracy=("correct", "mean"), gold=("label", "max")
    )
    rows = report.table("cells").rows
    assert len(rows) == len(cells) == 28
    f_names = load_names(where, "hatemoji_check", "functionality")
    p_names = load_names(where, "hatemoji_check", "perturbation")
    for row, ((f, p), expected) in zip(rows, cells.iterrows()):
        assert (row["functionality"], row["perturbation"]) == (f_names[f], p_names[p])
        assert row["n"] == expected["n"]
        assert row["accuracy"] == pytest.approx(expected["accuracy"])
        assert row["label"] == ("hateful" if expected["gold"] else "non-hateful")

    target_names = load_names(where, "hatemoji_check", "target")
    frame["target_name"] = [target_names[t] for t in frame["target"]]
    by_target = {row["target"]: row for row in report.table("targets").rows}
    assert list(by_target) == target_names
    for name, group in frame.groupby("target_name"):
        row = by_target[name]
        positives, negatives = group[group["label"] == 1], group[group["label"] == 0]
        assert row["n"] == len(group)
        assert row["accuracy"] == pytest.approx(group["correct"].mean())
        assert row["false_positive_rate"] == pytest.approx((negatives["pred"] == 1).mean())
        if len(positives):
            assert row["false_negative_rate"] == pytest.approx((positives["pred"] == 0).mean())
        else:  # target `none`: identity perturbations are all non-hateful
            assert name == "none" and row["false_negative_rate"] is None

    protected = frame[frame["target_name"] != "none"]
    fairness = report.table("fairness").rows[0]
    assert fairness["targets"] == 6 and fairness["n"] == len(protected) == 3930 - 314
    kwargs = {"sensitive_features": protected["target_name"]}
    assert fairness["demographic_parity_ratio"] == pytest.approx(
        demographic_parity_ratio(protected["label"], protected["pred"], **kwargs)
    )
    assert fairness["equalized_odds_ratio"] == pytest.approx(
        equalized_odds_ratio(protected["label"], protected["pred"], **kwargs)
    )
    # ... and by hand: min/max of selection rates; worst of the TPR and FPR ratios.
    selection = protected.groupby("target_name")["pred"].mean()
    assert fairness["demographic_parity_ratio"] == pytest.approx(selection.min() / selection.max())
    rates = protected.groupby(["label", "target_name"])["pred"].mean()
    ratios = [rates[label].min() / rates[label].max() for label in (0, 1)]
    assert fairness["equalized_odds_ratio"] == pytest.approx(min(ratios))


def test_hatemoji_check_cells_match_the_paper(where) -> None:
    from hatemoji_datasets.evaluate import score

    report = score("hatemoji_check", {i: 1 for i in range(3930)}, **where)
    cells = [(r["case"], r["label"], r["n"]) for r in report.table("cells").rows]
    assert cells == PAPER_CASES
    matrix = report.accuracy_matrix()
    assert matrix.shape == (7, 4)
    assert list(matrix.columns) == ["original", "identity", "polarity", "no_emoji"]
    assert matrix.loc["append", "no_emoji"] == 0.0  # F5.3 is the one non-hateful no-emoji cell
    assert matrix.loc["verb_swap", "original"] == 1.0


#: Ways to write a templ_id near its GROUP.DIGIT form: signs, zeros, underscores, spaces.
_WRITINGS = (
    "{g}.{d}",
    "+{g}.{d}",
    "0{g}.{d}",
    " {g}.{d}",
    "{g}.{d} ",
    "{g}.0{d}",
    "{g}_0.{d}",
    "{g}.{d}.{d}",
    "{g}{d}",
    "-{g}.{d}",
    "{g}.{e}",
    "{g}0.{d}",  # beyond int64 for the largest group
)


@st.composite
def _template_rows(draw) -> tuple[str, int, str]:
    group = draw(st.integers(-3, 12) | st.sampled_from([2**63 - 1, -(2**63)]))
    digit = draw(st.integers(0, len(PERTURBATIONS)))  # the last: a set that is none
    sets = [*PERTURBATIONS, "other"]
    writing = draw(st.sampled_from(_WRITINGS) | st.text(st.sampled_from("0123-+._ "), max_size=5))
    text = writing.format(g=group, d=digit, e=digit + len(PERTURBATIONS))
    return text, draw(st.sampled_from([group, group ^ 1])), sets[digit]  # ^ 1: another group


@settings(deadline=None, max_examples=300)
@given(st.lists(_template_rows(), max_size=12))
def test_the_screened_template_rule_is_the_template_ids_it_states(rows) -> None:
    """The screen reads each distinct templ_id back; the rule is the text it would make."""
    batch = pa.RecordBatch.from_pydict(
        {
            "templ_id": pa.array([t for t, _, _ in rows], pa.string()),
            "test_group_id": pa.array([g for _, g, _ in rows], pa.int64()),
            "set": pa.array([s for _, _, s in rows], pa.string()),
        }
    )
    stated = pc.equal(batch["templ_id"], template_ids(batch["test_group_id"], batch["set"]))
    found = TEMPLATE_ID.check(rows_of(batch, None, None, None))
    assert found.to_pylist() == [bool(keeps) for keeps in stated.to_pylist()]


# -- its rules on a contribution (moved from tests/test_contributions.py, which checks the --
# -- rules every text and id obey on the plain dataset's new rows) ---------------------------

CONTRIBUTION = FIXTURES / "hatemoji_check_contribution.csv"


def _check(paths, mirror: Path, **options):
    from hatemoji_datasets.validate.contributions import Options, validate_contributions

    return validate_contributions(
        [str(p) for p in paths],
        "hatemoji_check",
        None,
        options=Options(**options),
        mirror=str(mirror),
    )


def _write_variant(tmp_path: Path, source: Path, edit, name: str = "variant.csv") -> Path:
    """A copy of ``source`` with ``edit`` applied to its list of lines."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    target = tmp_path / name
    target.write_text("".join(edit(lines)), encoding="utf-8")
    return target


def _codes(report) -> set[tuple[int | None, str | None, str]]:
    return {(f.line, f.column, f.code) for f in report.findings}


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

    report = _check([_write_variant(tmp_path, CONTRIBUTION, edit)], mirror=mirror)
    assert _codes(report) == {
        (2, "case_id", "VALUE-DUPLICATE"),
        (3, "case_id", "VALUE-DUPLICATE"),
        (4, "label_gold", "HC-LABEL-CELL"),
        (5, "text", "HC-EMOJI"),
        (6, "text", "TEXT-CONTROL"),
        (7, "text", "TEXT-NOT-NFC"),
        (8, "text", "TEXT-EDGE-SPACE"),
        (9, "text", "RELEASE-REPEATED-TEXT"),
        (10, "text", "TEXT-EMPTY"),  # one finding, though it also repeats no text
    }
    label = next(f for f in report.findings if f.code == "HC-LABEL-CELL")
    assert (label.value, label.expected) == ("1", "0")
    assert (
        next(f for f in report.findings if f.line == 6).value == "I want to 🌻 all women to\x07day"
    )
    warning = next(f for f in report.findings if f.line == 8)
    assert warning.severity == "warning"
    assert all(f.severity == "error" for f in report.findings if f.line != 8)
    assert report.exit_code == 1


def test_clean_contribution(mirror: Path) -> None:
    report = _check([CONTRIBUTION], mirror=mirror, strict=True)
    assert report.findings == []
    assert report.exit_code == 0


# -- its exported schema (moved from tests/test_schema_export.py, which checks every export --
# -- against its pandera model) ---------------------------------------------------------------


def test_table_schema_carries_the_vocabularies() -> None:
    import json

    from hatemoji_datasets.schema.table_schema import exports

    schema = json.loads(exports()["hatemoji_check/HatemojiCheckRaw.table-schema.json"])
    fields = {field["name"]: field for field in schema["fields"]}
    assert fields["functionality"]["constraints"]["enum"][0] == "verb_swap"
    assert fields["case_id"]["constraints"] == {"required": True, "unique": True, "minimum": 0}
    assert any(rule["name"] == "label_matches_cell" for rule in schema["x-rules"])


def test_template_is_the_upstream_header_and_next_free_id(mirror: Path, capsys) -> None:
    # A contributor learnt the columns, values and free ids by reading the upstream CSV.
    import csv
    import json

    from hatemoji_datasets.cli import main

    upstream = mirror / (
        "raw.githubusercontent.com/HannahKirk/Hatemoji/"
        "a626f63216158748d072e581efc00267031f4404/HatemojiCheck/test.csv"
    )
    with upstream.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert main(["template", "hatemoji_check", "--format", "csv"]) == 0
    assert capsys.readouterr().out == upstream.read_text(encoding="utf-8").splitlines()[0] + "\n"
    assert main(["template", "hatemoji_check", "--format", "json"]) == 0
    template = json.loads(capsys.readouterr().out)
    assert template["next_id"] == max(int(row["case_id"]) for row in rows) + 1 == 3930
    assert template["key_column"] == "case_id"
    for column in ("target", "functionality", "set"):  # every value upstream uses, and no other
        assert set(template["allowed"][column]) == {row[column] for row in rows}, column
    assert main(["template", "hatemoji_check"]) == 0
    text = capsys.readouterr().out
    assert "next free case_id: 3930" in text and max(map(len, text.splitlines())) <= 100
