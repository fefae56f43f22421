"""Validating contributions: proposed data files against a dataset's schema and its release.

- :mod:`~hatemoji_datasets.validate.contributions`: ``validate`` itself;
- :mod:`~hatemoji_datasets.validate.screen`: the streaming pass that proves a file clean;
- :mod:`~hatemoji_datasets.validate.screen_state`: what it keeps across batches;
- :mod:`~hatemoji_datasets.validate.screen_joins`: the joins between formats, over compact state;
- :mod:`~hatemoji_datasets.validate.release_rules`: rules against the released data;
- :mod:`~hatemoji_datasets.validate.built_format`: Parquet contributions;
- :mod:`~hatemoji_datasets.validate.report`: the report and its formats;
- :mod:`~hatemoji_datasets.validate.formats`: which of a config's formats a file is in, and
  what a refused file looks like instead;
- :mod:`~hatemoji_datasets.validate.template`: what a contribution to a config holds;
- :mod:`~hatemoji_datasets.validate.joined`: joined contributions (cases and annotations);
- :mod:`~hatemoji_datasets.validate.across_files`: rules over all files of a contribution;
- :mod:`~hatemoji_datasets.validate.codes`: the generated table of finding codes;
- :mod:`~hatemoji_datasets.validate.vocabularies`: the generated tables of each config's values;
- :mod:`~hatemoji_datasets.validate.prefilter`: the text rules' Unicode prefilter;
- :mod:`~hatemoji_datasets.validate.prefilter_ranges`: its generated ranges.
"""
