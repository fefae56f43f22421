"""Upstream files: pins (``checksums.tsv``), the mirror and timeout settings, verified fetches.

- :mod:`~hatemoji_datasets.sources.checksums`: :class:`SourceFile`, ``checksums.tsv``;
- :mod:`~hatemoji_datasets.sources.settings`: the mirror and the download timeout;
- :mod:`~hatemoji_datasets.sources.verify`: size and sha256 against the pin;
- :mod:`~hatemoji_datasets.sources.http`: downloads with timeouts and a retry;
- :mod:`~hatemoji_datasets.sources.fetch`: a config's files, from a mirror or downloaded.
"""
