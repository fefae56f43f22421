"""The schema language: what people write (pandera models) apart from the engine that runs it.

- :mod:`~hatemoji_datasets.schema.model`: ``RawFileModel``, rules as pandera checks, row helpers;
- :mod:`~hatemoji_datasets.schema.rules`: a dataset rule written once, over pyarrow arrays;
- :mod:`~hatemoji_datasets.schema.engine`: a model run over a frame, failures as findings;
- :mod:`~hatemoji_datasets.schema.direct`: the checks run straight over a typed frame;
- :mod:`~hatemoji_datasets.schema.raw_columns`: each model's columns (``raw_columns.tsv``);
- :mod:`~hatemoji_datasets.schema.plan`: each model's checks as data, pandera-free;
- :mod:`~hatemoji_datasets.schema.plan_cache`: plans compiled from the models and cached;
- :mod:`~hatemoji_datasets.schema.table_schema`: the exported pandera YAML and Table Schema.
"""
