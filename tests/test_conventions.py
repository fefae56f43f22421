"""The conventions of a Python package and a command-line tool that users expect:
``--version``, help on a bare command, a licence file, type hints marked, a citation
file, an ``env`` report for bug reports, and ``COMMAND | head`` ending quietly.

Each test states the behaviour a user met before (``hatemoji-datasets`` alone was a
usage error, ``sources | head -1`` exited 1, ``--version`` was unknown).
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from support.paths import REPO

from hatemoji_datasets import __version__
from hatemoji_datasets.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_is_printed(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"hatemoji-datasets {__version__}\n"


def test_version_is_said_once() -> None:
    # pyproject derives it from the package: no second copy to keep equal.
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "hatemoji_datasets.version.__version__"
    }
    assert metadata.version("hatemoji-datasets") == __version__


def test_a_bare_command_prints_help(capsys) -> None:
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: hatemoji-datasets")
    assert "list the datasets, versions and configs" in out  # the commands are named
    assert err == ""


def test_licence_file_is_apache_2() -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert PYPROJECT["project"]["license"] == "Apache-2.0"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]


def test_type_hints_are_marked_and_shipped() -> None:
    assert (REPO / "hatemoji_datasets" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["*"]
    assert "Typing :: Typed" in PYPROJECT["project"]["classifiers"]


def test_citation_file_names_the_package_and_points_to_the_datasets() -> None:
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))
    # The keys CFF 1.2.0 requires, and the licence pyproject states.
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors"} <= citation.keys() and citation["authors"]
    assert citation["license"] == PYPROJECT["project"]["license"]
    assert "hatemoji-datasets info NAME" in citation["message"]
    assert "cards/NAME/README.md" in citation["message"]


def test_env_reports_versions_and_settings(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HATEMOJI_DATASETS_MIRROR", "/some/mirror")
    assert main(["env", "--format", "json", "--cache-dir", str(tmp_path)]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["hatemoji-datasets"] == __version__
    assert facts["Python"].startswith(".".join(map(str, sys.version_info[:3])))
    assert facts["datasets"] == metadata.version("datasets")
    assert facts["pyarrow"] == metadata.version("pyarrow")
    assert facts["cache folder"] == str(tmp_path)
    assert facts["mirror"] == "/some/mirror ($HATEMOJI_DATASETS_MIRROR)"


def test_env_text_is_aligned_and_escaped(capsys, monkeypatch) -> None:
    monkeypatch.setenv("HATEMOJI_DATASETS_MIRROR", "/m\n::error::forged")
    assert main(["env"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.startswith("::") for line in lines)
    assert lines[0].startswith("hatemoji-datasets  ")
    values_start = {len(line) - len(line.split("  ")[-1].lstrip()) for line in lines}
    assert len(values_start) == 1, lines  # one column of values
    assert lines[-1] == "mirror             /m\\n::error::forged ($HATEMOJI_DATASETS_MIRROR)"


@pytest.mark.parametrize(
    "command",
    [("list",), ("sources",), ("env",), ("list", "--format", "json")],
    ids=" ".join,
)
def test_a_closed_pipe_exits_0(command: tuple[str, ...]) -> None:
    # `COMMAND | head -1`: the reader is gone before the command writes (it exited 1).
    process = subprocess.Popen(
        [sys.executable, "-m", "hatemoji_datasets", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait() == 0, err
    assert err == ""
