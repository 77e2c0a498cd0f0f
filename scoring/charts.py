"""Server-rendered SVG charts (no JavaScript library): a player's running score.

The chart draws :func:`scoring.statistics.running_scores` for one player: the running
total of game points deal by deal, a dashed line where each series begins, axes with
round-numbered ticks and a zero line. Plain SVG, so it prints and works offline.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2, 5 x 10^n) giving about ``ticks`` ticks over ``span``."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return int(10 * power)  # pragma: no cover - the loop always returns


def running_score_svg(
    points: Sequence[tuple[int, int, int]], *, width: int = 720, height: int = 280, label: str = ""
) -> SafeString:
    """The running-score chart as an inline ``<svg>`` element (safe to put into a page)."""
    left, right, top, bottom = 56, 12, 16, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    # Translated outside the f-strings, where makemessages can find them.
    title = escape(label or _("Running score"))
    no_deals = escape(_("No deals yet."))
    x_label = escape(_("deal of the series"))
    y_label = escape(_("game points"))
    if not points:
        return mark_safe(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} 60" role="img" '
            f'aria-label="{title}"><text x="8" y="34" fill="#5b6570">{no_deals}</text></svg>'
        )
    totals = [0] + [total for _series, _deal, total in points]
    low, high = min(totals), max(totals)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    count = len(points)

    def x(index: int) -> float:
        return left + plot_w * index / count

    def y(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{title}" font-family="sans-serif" font-size="11">',
        f"<title>{title}</title>",
    ]
    for value in range(int(low), int(high) + 1, step):
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="{"#1b1f24" if value == 0 else "#d5dae0"}" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" fill="#1b1f24">{value}</text>'
        )
    # Series boundaries and deal ticks: every round of 12 deals is marked, each series named.
    starts = [i for i, point in enumerate(points) if i == 0 or point[0] != points[i - 1][0]]
    for i in starts:
        series_label = escape(_("Series %(n)s") % {"n": points[i][0]})
        parts.append(
            f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{top}" y2="{top + plot_h}" stroke="#5b6570" '
            f'stroke-dasharray="4 3"/><text x="{x(i) + 4:.1f}" y="{top + 11}" fill="#5b6570">'
            f"{series_label}</text>"
        )
    for i, (_series, deal, _total) in enumerate(points, start=1):
        if deal % 12 == 0:
            parts.append(
                f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{top + plot_h}" y2="{top + plot_h + 4}" stroke="#1b1f24"/>'
                f'<text x="{x(i):.1f}" y="{top + plot_h + 16}" text-anchor="middle" fill="#1b1f24">{deal}</text>'
            )
    parts.append(
        f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="#1b1f24"/>'
        f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#1b1f24"/>'
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle" fill="#1b1f24">'
        f"{x_label}</text>"
        f'<text transform="translate(12 {top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" fill="#1b1f24">'
        f"{y_label}</text>"
    )
    line = " ".join(f"{x(i):.1f},{y(total):.1f}" for i, total in enumerate(totals))
    parts.append(f'<polyline points="{line}" fill="none" stroke="#0b5d3b" stroke-width="2"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
