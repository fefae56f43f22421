"""The report of ``validate``, and its renderings: text, JSON or GitHub workflow commands.

Every value and name is escaped, in every format: a file name or cell with a
newline or a control character cannot start a line of its own (and so cannot
issue a workflow command such as ``::stop-commands::``).
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

from hatemoji_datasets.core.findings import Finding, safe, shown
from hatemoji_datasets.validate.spool import FindingSpool

#: JSON report format version; bump on any incompatible change.
REPORT_FORMAT = 1
#: Text and GitHub reports show this many findings of each code, then one line with the
#: rest's count (GitHub annotates only a handful per step; a person reads no more).
MAX_FINDINGS_PER_CODE = 20


@dataclass
class ValidationReport:
    """Every finding of ``validate`` for a set of files, in a stable order."""

    files: list[str]
    #: Every finding; where ``spool`` holds them, only the first few of each code.
    findings: list[Finding] = field(default_factory=list)
    strict: bool = False
    #: Suggestions beside the findings (a file that fits another dataset); no finding.
    hints: list[str] = field(default_factory=list)
    #: Every finding, on disk, where the streaming validator made them (any number).
    spool: FindingSpool | None = None

    def severity(self, finding: Finding) -> str:
        return "error" if finding.severity == "error" or self.strict else "warning"

    def every_finding(self) -> Iterator[Finding]:
        """Every finding in report order, one at a time (from the spool, if any)."""
        return iter(self.spool if self.spool is not None else self.findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if self.severity(f) == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if self.severity(f) == "warning"]

    @property
    def unreadable(self) -> list[Finding]:
        return [f for f in self.findings if f.unreadable]

    def counts(self) -> tuple[int, int]:
        """Errors and warnings, every finding counted."""
        if self.spool is None:
            return len(self.errors), len(self.warnings)
        errors = sum(n for (_, s), n in self.spool.counts.items() if s == "error" or self.strict)
        return errors, len(self.spool) - errors

    @property
    def exit_code(self) -> int:
        if self.unreadable:
            return 2
        return 1 if self.counts()[0] else 0

    def close(self) -> None:
        """Remove the spool, if any (the report keeps only what is in memory)."""
        if self.spool is not None:
            self.spool.close()


def render(report: ValidationReport, fmt: str, max_findings: int = MAX_FINDINGS_PER_CODE) -> str:
    """The report as text, JSON or GitHub workflow commands (:func:`write_report`), as one
    string."""
    out = io.StringIO()
    write_report(report, fmt, out, max_findings)
    return out.getvalue().removesuffix("\n")


def write_report(
    report: ValidationReport,
    fmt: str,
    out: TextIO,
    max_findings: int = MAX_FINDINGS_PER_CODE,
) -> None:
    """Write the report to ``out`` as text, JSON or GitHub workflow commands, a finding at
    a time (memory does not grow with their number).

    Text and GitHub show the first ``max_findings`` findings of each code, then
    one line per code with how many more there are (0: show every finding).
    JSON lists every finding.
    """
    if fmt == "json":
        _write_json(report, out)
        return
    render_one = _text_line if fmt == "text" else _github_line
    seen: Counter[str] = Counter()
    for finding in report.every_finding():
        seen[finding.code] += 1
        if max_findings <= 0 or seen[finding.code] <= max_findings:
            out.write(render_one(report, finding) + "\n")
    hidden = {code: n - max_findings for code, n in seen.items() if 0 < max_findings < n}
    lines = [f"... and {count:,} more {safe(code)}" for code, count in hidden.items()]
    if hidden:
        lines.append(
            f"(the first {max_findings:,} findings of each code are shown; "
            "--max-findings N shows more, 0 all; --format json lists every finding)"
        )
    lines += [f"hint: {safe(hint)}" for hint in report.hints]
    lines.append(_summary(report))
    out.write("\n".join(lines) + "\n")


def _summary(report: ValidationReport) -> str:
    errors, warnings = report.counts()
    unreadable = len(report.unreadable)
    tail = f", {unreadable:,} unreadable file(s)" if unreadable else ""
    return f"{errors:,} error(s), {warnings:,} warning(s) in {len(report.files):,} file(s){tail}"


def _text_line(report: ValidationReport, finding: Finding) -> str:
    return f"{report.severity(finding)}: {safe(str(finding))}"


#: Stands for the findings in the JSON document around them (a string no value holds).
_FINDINGS = "\x00findings\x00"


def _write_json(report: ValidationReport, out: TextIO) -> None:
    """The document ``json.dumps(..., indent=2)`` would give, its findings written one by
    one between the rest (which is small)."""
    errors, warnings = report.counts()
    document = {
        "format": REPORT_FORMAT,
        "files": [safe(f) for f in report.files],
        "exit_code": report.exit_code,
        "errors": errors,
        "warnings": warnings,
        "findings": _FINDINGS,
        **({"hints": [safe(hint) for hint in report.hints]} if report.hints else {}),
    }
    head, tail = json.dumps(document, ensure_ascii=False, indent=2).split(json.dumps(_FINDINGS))
    out.write(head)
    opening = "[\n    "  # a finding is an object two levels in
    for finding in report.every_finding():
        item = json.dumps(_as_dict(report, finding), ensure_ascii=False, indent=2)
        out.write(opening + item.replace("\n", "\n    "))
        opening = ",\n    "
    out.write("[]" if opening.startswith("[") else "\n  ]")
    out.write(tail + "\n")


def _as_dict(report: ValidationReport, finding: Finding) -> dict[str, object]:
    return {
        "code": finding.code,
        "severity": report.severity(finding),
        "file": safe(finding.file),
        "line": finding.line,
        "column": None if finding.column is None else safe(finding.column),
        "message": safe(finding.message),
        "value": None if finding.value is None else shown(finding.value),
        "expected": None if finding.expected is None else shown(finding.expected),
    }


def _escape_data(text: str) -> str:
    # GitHub's workflow-command escaping: message data, then property values.
    return safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github_line(report: ValidationReport, f: Finding) -> str:
    properties = [f"file={_escape_property(f.file)}"]
    if f.line is not None:
        properties.append(f"line={f.line}")
    properties.append(f"title={_escape_property(f.code)}")
    return f"::{report.severity(f)} {','.join(properties)}::{_escape_data(f.detail())}"
