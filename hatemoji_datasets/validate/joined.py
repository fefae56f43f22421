"""What a config's joins promise, checked between contributed files and the other side.

A contributed file of one format is joined with the contributed files of the
other format, or else with the released ones (a copy of the cases file with
the released annotations). Only findings located in contributed files are
kept, and none on a cell on which another rule already reported an error (a
warning there, such as an edge space, never hides a mismatch), nor on a row that reuses
a released id, compared with the released side (``ID-RELEASED`` says it once).
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pyarrow

from hatemoji_datasets.core.findings import Finding, not_yet_reported
from hatemoji_datasets.core.spec import ConfigSpec, RawPart
from hatemoji_datasets.raw.files import SplitFiles
from hatemoji_datasets.raw.joins import Place, join_findings
from hatemoji_datasets.raw.reader import RawTable

#: ``released(part)``: the released rows of one of the config's formats.
Released = Callable[[RawPart], pd.DataFrame]


def contribution_join_findings(
    config: ConfigSpec,
    contributed: dict[RawPart, list[RawTable]],
    reported: list[Finding],
    released: Released,
) -> list[Finding]:
    own = config.parts[0]
    unreported = not_yet_reported(reported)
    # A row that reuses a released id is another case than the released row: that it
    # differs from the released row's partner is that one fault, already reported.
    reused = {
        (f.file, f.line) for f in reported if f.code == "ID-RELEASED" and f.severity == "error"
    }
    found: list[Finding] = []
    for part in config.parts[1:]:
        if own not in contributed and part not in contributed:
            continue
        assert part.join is not None
        rows, rows_place, rows_file = _side(own, contributed, released)
        partner, partner_place, partner_file = _side(part, contributed, released)
        found += [
            f
            for f in join_findings(
                rows,
                rows_place,
                partner,
                partner_place,
                part.join,
                rows_file=rows_file,
                partner_file=partner_file,
            )
            if f.file
            and unreported(f)
            and not ((own in contributed) != (part in contributed) and (f.file, f.line) in reused)
        ]
    return found


def _side(
    part: RawPart, contributed: dict[RawPart, list[RawTable]], released: Released
) -> tuple[pyarrow.Table, Place, str]:
    """One side of a join: the contributed files of ``part``, or else its released rows
    (placed nowhere, so that no finding is reported on them)."""
    if part in contributed:
        files = SplitFiles([(None, raw) for raw in contributed[part]])
        return files.table, files.place, files.path
    table = pyarrow.Table.from_pandas(released(part), preserve_index=False)
    return table, lambda position: ("", 0), "the released files"
