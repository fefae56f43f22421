"""What a dataset's licences let this package do with it, read from the SPDX ids its
``checksums.tsv`` pins for each upstream file.

A built dataset re-types upstream's files (new columns, Arrow and Parquet instead of CSV):
Creative Commons calls that Adapted Material. A NoDerivatives licence lets anyone build
it for their own use but not share it, so ``export`` needs an explicit flag and ``push``
refuses; a NonCommercial one is said in the card and by ``info``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hatemoji_datasets.core.errors import HatemojiDatasetsError

if TYPE_CHECKING:
    from hatemoji_datasets.core.spec import DatasetSpec

#: The Creative Commons 4.0 licences, and the public-domain dedication, by SPDX id.
_CREATIVE_COMMONS = re.compile(r"^CC-BY(?P<terms>(?:-NC)?(?:-ND|-SA)?)-4\.0$|^CC0-1\.0$")
#: Other licences a data file may carry, which restrict neither use nor sharing.
_PERMISSIVE = frozenset({"MIT", "Apache-2.0", "BSD-3-Clause", "ODC-By-1.0", "PDDL-1.0"})
#: The export flag that takes the NoDerivatives terms on, said once for the CLI and messages.
OWN_USE_FLAG = "--own-use"


class LicenceError(HatemojiDatasetsError):
    """A licence forbids what was asked, or a licence id is not understood."""

    code = "LICENCE"


@dataclass(frozen=True)
class Licence:
    """One SPDX licence id and the terms this package acts on."""

    spdx: str

    def __post_init__(self) -> None:
        if not (_CREATIVE_COMMONS.match(self.spdx) or self.spdx in _PERMISSIVE):
            known = "CC-BY[-NC][-ND|-SA]-4.0, CC0-1.0, " + ", ".join(sorted(_PERMISSIVE))
            raise LicenceError(f"licence {self.spdx!r} is not understood (known: {known})")

    @property
    def no_derivatives(self) -> bool:
        return "-ND-" in self.spdx

    @property
    def non_commercial(self) -> bool:
        return "-NC-" in self.spdx

    @property
    def url(self) -> str | None:
        """The licence's deed, for Creative Commons licences."""
        match = _CREATIVE_COMMONS.match(self.spdx)
        if not match:
            return None
        if self.spdx == "CC0-1.0":
            return "https://creativecommons.org/publicdomain/zero/1.0/"
        return f"https://creativecommons.org/licenses/by{match['terms'].lower()}/4.0/"

    def terms(self) -> list[str]:
        """The terms a user of the built data must know, in a sentence each."""
        said = []
        if self.non_commercial:
            said.append(f"{self.spdx} is NonCommercial: use it for non-commercial purposes only.")
        if self.no_derivatives:
            said.append(
                f"{self.spdx} is NoDerivatives: its section 2(a)(1)(B) lets you produce a "
                "re-typed copy, as this package builds, but not share it. Build it for your "
                "own use; do not publish an export."
            )
        return said


def licences(spec: DatasetSpec) -> list[Licence]:
    """The distinct licences of the files a dataset's current version reads, in SPDX id
    order."""
    return [Licence(spdx) for spdx in sorted({f.license for f in spec.source_files().values()})]


def terms(spec: DatasetSpec) -> list[str]:
    """What a user of the dataset's built data must know of its licences."""
    return [sentence for licence in licences(spec) for sentence in licence.terms()]


def check_shareable(spec: DatasetSpec, *, own_use: bool = False) -> None:
    """Refuse to write a copy of the dataset to share (``export`` without ``own_use``, and
    ``push`` always) when one of its licences forbids sharing adapted material."""
    forbidding = [licence for licence in licences(spec) if licence.no_derivatives]
    if forbidding and not own_use:
        ids = ", ".join(licence.spdx for licence in forbidding)
        raise LicenceError(
            f"{spec.name}: {ids} forbids sharing an adapted copy (NoDerivatives, section "
            f"2(a)(1)(B)); a built export is one. Export it for your own use with {OWN_USE_FLAG}; "
            "it cannot be pushed"
        )
