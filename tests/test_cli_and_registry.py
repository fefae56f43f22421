"""The CLI and the registry: names, versions, configs, and errors without tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    REPO,
    broken_dummy,
    dataset_facts,
    declaring,
    run_cli,
    source_url,
    upstream_path,
)

from hatemoji_datasets import SchemaViolationError, UnknownNameError, list_datasets, load_dataset
from hatemoji_datasets.building.builder import builder_class
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.registry import dataset_spec, lookup, parse_spec, specs


def test_list_datasets_is_every_folder_with_a_spec() -> None:
    assert "hatemoji_check" in list_datasets()
    # Each folder of datasets/ holding a spec.py is one dataset, named as its folder.
    folders = sorted(
        path.parent.name for path in (REPO / "hatemoji_datasets" / "datasets").glob("*/spec.py")
    )
    assert len(folders) >= 5
    assert list_datasets() == list(specs()) == folders


def test_registry_resolves_names() -> None:
    spec, config, version = lookup("hatemoji_build:1.0.0", "r6")
    assert (spec.name, config.name, version) == ("hatemoji_build", "r6", "1.0.0")
    assert lookup("apeach")[1].name == "default"


@pytest.mark.parametrize("name", list(specs()))
def test_each_dataset_has_its_builder(name: str) -> None:
    spec = dataset_spec(name)
    cls = builder_class(name)
    assert cls.SPEC is spec and cls is builder_class(name)  # made once
    assert [c.name for c in cls.BUILDER_CONFIGS] == spec.config_names
    default = spec.default_config_name
    assert default == cls.DEFAULT_CONFIG_NAME


def test_parse_spec() -> None:
    assert parse_spec("hatemoji_check") == ("hatemoji_check", None)
    assert parse_spec("hatemoji_check:1.0.0") == ("hatemoji_check", "1.0.0")
    assert parse_spec("hatemoji_check", "1.0.0") == ("hatemoji_check", "1.0.0")
    with pytest.raises(UnknownNameError, match="pins version 1.0.0"):
        parse_spec("hatemoji_check:1.0.0", "2.0.0")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"name": "hatemoji_chek"},
            r"unknown dataset 'hatemoji_chek' \(did you mean 'hatemoji_check'\?\); "
            "available: .*hatemoji_check",
        ),
        (
            {"name": "hatemoji_check:9.9.9"},
            "unknown version '9.9.9' of hatemoji_check; released: 1.0.0",
        ),
        (
            {"name": "hatemoji_check", "config": "nope"},
            "unknown config 'nope' .* available: default",
        ),
    ],
)
def test_unknown_names_list_what_exists(kwargs: dict, message: str, tmp_path: Path) -> None:
    with pytest.raises(UnknownNameError, match=message):
        load_dataset(**kwargs, cache_dir=str(tmp_path))


def test_unknown_split_lists_splits(mirror: Path, session_cache: Path) -> None:
    with pytest.raises(UnknownNameError, match="unknown split 'train'.*available: test"):
        load_dataset(
            "hatemoji_check", split="train", cache_dir=str(session_cache), mirror=str(mirror)
        )


@pytest.mark.parametrize("name", list(specs()))
def test_release_notes_cover_the_current_version(name: str) -> None:
    spec = dataset_spec(name)
    assert next(iter(spec.release_notes)) == spec.version
    assert spec.versions[0] == spec.version
    assert all(notes for notes in spec.release_notes.values())


def _run_cli(*args: str, env_mirror: Path | None = None) -> subprocess.CompletedProcess:
    """The command in this process, with the mirror only from ``env_mirror``."""
    return run_cli(*args, env={"HATEMOJI_DATASETS_MIRROR": env_mirror and str(env_mirror)})


def _run_cli_process(*args: str) -> subprocess.CompletedProcess:
    """The command in a new process: its real exit status and standard error."""
    import os

    env = dict(os.environ)
    env.pop("HATEMOJI_DATASETS_MIRROR", None)
    return subprocess.run(
        [sys.executable, "-m", "hatemoji_datasets", *args], capture_output=True, text=True, env=env
    )


def test_cli_list_and_sources() -> None:
    listing = _run_cli("list")
    assert listing.returncode == 0
    headers, rule, rows = _split_table(listing.stdout.split("\n\n")[0])
    assert headers[-1].split()[:2] == ["name", "version"] and set(rule) <= {"-", " "}
    assert any(row.split()[:2] == ["hatemoji_check", "1.0.0"] for row in rows)
    assert max(map(len, listing.stdout.splitlines())) <= 100  # headers and lists wrap
    sources = _run_cli("sources")
    assert "340.9 KiB" in sources.stdout and "9aa6bf78370a" in sources.stdout
    listed = json.loads(_run_cli("sources", "--format", "json").stdout)
    check = next(s for s in listed if s["url"].endswith("HatemojiCheck/test.csv"))
    assert (check["size"], check["sha256"][:8]) == (349034, "9aa6bf78")


def test_cli_build_and_info(mirror: Path, tmp_path: Path) -> None:
    build = _run_cli(
        "build", "hatemoji_check", "-v", "--cache-dir", str(tmp_path), env_mirror=mirror
    )
    assert build.returncode == 0, build.stderr
    assert re.search(r"test\s+3,930\s+non-hateful 1,276, hateful 2,654", build.stdout)
    # -v shows every step, as plain lines, even piped
    assert "hatemoji_check/default: writing split test (3,930 rows" in build.stderr
    info = _run_cli("info", "hatemoji_check", "--cache-dir", str(tmp_path))  # from the cache
    assert info.returncode == 0, info.stderr
    for expected in (
        "version 1.0.0",
        "license: cc-by-4.0",
        "ClassLabel (0 verb_swap, 1 identity_swap",
        "@inproceedings",
    ):
        assert expected in info.stdout
    assert re.search(r"\ntest\s+3,930\n", info.stdout)  # the splits table
    # Every statistics table has headers over its key and value columns (from the card's
    # tables, or a title "cases per label"): none is left blank or called "value".
    label_table = info.stdout.split("cases per label:\n", 1)[1].splitlines()
    assert label_table[0].split() == ["label", "cases"]
    assert label_table[2].split() == ["non-hateful", "1,276"]
    functionality = info.stdout.split("cases per functionality:\n", 1)[1]
    headers, _, rows = _split_table(functionality.split("\n\n")[0])
    assert headers[-1].split()[0] == "functionality"  # headers wrap above the rule
    assert rows[0].split()[:3] == ["F1", "verb_swap", "300"]


def _split_table(text: str) -> tuple[list[str], str, list[str]]:
    """A table's header lines (wrapped headers take several), its rule, and its rows."""
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.strip() and set(line) <= {"-", " "})
    return lines[:rule], lines[rule], lines[rule + 1 :]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("info", "nope"), "error: unknown dataset 'nope'"),
        (("build", "hatemoji_check:2.0.0"), "error: unknown version '2.0.0'"),
        (("build", "apeach", "--config", "nope"), "error: unknown config 'nope'"),
    ],
)
def test_cli_errors_have_no_traceback(args: tuple[str, ...], message: str) -> None:
    result = _run_cli_process(*args)
    assert result.returncode == 1
    assert result.stderr.strip().startswith(message)
    assert len(result.stderr.strip().splitlines()) == 1  # one line
    assert "Traceback" not in result.stderr


def test_cli_tampered_source(mirror: Path, tmp_path: Path) -> None:
    url = source_url("hatemoji_check", "test")
    bad = upstream_path(tmp_path / "bad", url)
    bad.parent.mkdir(parents=True)
    bad.write_bytes(upstream_path(mirror, url).read_bytes().replace(b"women", b"wom3n", 1))
    result = _run_cli(
        "build",
        "hatemoji_check",
        "--cache-dir",
        str(tmp_path / "c"),
        "--mirror",
        str(tmp_path / "bad"),
    )
    assert result.returncode == 1
    assert "checksum mismatch" in result.stderr and "expected sha256 9aa6bf78" in result.stderr
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(error_lines) == 1 and "HatemojiCheck/test.csv" in error_lines[0]
    assert "Traceback" not in result.stderr
    assert not any(p.is_dir() for p in (tmp_path / "c").glob("hatemoji_check/*/*"))


@pytest.mark.parametrize("name", declaring("BROKEN"))
def test_schema_violations_stop_the_build(
    name: str, fake_mirror, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A build of dummy data with the faults ``BROKEN`` states (pinned by its own digests)
    stops, naming every finding ``BROKEN_FINDINGS`` states and no other, and caches nothing."""
    broken = fake_mirror(name, broken_dummy(name))
    stated = dataset_facts(name).BROKEN_FINDINGS
    paths = {source: source_url(name, source).split("://", 1)[1] for source in stated}
    cache = tmp_path / "cache"
    with pytest.raises(SchemaViolationError) as failure:
        load_dataset(name, cache_dir=str(cache), mirror=str(broken))
    files = {f.file for f in failure.value.findings}
    assert all(file.endswith(tuple(paths.values())) for file in files), files
    source_of = {file: next(s for s, p in paths.items() if file.endswith(p)) for file in files}
    found = {(source_of[f.file], f.line, f.column, f.code) for f in failure.value.findings}
    assert found == {(source, *place) for source, places in stated.items() for place in places}
    assert not any(p.is_dir() for p in cache.glob(f"{name}/*/*"))
    code = main(["build", name, "--cache-dir", str(cache), "--mirror", str(broken)])
    err = capsys.readouterr().err
    assert code == 1
    for source, places in stated.items():
        for line, column, finding in places:
            named = f" column {column!r}" if column else ""
            assert f"{Path(paths[source]).name}:{line}: {finding}{named}" in err
    assert "Traceback" not in err
    assert not any(p.is_dir() for p in cache.glob(f"{name}/*/*"))


def test_dummy_data_builds_through_the_cli(fake_mirror, tmp_path: Path, capsys) -> None:
    mirror = fake_mirror("apeach")
    args = ["--cache-dir", str(tmp_path), "--mirror", str(mirror)]
    assert main(["build", "apeach", "--config", "beep", *args]) == 0
    out = capsys.readouterr().out
    assert re.search(r"train\s+5\s", out) and re.search(r"validation\s+3\s", out)
    assert dataset_spec("apeach").config("beep").split_names == ["train", "validation"]
