"""What a licence lets the package do: read from the SPDX id ``checksums.tsv`` pins.

A built dataset is a re-typed copy of upstream's files (Adapted Material, in Creative
Commons' terms). Under a NoDerivatives licence a user may build it but not share it, so
``push`` refuses and ``export`` needs ``--own-use``; a NonCommercial licence is said in
the card and by ``info``. The facts: CC BY-NC-ND 4.0, section 2(a)(1)(B).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from hatemoji_datasets.cli import main
from hatemoji_datasets.core.licences import Licence, LicenceError
from hatemoji_datasets.core.registry import specs
from hatemoji_datasets.core.spec import DatasetSpec

#: The dataset whose pins these tests relicense (its files are small and neutral to build).
RELICENSED = "hatemoji_check"
NO_DERIVATIVES = "CC-BY-NC-ND-4.0"


@pytest.mark.parametrize(
    ("spdx", "no_derivatives", "non_commercial", "url"),
    [
        ("CC-BY-4.0", False, False, "https://creativecommons.org/licenses/by/4.0/"),
        ("CC-BY-SA-4.0", False, False, "https://creativecommons.org/licenses/by-sa/4.0/"),
        ("CC-BY-NC-4.0", False, True, "https://creativecommons.org/licenses/by-nc/4.0/"),
        ("CC-BY-ND-4.0", True, False, "https://creativecommons.org/licenses/by-nd/4.0/"),
        ("CC-BY-NC-ND-4.0", True, True, "https://creativecommons.org/licenses/by-nc-nd/4.0/"),
        ("CC0-1.0", False, False, "https://creativecommons.org/publicdomain/zero/1.0/"),
        ("MIT", False, False, None),
    ],
)
def test_terms_come_from_the_spdx_id(
    spdx: str, no_derivatives: bool, non_commercial: bool, url: str | None
) -> None:
    licence = Licence(spdx)
    assert (licence.no_derivatives, licence.non_commercial, licence.url) == (
        no_derivatives,
        non_commercial,
        url,
    )
    assert len(licence.terms()) == no_derivatives + non_commercial


@pytest.mark.parametrize("spdx", ["cc-by-4.0", "CC-BY-3.0", "CC-BY-ND-SA-4.0", "GPL-ish", ""])
def test_an_id_not_understood_is_refused_by_name(spdx: str) -> None:
    with pytest.raises(LicenceError, match=f"licence {spdx!r} is not understood"):
        Licence(spdx)


def test_every_pinned_licence_is_understood() -> None:
    for spec in specs().values():
        for file in spec.source_files().values():
            Licence(file.license)  # raises, naming the id, if not


@pytest.fixture
def no_derivatives(monkeypatch: pytest.MonkeyPatch) -> None:
    """``RELICENSED``'s files pinned under CC BY-NC-ND 4.0."""
    pinned = DatasetSpec.source_files

    def relicensed(self: DatasetSpec) -> dict:
        files = pinned(self)
        if self.name != RELICENSED:
            return files
        return {k: dataclasses.replace(f, license=NO_DERIVATIVES) for k, f in files.items()}

    monkeypatch.setattr(DatasetSpec, "source_files", relicensed)


def test_push_refuses_a_no_derivatives_dataset_even_dry(no_derivatives, tmp_path, capsys) -> None:
    args = ["push", RELICENSED, "--repo-id", "org/name", "--dry-run"]
    assert main([*args, "--cache-dir", str(tmp_path / "never-built")]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [
        f"error: {RELICENSED}: {NO_DERIVATIVES} forbids sharing an adapted copy "
        "(NoDerivatives, section 2(a)(1)(B)); a built export is one. Export it for your own "
        "use with --own-use; it cannot be pushed"
    ]
    assert not (tmp_path / "never-built").exists()  # refused before building anything


def test_export_needs_own_use_and_then_says_so_in_the_card(
    no_derivatives, tmp_path: Path, session_cache: Path, mirror: Path, capsys
) -> None:
    out = tmp_path / "export"
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["export", RELICENSED, "--out", str(out), *where]) == 1
    assert "Export it for your own use with --own-use" in capsys.readouterr().err
    assert not out.exists()
    assert main(["export", RELICENSED, "--out", str(out), "--own-use", *where]) == 0
    card = (out / "README.md").read_text(encoding="utf-8")
    assert f"**{NO_DERIVATIVES} is NoDerivatives: its section 2(a)(1)(B)" in card
    assert f"**{NO_DERIVATIVES} is NonCommercial: use it" in card


def test_info_states_the_terms(no_derivatives, session_cache: Path, mirror: Path, capsys) -> None:
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["info", RELICENSED, *where]) == 0
    text = capsys.readouterr().out
    assert f"terms: {NO_DERIVATIVES} is NonCommercial: use it for non-commercial" in text
    assert f"terms: {NO_DERIVATIVES} is NoDerivatives:" in text
    assert main(["info", RELICENSED, *where, "--format", "json"]) == 0
    terms = json.loads(capsys.readouterr().out)["licence_terms"]
    assert [sentence.split(":")[0] for sentence in terms] == [
        f"{NO_DERIVATIVES} is NonCommercial",
        f"{NO_DERIVATIVES} is NoDerivatives",
    ]


def test_a_shareable_dataset_states_no_terms(session_cache: Path, mirror: Path, capsys) -> None:
    where = ["--cache-dir", str(session_cache), "--mirror", str(mirror)]
    assert main(["info", RELICENSED, *where, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["licence_terms"] == []
