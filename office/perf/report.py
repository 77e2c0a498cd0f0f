"""The bench's report: one table of figures, medians, floors, ratios, targets and marks."""

from __future__ import annotations

from collections.abc import Sequence

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
    widths = [max(len(line[i]) for line in lines) for i in range(len(header) - 1)]
    out = []
    for n, line in enumerate(lines):
        out.append("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)) + "  " + line[-1])
        if n == 0:
            out.append("  ".join("-" * width for width in widths) + "  " + "-" * 4)
    return "\n".join(line.rstrip() for line in out)
