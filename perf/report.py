"""The bench's report: a table of figures (medians, floors, ratios, targets, marks) and one of pages."""

from __future__ import annotations

from collections.abc import Sequence

from .pages import SIZE_TARGET, TIME_TARGET, PageResult
from .timing import MB, MS, Result


def format_value(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "B":
        return f"{value / MB:.0f} MB"
    if value < 1:
        return f"{value / MS:.1f} ms"
    return f"{value:.2f} s"


def format_target(result: Result) -> str:
    parts = []
    if result.target is not None:
        parts.append(f"<= {format_value(result.target, result.unit)}")
    if result.target_ratio is not None:
        parts.append(f"<= {result.target_ratio:g}x floor")
    return ", ".join(parts) or "-"


def report(rows: Sequence[tuple[str, Result]]) -> str:
    """One table: figure, median, floor, ratio, target, pass/fail, note."""
    header = ("figure", "median", "floor", "ratio", "target", "ok", "note")
    lines = [header]
    for name, r in rows:
        if not r.available:
            lines.append((name, "-", "-", "-", format_target(r), "n/a", r.note))
            continue
        lines.append(
            (
                name,
                format_value(r.median, r.unit),
                format_value(r.floor, r.unit),
                f"{r.ratio:.2f}x" if r.ratio is not None else "-",
                format_target(r),
                "pass" if r.ok else "FAIL",
                r.note,
            )
        )
    return _table(lines)


def format_size(size: int | None) -> str:
    if size is None:
        return "-"
    return f"{size / 1024:.1f} KiB" if size < 1024 * 1024 else f"{size / MB:.2f} MB"


def page_report(rows: Sequence[tuple[str, str, PageResult]]) -> str:
    """One table of pages: page, user, median server time, HTML size, queries, targets, pass/fail, note."""
    header = ("page", "user", "median", "size", "queries", "target", "ok", "note")
    lines = [header]
    for name, user, r in rows:
        if not r.available:
            lines.append((name, user, "-", "-", "-", "-", "n/a", r.note))
            continue
        target = "time only" if r.document else f"<= {TIME_TARGET / MS:.0f} ms, <= {SIZE_TARGET // 1024} KiB"
        lines.append(
            (
                name,
                user,
                format_value(r.median, "s"),
                format_size(r.size),
                str(r.queries),
                target,
                "pass" if r.ok else "FAIL",
                r.note,
            )
        )
    return _table(lines)


def _table(lines: list[tuple[str, ...]]) -> str:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]) - 1)]
    out = []
    for n, line in enumerate(lines):
        out.append("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)) + "  " + line[-1])
        if n == 0:
            out.append("  ".join("-" * width for width in widths) + "  " + "-" * 4)
    return "\n".join(line.rstrip() for line in out)
