"""What a contribution to a config looks like, before a contributor writes one.

A contribution is written as the upstream file is: its columns, in order, with its
values. :func:`contribution_template` reads them from the declaration (the raw-file
model's columns and the values its categorical columns allow) and the released rows
(the next id no released row holds), so a contributor never reads the upstream CSV to
learn them.
"""

from __future__ import annotations

from dataclasses import dataclass

from hatemoji_datasets.core.registry import lookup
from hatemoji_datasets.schema.raw_columns import layout_of


@dataclass(frozen=True)
class ContributionTemplate:
    """The columns of a contribution, the values each categorical one allows, and the
    first id free for a new row (None where rows have no numeric id)."""

    dataset: str
    config: str
    delimiter: str
    columns: tuple[str, ...]
    allowed: dict[str, tuple[str, ...]]
    key_column: str
    next_id: int | None

    def to_dict(self) -> dict[str, object]:
        return {
            "dataset": self.dataset,
            "config": self.config,
            "delimiter": self.delimiter,
            "columns": list(self.columns),
            "allowed": {column: list(values) for column, values in self.allowed.items()},
            "key_column": self.key_column,
            "next_id": self.next_id,
        }


def contribution_template(
    name: str,
    config: str | None = None,
    *,
    mirror: str | None = None,
    cache_dir: str | None = None,
) -> ContributionTemplate:
    """The template of a contribution to ``name`` (``NAME[/CONFIG]``): the config's rows'
    format, as its model declares it, and the next free id of its released rows."""
    import pandas as pd

    from hatemoji_datasets.validate.contributions import released_rows

    spec, config_spec, _ = lookup(name, config)
    model = spec.load(config_spec.schema).to_schema()
    allowed = {
        column: tuple(str(value) for value in check.statistics["allowed_values"])
        for column, definition in model.columns.items()
        for check in definition.checks
        if check.name == "isin"
    }
    allowed.update(config_spec.vocabularies)  # a config's own, where fewer
    key = config_spec.key_column
    released = released_rows(spec, config_spec, mirror, cache_dir)[key]
    numbers = pd.to_numeric(released, errors="coerce")
    next_id = int(numbers.max()) + 1 if len(numbers) and numbers.notna().all() else None
    return ContributionTemplate(
        dataset=spec.name,
        config=config_spec.name,
        delimiter=config_spec.raw_format.delimiter,
        columns=tuple(layout_of(spec, config_spec.schema).columns),
        allowed=allowed,
        key_column=key,
        next_id=next_id,
    )
