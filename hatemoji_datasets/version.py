"""The package version, said once: ``pyproject.toml`` reads it from here."""

__version__ = "0.4.0"
