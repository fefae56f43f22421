"""HatemojiBuild: the target parser and glossary, the schema on neutral fixtures, the pair
helper, a build from the fixtures, and every config built from the real upstream files.

Expected numbers come from the paper's round table (Kirk et al. 2022) or are
recomputed here from the upstream files read with the csv module.
"""

from __future__ import annotations

import csv
import functools
import re
import statistics
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import datasets
import emoji
import pytest
from support.cards import card_frame, card_table, committed_card
from support.frames import frame_of, load_names, predictions_frame, random_labels
from support.paths import FIXTURES, upstream_path

from hatemoji_datasets import SchemaViolationError, dataset_info, list_datasets, load_dataset
from hatemoji_datasets.building.builder import builder_class
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.findings import Finding
from hatemoji_datasets.core.registry import dataset_spec
from hatemoji_datasets.datasets.hatemoji_build.pairs import (
    CrossSplitPair,
    count_cross_split_pairs,
    cross_split_pairs,
)
from hatemoji_datasets.datasets.hatemoji_build.schema import HatemojiBuildRaw
from hatemoji_datasets.datasets.hatemoji_build.spec import SPLITS
from hatemoji_datasets.datasets.hatemoji_build.targets import (
    TargetLiteralError,
    glossary,
    parse_target_literal,
    target_codes,
)
from hatemoji_datasets.raw.files import check_files, read_files
from hatemoji_datasets.validate.contributions import Options, validate_contributions

SPEC = dataset_spec("hatemoji_build")
UPSTREAM_COLUMNS = [
    "entry_id", "text", "type", "target", "round.base", "round.set", "set", "split",
    "label_gold", "matched_text", "matched_id",
]  # fmt: skip
CONFIGS = ("all", "r5", "r6", "r7")
PAIR_SAFE_CONFIGS = ("pair_safe", "r5_pair_safe", "r6_pair_safe", "r7_pair_safe")
UPSTREAM_FILE_OF_SPLIT = {"train": "train", "validation": "validation", "test": "test"}
UPSTREAM_SPLIT_NAME = {"train": "train", "dev": "validation", "test": "test"}
UPSTREAM_TYPE_NAME = {
    "none": "none",
    "derogation": "derogation",
    "animosity": "animosity",
    "threateninglanguage": "threatening",
    "dehumanizinglanguage": "dehumanizing",
}

# The paper's round table (Kirk et al. 2022, HatemojiBuild statistics).
PAPER_ROUNDS = {
    5: {
        "entries": 1994,
        "splits": {"train": 1595, "validation": 199, "test": 200},
        "labels": {"hateful": 1006, "non-hateful": 988},
        "originals": 997,
        "hate_types": {
            "none": 988, "derogation": 718, "animosity": 74, "threatening": 101,
            "dehumanizing": 113,
        },
        "emoji": (1.7, 2.2),
    },
    6: {
        "entries": 1966,
        "splits": {"train": 1572, "validation": 197, "test": 197},
        "labels": {"hateful": 983, "non-hateful": 983},
        "originals": 983,
        "hate_types": {
            "none": 983, "derogation": 649, "animosity": 219, "threatening": 50,
            "dehumanizing": 65,
        },
        "emoji": (1.7, 1.0),
    },
    7: {
        "entries": 1952,
        "splits": {"train": 1561, "validation": 195, "test": 196},
        "labels": {"hateful": 976, "non-hateful": 976},
        "originals": 976,
        "hate_types": {
            "none": 976, "derogation": 594, "animosity": 275, "threatening": 52,
            "dehumanizing": 55,
        },
        "emoji": (1.6, 1.1),
    },
}  # fmt: skip
PAPER_ENTRIES = 5912
PAPER_TARGETS = 54  # "54 unique targets"; the upstream files use 53 codes plus "none"
PAPER_DISTINCT_EMOJI = 1082


# -- the target literal and the glossary ---------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "codes"),
    [
        ("['bla']", ("bla",)),
        ("['mus', 'asi.south']", ("mus", "asi.south")),
        ("['asi.south', 'arab', 'mus']", ("asi.south", "arab", "mus")),
        ("['none']", ("none",)),
    ],
)
def test_parse_target_literal(literal: str, codes: tuple[str, ...]) -> None:
    assert parse_target_literal(literal) == codes


@pytest.mark.parametrize(
    "literal",
    [
        "",
        "[]",
        "bla",
        "'bla'",
        "['bla'",
        "['bla',]",
        "['bla','mus']",  # upstream always writes ", "
        "[ 'bla']",
        '["bla"]',
        "[['bla']]",
        "['Bla']",
        "['bla.']",
        "['bla'] ",
        "['bla'] + ['mus']",
        "[__import__('os').getcwd()]",
        "['bla\\x27]",
    ],
)
def test_malformed_target_literal_is_rejected(literal: str) -> None:
    with pytest.raises(TargetLiteralError):
        parse_target_literal(literal)


def test_glossary_has_every_code_with_a_meaning() -> None:
    codes = glossary()
    assert len(codes) == PAPER_TARGETS
    assert target_codes()[0] == "none"
    assert codes["bla"].meaning == "Black people"
    assert all(entry.meaning for entry in codes.values())
    uncertain = {code for code, entry in codes.items() if entry.basis == "uncertain"}
    assert uncertain and all(codes[code].note for code in uncertain)
    assert all(codes[code].meaning.startswith("uncertain") for code in uncertain)


# -- the schema on neutral fixtures ---------------------------------------------------------


def _fixture_files(tmp_path: Path, split: str | None = None, old: str = "", new: str = "") -> dict:
    """Copies of the neutral fixtures, with ``old`` replaced by ``new`` once in ``split``."""
    paths = {}
    for name in SPLITS:
        text = (FIXTURES / f"hatemoji_build_{name}.csv").read_text(encoding="utf-8")
        if name == split:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        paths[name] = tmp_path / f"{name}.csv"
        paths[name].write_text(text, encoding="utf-8")
    return paths


def _findings(paths: dict) -> list[Finding]:
    config = SPEC.config("all")
    files = {source: str(path) for source, path in paths.items()}
    return check_files(SPEC, config, read_files(SPEC, config, files))


def test_schema_config_is_not_misspelt() -> None:
    schema = HatemojiBuildRaw.to_schema()
    assert schema.strict is True and schema.coerce is True
    assert schema.name.startswith("HatemojiBuild")
    assert list(schema.columns) == UPSTREAM_COLUMNS  # exactly the upstream columns


def test_valid_fixtures_pass(tmp_path: Path) -> None:
    paths = _fixture_files(tmp_path)
    assert _findings(paths) == []
    header = (FIXTURES / "hatemoji_build_train.csv").read_text(encoding="utf-8").split("\n")[0]
    assert header.split(",") == UPSTREAM_COLUMNS


# (file, text to replace, replacement, file line of the named row, column, code,
#  value, expected)
CORRUPTIONS = {
    "broken pair": (
        "train", "Sample entry zero with a sunflower 🌻,0",
        "Sample entry zero with a sunflower 🌻,4", 3, "matched_id", "HB-PAIR-ASYMMETRIC", "4", None,
    ),
    "partner missing": (
        "train", "Sample entry zero with a balloon 🎈,1", "Sample entry zero with a balloon 🎈,99",
        2, "matched_id", "HB-PAIR-MISSING", "99", None,
    ),
    "pair across rounds": (
        "train", "1,Sample entry zero with a balloon 🎈,none,['none'],5,5b",
        "1,Sample entry zero with a balloon 🎈,none,['none'],6,6b", 3, "round.base",
        "HB-PAIR-ROUND", "6", "5",
    ),
    "matched_text differs": (
        "validation", "Sample entry eight 🍩,8", "Sample entry eight 🍩!,8", 6, "matched_text",
        "HB-PAIR-TEXT", "Sample entry eight 🍩!", "Sample entry eight 🍩",
    ),
    "two originals": (
        "test", "perturbation,test,0,Sample entry four 🍀🍀,4",
        "original,test,0,Sample entry four 🍀🍀,4", 2, "set", "HB-PAIR-SET", "original", None,
    ),
    "malformed target literal": (
        "validation", "\"['gayman', 'nat.wales', 'asi.east.chin']\"",
        "\"['gayman' 'nat.wales', 'asi.east.chin']\"", 4, "target", "HB-TARGET-LITERAL",
        "['gayman' 'nat.wales', 'asi.east.chin']", None,
    ),
    "unknown target code": (
        "test", "['trav']", "['martians']", 4, "target", "HB-TARGET-UNKNOWN", "['martians']", None,
    ),
    "repeated target code": (
        "test", "['trav']", "\"['trav', 'trav']\"", 4, "target", "HB-TARGET-REPEATED",
        "['trav', 'trav']", None,
    ),
    "unknown hate type": (
        "train", "threateninglanguage", "threatening", 6, "type", "VALUE-NOT-ALLOWED",
        "threatening", None,
    ),
    "duplicate id": (
        "validation", "7,Sample entry six 🌟", "6,Sample entry six 🌟", 5, "entry_id",
        "VALUE-DUPLICATE", "6", None,
    ),
    "type without hateful label": (
        "validation", "9,Sample entry eight 🍩 🍩,derogation,['wom']",
        "9,Sample entry eight 🍩 🍩,none,['wom']", 6, "type", "HB-TYPE-LABEL", "none", None,
    ),
    "hateful without target": (
        "validation", "derogation,['wom']", "derogation,['none']", 6, "target", "HB-TARGET-TYPE",
        "['none']", None,
    ),
    "round.set disagrees": (
        "train", "7,7a,original", "7,7b,original", 6, "round.set", "HB-ROUND-SET", "7b", "7a",
    ),
    "round.set malformed": (
        "train", "7,7a,original", "7,8a,original", 6, "round.set", "VALUE-PATTERN", "8a", None,
    ),
    "split disagrees with file": (
        "validation", "7,7b,perturbation,dev", "7,7b,perturbation,test", 5, "split",
        "HB-SPLIT-FILE", "test", "dev",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CORRUPTIONS))
def test_corruption_names_the_row(case: str, tmp_path: Path) -> None:
    split, old, new, line, column, code, value, expected = CORRUPTIONS[case]
    found = _findings(_fixture_files(tmp_path, split, old, new))
    named = [
        f
        for f in found
        if f.file.endswith(f"{split}.csv") and (f.line, f.column, f.code) == (line, column, code)
    ]
    assert len(named) == 1, "\n".join(map(str, found))
    assert named[0].value == value
    if expected is not None:
        assert named[0].expected == expected
    # One problem, one finding: no place is reported twice.
    places = [(f.file, f.line, f.column) for f in found]
    assert len(places) == len(set(places)), "\n".join(map(str, found))


def test_missing_partner_is_reported_once(tmp_path: Path) -> None:
    _, old, new, *_ = CORRUPTIONS["partner missing"]
    found = _findings(_fixture_files(tmp_path, "train", old, new))
    assert [(Path(f.file).name, f.line) for f in found if f.code == "HB-PAIR-MISSING"] == [
        ("train.csv", 2)
    ]
    assert [f.code for f in found if f.line == 2 and f.file.endswith("train.csv")] == [
        "HB-PAIR-MISSING"
    ]


@pytest.mark.parametrize(
    ("split", "old", "new", "line", "column", "code"),
    [
        ("test", "['trav']", "[trav]", 4, "target", "HB-TARGET-LITERAL"),
        ("train", "7,7a,original", "7,8a,original", 6, "round.set", "VALUE-PATTERN"),
    ],
)
def test_malformed_value_is_reported_once(
    tmp_path: Path, split: str, old: str, new: str, line: int, column: str, code: str
) -> None:
    found = _findings(_fixture_files(tmp_path, split, old, new))
    assert [(Path(f.file).name, f.line, f.column, f.code) for f in found] == [
        (f"{split}.csv", line, column, code)
    ]


# -- the pair helper ------------------------------------------------------------------------


def _pairs_data(splits: dict[str, list[tuple[int, int]]]) -> datasets.DatasetDict:
    return datasets.DatasetDict(
        {
            split: datasets.Dataset.from_dict(
                {"entry_id": [e for e, _ in rows], "matched_id": [m for _, m in rows]}
            )
            for split, rows in splits.items()
        }
    )


def test_cross_split_pairs() -> None:
    data = _pairs_data(
        {"train": [(0, 1), (1, 0), (2, 3), (4, 5)], "validation": [(3, 2)], "test": [(5, 4)]}
    )
    assert cross_split_pairs(data) == {
        "train": [CrossSplitPair(2, 3, "validation"), CrossSplitPair(4, 5, "test")],
        "validation": [CrossSplitPair(3, 2, "train")],
        "test": [CrossSplitPair(5, 4, "train")],
    }
    assert count_cross_split_pairs(data) == 2


def test_cross_split_pairs_with_a_split_left_out() -> None:
    data = _pairs_data({"train": [(0, 1), (1, 0), (2, 3)], "test": [(5, 4)]})
    assert cross_split_pairs(data) == {
        "train": [CrossSplitPair(2, 3, None)],
        "test": [CrossSplitPair(5, 4, None)],
    }


# -- a build from the dummy data (no upstream data needed) ----------------------------------


@pytest.mark.parametrize(
    ("config", "expected_ids"),
    [
        (
            "all",
            {
                "train": [0, 1, 2, 4, 11],
                "validation": [3, 6, 7, 9, 12, 13, 14, 15],
                "test": [5, 8, 10, 16, 17],
            },
        ),
        ("r5", {"train": [0, 1], "validation": [9, 12, 13], "test": [8]}),
        ("r6", {"train": [2, 11], "validation": [3, 14, 15], "test": [10]}),
        ("r7", {"train": [4], "validation": [6, 7], "test": [5, 16, 17]}),
        # Worked by hand from pair_safe.py's rules: pairs (2, 3), (4, 5) and (8, 9) tie on
        # size and follow their original; (10, 11) joins its original in test too, as train
        # already holds one R6 entry more than upstream. Every pair has one hateful member,
        # so no label exchange helps.
        (
            "pair_safe",
            {
                "train": [0, 1, 2, 3, 4, 5],
                "validation": [6, 7, 12, 13, 14, 15],
                "test": [8, 9, 10, 11, 16, 17],
            },
        ),
        ("r5_pair_safe", {"train": [0, 1], "validation": [12, 13], "test": [8, 9]}),
        ("r6_pair_safe", {"train": [2, 3], "validation": [14, 15], "test": [10, 11]}),
        ("r7_pair_safe", {"train": [4, 5], "validation": [6, 7], "test": [16, 17]}),
    ],
)
def test_dummy_build(config: str, expected_ids: dict, dummy_build: Callable) -> None:
    data = dummy_build("hatemoji_build", config)
    assert {split: sorted(data[split]["entry_id"]) for split in data} == expected_ids
    if config == "all":
        row = data["validation"].filter(lambda r: r["entry_id"] == 6)[0]
        names = data["validation"].features["targets"].feature.names
        assert [names[code] for code in row["targets"]] == ["gayman", "nat.wales", "asi.east.chin"]
        assert data["validation"].features["hate_type"].int2str(row["hate_type"]) == "dehumanizing"
        assert row["emoji"] == ["⭐"] and row["round"] == 7 and row["matched_id"] == 7
        assert row["matched_text"] == "Sample entry six 🌟"
        assert data["validation"].features["perturbation"].int2str(row["perturbation"]) == (
            "original"
        )


def test_corrupted_source_stops_the_build(fake_mirror: Callable, tmp_path: Path) -> None:
    _, old, new, *_ = CORRUPTIONS["unknown hate type"]
    train = (FIXTURES / "hatemoji_build_train.csv").read_text(encoding="utf-8")
    mirror = fake_mirror("hatemoji_build", {"train": train.replace(old, new).encode()})
    cache = tmp_path / "cache"
    with pytest.raises(SchemaViolationError) as failure:
        load_dataset("hatemoji_build", "r5", cache_dir=str(cache), mirror=str(mirror))
    assert [(Path(f.file).name, f.line, f.column, f.code) for f in failure.value.findings] == [
        ("train.csv", 6, "type", "VALUE-NOT-ALLOWED")
    ]
    assert not any(p.is_dir() for p in cache.glob("hatemoji_build/*/*"))  # no version folder


# -- the real upstream files -----------------------------------------------------------------


def test_registered_with_configs() -> None:
    assert "hatemoji_build" in list_datasets()
    assert SPEC.config_names == [*CONFIGS, *PAIR_SAFE_CONFIGS]
    assert SPEC.default_config_name == "all"
    assert {c.name: c.param("rounds") for c in SPEC.configs} == {
        "all": (5, 6, 7), "r5": (5,), "r6": (6,), "r7": (7,),
        "pair_safe": (5, 6, 7), "r5_pair_safe": (5,), "r6_pair_safe": (6,), "r7_pair_safe": (7,),
    }  # fmt: skip
    cls = builder_class("hatemoji_build")
    assert cls.DEFAULT_CONFIG_NAME == "all"
    assert [c.name for c in cls.BUILDER_CONFIGS] == [*CONFIGS, *PAIR_SAFE_CONFIGS]
    assert all(str(c.version) == SPEC.version for c in cls.BUILDER_CONFIGS)
    # Release 1.0.0 has only upstream's split.
    old = builder_class("hatemoji_build:1.0.0")
    assert [c.name for c in old.BUILDER_CONFIGS] == list(CONFIGS)
    assert [c.name for c in SPEC.configs_of("1.0.0")] == list(CONFIGS)


@pytest.fixture(scope="module")
def upstream(mirror: Path) -> list[dict[str, str]]:
    """Every upstream row, read with the csv module, with the split of the file it sits in."""
    rows = []
    for split, source in SPEC.source_files().items():
        with upstream_path(mirror, source.url).open(encoding="utf-8", newline="") as handle:
            rows += [{**row, "file": split} for row in csv.DictReader(handle)]
    return rows


@pytest.fixture(scope="module")
def build(real_build) -> Callable[[str], datasets.DatasetDict]:
    """Load a HatemojiBuild config once per session."""
    return functools.partial(real_build, "hatemoji_build")


def _names(dataset: datasets.Dataset, column: str) -> list[str]:
    return [dataset.features[column].int2str(value) for value in dataset[column][:]]


@pytest.mark.parametrize("round_", [5, 6, 7])
def test_round_config_reproduces_the_paper(round_: int, build: Callable) -> None:
    data = build(f"r{round_}")
    paper = PAPER_ROUNDS[round_]
    assert list(data) == list(SPLITS)
    assert {split: data[split].num_rows for split in data} == paper["splits"]
    rows = datasets.concatenate_datasets(list(data.values()))
    assert rows.num_rows == paper["entries"]
    assert set(rows["round"][:]) == {round_}
    assert Counter(_names(rows, "label")) == paper["labels"]
    assert Counter(_names(rows, "hate_type")) == paper["hate_types"]
    assert Counter(_names(rows, "perturbation")) == {
        "original": paper["originals"],
        "perturbation": paper["originals"],
    }
    # Pairs lie in one round, so a round config holds every partner.
    assert all(
        pair.partner_split is not None
        for found in cross_split_pairs(data).values()
        for pair in found
    )


def test_all_config_is_every_round(build: Callable) -> None:
    data = build("all")
    assert sum(d.num_rows for d in data.values()) == PAPER_ENTRIES
    for split in SPLITS:
        assert data[split].num_rows == sum(r["splits"][split] for r in PAPER_ROUNDS.values())
    assert Counter(r for d in data.values() for r in d["round"][:]) == {
        n: r["entries"] for n, r in PAPER_ROUNDS.items()
    }
    assert data["train"].features["label"].names == ["non-hateful", "hateful"]
    assert data["train"].features["hate_type"].names == [
        "none", "derogation", "animosity", "threatening", "dehumanizing",
    ]  # fmt: skip
    assert data["train"].features["perturbation"].names == ["original", "perturbation"]
    assert data["train"].features["entry_id"].dtype == "int32"


def test_default_config_is_all(build: Callable, mirror: Path, session_cache: Path) -> None:
    default = load_dataset("hatemoji_build", cache_dir=str(session_cache), mirror=str(mirror))
    assert {s: d.num_rows for s, d in default.items()} == {
        s: d.num_rows for s, d in build("all").items()
    }


def test_every_field_equals_upstream(build: Callable, upstream: list[dict[str, str]]) -> None:
    data = build("all")
    by_id = {int(row["entry_id"]): row for row in upstream}
    for split, dataset in data.items():
        target_names = dataset.features["targets"].feature.names
        hate_types = _names(dataset, "hate_type")
        perturbations = _names(dataset, "perturbation")
        labels = dataset["label"][:]
        for i, example in enumerate(dataset.select_columns(
            ["entry_id", "text", "targets", "round", "matched_id", "matched_text"]
        )):  # fmt: skip
            row = by_id[example["entry_id"]]
            assert example["text"].encode("utf-8") == row["text"].encode("utf-8")
            assert example["matched_text"].encode("utf-8") == row["matched_text"].encode("utf-8")
            # The codes as upstream wrote them, in order.
            codes = re.findall(r"'([^']*)'", row["target"])
            assert [target_names[t] for t in example["targets"]] == codes
            assert hate_types[i] == UPSTREAM_TYPE_NAME[row["type"]]
            assert perturbations[i] == row["set"]
            assert labels[i] == int(row["label_gold"])
            assert example["round"] == int(row["round.base"])
            assert example["matched_id"] == int(row["matched_id"])
            assert split == row["file"] == UPSTREAM_SPLIT_NAME[row["split"]]


def _upstream_cross_split(rows: list[dict[str, str]]) -> dict[str, set[tuple[int, int, str]]]:
    file_of = {row["entry_id"]: row["file"] for row in rows}
    found: dict[str, set[tuple[int, int, str]]] = {split: set() for split in SPLITS}
    for row in rows:
        partner_file = file_of[row["matched_id"]]
        if partner_file != row["file"]:
            found[row["file"]].add((int(row["entry_id"]), int(row["matched_id"]), partner_file))
    return found


def test_cross_split_pairs_match_upstream(build: Callable, upstream: list[dict[str, str]]) -> None:
    found = cross_split_pairs(build("all"))
    expected = _upstream_cross_split(upstream)
    assert {split: set(pairs) for split, pairs in found.items()} == expected
    pairs = PAPER_ENTRIES // 2
    straddling = sum(map(len, expected.values())) // 2
    assert count_cross_split_pairs(build("all")) == straddling
    assert 0.30 < straddling / pairs < 0.37  # "about a third"


def _upstream_emoji(rows: list[dict[str, str]]) -> dict[int, list[list[str]]]:
    found: dict[int, list[list[str]]] = {}
    for row in rows:
        emojis = [match["emoji"] for match in emoji.emoji_list(row["text"])]
        found.setdefault(int(row["round.base"]), []).append(emojis)
    return found


def test_info_reports_emoji_and_pairs(
    build: Callable, upstream: list[dict[str, str]], mirror: Path, session_cache: Path
) -> None:
    build("all")
    stats = dataset_info("hatemoji_build", cache_dir=str(session_cache), mirror=str(mirror))[
        "statistics"
    ]
    per_round = _upstream_emoji(upstream)
    rounds = stats["entries per round"]
    for n, paper in PAPER_ROUNDS.items():
        reported = rounds[f"R{n}"]
        counts = [len(e) for e in per_round[n]]
        assert reported["entries"] == paper["entries"]
        assert reported["mean emoji count"] == pytest.approx(statistics.mean(counts), abs=0.005)
        assert reported["sd emoji count"] == pytest.approx(statistics.stdev(counts), abs=0.005)
        assert reported["distinct emoji"] == len({e for found in per_round[n] for e in found})
        # Close to the paper's figures; the emoji package's segmentation differs by version.
        assert reported["mean emoji count"] == pytest.approx(paper["emoji"][0], abs=0.05)
        assert reported["sd emoji count"] == pytest.approx(paper["emoji"][1], abs=0.1)
    distinct = {e for found in per_round.values() for entry in found for e in entry}
    assert rounds["all"]["distinct emoji"] == len(distinct)
    assert rounds["all"]["distinct emoji"] == pytest.approx(PAPER_DISTINCT_EMOJI, rel=0.01)
    assert stats["emoji package"] == emoji.__version__
    expected = _upstream_cross_split(upstream)
    leakage = stats["pair leakage"]
    assert (
        leakage["pairs with members in different splits"] == sum(map(len, expected.values())) // 2
    )
    for split, found in expected.items():
        assert leakage[f"{split} entries whose partner is in another split"] == len(found)
    assert stats["entries per target"]["bla (Black people)"] == sum(
        "'bla'" in row["target"] for row in upstream
    )


def test_cli_info_per_round(
    build: Callable,
    upstream: list[dict[str, str]],
    mirror: Path,
    session_cache: Path,
    capsys: pytest.CaptureFixture,
) -> None:
    build("r6")
    code = main(
        ["info", "hatemoji_build", "--config", "r6", "--cache-dir", str(session_cache),
         "--mirror", str(mirror)]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert f"hatemoji_build (r6), version {SPEC.version}" in out
    round_six = [row for row in upstream if row["round.base"] == "6"]
    straddling = sum(map(len, _upstream_cross_split(round_six).values())) // 2
    assert re.search(rf"pairs with members in different splits\s+{straddling}\n", out)
    assert re.search(r"\n  R6 ", out) and not re.search(r"\n  R5 ", out)
    assert "ClassLabel (0 none, 1 derogation, 2 animosity, 3 threatening, 4 dehumanizing)" in out


# -- contributions in upstream format (checked against the released files) ------------------


def _contribute(paths: list[Path], mirror: Path, **options: bool):
    return validate_contributions(
        [str(p) for p in paths], "hatemoji_build", options=Options(**options), mirror=str(mirror)
    )


def test_released_files_validate_as_contributions(mirror: Path) -> None:
    paths = [upstream_path(mirror, s.url) for s in SPEC.source_files().values()]
    report = _contribute(paths, mirror, full=True, strict=True)
    assert report.findings == [] and report.exit_code == 0


def test_new_pair_contribution(mirror: Path, tmp_path: Path) -> None:
    contribution = FIXTURES / "hatemoji_build_contribution.csv"
    assert _contribute([contribution], mirror, strict=True).findings == []
    # The new perturbation claims a released entry as its partner: the pair breaks.
    text = contribution.read_text(encoding="utf-8")
    broken = tmp_path / "contribution.csv"
    broken.write_text(text.replace(",100000\n", ",0\n"), encoding="utf-8")
    report = _contribute([broken], mirror)
    assert any(
        (f.line, f.column, f.code) == (3, "matched_id", "HB-PAIR-ASYMMETRIC")
        for f in report.findings
    ), [str(f) for f in report.findings]
    assert all(f.file == str(broken) for f in report.findings)


# -- the card's tables, recomputed independently (moved from test_cards.py) ---------


@pytest.mark.real_data
def test_hatemoji_build_round_table(card_data) -> None:
    data = card_data("hatemoji_build").configs["all"].data
    frame = card_frame(data)
    features = data["train"].features
    frame["emoji_count"] = frame["emoji"].map(len)
    table = card_table(committed_card("hatemoji_build"), "Entries per round")
    groups = [(f"R{r}", group) for r, group in frame.groupby("round")] + [("all", frame)]
    assert list(table) == [key for key, _ in groups]
    for key, group in groups:
        row = table[key]
        assert int(row["entries"]) == len(group)
        for split, count in group["split"].value_counts().items():
            assert int(row[split]) == count
        for label, count in group["label"].value_counts().items():
            assert int(row[features["label"].names[label]]) == count
        for kind, count in group["hate_type"].value_counts().items():
            assert int(row[f"hate type: {features['hate_type'].names[kind]}"]) == count
        mean, sd = group["emoji_count"].mean(), group["emoji_count"].std(ddof=1)
        assert float(row["mean emoji count"]) == round(mean, 2)
        assert float(row["sd emoji count"]) == round(sd, 2)
        distinct = {e for found in group["emoji"] for e in found}
        assert int(row["distinct emoji"]) == len(distinct)


@pytest.mark.real_data
def test_hatemoji_build_pair_leakage_table(card_data) -> None:
    frame = card_frame(card_data("hatemoji_build").configs["all"].data)
    split_of = dict(zip(frame["entry_id"], frame["split"]))
    leaking = frame[[split_of[m] != s for m, s in zip(frame["matched_id"], frame["split"])]]
    table = card_table(
        committed_card("hatemoji_build"), "Pairs whose members lie in different splits"
    )
    counts = {key: int(row["count"]) for key, row in table.items()}
    assert counts["pairs"] == len(frame) // 2
    assert counts["pairs with members in different splits"] == len(leaking) // 2 == 982
    for split, count in Counter(leaking["split"]).items():
        assert counts[f"{split} entries whose partner is in another split"] == count


# -- scores against independent computations (moved from test_evaluate.py) --------


def test_hatemoji_build_metrics_match_sklearn_and_pandas(where) -> None:
    pytest.importorskip("sklearn")
    import numpy as np
    from sklearn.metrics import accuracy_score, f1_score, recall_score

    from hatemoji_datasets.evaluate import score

    frame = frame_of("hatemoji_build", "all", "test", where).copy()
    frame["pred"] = random_labels(frame, seed=3)
    report = score("hatemoji_build", predictions_frame(frame, "entry_id", frame["pred"]), **where)
    assert report.overall["accuracy"] == pytest.approx(
        accuracy_score(frame["label"], frame["pred"])
    )
    rounds = {row["round"]: row for row in report.table("rounds").rows}
    for round_, group in frame.groupby("round"):
        row = rounds[f"R{round_}"]
        assert row["n"] == len(group)
        assert row["accuracy"] == pytest.approx(accuracy_score(group["label"], group["pred"]))
        assert row["f1_hateful"] == pytest.approx(f1_score(group["label"], group["pred"]))
    hate_type_names = load_names(where, "hatemoji_build", "hate_type")
    types = {row["hate_type"]: row for row in report.table("hate_types").rows}
    for code, group in frame.groupby("hate_type"):
        row = types[hate_type_names[code]]
        gold_class = int(group["label"].iloc[0])
        assert row["n"] == len(group)
        assert row["recall"] == pytest.approx(
            recall_score(group["label"], group["pred"], pos_label=gold_class)
        )

    correct = dict(zip(frame["entry_id"], frame["label"] == frame["pred"]))
    pairs = {
        frozenset((a, b)) for a, b in zip(frame["entry_id"], frame["matched_id"]) if b in correct
    }
    both = [correct[a] and correct[b] for a, b in map(tuple, pairs)]
    overall = report.table("pairs").rows[0]
    assert overall["scope"] == "all" and overall["pairs"] == len(pairs) > 0
    assert overall["both_correct"] == pytest.approx(np.mean(both))
    assert sum(row["pairs"] for row in report.table("pairs").rows[1:]) == len(pairs)
    assert f"{len(pairs)} pairs" in " ".join(report.notes)


def _pinned_rows(mirror: Path) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of the three pinned files, one after the other."""
    rows: list[list[str]] = []
    for source in SPEC.source_files().values():
        with upstream_path(mirror, source.url).open(encoding="utf-8", newline="") as handle:
            header, *own = list(csv.reader(handle))
        rows += own
    return header, rows


@pytest.mark.parametrize(
    ("code", "column", "value"),
    [
        ("HB-PAIR-MISSING", "matched_id", lambda row, other: "999999999"),
        ("HB-PAIR-ASYMMETRIC", "matched_id", lambda row, other: other["entry_id"]),
        ("HB-PAIR-ROUND", "round.base", lambda row, other: "7" if row == "5" else "5"),
        ("HB-PAIR-TEXT", "matched_text", lambda row, other: "not the partner's text"),
        ("HB-PAIR-SET", "set", lambda row, other: other["set"]),
    ],
)
def test_the_screen_finds_each_broken_pair_rule(
    code: str, column: str, value, mirror: Path, tmp_path: Path
) -> None:
    """One cell that breaks a pair rule keeps the streaming validator from calling the file
    clean, whether the partner is in the file or released only; the exact engine names it."""
    from hatemoji_datasets.validate.screen import screen_file

    header, rows = _pinned_rows(mirror)
    config = SPEC.config(None)
    at = {name: header.index(name) for name in header}
    for held in (rows, rows[:1]):  # every row, or one whose partner is released only
        edited = [list(row) for row in held]
        first = dict(zip(header, edited[0], strict=True))
        partner = next(r for r in rows if r[at["entry_id"]] == first["matched_id"])
        other = dict(zip(header, partner, strict=True))
        if code == "HB-PAIR-ROUND":
            edited[0][at[column]] = value(first["round.base"], other)
        elif code == "HB-PAIR-ASYMMETRIC":
            stranger = next(
                r
                for r in rows[1:]
                if first["entry_id"] not in (r[at["matched_id"]], r[at["entry_id"]])
            )
            edited[0][at[column]] = stranger[at["entry_id"]]
        else:
            edited[0][at[column]] = value(first, other)
        path = tmp_path / "contribution.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            csv.writer(handle, lineterminator="\n").writerows([header, *edited])
        screened = screen_file(
            str(path), SPEC, config, config.parts[0], mirror=str(mirror), cache_dir=None
        )
        assert screened is None, (code, len(held))
        found = {f.code for f in _contribute([path], mirror).findings}
        assert code in found, (code, len(held), found)
