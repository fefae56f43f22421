"""The tasks' prompts: each ``lm_eval_tasks/<name>/prompts.py`` function renders exactly what
the task's Jinja template rendered before.

The tasks used to give ``doc_to_text`` as a Jinja template, the card's wording with
``{text}`` written ``{{text}}``, which lm-eval compiles anew for every document. They
now name one Python function per task, in a ``prompts.py`` beside the YAML files. Here
the old template is rendered the harness's way (its own Jinja environment) and compared
with the committed function, on every row of every config's evaluation split and on
generated wordings and texts (line breaks, braces, ``{{``, quotes, backslashes,
non-ASCII, ``None``). The module stays ruff clean for awkward wordings, and lm-eval
resolves each function beside its YAML file with this package unimportable.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import REPO

from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.harness.prompts import prompt_function, prompts_module
from hatemoji_datasets.harness.tasks import TASKS_FOLDER, task_files, write_tasks

TASKS = REPO / TASKS_FOLDER
#: The wording of a dataset whose card words none (the English prompt the tasks always had).
ENGLISH = "Text: {text}\nQuestion: Is this text hateful?\nAnswer:"
#: The built text column every task's old template named.
TEXT = "text"


def wording(name: str) -> str:
    """The card's prompt (``lm_eval: prompt``), else the English one."""
    card = yaml.safe_load(specs()[name].card_source_path.read_text(encoding="utf-8"))
    return (card.get("lm_eval") or {}).get("prompt", ENGLISH)


def old_template(prompt: str, column: str = TEXT) -> str:
    """``doc_to_text`` as the tasks gave it before: ``{text}`` written ``{{column}}``."""
    return prompt.replace("{text}", "{{" + column + "}}")


def jinja(template: str):
    """The template compiled in the harness's own environment (StrictUndefined, trailing
    newline kept): what ``lm_eval.utils.apply_template`` compiles for each document."""
    utils = pytest.importorskip("lm_eval.utils")
    return utils.env.from_string(template)


@functools.cache
def committed(name: str) -> tuple[ModuleType, object]:
    """The committed ``prompts.py`` of dataset ``name``, and its old template compiled."""
    return module_from(TASKS / name / "prompts.py"), jinja(old_template(wording(name)))


def module_from(path: Path) -> ModuleType:
    """``path`` loaded as the harness loads a ``!function`` file beside a task's YAML."""
    spec = importlib.util.spec_from_file_location(f"prompts_under_test_{path.parent.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def function_of(source: str, task: str):
    namespace: dict = {}
    exec(compile(source, "<prompt>", "exec"), namespace)  # noqa: S102 (generated, under test)
    return namespace[task]


# -- every real row --------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(specs()))
def test_every_row_renders_as_the_jinja_template_did(name: str, real_build) -> None:
    spec = specs()[name]
    module, template = committed(name)
    for config in spec.configs:
        function = getattr(module, f"{name}_{config.name}")
        rows = real_build(name, config.name)[config.eval_split].to_list()
        assert rows, config.name
        differ = [row for row in rows if function(row) != template.render(**row)]
        assert differ == [], f"{name}/{config.name}: {len(differ):,} of {len(rows):,} rows differ"


# -- generated wordings and texts --------------------------------------------------------------

#: A literal part of a wording that Jinja renders as written: no block, comment or variable
#: opener, no carriage return (Jinja turns those into line breaks), no ``{`` just before
#: the placeholder's braces.
_piece = st.text(st.characters(codec="utf-8"), max_size=30).filter(
    lambda p: (
        not any(opener in p for opener in ("{{", "{%", "{#", "\r"))
        and not p.endswith("{")
        and not p.startswith("}")
    )
)
_texts = st.none() | st.text(st.characters(codec="utf-8"), max_size=60)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(pieces=st.lists(_piece, min_size=2, max_size=4), text=_texts)
def test_generated_wordings_render_as_jinja_did(pieces: list[str], text: str | None) -> None:
    prompt = "{text}".join(pieces)
    function = function_of(prompt_function("task_x", prompt, TEXT), "task_x")
    assert function({TEXT: text, "label": 1}) == jinja(old_template(prompt)).render(text=text)


@settings(max_examples=200, deadline=None)
@given(text=_texts)
def test_committed_prompts_render_any_text_as_jinja_did(text: str | None) -> None:
    for name, spec in specs().items():
        module, template = committed(name)
        for config in spec.configs:
            doc = {TEXT: text, "label": 0}
            assert getattr(module, f"{name}_{config.name}")(doc) == template.render(**doc)


@pytest.mark.parametrize("name", list(specs()))
def test_texts_that_look_like_templates_stay_as_written(name: str) -> None:
    """Each config's prompt is its card's wording with the text put in as written."""
    module, _ = committed(name)
    for config in specs()[name].configs:
        function = getattr(module, f"{name}_{config.name}")
        for text in ("{{ label }}", "{% if x %}y{% endif %}", "{# no #}", 'say "hi"\n\\n', None):
            rendered = function({TEXT: text, "label": 1})
            assert rendered == wording(name).replace("{text}", f"{text}"), (config.name, text)


#: Wordings that are awkward to write as Python: both quotes, backslashes, control and
#: wide characters, a tab, a trailing line break, the text twice or alone, and one too
#: long for a line.
AWKWARD = (
    "Text: {text}\nQuestion: Is this text hateful?\nAnswer:",
    "문장: {text}\n질문: 이 문장은 혐오 표현입니까?\n답:",
    'He said "{text}" — isn\'t it hateful?',
    'Two "double" quotes, one \' single: {text}',
    "Backslash \\ and \\n written out, {text}\ttab\x00nul\u2028",
    "{text}",
    "{text} and again {text}\n",
    "A wording long enough that the return statement cannot stay on one line: {text} "
    + "and still it goes on, past a hundred columns, "
    + "\n" * 2
    + "Answer:",
)


def test_the_module_is_ruff_clean_for_awkward_wordings(tmp_path: Path) -> None:
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (it comes with the 'test' extra)")
    functions = [prompt_function(f"task_{i}", p, TEXT) for i, p in enumerate(AWKWARD)]
    module = tmp_path / "prompts.py"
    module.write_text(prompts_module(["Awkward wordings."], functions), encoding="utf-8")
    config = ["--config", str(REPO / "pyproject.toml")]
    for command in (["check", *config, str(module)], ["format", "--check", *config, str(module)]):
        done = subprocess.run([sys.executable, "-m", "ruff", *command], capture_output=True)
        assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    loaded = module_from(module)
    for i, prompt in enumerate(AWKWARD):
        doc = {TEXT: "a 'b' \"c\" {{d}}", "label": 0}
        rendered = getattr(loaded, f"task_{i}")(doc)
        assert rendered == prompt.replace("{text}", doc[TEXT])
        if "\r" not in prompt:
            assert rendered == jinja(old_template(prompt)).render(**doc)


# -- the harness finds them beside the YAML, without this package ------------------------------

_RESOLVE = """
import json, pathlib, sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "hatemoji_datasets":
            raise ImportError("hatemoji_datasets is not installed here")

sys.meta_path.insert(0, Refuse())
from lm_eval.tasks._yaml_loader import load_yaml

rendered = {}
for path in sorted(pathlib.Path(sys.argv[1]).glob("*/*.yaml")):
    task = load_yaml(path, resolve_func=True)
    if "task" in task and isinstance(task["task"], str) and "doc_to_text" in task:
        rendered[task["task"]] = task["doc_to_text"]({"text": sys.argv[2], "label": 0})
print(json.dumps(rendered))
"""


@pytest.mark.parametrize("variant", ["hub", "dataset_path"])
def test_the_harness_resolves_each_prompt_beside_its_yaml_without_the_package(
    variant: str, tmp_path: Path
) -> None:
    pytest.importorskip("lm_eval")
    folder = tmp_path / "tasks"
    for name in specs():
        where = {"hub": ""} if variant == "hub" else {"dataset_path": str(tmp_path / name)}
        written = task_files([name], **where)
        assert written[f"{name}/prompts.py"] == task_files([name])[f"{name}/prompts.py"]
        write_tasks(written, folder)
    text = 'line one\nline "two" {{ three }} ÿ 😀'
    done = subprocess.run(
        [sys.executable, "-c", _RESOLVE, str(folder), text],
        cwd=tmp_path,
        env={"PATH": "", "HOME": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rendered = json.loads(done.stdout.splitlines()[-1])
    expected = {
        f"{name}_{config.name}{kind}": jinja(old_template(prompt)).render(text=text)
        for name, spec in specs().items()
        for config in spec.configs
        for kind, prompt in (("", wording(name)), ("_gen", generative_wording(name)))
    }
    assert rendered == expected


def generative_wording(name: str) -> str:
    """The generative twin's prompt: the card's wording with a line before its last that
    asks for one of the choices (``lm_eval: instruction``, else the English one)."""
    card = yaml.safe_load(specs()[name].card_source_path.read_text(encoding="utf-8"))
    words = card.get("lm_eval") or {}
    choices = words.get("choices", ["non-hateful", "hateful"])
    ask = words.get("instruction", "Reply with exactly one of: {choices}.")
    lines = wording(name).split("\n")
    lines.insert(len(lines) - 1, ask.replace("{choices}", f"{choices[0]}, {choices[1]}"))
    return "\n".join(lines)


@pytest.mark.parametrize("name", list(specs()))
def test_the_generative_prompt_asks_for_the_choices(name: str) -> None:
    module, _ = committed(name)
    for config in specs()[name].configs:
        function = getattr(module, f"{name}_{config.name}_gen")
        rendered = function({TEXT: "x", "label": 0})
        assert rendered == generative_wording(name).replace("{text}", "x")
        task = yaml.safe_load(
            (TASKS / name / f"{name}_{config.name}.yaml")
            .read_text(encoding="utf-8")
            .replace("!function", "")
        )
        assert all(choice in rendered.splitlines()[-2] for choice in task["doc_to_choice"])
