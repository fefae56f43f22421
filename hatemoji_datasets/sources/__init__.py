"""Upstream files fetched and verified against their pins (``checksums.tsv``, read by
:mod:`hatemoji_datasets.core.checksums`), from a mirror or downloaded.

- :mod:`~hatemoji_datasets.sources.settings`: the mirror and the download timeout;
- :mod:`~hatemoji_datasets.sources.verify`: size and sha256 against the pin;
- :mod:`~hatemoji_datasets.sources.http`: downloads with timeouts and a retry;
- :mod:`~hatemoji_datasets.sources.fetch`: a config's files, from a mirror or downloaded;
- :mod:`~hatemoji_datasets.sources.pin`: a new file's ``checksums.tsv`` row, measured.
"""
