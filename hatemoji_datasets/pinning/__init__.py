"""Pinning exact data: lockfiles (format, lock and verify) and recording fingerprints.

- :mod:`~hatemoji_datasets.pinning.lockfile`: the TOML format;
- :mod:`~hatemoji_datasets.pinning.lock`: ``lock``, ``verify`` and ``load_dataset(lock=)``;
- :mod:`~hatemoji_datasets.pinning.record`: ``fingerprints [--write]``.

A build's own fingerprint (the digest) and the fingerprints recorded per
release live with the build, which checks them: :mod:`hatemoji_datasets.building`.
"""
