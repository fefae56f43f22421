"""The task files' YAML: prompts with line breaks on one line, ``!function`` references."""

from __future__ import annotations

from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    """Prompts with line breaks as one double-quoted line (``"...\\nAnswer:"``)."""


class Function(str):
    """A function the harness imports: written ``!function module.name``."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = '"' if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)
_Dumper.add_representer(
    Function, lambda dumper, value: dumper.represent_scalar("!function", str(value))
)


def dump_yaml(header: str, document: dict[str, Any]) -> str:
    """``header`` (comment lines), then ``document`` in its key order."""
    return header + yaml.dump(
        document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000
    )
