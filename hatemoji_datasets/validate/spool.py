"""Findings kept on disk as they are made, so memory does not grow with their number.

A hostile contribution can break a rule on every one of millions of rows. The
streaming validator writes each finding to a :class:`FindingSpool` (a temporary
file of pickled batches, in the order made, which is report order) and keeps in memory
only the first few of each code and the counts; the report is then written from
the spool, one finding at a time.

The file is created unlinked (:func:`tempfile.TemporaryFile`): nothing is left
behind, whether the run ends, fails or is interrupted, and no other process can
open it (so reading back its pickles trusts only what this process wrote).
"""

from __future__ import annotations

import pickle
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator

from hatemoji_datasets.core.findings import Finding

#: Findings of each code a spool also keeps in memory (``ValidationReport.findings``).
KEPT_IN_MEMORY = 1_000


class FindingSpool:
    """Every finding of a check, on disk in the order added; counts by code and severity,
    and the first ``keep`` findings of each code, in memory."""

    def __init__(self, keep: int | None = None) -> None:
        # Closed by close(), or with the process: the file has no name to leave behind.
        self._file = tempfile.TemporaryFile()  # noqa: SIM115
        self.keep = KEPT_IN_MEMORY if keep is None else keep
        #: The first ``keep`` findings of each code, in order.
        self.kept: list[Finding] = []
        #: Findings by (code, severity).
        self.counts: Counter[tuple[str, str]] = Counter()
        #: Findings by code, in the order codes first came.
        self.of_code: Counter[str] = Counter()

    def add(self, finding: Finding) -> None:
        self.extend([finding])

    def extend(self, findings: Iterable[Finding]) -> None:
        """Add findings, written as one pickled list (a batch's findings at a time)."""
        rows = []
        for f in findings:
            line = None if f.line is None else int(f.line)  # a numpy integer, say
            rows.append(
                (f.file, line, f.column, f.code, f.message, f.value, f.expected, f.severity)
            )
            self.counts[f.code, f.severity] += 1
            self.of_code[f.code] += 1
            if self.of_code[f.code] <= self.keep:
                self.kept.append(f)
        if rows:
            pickle.dump(rows, self._file, protocol=pickle.HIGHEST_PROTOCOL)

    def __len__(self) -> int:
        return self.of_code.total()

    def __iter__(self) -> Iterator[Finding]:
        """Every finding, in the order added (read back from the file, a batch at a time)."""
        self._file.flush()
        self._file.seek(0)
        try:
            while True:
                for row in pickle.load(self._file):  # noqa: S301 - this process's own file
                    yield Finding(*row)
        except EOFError:
            pass
        finally:
            self._file.seek(0, 2)  # further findings are appended

    def close(self) -> None:
        self._file.close()
