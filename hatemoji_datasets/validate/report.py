"""The report of ``validate``, and its renderings: text, JSON or GitHub workflow commands.

Every value and name is escaped, in every format: a file name or cell with a
newline or a control character cannot start a line of its own (and so cannot
issue a workflow command such as ``::stop-commands::``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from hatemoji_datasets.core.findings import Finding, safe, shown

#: JSON report format version; bump on any incompatible change.
REPORT_FORMAT = 1
#: Text and GitHub reports show this many findings of each code, then one line with the
#: rest's count (GitHub annotates only a handful per step; a person reads no more).
MAX_FINDINGS_PER_CODE = 20


@dataclass
class ValidationReport:
    """Every finding of ``validate`` for a set of files, in a stable order."""

    files: list[str]
    findings: list[Finding] = field(default_factory=list)
    strict: bool = False
    #: Suggestions beside the findings (a file that fits another dataset); no finding.
    hints: list[str] = field(default_factory=list)
    #: Findings counted but not kept, by code: past the first ``KEPT_PER_CODE`` of a
    #: code the streaming validator keeps (they share the kept ones' severity).
    omitted: Counter[str] = field(default_factory=Counter)

    def severity(self, finding: Finding) -> str:
        return "error" if finding.severity == "error" or self.strict else "warning"

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
        """Errors and warnings, the omitted ones included."""
        errors, warnings = len(self.errors), len(self.warnings)
        for code, count in self.omitted.items():
            one = next(f for f in self.findings if f.code == code)
            if self.severity(one) == "error":
                errors += count
            else:
                warnings += count
        return errors, warnings

    @property
    def exit_code(self) -> int:
        if self.unreadable:
            return 2
        return 1 if self.counts()[0] else 0


def render(report: ValidationReport, fmt: str, max_findings: int = MAX_FINDINGS_PER_CODE) -> str:
    """The report as text, JSON or GitHub workflow commands.

    Text and GitHub show the first ``max_findings`` findings of each code, then
    one line per code with how many more there are (0: show every finding).
    JSON holds every finding the report keeps; where the streaming validator kept
    only the first of a code, ``omitted`` counts the rest, and the error and warning
    counts are always exact.
    """
    if fmt == "json":
        return _json(report)
    shown_findings, hidden = bounded(report.findings, max_findings)
    for code, count in report.omitted.items():
        hidden[code] = hidden.get(code, 0) + count
    render_one = _text_line if fmt == "text" else _github_line
    lines = [render_one(report, f) for f in shown_findings]
    lines += [f"... and {count:,} more {safe(code)}" for code, count in hidden.items()]
    if hidden and not report.omitted:
        lines.append(
            f"(the first {max_findings:,} findings of each code are shown; "
            "--max-findings N shows more, 0 all; --format json lists every finding)"
        )
    elif hidden:
        lines.append(
            f"(the first {max_findings:,} findings of each code are shown; --max-findings N "
            f"shows more, 0 all, and --format json the first {_kept(report):,} of each code)"
        )
    lines += [f"hint: {safe(hint)}" for hint in report.hints]
    lines.append(_summary(report))
    return "\n".join(lines)


def bounded(findings: list[Finding], limit: int) -> tuple[list[Finding], dict[str, int]]:
    """The first ``limit`` findings of each code (in order), and how many of each are left."""
    if limit <= 0:
        return findings, {}
    seen: Counter[str] = Counter()
    kept = []
    for finding in findings:
        seen[finding.code] += 1
        if seen[finding.code] <= limit:
            kept.append(finding)
    hidden = {code: count - limit for code, count in seen.items() if count > limit}
    return kept, hidden


def _kept(report: ValidationReport) -> int:
    return max(sum(1 for f in report.findings if f.code == code) for code in report.omitted)


def _summary(report: ValidationReport) -> str:
    errors, warnings = report.counts()
    unreadable = len(report.unreadable)
    tail = f", {unreadable:,} unreadable file(s)" if unreadable else ""
    return f"{errors:,} error(s), {warnings:,} warning(s) in {len(report.files):,} file(s){tail}"


def _text_line(report: ValidationReport, finding: Finding) -> str:
    return f"{report.severity(finding)}: {safe(str(finding))}"


def _json(report: ValidationReport) -> str:
    return json.dumps(
        {
            "format": REPORT_FORMAT,
            "files": [safe(f) for f in report.files],
            "exit_code": report.exit_code,
            "errors": report.counts()[0],
            "warnings": report.counts()[1],
            "findings": [_as_dict(report, f) for f in report.findings],
            **({"omitted": dict(report.omitted)} if report.omitted else {}),
            **({"hints": [safe(hint) for hint in report.hints]} if report.hints else {}),
        },
        ensure_ascii=False,
        indent=2,
    )


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
