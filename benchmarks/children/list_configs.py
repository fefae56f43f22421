"""Child, untimed: every config of the package's current versions, and the files it reads.

ARGS: ``mirror``. Reports ``configs``: ``[{"name", "config", "files": [{split: [path, ...]},
...], "delimiter", "quoting"}]`` (one mapping per file format), each upstream file as
the mirror holds it, so the plain ``datasets`` baseline reads exactly the files the
package builds from.
"""

from __future__ import annotations

from pathlib import Path

from child import ARGS, report

from hatemoji_datasets.core.registry import specs

found = []
for name, spec in specs().items():
    # Releases may add configs: those of the current version (older packages: all).
    configs = spec.configs_of(spec.version) if hasattr(spec, "configs_of") else spec.configs
    for config in configs:
        pinned = spec.config_sources(config)

        def path(source: str, pinned: dict = pinned) -> str:
            return str(Path(ARGS["mirror"]) / pinned[source].url.split("://", 1)[1])

        # One group of files per format: the config's own rows (a split may stack
        # several files of one format), then each join's; plain ``datasets`` reads each
        # group with one csv load (one load cannot hold two formats).
        own = {
            split: [path(s) for s in ((sources,) if isinstance(sources, str) else sources)]
            for split, sources in config.splits
        }
        joined = [
            {split: [path(join.source_of(split))] for split, _ in config.splits}
            for join in getattr(config, "joins", ())
        ]
        files = [own, *joined]
        fmt = config.raw_format
        found.append(
            {
                "name": name,
                "config": config.name,
                "files": files,
                "delimiter": fmt.delimiter,
                "quoting": fmt.quoting,
            }
        )
report(0.0, configs=found)
