"""CHANGELOG.md is written for users: Keep a Changelog's sections in its order, and
entries of a line or two about what changed for a user (docs/architecture.md, "Recording
a change"). Timings, internals and issue numbers go in commit messages, the docs and
benchmarks/RESULTS.md.

Before, entries carried them: 0.1.0 to [Unreleased] took 1,150 lines, the median entry
37 words and the longest 352 (the streaming validator's, with its benchmark figures);
[Unreleased] alone was 510 lines, and 0.2.0 put Changed before Added.
"""

from __future__ import annotations

import re

import pytest
from support.paths import REPO

CHANGELOG = REPO / "CHANGELOG.md"
#: Keep a Changelog's sections, in its order; a release may open with its datasets.
SECTIONS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
DATASETS = "Datasets in this release"
#: A line or two of prose (about 90 columns a line) with a few code spans.
MAX_WORDS = 60
#: Room for a release with many changes, none for narratives.
MAX_RELEASE_LINES = 150
GENERATED = re.compile(r"<!-- releases:start.*?<!-- releases:end -->", re.S)
ISSUE = re.compile(r"\bissues?\s+\d+|#\d+", re.I)


def releases(text: str) -> dict[str, list[str]]:
    """Each ``## [...]`` heading and its lines, the generated release table left out."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in GENERATED.sub("", text).splitlines():
        if line.startswith("## "):
            current = out.setdefault(line[3:], [])
        elif current is not None:
            current.append(line)
    return out


def entries(lines: list[str]) -> list[str]:
    """The bullets of a release, each with its indented continuation lines (not a table's)."""
    out: list[str] = []
    for line in lines:
        if line.startswith("- "):
            out.append(line[2:])
        elif out and line.startswith("  ") and not line.lstrip().startswith("|"):
            out[-1] += " " + line.strip()
    return out


def problems(text: str) -> list[str]:
    found = []
    for release, lines in releases(text).items():
        if len(lines) > MAX_RELEASE_LINES:
            found.append(f"{release}: {len(lines)} lines (at most {MAX_RELEASE_LINES})")
        headings = [line[4:] for line in lines if line.startswith("### ")]
        sections = [h for h in headings if h != DATASETS]
        if headings[:1] != [DATASETS] and DATASETS in headings:
            found.append(f"{release}: '{DATASETS}' must come first")
        unknown = [h for h in sections if h not in SECTIONS]
        if unknown:
            found.append(f"{release}: sections {unknown} are not Keep a Changelog's")
        order = [SECTIONS.index(h) for h in sections if h in SECTIONS]
        if order != sorted(set(order)):
            found.append(f"{release}: sections {sections} out of order (or repeated)")
        for entry in entries(lines):
            words = len(entry.split())
            if words > MAX_WORDS:
                found.append(f"{release}: {words} words: {entry[:70]}...")
            if ISSUE.search(entry):
                found.append(f"{release}: an issue number: {entry[:70]}...")
    return found


def test_changelog_entries_are_short_and_in_keep_a_changelog_sections() -> None:
    assert problems(CHANGELOG.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("## [1.0.0] - 2026-01-01\n\n### Added\n- " + "word " * 61 + "\n", "61 words"),
        (
            "## [1.0.0] - 2026-01-01\n\n### Added\n- a\n  " + "word " * 60 + "\n",
            "61 words",  # continuation lines count
        ),
        ("## [1.0.0] - 2026-01-01\n\n### Changed\n- a\n\n### Added\n- b\n", "out of order"),
        ("## [1.0.0] - 2026-01-01\n\n### Improved\n- a\n", "not Keep a Changelog's"),
        ("## [1.0.0] - 2026-01-01\n\n### Fixed\n- a crash (issue 26)\n", "an issue number"),
        ("## [1.0.0] - 2026-01-01\n\n### Fixed\n" + "- a\n" * 150, "lines (at most 150)"),
    ],
)
def test_each_rule_finds_its_fault(text: str, expected: str) -> None:
    found = problems(text)
    assert len(found) == 1 and expected in found[0], found


def test_a_table_row_in_an_entry_is_not_counted_as_its_words() -> None:
    text = "## [1.0.0] - 2026-01-01\n\n### Changed\n- Moved:\n\n  | a | b |\n  |---|---|\n"
    text += "  | " + "word " * 80 + "| x |\n"
    assert problems(text) == []
