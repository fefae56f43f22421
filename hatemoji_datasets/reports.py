"""Rendering a contribution report as text, JSON or GitHub workflow commands."""

from __future__ import annotations

import json

from hatemoji_datasets.contributions import Report
from hatemoji_datasets.validation import Violation


def render(report: Report, fmt: str) -> str:
    return {"text": _text, "json": _json, "github": _github}[fmt](report)


def _severity(report: Report, v: Violation) -> str:
    return "error" if v.severity == "error" or report.strict else "warning"


def _summary(report: Report) -> str:
    errors, warnings = len(report.errors), len(report.warnings)
    unreadable = f", {len(report.unreadable)} unreadable file(s)" if report.unreadable else ""
    return f"{errors} error(s), {warnings} warning(s) in {len(report.files)} file(s){unreadable}"


def _text(report: Report) -> str:
    lines = [f"error: {message}" for message in report.unreadable]
    lines += [f"{_severity(report, v)}: {v}" for v in report.violations]
    lines.append(_summary(report))
    return "\n".join(lines)


def _json(report: Report) -> str:
    return json.dumps(
        {
            "files": report.files,
            "exit_code": report.exit_code,
            "errors": len(report.errors),
            "warnings": len(report.warnings),
            "unreadable": report.unreadable,
            "violations": [
                {
                    "file": v.file,
                    "line": v.line,
                    "column": v.column,
                    "rule": v.rule,
                    "value": v.value,
                    "severity": _severity(report, v),
                }
                for v in report.violations
            ],
        },
        ensure_ascii=False,
        indent=2,
    )


def _escape_data(text: str) -> str:
    # GitHub's workflow-command escaping: message data, then property values.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(report: Report) -> str:
    lines = [f"::error::{_escape_data(message)}" for message in report.unreadable]
    for v in report.violations:
        properties = [f"file={_escape_property(v.file)}"]
        if v.line is not None:
            properties.append(f"line={v.line}")
        properties.append(f"title={_escape_property(v.rule[:80])}")
        column = f"column {v.column!r}: " if v.column else ""
        value = f" (value {v.value!r})" if v.value is not None else ""
        message = _escape_data(f"{column}{v.rule}{value}")
        lines.append(f"::{_severity(report, v)} {','.join(properties)}::{message}")
    lines.append(_summary(report))
    return "\n".join(lines)
