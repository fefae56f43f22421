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
from functools import lru_cache
from json.encoder import encode_basestring
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
    spool = report.spool
    # Where memory holds every finding shown, the spool is counted, not read back.
    in_memory = spool is not None and 0 < max_findings <= spool.keep
    seen: Counter[str] = Counter()
    for finding in spool.kept if in_memory else report.every_finding():
        seen[finding.code] += 1
        if max_findings <= 0 or seen[finding.code] <= max_findings:
            out.write(render_one(report, finding) + "\n")
    if in_memory:
        seen = spool.of_code  # every finding of each code, in the order codes came
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
    opening = "[\n"  # a finding is an object two levels in, laid out as indent=2 does
    for finding in report.every_finding():
        d = _as_dict(report, finding)
        out.write(
            f'{opening}    {{\n      "code": {_json(d["code"])},\n'
            f'      "severity": {_json(d["severity"])},\n      "file": {_json(d["file"])},\n'
            f'      "line": {_json(d["line"])},\n      "column": {_json(d["column"])},\n'
            f'      "message": {_json(d["message"])},\n      "value": {_json(d["value"])},\n'
            f'      "expected": {_json(d["expected"])}\n    }}'
        )
        opening = ",\n"
    out.write("[]" if opening == "[\n" else "\n  ]")
    out.write(tail + "\n")


def _json(value: object) -> str:
    """A finding's member as ``json.dumps(ensure_ascii=False)`` writes it (a string, a line
    number or null), without the encoder's per-call cost."""
    if value is None:
        return "null"
    return str(value) if isinstance(value, int) else encode_basestring(str(value))


@lru_cache(maxsize=4096)
def _safe(text: str) -> str:
    # A file name, and a message or value a flood of findings repeats, are escaped once.
    return safe(text)


@lru_cache(maxsize=4096)
def _shown(text: str) -> str:
    return shown(text)


def _as_dict(report: ValidationReport, finding: Finding) -> dict[str, object]:
    return {
        "code": finding.code,
        "severity": report.severity(finding),
        "file": _safe(finding.file),
        "line": finding.line,
        "column": None if finding.column is None else _safe(finding.column),
        "message": _safe(finding.message),
        "value": None if finding.value is None else _shown(finding.value),
        "expected": None if finding.expected is None else _shown(finding.expected),
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
