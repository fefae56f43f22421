"""The CLI and the registry: names, versions, configs, and errors without tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import broken_dummy, dataset_facts, declaring
from support.cli import run_cli
from support.paths import REPO, source_url, upstream_path

from hatemoji_datasets import SchemaViolationError, UnknownNameError, list_datasets, load_dataset
from hatemoji_datasets.building.builder import builder_class
from hatemoji_datasets.cli import main
from hatemoji_datasets.core.registry import dataset_spec, lookup, parse_reference, parse_spec, specs

#: Every registered dataset; the first stands for any where one is enough.
DATASETS = list(specs())


def test_list_datasets_is_every_folder_with_a_spec() -> None:
    # Each folder of datasets/ holding a spec.py is one dataset, named as its folder.
    folders = sorted(
        path.parent.name for path in (REPO / "hatemoji_datasets" / "datasets").glob("*/spec.py")
    )
    assert len(folders) >= 5
    assert list_datasets() == list(specs()) == folders


@pytest.mark.parametrize("name", DATASETS)
def test_registry_resolves_names(name: str) -> None:
    spec = dataset_spec(name)
    oldest = spec.releases[-1].version
    named = spec.configs_of(oldest)[-1].name  # the oldest release's last config
    found, config, version = lookup(f"{name}:{oldest}", named)
    assert (found.name, config.name, version) == (name, named, oldest)
    found, config, version = lookup(name)  # the default config, of the current release
    default = spec.default_config or spec.configs[0].name
    assert (found.name, config.name, version) == (name, default, spec.releases[0].version)


@pytest.mark.parametrize("name", list(specs()))
def test_each_dataset_has_its_builder(name: str) -> None:
    spec = dataset_spec(name)
    cls = builder_class(name)
    assert cls.SPEC is spec and cls is builder_class(name)  # made once
    assert [c.name for c in cls.BUILDER_CONFIGS] == spec.config_names
    default = spec.default_config_name
    assert default == cls.DEFAULT_CONFIG_NAME


def test_parse_spec() -> None:
    assert parse_spec("synthetic") == ("synthetic", None)
    assert parse_spec("synthetic:1.0.0") == ("synthetic", "1.0.0")
    assert parse_spec("synthetic", "1.0.0") == ("synthetic", "1.0.0")
    with pytest.raises(UnknownNameError, match=r"pins version 1\.0\.0 but version='0\.0\.0'"):
        parse_spec("synthetic:1.0.0", "0.0.0")


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("toy:1.0.0/small", "; did you mean 'toy/small:1.0.0'?"),  # the order swapped
        ("toy:1.0.0/", ""),  # nothing to reorder: the grammar alone
        ("toy:1.0.0:2", ""),
        ("toy:1.0.0/a/b", ""),
    ],
)
def test_a_misordered_reference_gets_its_spelling(text: str, hint: str) -> None:
    grammar = "write NAME[/CONFIG][:VERSION], e.g. NAME/CONFIG:1.0.0"
    with pytest.raises(UnknownNameError) as raised:
        parse_reference(text)
    assert str(raised.value) == f"cannot read {text!r}: {grammar}{hint}"


def _unknown_names(name: str) -> list:
    """A misspelt name (one letter dropped), an unreleased version and an unknown config of
    dataset ``name``, and what the error says of each."""
    spec, typo = dataset_spec(name), name[:-2] + name[-1]
    released, configs = ", ".join(spec.versions), ", ".join(spec.config_names)
    cases = {
        "name": (
            {"name": typo},
            rf"unknown dataset '{typo}' \(did you mean '{name}'\?\); available: .*\b{name}\b",
        ),
        "version": (
            {"name": f"{name}:9.9.9"},
            rf"unknown version '9\.9\.9' of {name}; released: {re.escape(released)}$",
        ),
        "config": (
            {"name": name, "config": "nope"},
            rf"unknown config 'nope' .* available: {re.escape(configs)}$",
        ),
    }
    return [pytest.param(*case, id=f"{name}-{what}") for what, case in cases.items()]


@pytest.mark.parametrize(("kwargs", "message"), [c for n in DATASETS for c in _unknown_names(n)])
def test_unknown_names_list_what_exists(kwargs: dict, message: str, tmp_path: Path) -> None:
    with pytest.raises(UnknownNameError, match=message):
        load_dataset(**kwargs, cache_dir=str(tmp_path))


def test_unknown_split_lists_splits(synthetic: str, mirror: Path, session_cache: Path) -> None:
    message = "unknown split 'validation'.*available: train, test$"
    with pytest.raises(UnknownNameError, match=message):
        load_dataset(
            synthetic, split="validation", cache_dir=str(session_cache), mirror=str(mirror)
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
    for name, spec in specs().items():
        assert any(row.split()[:2] == [name, spec.version] for row in rows), name
    assert max(map(len, listing.stdout.splitlines())) <= 100  # headers and lists wrap


def _shown(size: int) -> str:
    """A file size as a person reads it."""
    return f"{size / 1024:.1f} KiB" if size < 1024**2 else f"{size / 1024**2:.1f} MiB"


@pytest.mark.parametrize("name", declaring("UPSTREAM_FILES"))
def test_cli_sources_show_each_pinned_file(name: str) -> None:
    """``sources`` shows the size and sha256 of each file ``UPSTREAM_FILES`` states."""
    sources = _run_cli("sources")
    rows = [row.split() for row in _split_table(sources.stdout.split("\n\n")[0])[2]]
    listed = json.loads(_run_cli("sources", "--format", "json").stdout)
    for source, (size, sha256) in dataset_facts(name).UPSTREAM_FILES.items():
        row = next(row for row in rows if row[:2] == [name, source])
        assert row[2:4] == _shown(size).split() and row[-1] == sha256, row
        pin = next(s for s in listed if (s["dataset"], s["name"]) == (name, source))
        assert (pin["size"], pin["sha256"][: len(sha256)]) == (size, sha256)


def _cells(found: list[str], stated: tuple) -> bool:
    """Whether a table line's cells are those stated (``...`` last: more may follow)."""
    if stated and stated[-1] is Ellipsis:
        return found[: len(stated) - 1] == list(stated[:-1])
    return found == list(stated)


@pytest.mark.parametrize("name", declaring("LABEL_COUNTS"))
def test_cli_build_and_info(name: str, mirror: Path, tmp_path: Path) -> None:
    """``build`` and ``info`` of the default config show what its ``testing.py`` states:
    rows and labels per split, ClassLabel names, and the first rows of tables."""
    spec, facts = dataset_spec(name), dataset_facts(name)
    config = spec.config()
    splits, labels = facts.SPLITS[config.name], facts.LABEL_COUNTS[config.name]
    build = _run_cli("build", name, "-v", "--cache-dir", str(tmp_path), env_mirror=mirror)
    assert build.returncode == 0, build.stderr
    for split, rows in splits.items():
        counts = ", ".join(f"{label} {n:,}" for label, n in labels[split].items())
        assert re.search(rf"{split}\s+{rows:,}\s+{re.escape(counts)}\n", build.stdout), split
        # -v shows every step, as plain lines, even piped
        assert f"{name}/{config.name}: writing split {split} ({rows:,} rows" in build.stderr
    info = _run_cli("info", name, "--cache-dir", str(tmp_path))  # from the cache
    assert info.returncode == 0, info.stderr
    (licence,) = {pin.license.lower() for pin in spec.config_sources(config).values()}
    citation = yaml.safe_load(spec.card_source_path.read_text(encoding="utf-8"))["citation"]
    for expected in (f"version {spec.version}", f"license: {licence}", citation.split("\n")[0]):
        assert expected in info.stdout
    for split, rows in splits.items():
        assert re.search(rf"\n{split}\s+{rows:,}\n", info.stdout)  # the splits table
    words = " ".join(info.stdout.split())  # the features table, its wrapped lines joined
    class_labels = dict(getattr(facts, "CLASS_LABELS", {}))
    if getattr(facts, "LABEL_NAMES", None):
        class_labels["label"] = facts.LABEL_NAMES
    for feature, names in class_labels.items():
        ids = ", ".join(f"{i} {label}" for i, label in enumerate(names))
        assert f" {feature} ClassLabel ({ids}) " in words, feature
    # Every statistics table has headers over its key and value columns (from the card's
    # tables, or a title "cases per label"): none is left blank or called "value".
    for title, (header, first) in getattr(facts, "INFO_TABLES", {}).items():
        table = info.stdout.split(f"\n{title}:\n", 1)[1].split("\n\n")[0]
        headers, _, rows = _split_table(table)  # headers wrap above the rule
        assert _cells(headers[-1].split(), header), (title, headers)
        assert _cells(rows[0].split(), first), (title, rows[0])


def _split_table(text: str) -> tuple[list[str], str, list[str]]:
    """A table's header lines (wrapped headers take several), its rule, and its rows."""
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.strip() and set(line) <= {"-", " "})
    return lines[:rule], lines[rule], lines[rule + 1 :]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("info", "nope"), "error: unknown dataset 'nope'"),
        (("build", "synthetic:9.9.9"), "error: unknown version '9.9.9' of synthetic"),
        (("build", "synthetic", "--config", "nope"), "error: unknown config 'nope' of synthetic"),
    ],
)
def test_cli_errors_have_no_traceback(synthetic: str, args: tuple[str, ...], message: str):
    result = _run_cli_process(*args)
    assert result.returncode == 1
    assert result.stderr.strip().startswith(message)
    assert len(result.stderr.strip().splitlines()) == 1  # one line
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", declaring("UPSTREAM_FILES"))
def test_cli_tampered_source(name: str, mirror: Path, tmp_path: Path) -> None:
    """A mirror whose copy of a file ``UPSTREAM_FILES`` states has one byte changed (its
    size kept) fails the build on the sha256, naming the file once."""
    config, stated = dataset_spec(name).config(), dataset_facts(name).UPSTREAM_FILES
    tampered = next(source for source in config.source_names if source in stated)
    for source in config.source_names:
        url = source_url(name, source)
        copy = upstream_path(tmp_path / "bad", url)
        copy.parent.mkdir(parents=True, exist_ok=True)
        data = upstream_path(mirror, url).read_bytes()
        if source == tampered:
            at = data.index(b"\n") + 1  # the first byte of the first row
            data = data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]
        copy.write_bytes(data)
    result = _run_cli(
        "build", name, "--cache-dir", str(tmp_path / "c"), "--mirror", str(tmp_path / "bad")
    )
    assert result.returncode == 1
    expected = f"expected sha256 {stated[tampered][1][:8]}"
    assert "checksum mismatch" in result.stderr and expected in result.stderr
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    file = "/".join(source_url(name, tampered).split("/")[-2:])
    assert len(error_lines) == 1 and file in error_lines[0]
    assert "Traceback" not in result.stderr
    assert not any(p.is_dir() for p in (tmp_path / "c").glob(f"{name}/*/*"))


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


@pytest.mark.parametrize("name", DATASETS)
def test_dummy_data_builds_through_the_cli(name: str, fake_mirror, tmp_path: Path, capsys) -> None:
    """The dataset's last config other than the default (if it has one), named by --config,
    builds from its dummy data into the split sizes ``DUMMY_SPLITS`` states."""
    spec = dataset_spec(name)
    others = [c.name for c in spec.configs if c.name != spec.default_config_name]
    config = (others or [spec.default_config_name])[-1]
    mirror = fake_mirror(name)
    args = ["--cache-dir", str(tmp_path), "--mirror", str(mirror)]
    assert main(["build", name, "--config", config, *args]) == 0
    out = capsys.readouterr().out
    sizes = dataset_facts(name).DUMMY_SPLITS[config]
    for split, rows in sizes.items():
        assert re.search(rf"^{split}\s+{rows:,}\s", out, re.MULTILINE), (split, out)
    assert spec.config(config).split_names == list(sizes)
