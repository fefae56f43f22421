"""Findings kept on disk as they are made, so memory does not grow with their number.

A hostile contribution can break a rule on every one of millions of rows. The
streaming validator writes each finding to a :class:`FindingSpool` (a temporary
file of JSON lines, in the order made, which is report order) and keeps in memory
only the first few of each code and the counts; the report is then written from
the spool, one finding at a time.

The file is created unlinked (:func:`tempfile.TemporaryFile`): nothing is left
behind, whether the run ends, fails or is interrupted.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator

from hatemoji_datasets.core.findings import Finding

#: Findings of each code a spool also keeps in memory (``ValidationReport.findings``).
KEPT_IN_MEMORY = 1_000


class FindingSpool:
    """Every finding of a check, on disk in the order added; counts by code and severity,
    and the first ``keep`` findings of each code, in memory."""

    def __init__(self, keep: int = KEPT_IN_MEMORY) -> None:
        # Closed by close(), or with the process: the file has no name to leave behind.
        self._file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.keep = keep
        #: The first ``keep`` findings of each code, in order.
        self.kept: list[Finding] = []
        #: Findings by (code, severity).
        self.counts: Counter[tuple[str, str]] = Counter()
        self._of_code: Counter[str] = Counter()

    def add(self, finding: Finding) -> None:
        f = finding
        # ASCII JSON: a file name's undecodable bytes (lone surrogates) survive the trip.
        line = None if f.line is None else int(f.line)  # a numpy integer, say
        row = [f.file, line, f.column, f.code, f.message, f.value, f.expected, f.severity]
        self._file.write(json.dumps(row) + "\n")
        self.counts[f.code, f.severity] += 1
        self._of_code[f.code] += 1
        if self._of_code[f.code] <= self.keep:
            self.kept.append(f)

    def extend(self, findings: Iterable[Finding]) -> None:
        for finding in findings:
            self.add(finding)

    def __len__(self) -> int:
        return self._of_code.total()

    def __iter__(self) -> Iterator[Finding]:
        """Every finding, in the order added (read back from the file)."""
        self._file.flush()
        self._file.seek(0)
        for line in self._file:
            yield Finding(*json.loads(line))
        self._file.seek(0, 2)  # further findings are appended

    def close(self) -> None:
        self._file.close()
