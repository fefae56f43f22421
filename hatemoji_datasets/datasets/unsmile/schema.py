"""UnSmile's TSVs as a pandera model: the comment, then eleven 0/1 columns (``spec.py``)."""

from __future__ import annotations

import pandera.pandas as pa
from pandera.typing import Series

from hatemoji_datasets.schema.model import RawFileModel

from .spec import FLAGS, TARGETS, TEXT


def _flag(header: str) -> object:
    return pa.Field(isin=[0, 1], alias=header, description=f"1 where the text is {header}")


class UnsmileRaw(RawFileModel):
    """One row per comment of ``unsmile_{train,valid}_v1.0.tsv``."""

    text: Series[str] = pa.Field(str_length={"min_value": 1}, alias=TEXT, description="comment")
    __annotations__.update(dict.fromkeys([*TARGETS.values(), *FLAGS.values()], Series[int]))
    locals().update({name: _flag(header) for header, name in {**TARGETS, **FLAGS}.items()})

    class Config:
        name = "UnSmile raw TSV"
