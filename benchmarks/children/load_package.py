"""Child: ``hatemoji_datasets.load_dataset`` of one config (a cold build or a warm load).

ARGS: ``name``, ``config``, ``cache``, ``mirror``, and ``validate`` (run the raw-schema
pass on the pinned files too, where the package has that option). ``datasets`` is
imported before the step, as the plain-``datasets`` baseline imports it.
"""

from __future__ import annotations

import inspect
import time

import datasets  # noqa: F401 - imported outside the step, as the baseline does
from child import ARGS, report

import hatemoji_datasets

options = {"cache_dir": ARGS["cache"], "mirror": ARGS["mirror"]}
# Packages before 0.3 have no such option: they validate on every build anyway.
validates_always = "validate" not in inspect.signature(hatemoji_datasets.load_dataset).parameters
if ARGS.get("validate") and not validates_always:
    options["validate"] = True
start = time.perf_counter()
data = hatemoji_datasets.load_dataset(ARGS["name"], ARGS["config"], **options)
step = time.perf_counter() - start
report(step, rows=sum(split.num_rows for split in data.values()))
