"""Running-score charts: one pure layout, drawn as SVG on the page and on the PDF canvas.

A chart shows :func:`standings.statistics.running_scores` for one player: the running
total of game points deal by deal, a dashed line where each series begins, axes with
round-numbered ticks and a zero line. :func:`chart_layout` computes every coordinate
for a given box (the polyline, the ticks, the series boundaries), so the SVG here and
the ranking list's PDF appendix (:mod:`printing.documents.standings_list`) scale alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

#: The x axis is ticked every 12 deals (a third of the 36-deal list at three, a quarter of 48 at four).
TICK_DEALS = 12


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2, 5 x 10^n) giving about ``ticks`` ticks over ``span``."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return int(10 * power)  # pragma: no cover - the loop always returns


@dataclass(frozen=True, slots=True)
class Box:
    """The plot area in the target's coordinates.

    ``top`` is where the highest value goes and ``bottom`` the lowest: in SVG (y down)
    top < bottom, on a PDF canvas (y up) top > bottom; the same layout serves both.
    """

    left: float
    top: float
    right: float
    bottom: float


@dataclass(frozen=True, slots=True)
class ChartLayout:
    """Everything a running-score chart draws, in the box's coordinates."""

    low: int
    high: int
    step: int
    #: The polyline: the start at 0, then one point per deal.
    line: list[tuple[float, float]]
    #: (value, y) from ``low`` to ``high`` every ``step``; the zero line is among them.
    y_ticks: list[tuple[int, float]]
    zero: float
    #: (series number, x) where each series begins.
    boundaries: list[tuple[int, float]]
    #: (deal, x, labelled) after every 12th deal of a series; labels thinned out
    #: so that labelled ticks are at least ``label_gap`` apart.
    x_ticks: list[tuple[int, float, bool]]


def chart_layout(
    points: Sequence[tuple[int, int, int]], box: Box, *, ticks: int = 5, label_gap: float = 0.0
) -> ChartLayout | None:
    """The chart of ``points`` ((series, deal, running total), as running_scores gives) in ``box``.

    The value axis runs from a multiple of the tick step at or below the lowest total
    (0 included: the chart starts at 0) to one at or above the highest; None without points.
    """
    if not points:
        return None
    totals = [0] + [total for _series, _deal, total in points]
    low, high = min(totals), max(totals)
    step = nice_step(high - low, ticks)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    count = len(points)
    width = box.right - box.left
    height = box.bottom - box.top

    def x(index: int) -> float:
        return box.left + width * index / count

    def y(value: float) -> float:
        return box.top + height * (high - value) / (high - low)

    round_width = abs(width) * TICK_DEALS / count
    every = max(1, math.ceil(label_gap / round_width)) if round_width else 1
    return ChartLayout(
        low=low,
        high=high,
        step=step,
        line=[(x(i), y(total)) for i, total in enumerate(totals)],
        y_ticks=[(value, y(value)) for value in range(low, high + 1, step)],
        zero=y(0),
        boundaries=[
            (series, x(i)) for i, (series, _deal, _total) in enumerate(points) if i == 0 or series != points[i - 1][0]
        ],
        x_ticks=[
            (deal, x(i), (deal // TICK_DEALS) % every == 0)
            for i, (_series, deal, _total) in enumerate(points, start=1)
            if deal % TICK_DEALS == 0
        ],
    )


def running_score_svg(
    points: Sequence[tuple[int, int, int]], *, width: int = 720, height: int = 280, label: str = ""
) -> SafeString:
    """The running-score chart as an inline ``<svg>`` element (safe to put into a page)."""
    left, right, top, bottom = 56, 12, 16, 40
    plot_h = height - top - bottom
    # Translated outside the f-strings, where makemessages can find them.
    title = escape(label or _("Running score"))
    no_deals = escape(_("No deals yet."))
    x_label = escape(_("deal of the series"))
    y_label = escape(_("game points"))
    layout = chart_layout(points, Box(left, top, width - right, top + plot_h), label_gap=24)
    if layout is None:
        return mark_safe(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} 60" role="img" '
            f'aria-label="{title}"><text x="8" y="34" fill="#5b6570">{no_deals}</text></svg>'
        )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{title}" font-family="sans-serif" font-size="11">',
        f"<title>{title}</title>",
    ]
    for value, y in layout.y_ticks:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{"#1b1f24" if value == 0 else "#d5dae0"}" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#1b1f24">{value}</text>'
        )
    # Series boundaries and deal ticks: every 12th deal is marked, each series named.
    for series, x in layout.boundaries:
        series_label = escape(_("Series %(n)s") % {"n": series})
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + plot_h}" stroke="#5b6570" '
            f'stroke-dasharray="4 3"/><text x="{x + 4:.1f}" y="{top + 11}" fill="#5b6570">'
            f"{series_label}</text>"
        )
    for deal, x, labelled in layout.x_ticks:
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top + plot_h}" y2="{top + plot_h + 4}" stroke="#1b1f24"/>')
        if labelled:
            parts.append(
                f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle" fill="#1b1f24">{deal}</text>'
            )
    parts.append(
        f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="#1b1f24"/>'
        f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#1b1f24"/>'
        f'<text x="{(left + width - right) / 2:.1f}" y="{height - 6}" text-anchor="middle" fill="#1b1f24">'
        f"{x_label}</text>"
        f'<text transform="translate(12 {top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" fill="#1b1f24">'
        f"{y_label}</text>"
    )
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in layout.line)
    parts.append(f'<polyline points="{line}" fill="none" stroke="#0b5d3b" stroke-width="2"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
