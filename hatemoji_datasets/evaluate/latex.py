"""Score reports as LaTeX tables for a paper: one booktabs ``table`` per table of the report.

The cells are those of the markdown report (:mod:`~hatemoji_datasets.evaluate.render`'s
grids), escaped for LaTeX; a document using them needs ``\\usepackage{booktabs}``.
"""

from __future__ import annotations

from collections.abc import Mapping

from hatemoji_datasets.evaluate.paired import PairedTests
from hatemoji_datasets.evaluate.render import (
    Grid,
    overall_grid,
    provenance,
    same_split,
    statistics_notes,
    table_grid,
)
from hatemoji_datasets.evaluate.report import ScoreReport

#: LaTeX's special characters and what stands for each in text.
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


def escape(text: str) -> str:
    """``text`` as LaTeX text: its special characters escaped, line breaks as spaces."""
    text = " ".join(text.splitlines())
    return "".join(_SPECIAL.get(char, char) for char in text)


def latex_table(grid: Grid, caption: str, label: str) -> list[str]:
    """One booktabs table: text columns left, numbers right."""
    align = "".join(
        "l" if i < grid.numeric_from or heading in grid.text else "r"
        for i, heading in enumerate(grid.header)
    )
    lines = [
        r"\begin{table}[ht]",
        r"\centering",
        rf"\caption{{{escape(caption)}}}",
        rf"\label{{{label}}}",
        rf"\begin{{tabular}}{{{align}}}",
        r"\toprule",
        " & ".join(escape(heading) for heading in grid.header) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(escape(cell.text) for cell in row) + r" \\" for row in grid.rows]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return lines


def render_latex(
    reports: Mapping[str, ScoreReport], *, stats: bool = False, paired: PairedTests | None = None
) -> str:
    """Every table of the report (overall first), each a booktabs table whose caption names
    the data scored."""
    first = same_split(reports)
    where = f"{first.dataset} ({first.config}), split {first.split}, version {first.version}"
    prefix = f"tab:{first.dataset}-{first.config}".replace("_", "-")
    lines = [
        f"% {where}; {first.n:,} rows scored by {first.id_column}.",
        "% " + provenance(first).replace("`", ""),
        "% Needs \\usepackage{booktabs}.",
    ]
    grids = [overall_grid(reports, stats=stats, paired=paired)]
    grids += [table_grid(reports, name, stats=stats, paired=paired) for name in first.tables]
    for grid in grids:
        lines += ["", *latex_table(grid, f"{where}: {grid.title}", f"{prefix}-{grid.name}")]
    notes = [note.removeprefix("- ") for note in statistics_notes(stats, paired) if note]
    if notes:
        lines += ["", r"\begin{flushleft}\footnotesize"]
        lines += [escape(note.replace("`", "")) + r"\\" for note in notes]
        lines += [r"\end{flushleft}"]
    return "\n".join(lines) + "\n"
