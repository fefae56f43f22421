"""Publishing on the Hugging Face Hub: the export (card, Croissant, portable Parquet) and push.

- :mod:`~hatemoji_datasets.hub.parquet`: a split as the export's Parquet;
- :mod:`~hatemoji_datasets.hub.export`: the repository folder;
- :mod:`~hatemoji_datasets.hub.push`: one commit, tagged ``v<version>``;
- :mod:`~hatemoji_datasets.hub.tokens`: every Hub token masked in every message;
- :mod:`~hatemoji_datasets.hub.loading_scripts`: the generated loading scripts.

The export's Croissant lives with the card's: :mod:`hatemoji_datasets.cards.croissant`.
"""
