"""No path a command prints can start a line of its own or carry a raw control character.

``lm-eval-tasks --out $'t1\\n::error::file=x'`` printed a line starting with ``::error::``
(a forged GitHub annotation), and an ANSI escape came out raw: the paths ``card``,
``export`` and ``lm-eval-tasks`` printed were not escaped. Each command that prints a path
it was given (an output folder or file, a cache folder) runs here with a hostile one.

The commands write the tests' synthetic dataset.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from support.synthetic import SYNTHETIC, registered

from hatemoji_datasets.cli import main

pytestmark = [pytest.mark.real_data, pytest.mark.usefixtures("synthetic")]

#: A folder name with a newline starting a workflow command, and an ANSI escape.
HOSTILE = "t1\n::error::file=x\x1b[31mred\r"
#: What no printed line may hold: C0 controls but the tab, DEL and C1 controls.
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "lock -o": lambda dest: ["lock", SYNTHETIC, "-o", str(dest / "hatemoji.lock")],
    "export --out": lambda dest: ["export", SYNTHETIC, "--out", str(dest / "hub")],
    "card --out": lambda dest: ["card", SYNTHETIC, "--out", str(dest / "card")],
    "card --check": lambda dest: ["card", SYNTHETIC, "--out", str(dest / "card"), "--check"],
    "lm-eval-tasks --out": lambda dest: [
        "lm-eval-tasks",
        SYNTHETIC,
        "--out",
        str(dest / "tasks"),
    ],
    "lm-eval-tasks --check": lambda dest: [
        "lm-eval-tasks",
        SYNTHETIC,
        "--out",
        str(dest / "tasks"),
        "--check",
    ],
    "export-schemas --output": lambda dest: ["export-schemas", "--output", str(dest / "s")],
}
#: The commands that read the dataset's build.
WITH_CACHE = ("lock -o", "export --out", "card --out", "card --check")


@pytest.fixture(scope="module")
def hostile(pristine_cache, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A hostile folder, beside a copy of the dataset's build (its cache, named plainly:
    ``datasets`` itself cannot read a cache under such a name)."""
    folder = tmp_path_factory.mktemp("paths")
    with registered():  # made before the test's own registration
        shutil.copytree(pristine_cache(SYNTHETIC), folder / "cache", symlinks=True)
    (folder / HOSTILE).mkdir()
    return folder


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_hostile_path_is_printed_escaped(command: str, hostile: Path, mirror: Path, capsys):
    args = COMMANDS[command](hostile / HOSTILE)
    if command in WITH_CACHE:
        args += ["--cache-dir", str(hostile / "cache"), "--mirror", str(mirror)]
    if command.endswith("--check"):  # check what the same command just wrote
        assert main([a for a in args if a != "--check"]) == 0
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "t1\\n::error::" in out + err  # the path is named, escaped
    for line in (out + err).splitlines():
        assert not line.startswith("::"), (command, line)
        assert not RAW_CONTROL.search(line), (command, line)
