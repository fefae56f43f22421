"""Reading upstream-shaped files: the one layer under both building and validation.

- :mod:`~hatemoji_datasets.raw.reader`: one file into a pyarrow table with its line places;
- :mod:`~hatemoji_datasets.raw.joins`: stacking files and joining annotations files;
- :mod:`~hatemoji_datasets.raw.files`: a config's files read, stacked, joined and checked.
"""
