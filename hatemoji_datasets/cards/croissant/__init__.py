"""Croissant in one place: the card's (upstream files) and the export's (Parquet).

- :mod:`~hatemoji_datasets.cards.croissant.repository`: the Hub repository's file names;
- :mod:`~hatemoji_datasets.cards.croissant.derivable`: what a reader derives from a file;
- :mod:`~hatemoji_datasets.cards.croissant.parts`: the parts both documents share;
- :mod:`~hatemoji_datasets.cards.croissant.upstream`: the card's, over the upstream files;
- :mod:`~hatemoji_datasets.cards.croissant.export`: the export's, over its Parquet files.
"""
