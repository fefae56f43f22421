"""lm-evaluation-harness: task files generated from the declarations (:mod:`.tasks`), each
task's prompt as a Python function in a generated ``prompts.py`` beside them
(:mod:`.prompts`), the generative twin of each task and how its replies are read
(:mod:`.generative`), the groups and their aggregates (:mod:`.groups`), the task
folder's README (:mod:`.readme`), the files' YAML (:mod:`.yaml_text`), and the
loader the committed tasks name, so they load their rows through this package
(:mod:`.custom_dataset`).

Reading the harness's per-sample logs back into score reports is scoring's
concern (:mod:`hatemoji_datasets.evaluate.harness_log`).
"""
