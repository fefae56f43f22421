"""Which built fields a Croissant reader derives exactly from the upstream files, and how.

A Croissant reader reads a CSV or TSV ``FileObject`` with a CSV parser (the
reference reader, ``mlcroissant``, calls ``pandas.read_csv`` with its defaults:
CSV quoting, type inference, ``None``/``NA``/empty cells as missing), applies a
field's ``transform`` steps (``regex`` keeps the first capturing group that
matched, ``separator`` splits a text into a list) and casts to the field's
``dataType``. It has no look-up from upstream's spellings to other names.

:func:`upstream_fields` reads each pinned file the same way and tries, per
built field of a config, the sources such a reader can execute: the column as
it is, ClassLabel ids where upstream writes the id, ClassLabel names where
upstream writes the name or a regular expression extracts it, and lists from
upstream's list literals. A field is described only when one of them gives the
package's value on every row of every split; otherwise it is left out, with
the reason. The tests load the result through ``mlcroissant`` and compare every
record with the package's data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hatemoji_datasets.core.features import element_of

#: Built ``Value`` dtypes -> Croissant data types.
CROISSANT_TYPES = {
    "string": "sc:Text",
    "large_string": "sc:Text",
    "bool": "sc:Boolean",
    "float16": "sc:Float",
    "float32": "sc:Float",
    "float64": "sc:Float",
}
#: A Python list literal of quoted items (``['a', 'b']``) as a reader's transform steps:
#: drop the brackets, split on ``", "``, drop each item's quotes.
LIST_LITERAL_STEPS: tuple[dict[str, str], ...] = (
    {"regex": r"^\[(.*)\]$"},
    {"separator": ", "},
    {"regex": r"^'(.*)'$"},
)
#: How many offending values a reason names.
SHOWN = 3


@dataclass(frozen=True)
class Derived:
    """How a Croissant reader gets a built field from an upstream column."""

    column: str
    data_type: str
    #: ``value`` (as built), ``ids`` or ``names`` (ClassLabel fields and lists of them).
    form: str
    transforms: tuple[dict[str, str], ...] = ()
    repeated: bool = False

    def source(self, file_id: str) -> dict[str, Any]:
        found: dict[str, Any] = {"fileObject": {"@id": file_id}, "extract": {"column": self.column}}
        if self.transforms:
            found["transform"] = (
                list(self.transforms) if len(self.transforms) > 1 else (dict(self.transforms[0]))
            )
        return found


@dataclass(frozen=True)
class Omitted:
    """A built field a Croissant reader cannot derive exactly from upstream, and why."""

    reason: str


@dataclass
class _Column:
    """One built field over a config's splits: as a CSV reader reads upstream, and as built."""

    read: list[Any] = field(default_factory=list)
    built: list[Any] = field(default_factory=list)


def read_like_a_croissant_reader(path: str, delimiter: str) -> Any:  # -> pandas.DataFrame
    """An upstream file as ``mlcroissant`` reads a CSV or TSV ``FileObject``."""
    import pandas as pd

    return pd.read_csv(path, sep=delimiter) if delimiter != "," else pd.read_csv(path)


def upstream_fields(
    features: Mapping[str, Any],
    upstream: Mapping[str, str | None],
    splits: Mapping[str, tuple[Any, Any]],
    *,
    quoted: bool,
) -> dict[str, Derived | Omitted]:
    """``{field: Derived | Omitted}`` for one config.

    ``upstream`` names each field's upstream column (None: no column);
    ``splits`` maps each split to ``(frame read like a Croissant reader, built
    dataset)``; ``quoted`` is whether upstream's format uses CSV quoting.
    """
    found: dict[str, Derived | Omitted] = {}
    for name, feature in features.items():
        column = upstream.get(name)
        if not column:
            found[name] = Omitted("the package computes it; no upstream column holds it")
            continue
        values = _Column()
        rows_differ = False
        for frame, dataset in splits.values():
            if column not in frame.columns or len(frame) != dataset.num_rows:
                rows_differ = True
                break
            values.read += [None if _missing(v) else v for v in frame[column].tolist()]
            values.built += dataset[name][:]  # one read: a Column iterates row by row
        if rows_differ:
            found[name] = Omitted(
                f"a CSV reader does not read upstream column `{column}` row by row"
            )
            continue
        found[name] = _derive(column, feature, values, quoted=quoted)
    return found


def _derive(column: str, feature: Any, values: _Column, *, quoted: bool) -> Derived | Omitted:
    import datasets

    inner = element_of(feature)
    if inner is not None:
        if isinstance(inner, datasets.ClassLabel):
            names = inner.names
            expected = [[names[i] for i in items] for items in values.built]
            data_type, form = "sc:Text", "names"
        else:
            expected, data_type, form = values.built, _data_type(inner), "value"
        candidate = Derived(column, data_type, form, LIST_LITERAL_STEPS, repeated=True)
        if _yields(candidate, values.read, expected):
            return candidate
        return Omitted(f"the package computes the list from upstream column `{column}`")
    if isinstance(feature, datasets.ClassLabel):
        names = feature.names
        named = [names[i] for i in values.built]
        for candidate, expected in (
            (Derived(column, "sc:Integer", "ids"), values.built),
            (Derived(column, "sc:Text", "names"), named),
        ):
            if _yields(candidate, values.read, expected):
                return candidate
        pattern = _name_pattern(values.read, named)
        if pattern is not None:
            candidate = Derived(column, "sc:Text", "names", ({"regex": pattern},))
            if _yields(candidate, values.read, named):
                return candidate
        return Omitted(_label_reason(column, values.read, named))
    candidate = Derived(column, _data_type(feature), "value")
    if _yields(candidate, values.read, values.built):
        return candidate
    return Omitted(_value_reason(column, candidate, values, quoted=quoted))


def _data_type(feature: Any) -> str:
    return CROISSANT_TYPES.get(getattr(feature, "dtype", ""), "sc:Integer")


def _missing(value: Any) -> bool:
    return isinstance(value, float) and value != value  # NaN, what a CSV reader gives for NA


# -- what a reader yields --------------------------------------------------------------


def reader_value(derived: Derived, cell: Any) -> Any:
    """What a Croissant reader yields for one upstream cell (text as ``str``)."""
    if cell is None:
        return None
    value = cell
    for step in derived.transforms:
        value = _apply(step, value)
        if value is _FAILED:
            return _FAILED
    if derived.repeated:
        items = value if isinstance(value, list) else [value]
        return [_cast(derived.data_type, item) for item in items]
    return _cast(derived.data_type, value)


_FAILED = object()


def _apply(step: Mapping[str, str], value: Any) -> Any:
    if isinstance(value, list):
        applied = [_apply(step, item) for item in value]
        return _FAILED if any(item is _FAILED for item in applied) else applied
    if not isinstance(value, str):
        return _FAILED
    if "regex" in step:
        match = re.match(step["regex"], value)
        if match is None:
            return _FAILED  # the reader keeps the value unchanged (and warns): not the name
        return next((group for group in match.groups() if group is not None), _FAILED)
    return value.split(step["separator"])


def _cast(data_type: str, value: Any) -> Any:
    casts: dict[str, Callable[[Any], Any]] = {
        "sc:Text": str,
        "sc:Integer": _integer,
        "sc:Boolean": _boolean,
        "sc:Float": float,
    }
    try:
        return casts[data_type](value)
    except (TypeError, ValueError):
        return _FAILED


def _integer(value: Any) -> int:
    if isinstance(value, str) or isinstance(value, float) and not float(value).is_integer():
        raise ValueError(value)
    return int(value)


def _boolean(value: Any) -> bool:
    """As ``mlcroissant`` casts to ``sc:Boolean``: Python's ``bool`` of the value read, so
    0/1 columns (read as integers) give False/True, and any non-empty text gives True."""
    return bool(value)


def _yields(derived: Derived, read: Sequence[Any], expected: Sequence[Any]) -> bool:
    return all(
        reader_value(derived, cell) == want for cell, want in zip(read, expected, strict=True)
    )


# -- ClassLabel names by regular expression ------------------------------------------------


def _name_pattern(read: Sequence[Any], named: Sequence[str]) -> str | None:
    """One anchored alternative per upstream spelling, capturing the name inside it.

    None when a spelling does not contain its name, or one spelling stands for two names.
    """
    spellings: dict[str, str] = {}
    for cell, name in zip(read, named, strict=True):
        if not isinstance(cell, str) or spellings.setdefault(cell, name) != name:
            return None
    alternatives = []
    for spelling, name in sorted(spellings.items()):
        start = spelling.find(name)
        if start < 0:
            return None
        before, after = spelling[:start], spelling[start + len(name) :]
        alternatives.append(f"^{re.escape(before)}({re.escape(name)}){re.escape(after)}$")
    return "|".join(alternatives)


# -- reasons -----------------------------------------------------------------------------


def _label_reason(column: str, read: Sequence[Any], named: Sequence[str]) -> str:
    missing = sum(cell is None for cell in read)
    if missing:
        return f"a CSV reader reads {missing:,} of its upstream values as missing"
    pairs = sorted(
        {(str(cell), name) for cell, name in zip(read, named, strict=True) if str(cell) != name}
    )
    shown = ", ".join(f"`{cell}` is `{name}`" for cell, name in pairs[:SHOWN])
    more = ", ..." if len(pairs) > SHOWN else ""
    return (
        f"upstream column `{column}` spells the classes differently ({shown}{more}); "
        "only the package's look-up maps them"
    )


def _value_reason(column: str, derived: Derived, values: _Column, *, quoted: bool) -> str:
    wrong = [
        want
        for cell, want in zip(values.read, values.built, strict=True)
        if reader_value(derived, cell) != want
    ]
    missing = sum(cell is None for cell in values.read)
    if missing:
        return f"a CSV reader reads {missing:,} of its upstream values as missing"
    if derived.data_type == "sc:Boolean" and any(isinstance(cell, str) for cell in values.read):
        return (
            f"a Croissant reader casts upstream column `{column}`'s text to a boolean as "
            f"Python's bool does (any non-empty text is true): {len(wrong):,} values would differ"
        )
    if not quoted and any('"' in str(cell) for cell in values.read):
        return (
            f"upstream's file has no quoting (quote characters are text), and a CSV reader "
            f"applies CSV quoting: {len(wrong):,} of the config's values would not be verbatim"
        )
    return f"a CSV reader does not read {len(wrong):,} values of upstream column `{column}` as is"
