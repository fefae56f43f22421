"""HatemojiBuild; the pair helper is ``hatemoji_datasets.datasets.hatemoji_build.pairs``.

This file imports nothing of the folder: ``datasets`` 3.x reads a builder's file (a
dataset package's ``__init__.py``) for its imports and resolves ``from .x`` against the
parent package, which fails.
"""
