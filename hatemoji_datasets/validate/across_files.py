"""Rules over the files of one contribution together, not one file at a time.

- A file named like one of the dataset's upstream files stands for that file
  (that language's, say): a config that does not read it is named
  (``NAME-OTHER-SOURCE``), so a French file checked as German is not passed
  silently.
- A key is unique across every file of one format, not only within each
  (``KEY-REPEATED-ACROSS-FILES``, on each row of a later file whose key an
  earlier file holds); within a file the schema's uniqueness says so, and
  against the release the release rules compare the row with the released one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow
import pyarrow.compute as pc

from hatemoji_datasets.core.findings import Finding, preview
from hatemoji_datasets.core.spec import ConfigSpec, DatasetSpec, RawPart
from hatemoji_datasets.validate.formats import named_source, upstream_name


def other_source_findings(
    path: str, spec: DatasetSpec, config: ConfigSpec, part: RawPart
) -> list[Finding]:
    """``NAME-OTHER-SOURCE`` when the file is named like an upstream file that the config
    does not read as this format."""
    source = named_source(path, spec)
    if source is None or source in part.sources:
        return []
    reads = ", ".join(part.sources)
    message = (
        f"the file is named like upstream's {upstream_name(spec, source)} (source {source}), "
        f"which config {config.name} does not read; it reads {reads}"
    )
    return [Finding(path, None, None, "NAME-OTHER-SOURCE", message, Path(path).name, reads)]


@dataclass(frozen=True)
class KeyedFile:
    """One contributed file's keys, and the file line of each row."""

    path: str
    keys: pd.Series
    line: Callable[[int], int]


def repeated_keys(files: Sequence[KeyedFile], key_column: str) -> list[Finding]:
    """Rows of a later file whose key an earlier file of the same format holds."""
    found: list[Finding] = []
    first: dict[str, tuple[str, int]] = {}
    for keyed in files:
        keys = pyarrow.array(keyed.keys.astype(str).to_numpy(dtype=object), pyarrow.string())
        if first:
            earlier = pyarrow.array(list(first), pyarrow.string())
            seen = pc.is_in(keys, value_set=earlier).to_numpy(zero_copy_only=False)
            for position in np.flatnonzero(seen):
                value = keys[int(position)].as_py()
                where, line = first[value]
                found.append(
                    Finding(
                        keyed.path,
                        keyed.line(int(position)),
                        key_column,
                        "KEY-REPEATED-ACROSS-FILES",
                        f"repeats the {key_column} of {where}:{line}",
                        preview(value),
                    )
                )
        own: dict[str, tuple[str, int]] = {}
        for position, value in enumerate(keys.to_pylist()):
            if value not in first and value not in own:
                own[value] = (keyed.path, keyed.line(position))
        first.update(own)
    return found
