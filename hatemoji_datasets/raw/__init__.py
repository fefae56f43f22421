"""Reading upstream-shaped files: the one layer under both building and validation.

- :mod:`~hatemoji_datasets.raw.reader`: one file into a pyarrow table with its line places;
- :mod:`~hatemoji_datasets.raw.byte_scan`: bounded scans of a file's bytes (lines and their
  lengths, quotes, UTF-8) that run before any parser holds the file;
- :mod:`~hatemoji_datasets.raw.joins`: stacking files and joining annotations files;
- :mod:`~hatemoji_datasets.raw.files`: a config's files read, stacked, joined and checked;
- :mod:`~hatemoji_datasets.raw.plan_checks`: a schema's compiled plan run over record
  batches (the streaming validator's checks, and a re-validating build's);
- :mod:`~hatemoji_datasets.raw.unique_values`: what a unique column has held, kept compactly;
- :mod:`~hatemoji_datasets.raw.positions`: the keys of rows keyed by position (``ROW_ID``).
"""
