"""The validate group's tables and target rows: per size, the Multilingual HateCheck file.

Standard library only, like the harness (``benchmarks/run.py``).
"""

from __future__ import annotations

from report import TARGETS, Pairs, both, failed_note, num, table, verdict


def _linearity(points: list[tuple[float, float | None]]) -> str:
    slopes: list[float | None] = [
        None if y0 is None or y1 is None or x1 == x0 else (y1 - y0) / (x1 - x0)
        for (x0, y0), (x1, y1) in zip(points, points[1:])
    ]
    if not slopes:
        return "n/a (one size)"
    if any(s is None for s in slopes):
        return "error"
    text = ", ".join(f"{s:.1f}" for s in slopes)
    linear = len(slopes) < 2 or slopes[-1] <= 1.5 * max(slopes[0], 0.1)  # type: ignore[operator]
    word = "linear" if linear else "**grows faster than linear**"
    return f"{word} (MB of peak per MB of file between consecutive sizes: {text})"


def _pairs(results: dict, rows: int) -> Pairs | None:
    return results[rows][1] if rows in results else None


def _peak_ratio(results: dict, rows: int, of: int) -> float | None:
    """Validate's median peak at ``rows`` over its median peak at ``of`` rows (same run)."""
    mine, base = _pairs(results, rows), _pairs(results, of)
    if mine is None or base is None:
        return None
    top, bottom = mine.peak_median("a"), base.peak_median("a")
    return top / bottom if top is not None and bottom else None


def _size_targets(rows: int, roles: dict[str, int]) -> tuple[float | None, float | None]:
    """The time and memory (vs read_csv) targets at ``rows``, where a figure is stated."""
    if rows == roles["small"]:
        return TARGETS["validate_small"], None
    if rows == roles["large"]:
        return TARGETS["validate_large"], TARGETS["validate_large_memory"]
    return None, None


def _target(value: float | None, limit: float | None, unit: str = "x") -> list[str]:
    """The target and met cells of one figure (``-`` where none is stated at this size)."""
    if limit is None:
        return ["-", "-"]
    return [
        f"<= {limit:g}{unit}" if unit == "x" else f"<= {limit:,g} {unit}",
        verdict(value, limit),
    ]


def findings_text(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else "-"


def validate_table(results: dict, roles: dict[str, int]) -> list[str]:
    rows = []
    large = roles["large"]
    for count, (size_mb, pairs, _) in sorted(results.items()):
        ratio, memory = pairs.ratio(), pairs.ratio("peak_mb")
        limit, memory_limit = _size_targets(count, roles)
        huge = count == roles["huge"]
        own = _peak_ratio(results, count, large) if huge else None
        codes = {r.get("exit_code") for r in pairs.a if r}
        rows.append(
            [
                f"{count:,}{failed_note(pairs)}",
                num(size_mb, 1),
                num(pairs.wall("a")),
                num(pairs.wall("b")),
                num(ratio),
                *_target(ratio, limit),
                both(pairs.step("a"), pairs.step("b")),
                both(pairs.peak("a"), pairs.peak("b"), 0),
                num(memory),
                *_target(memory, memory_limit),
                num(own) if huge else "-",
                *_target(own, TARGETS["validate_huge_memory"] if huge else None),
                *_target(pairs.peak("a"), TARGETS["validate_huge_mb"] if huge else None, "MB"),
                ", ".join(str(c) for c in sorted(codes, key=str)) or "-",
                findings_text(pairs.extra("a", "findings")),
            ]
        )
    header = [
        "rows",
        "file MB",
        "validate s",
        "read_csv s",
        "ratio",
        "target",
        "met",
        "step s (validate / read_csv)",
        "peak MB (validate / read_csv)",
        "memory ratio",
        "target",
        "met",
        f"peak / own {large:,}-row peak",
        "target",
        "met",
        "peak target",
        "met",
        "exit code",
        "findings",
    ]
    points = sorted(results.items())
    mine = [(size, pairs.peak("a")) for _, (size, pairs, _) in points]
    theirs = [(size, pairs.peak("b")) for _, (size, pairs, _) in points]
    lines = [
        "### `validate` vs a `pandas.read_csv` process",
        "",
        *table(header, rows),
        "",
        f"- Memory of `validate`: {_linearity(mine)}.",
        f"- Memory of `read_csv`: {_linearity(theirs)}.",
        "- Linear: the last slope is at most 1.5x the first.",
        f"- Peak / own {large:,}-row peak: validate's median peak at that size over its median "
        f"peak at {large:,} rows in this run; the peak target is on the largest peak seen.",
        "",
    ]
    peers = [(count, size, peer) for count, (size, _, peer) in sorted(results.items()) if peer]
    if peers:
        peer_rows = [
            [
                f"{count:,}{failed_note(peer)}",
                num(size, 1),
                num(peer.wall("a")),
                num(peer.wall("b")),
                num(peer.ratio()),
                *_target(peer.ratio(), TARGETS["peer"]),
                both(peer.peak("a"), peer.peak("b"), 0),
            ]
            for count, size, peer in peers
        ]
        header = ["rows", "file MB", "validate s", "frictionless s", "ratio", "target", "met"]
        lines += [
            "### `validate` vs `frictionless validate` (exported Table Schema, same file)",
            "",
            *table([*header, "peak MB (validate / frictionless)"], peer_rows),
            "",
        ]
    return lines


def _mhc_peak(mhc: dict) -> tuple[float | None, str]:
    """The validate side's peak (the largest seen), and how its run ended."""
    killed = mhc.get("killed")
    if killed:
        peak = killed.get("peak_mb")
        at = f"killed at {peak:,.0f} MB" if peak is not None else "killed, peak unknown"
        return peak, f"stopped: {killed['killed']} after {killed['wall']:,.0f} s, {at}"
    return mhc["pairs"].peak("a"), "finished"


def mhc_table(mhc: dict) -> list[str]:
    pairs = mhc["pairs"]
    peak, ended = _mhc_peak(mhc)
    limit = TARGETS["mhc_mb"]
    met = "**no**" if mhc.get("killed") else verdict(peak, limit)
    codes = {r.get("exit_code") for r in pairs.a if r}
    killed = mhc.get("killed")
    if killed and not any(pairs.a):  # no finished pair: the stopped child and its baseline
        base = mhc.get("killed_baseline") or {}
        walls = f"> {killed['wall']:,.0f}", num(base.get("wall")), "-"
        peaks = f"{num(peak, 0)} (killed) / {num(base.get('peak_mb'), 0)}", "-"
    else:
        walls = num(pairs.wall("a")), num(pairs.wall("b")), num(pairs.ratio())
        peaks = both(pairs.peak("a"), pairs.peak("b"), 0), num(pairs.ratio("peak_mb"))
    row = [
        f"{mhc['rows']:,}{failed_note(pairs)}",
        num(mhc["file_mb"], 1),
        ended,
        *walls,
        *peaks,
        f"< {limit:,g} MB",
        met,
        ", ".join(str(c) for c in sorted(codes, key=str)) or "-",
        findings_text(pairs.extra("a", "findings")),
    ]
    header = [
        "rows",
        "file MB",
        "validate ended",
        "validate s",
        "read_csv s",
        "ratio",
        "peak MB (validate / read_csv)",
        "memory ratio",
        "peak target",
        "met",
        "exit code",
        "findings",
    ]
    return [
        f"### `validate` of a Multilingual HateCheck contribution ({mhc['language']}, "
        "one released row repeated) vs a `pandas.read_csv` process",
        "",
        *table(header, [row]),
        "",
        f"- `{mhc['command']}`; each child stopped after {mhc['timeout']:,.0f} s or at "
        f"{mhc['cap_mb']:,.0f} MB of peak memory; a stopped run ends the repeats.",
        "- Findings: the errors and warnings of the report's summary line; the row alone "
        f"validates with exit code {mhc.get('alone', '-')}.",
        "",
    ]


def validate_figures(results: dict, mhc: dict | None, roles: dict[str, int]) -> list[list[str]]:
    rows: list[list[str]] = []

    def add(figure: str, value: float | None, limit: float, ran: bool, unit: str = "x") -> None:
        if not ran:
            rows.append([figure, "not run", _target(None, limit, unit)[0], "-"])
            return
        measured = f"{num(value)}x" if unit == "x" else f"{num(value, 0)} MB"
        rows.append([figure, measured, *_target(value, limit, unit)])

    small, large, huge = roles["small"], roles["large"], roles["huge"]
    pairs = _pairs(results, small)
    add(
        f"`validate` {small:,} rows (time)",
        pairs.ratio() if pairs else None,
        TARGETS["validate_small"],
        bool(pairs),
    )
    pairs = _pairs(results, large)
    add(
        f"`validate` {large:,} rows (time)",
        pairs.ratio() if pairs else None,
        TARGETS["validate_large"],
        bool(pairs),
    )
    add(
        f"`validate` {large:,} rows (peak memory vs read_csv)",
        pairs.ratio("peak_mb") if pairs else None,
        TARGETS["validate_large_memory"],
        bool(pairs),
    )
    pairs = _pairs(results, huge)
    ran = bool(pairs) and large in results
    add(
        f"`validate` {huge:,} rows (peak memory vs its own {large:,}-row peak)",
        _peak_ratio(results, huge, large),
        TARGETS["validate_huge_memory"],
        ran,
    )
    add(
        f"`validate` {huge:,} rows (peak memory)",
        pairs.peak("a") if pairs else None,
        TARGETS["validate_huge_mb"],
        bool(pairs),
        "MB",
    )
    peers = [(count, peer) for count, (_, _, peer) in sorted(results.items()) if peer]
    for count, peer in peers or [(roles["peer"], None)]:
        add(
            f"`validate` vs `frictionless validate`, {count:,} rows",
            peer.ratio() if peer else None,
            TARGETS["peer"],
            peer is not None,
        )
    if mhc is not None:
        peak, ended = _mhc_peak(mhc)
        limit = TARGETS["mhc_mb"]
        met = "**no**" if mhc.get("killed") else verdict(peak, limit)
        label = f"`validate`, {mhc['file_mb']:,.0f} MB Multilingual HateCheck file"
        measured = f"{num(peak, 0)} MB" + (" (killed)" if mhc.get("killed") else "")
        rows.append([f"{label} (peak memory)", measured, f"< {limit:,g} MB", met])
        pairs = mhc["pairs"]
        codes = sorted({r.get("exit_code") for r in pairs.a if r}, key=str)
        done = (
            f"{num(pairs.wall('a'))} s, exit code {', '.join(map(str, codes)) or '-'}, "
            f"{findings_text(pairs.extra('a', 'findings'))} findings in {mhc['rows']:,} rows"
        )
        rows.append(
            [
                f"{label} (time, exit code, findings)",
                ended if mhc.get("killed") else done,
                "reported",
                "-",
            ]
        )
    return rows
