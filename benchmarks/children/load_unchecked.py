"""Child: ``load_package.py`` with the cache's digest check switched off.

ARGS: those of ``load_package.py``, which this runs, and reports, as it is. Before it
runs, ``hatemoji_datasets.building.manifest.check`` becomes a no-op: a warm load that
hashes nothing, so ``benchmarks/cache_digest.py`` can tell the check's own share of a
whole process. Never how users load: it serves a cache whatever its files hold.
"""

from __future__ import annotations

import runpy
from pathlib import Path

from child import ARGS

from hatemoji_datasets.building import manifest

assert ARGS, "expects load_package.py's arguments"
# Its callers (prepare, summary) look it up on the module, so this switches them off.
manifest.check = lambda *args, **kwargs: None
runpy.run_path(str(Path(__file__).with_name("load_package.py")), run_name="__main__")
