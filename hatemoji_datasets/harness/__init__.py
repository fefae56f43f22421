"""lm-evaluation-harness: task files generated from the declarations (:mod:`.tasks`).

Reading the harness's per-sample logs back into score reports is scoring's
concern (:mod:`hatemoji_datasets.evaluate.harness_log`).
"""
