"""Dataset cards (``README.md``) and Croissant metadata, rendered from the built data.

- :mod:`~hatemoji_datasets.cards.gather`: the dataset as the card describes it;
- :mod:`~hatemoji_datasets.cards.front_matter`: the YAML metadata;
- :mod:`~hatemoji_datasets.cards.body`: the markdown body;
- :mod:`~hatemoji_datasets.cards.croissant`: Croissant 1.0 JSON-LD, the card's and the export's;
- :mod:`~hatemoji_datasets.cards.lint`: the offline lint;
- :mod:`~hatemoji_datasets.cards.files`: rendering, writing and checking card folders;
- :mod:`~hatemoji_datasets.cards.listing`: the datasets tables of README.md and docs/datasets.md.
"""
