"""Building a dataset config from pinned sources into the ``datasets`` cache, and serving it.

- :mod:`~hatemoji_datasets.building.builder`: the one ``datasets.ArrowBasedBuilder``;
- :mod:`~hatemoji_datasets.building.prepare`: build or find the cache, check, serve;
- :mod:`~hatemoji_datasets.building.pipeline`: checked raw files -> transformed tables;
- :mod:`~hatemoji_datasets.building.manifest`: the digests of a build's files, checked on load;
- :mod:`~hatemoji_datasets.building.cache_files`: a split's rows as Arrow;
- :mod:`~hatemoji_datasets.building.summary`: what ``info`` keeps beside a build;
- :mod:`~hatemoji_datasets.building.fingerprint`: a built split's content digest;
- :mod:`~hatemoji_datasets.building.recorded`: the fingerprints recorded per release.
"""
