"""The schema engine: a raw-file model compiled and run, its failures turned into findings.

:func:`check_frame` runs a model lazily and turns pandera's failure cases into
:class:`~hatemoji_datasets.core.findings.Finding` records naming the file line, the
column, the value and, where a rule knows it, the expected value. One cell
gets one finding: a value that cannot be typed, or breaks its column's rule,
is not reported again by a row rule about that cell. Findings are otherwise
independent: a row rule runs, and reports, whatever another cell of its row holds. Where it can,
:mod:`hatemoji_datasets.schema.direct` runs the checks straight over the frame.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import pandas as pd
import pandera.pandas as pa
from pandera.errors import SchemaErrors

from hatemoji_datasets.core.findings import Finding, finding_order, preview
from hatemoji_datasets.core.suggest import did_you_mean
from hatemoji_datasets.schema.direct import Case, failure_cases
from hatemoji_datasets.schema.model import Model, rules_of, values_of
from hatemoji_datasets.schema.rules import Rule

#: Built-in pandera checks -> finding code.
BUILTIN_CODES: dict[str, str] = {
    "isin": "VALUE-NOT-ALLOWED",
    "equal_to": "VALUE-NOT-ALLOWED",
    "greater_than_or_equal_to": "VALUE-OUT-OF-RANGE",
    "less_than_or_equal_to": "VALUE-OUT-OF-RANGE",
    "in_range": "VALUE-OUT-OF-RANGE",
    "str_matches": "VALUE-PATTERN",
    "str_length": "TEXT-EMPTY",
}


def compiled(model: Model) -> pa.DataFrameSchema:
    return model if isinstance(model, pa.DataFrameSchema) else _compiled(model)


@cache
def _compiled(model: type[pa.DataFrameModel]) -> pa.DataFrameSchema:
    return model.to_schema()


def integer_columns(model: Model) -> list[str]:
    """The columns a schema types as integers (read as int64 when possible)."""
    columns = compiled(model).columns
    return [name for name, column in columns.items() if "int" in str(column.dtype).lower()]


def check_frame(
    model: Model,
    frame: pd.DataFrame,
    *,
    file: str,
    places: Callable[[], list[tuple[str, int]]] | None = None,
) -> tuple[pd.DataFrame | None, list[Finding]]:
    """Validate ``frame`` lazily; return the coerced frame and every finding.

    Missing or unexpected columns are reported alone: row rules over a table
    of the wrong shape only add noise. ``places`` gives the (file, line) of
    each row, asked for only when something fails; without it a row is
    reported at its 0-based position plus two (the header is line 1).
    """
    schema = compiled(model)
    structural = column_findings(model, frame.columns, file)
    if structural:
        return None, structural
    cases = failure_cases(schema, frame)  # without pandera's machinery, where exact
    if cases is None:
        try:
            return schema.validate(frame, lazy=True), []
        except SchemaErrors as errors:
            cases = [
                Case(c.schema_context, c.column, c.check, c.index, c.failure_case)
                for c in errors.failure_cases.itertuples(index=False)
            ]
    if not cases:
        return frame, []
    located = places() if places else None
    found = _translate(model, cases, frame, file, located)
    return None, sorted(found, key=finding_order)


_ORDINALS = ("first", "second", "third")


def _missing(expected: list[str], name: str, description: str | None) -> str:
    """ "missing column", naming a column whose header cell is empty by its place (a name
    would be the empty string): upstream's unnamed index column."""
    if name:
        return "missing column"
    position = expected.index(name)
    place = _ORDINALS[position] if position < len(_ORDINALS) else f"no. {position + 1}"
    about = f": {description}" if description else ""
    return f"missing column: the unnamed {place} column (an empty header cell{about})"


def column_findings(model: Model, columns: Iterable[Any], file: str) -> list[Finding]:
    """A header's missing and unexpected columns (optional columns may be absent)."""
    schema = compiled(model)
    expected = list(schema.columns)
    present = [str(column) for column in columns]
    found = [
        Finding(file, 1, c, "COLUMN-MISSING", _missing(expected, c, column.description))
        for c, column in schema.columns.items()
        if c not in present and column.required
    ]
    found += [
        Finding(file, 1, preview(c), "COLUMN-UNEXPECTED", "unexpected column")
        for c in present
        if c not in expected
    ]
    return found


def _code_of(check: str, rules: dict[str, Rule]) -> tuple[str, Rule | None]:
    if check in rules:
        return rules[check].code, rules[check]
    if check.startswith(("coerce_dtype", "dtype(")):
        return "VALUE-TYPE", None
    if check == "field_uniqueness":
        return "VALUE-DUPLICATE", None
    return BUILTIN_CODES.get(check.split("(", 1)[0], "VALUE-INVALID"), None


def one_of(allowed: Iterable[Any]) -> str:
    """The expected value of a value not allowed: ``one of a, b, c`` (``, or empty`` last
    where an empty value is allowed: an empty item would read as a stray comma)."""
    values = [str(value) for value in allowed]
    named = ", ".join(value for value in values if value)
    return f"one of {named}" + (", or empty" if "" in values else "")


def _not_allowed(value: Any, allowed: Iterable[Any]) -> tuple[str, str]:
    """The message and expected value of a value outside ``allowed``, with the closest."""
    allowed = list(allowed)
    return f"value is not allowed{_closest(value, allowed)}", one_of(allowed)


def _closest(value: Any, allowed: list[Any]) -> str:
    return did_you_mean(str(value), map(str, allowed))


def _describe(
    schema: pa.DataFrameSchema, column: str | None, check: str, code: str, value: Any = None
):
    """The message and expected value of a built-in check's failure."""
    if code == "VALUE-TYPE":
        return f"cannot be read as {check.partition('(')[2].rstrip(')').strip(chr(39))}", None
    if code == "VALUE-DUPLICATE":
        return "repeats a value that must be unique", None
    if code == "TEXT-EMPTY":
        return "text is empty", None
    found = [c for c in schema.columns[column].checks if c.error == check] if column else []
    statistics = found[0].statistics if found else {}
    if "allowed_values" in statistics:
        return _not_allowed(value, statistics["allowed_values"])
    if "min_value" in statistics or "max_value" in statistics:
        low, high = statistics.get("min_value"), statistics.get("max_value")
        bounds = [f">= {low}" if low is not None else "", f"<= {high}" if high is not None else ""]
        return "value is out of range", " and ".join(b for b in bounds if b)
    if "pattern" in statistics:
        return "value does not match the pattern", f"matching {statistics['pattern']}"
    return f"breaks {check}", None


def _translate(
    model: Model,
    cases: list[Case],
    frame: pd.DataFrame,
    file: str,
    places: list[tuple[str, int]] | None,
) -> list[Finding]:
    rules, schema = rules_of(model), compiled(model)
    allowed_in = _allowed_per_row(rules.values(), frame)
    untyped = {case.column for case in cases if str(case.check).startswith("coerce_dtype")}
    # One finding per cell: column checks first, in pandera's order, then row rules.
    cells: dict[tuple[Any, str | None], Finding] = {}
    row_rules: list[tuple[int | None, Rule, Any]] = []
    for case in cases:
        check, column = str(case.check), None if case.column is None else str(case.column)
        position = None if pd.isna(case.index) else int(case.index)
        code, info = _code_of(check, rules)
        if case.schema_context == "DataFrameSchema" and info is not None:
            row_rules.append((position, info, case.failure_case))
            continue
        if column in untyped and code != "VALUE-TYPE":
            continue  # pandera compared untyped strings: only the type error is real
        if position is None and code == "VALUE-TYPE":
            continue  # the column-wide echo of a coercion failure
        where, line = _place(file, position, places)
        key = (position, column) if position is not None else (check, column)
        if key not in cells:
            if info:
                message, expected = info.message, None
            elif code == "VALUE-NOT-ALLOWED" and allowed_in(column, position) is not None:
                message, expected = _not_allowed(case.failure_case, allowed_in(column, position))
            else:
                message, expected = _describe(schema, column, check, code, case.failure_case)
            cells[key] = Finding(
                where,
                line,
                column,
                code,
                message,
                preview(case.failure_case),
                preview(expected, None),
            )
    found = list(cells.values())
    declared = list(rules)
    row_rules.sort(key=lambda rule: declared.index(rule[1].message))  # stable: rows in order
    seen: set[tuple[Any, str]] = set()
    #: Cells a row rule has reported: a later rule about the same cell stays silent.
    ruled: set[tuple[Any, str]] = set()
    expected_cache: dict[str, list[Any]] = {}
    for position, info, failure in row_rules:
        if (position, info.code) in seen or (position, info.column) in cells:
            continue  # pandera repeats a row rule per column; a bad cell is reported once
        if info.column is not None and (position, info.column) in ruled:
            continue  # one cell, one finding: the first rule (in declared order) speaks
        seen.add((position, info.code))
        if info.column is not None and position is not None:
            ruled.add((position, info.column))
        where, line = _place(file, position, places)
        value = expected = None
        message = info.message
        if position is not None and info.column in frame.columns:
            value = frame[info.column].iloc[position]
            if info.expected is not None:
                if info.code not in expected_cache:
                    expected_cache[info.code] = values_of(info.expected, frame)
                expected = expected_cache[info.code][position]
        elif position is None:
            value = failure
        if position is not None and info.detail is not None:
            key = f"{info.code} detail"
            if key not in expected_cache:
                expected_cache[key] = values_of(info.detail, frame)
            added = expected_cache[key][position]
            message += f"; {added}" if isinstance(added, str) and added else ""
        allowed = allowed_in(info.column, position)
        if allowed is not None and expected is None:  # the row's own values, the closest
            message, expected = message + _closest(value, allowed), one_of(allowed)
        found.append(
            Finding(
                where,
                line,
                info.column,
                info.code,
                message,
                preview(value),
                preview(expected, None),
            )
        )
    return found


def _allowed_per_row(
    rules: Iterable[Rule], frame: pd.DataFrame
) -> Callable[[str | None, int | None], list[Any] | None]:
    """``allowed_in(column, position)``: the values a row rule says ``column`` allows in
    that row (:attr:`Rule.allowed`; None where no rule narrows them), worked out once."""
    narrowing = {rule.column: rule.allowed for rule in rules if rule.allowed is not None}
    computed: dict[str, list[Any]] = {}

    def allowed_in(column: str | None, position: int | None) -> list[Any] | None:
        if column not in narrowing or position is None:
            return None
        if column not in computed:
            computed[column] = values_of(narrowing[column], frame)
        return computed[column][position]

    return allowed_in


def _place(
    file: str, position: int | None, places: list[tuple[str, int]] | None
) -> tuple[str, int | None]:
    if position is None:
        return file, None
    if places and position < len(places):
        return places[position]
    return file, position + 2
