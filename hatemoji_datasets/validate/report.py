"""Rendering a contribution report as text, JSON or GitHub workflow commands.

Every value and name is escaped, in every format: a file name or cell with a
newline or a control character cannot start a line of its own (and so cannot
issue a workflow command such as ``::stop-commands::``).
"""

from __future__ import annotations

import json

from hatemoji_datasets.contributions import REPORT_FORMAT, Report
from hatemoji_datasets.findings import Finding, safe


def render(report: Report, fmt: str) -> str:
    return {"text": _text, "json": _json, "github": _github}[fmt](report)


def _summary(report: Report) -> str:
    errors, warnings = len(report.errors), len(report.warnings)
    unreadable = len(report.unreadable)
    tail = f", {unreadable} unreadable file(s)" if unreadable else ""
    return f"{errors} error(s), {warnings} warning(s) in {len(report.files)} file(s){tail}"


def _text(report: Report) -> str:
    lines = [f"{report.severity(f)}: {safe(str(f))}" for f in report.findings]
    lines.append(_summary(report))
    return "\n".join(lines)


def _json(report: Report) -> str:
    return json.dumps(
        {
            "format": REPORT_FORMAT,
            "files": [safe(f) for f in report.files],
            "exit_code": report.exit_code,
            "errors": len(report.errors),
            "warnings": len(report.warnings),
            "findings": [_as_dict(report, f) for f in report.findings],
        },
        ensure_ascii=False,
        indent=2,
    )


def _as_dict(report: Report, finding: Finding) -> dict[str, object]:
    return {
        "code": finding.code,
        "severity": report.severity(finding),
        "file": safe(finding.file),
        "line": finding.line,
        "column": None if finding.column is None else safe(finding.column),
        "message": safe(finding.message),
        "value": None if finding.value is None else safe(finding.value),
        "expected": None if finding.expected is None else safe(finding.expected),
    }


def _escape_data(text: str) -> str:
    # GitHub's workflow-command escaping: message data, then property values.
    return safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(report: Report) -> str:
    lines = []
    for f in report.findings:
        properties = [f"file={_escape_property(f.file)}"]
        if f.line is not None:
            properties.append(f"line={f.line}")
        properties.append(f"title={_escape_property(f.code)}")
        lines.append(f"::{report.severity(f)} {','.join(properties)}::{_escape_data(f.detail())}")
    lines.append(_summary(report))
    return "\n".join(lines)
