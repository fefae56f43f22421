"""The foundation every other part stands on; dataset folders import only this and the schema
language.

- :mod:`~hatemoji_datasets.core.spec`: the declarations (datasets, configs, releases, files);
- :mod:`~hatemoji_datasets.core.ref`: lazy references to a dataset folder's parts (``Ref``);
- :mod:`~hatemoji_datasets.core.scoring`: the scoring declarations (a report's tables);
- :mod:`~hatemoji_datasets.core.columns`: the built columns every dataset shares;
- :mod:`~hatemoji_datasets.core.checksums`: a dataset's pinned upstream files (``checksums.tsv``);
- :mod:`~hatemoji_datasets.core.registry`: dataset names -> declarations, references;
- :mod:`~hatemoji_datasets.core.errors`: the errors, each with its exit status and code;
- :mod:`~hatemoji_datasets.core.findings`: a finding, the shared codes, how values are shown;
- :mod:`~hatemoji_datasets.core.file_reads`: the one guarded open and read (size bound, UTF-8,
  JSON and TOML with their nesting bound);
- :mod:`~hatemoji_datasets.core.file_writes`: the one guarded write (atomic, its destination
  checked first);
- :mod:`~hatemoji_datasets.core.generated`: writing and checking generated files and blocks;
- :mod:`~hatemoji_datasets.core.card_source`: a dataset's ``card.yaml``;
- :mod:`~hatemoji_datasets.core.features`: feature types and column builders;
- :mod:`~hatemoji_datasets.core.emoji_search`: vectorised emoji detection;
- :mod:`~hatemoji_datasets.core.arrow_values`: pyarrow values made and read without pandas;
- :mod:`~hatemoji_datasets.core.agreement`: Fleiss' kappa and annotator counts;
- :mod:`~hatemoji_datasets.core.numbers`: numbers for people (grouped counts, a column's
  shared decimals, byte sizes);
- :mod:`~hatemoji_datasets.core.suggest`: "did you mean ...?" for a misspelt name;
- :mod:`~hatemoji_datasets.core.progress`: progress on long work, where a person watches;
- :mod:`~hatemoji_datasets.core.licences`: what a pinned file's licence lets the package do
  (NoDerivatives, NonCommercial);
- :mod:`~hatemoji_datasets.core.edits`: named edits of a raw file, the faults and cases a
  dataset's ``testing.py`` states for the tests.
"""
