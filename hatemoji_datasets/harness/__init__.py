"""lm-evaluation-harness: task files generated from the declarations (:mod:`.tasks`), each
task's prompt as a Python function in a generated ``prompts.py`` beside them
(:mod:`.prompts`), and the loader the committed tasks name, so they load their rows
through this package (:mod:`.custom_dataset`).

Reading the harness's per-sample logs back into score reports is scoring's
concern (:mod:`hatemoji_datasets.evaluate.harness_log`).
"""
