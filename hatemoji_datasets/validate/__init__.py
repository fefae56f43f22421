"""Validating contributions: proposed data files against a dataset's schema and its release.

- :mod:`~hatemoji_datasets.validate.contributions`: ``validate`` itself;
- :mod:`~hatemoji_datasets.validate.release_rules`: rules against the released data;
- :mod:`~hatemoji_datasets.validate.built_format`: Parquet contributions;
- :mod:`~hatemoji_datasets.validate.report`: the report and its formats;
- :mod:`~hatemoji_datasets.validate.schema_export`: the schemas other tools read.
"""
