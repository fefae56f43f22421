"""The committed cards, and the tables and frames they are rendered from."""

from __future__ import annotations

from support.paths import REPO


def committed_card(name: str) -> str:
    """The committed ``cards/<name>/README.md``."""
    return (REPO / "cards" / name / "README.md").read_text(encoding="utf-8")


def card_table(text: str, title: str) -> dict[str, dict[str, str]]:
    """The markdown table under ``#### title``: ``{row: {column: cell}}``, thousands
    separators dropped."""
    lines = text.splitlines()
    start = lines.index(f"#### {title}")
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    header, body = rows[0], rows[2:]
    return {
        row[0].strip("*"): dict(zip(header[1:], (cell.replace(",", "") for cell in row[1:])))
        for row in body
    }


def card_frame(data):
    """Every split of a ``DatasetDict`` as one pandas frame, with a ``split`` column."""
    import pandas as pd

    return pd.concat([data[split].to_pandas().assign(split=split) for split in data])
