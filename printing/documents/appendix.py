"""The ranking list's appendix: each player's running score as a small chart, ten per page.

The charts follow the ranking's order, two across and five down an A4 page, each titled
with the place, the name and the final game points. Coordinates come from
:func:`standings.charts.chart_layout`, the function the SVG on the player's page uses, so
both scale and tick alike. Drawn for speed as a few paths per page: every chart's grid
lines in one path, its running total as one subpath of the page's line path, written
with reportlab's public ``addLiteral`` (no object per point).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.pdfgen.canvas import Canvas

from standings.charts import Box, chart_layout

from .common import MARGIN, PAGE_HEIGHT, PAGE_WIDTH, Text, fit, width

COLUMNS = 2
ROWS = 5
PER_PAGE = COLUMNS * ROWS
#: The grid's top (below the page heading and the ranking's status line) and bottom
#: (above the footnote).
GRID_TOP = PAGE_HEIGHT - MARGIN - 52
GRID_BOTTOM = MARGIN + 14
GAP = 16.0
CELL_WIDTH = (PAGE_WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS
CELL_HEIGHT = (GRID_TOP - GRID_BOTTOM) / ROWS
SIZE = 6.0
TITLE_SIZE = 8.0
#: The plot inside a cell: room for the title above, the value labels on the left and
#: the deal labels and axis label below.
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 34.0, 6.0, 22.0, 24.0
LINE_GREEN = (0.043, 0.365, 0.231)  # #0b5d3b, the SVG's line colour


@dataclass(frozen=True, slots=True)
class ChartEntry:
    """One chart: the ranking's place, name and final game points, and the running totals."""

    place: int
    name: str
    points: int
    running: Sequence[tuple[int, int, int]]


def pages_needed(count: int) -> int:
    return -(-count // PER_PAGE)


def _path(lines: Sequence[Sequence[tuple[float, float]]], op: str) -> str:
    """PDF path operators: each line a subpath (m, then l per point), stroked once."""
    parts = []
    for points in lines:
        (x0, y0), *rest = points
        parts.append(f"{x0:.2f} {y0:.2f} m " + " ".join(f"{x:.2f} {y:.2f} l" for x, y in rest))
    return "\n".join(parts) + f" {op}"


def draw_appendix(
    canvas: Canvas,
    text: Text,
    entries: Sequence[ChartEntry],
    *,
    fonts: tuple[str, str],
    header: Callable[[str], None],
    note: str,
) -> None:
    """The appendix pages; ``header(title)`` draws each page's heading and page number."""
    font, bold = fonts
    title = _("Running scores")
    x_label = _("deal of the series")
    y_label = _("game points")
    no_deals = _("No deals yet.")
    for start in range(0, len(entries), PER_PAGE):
        header(title)
        grid: list[list[tuple[float, float]]] = []
        zero: list[list[tuple[float, float]]] = []
        axes: list[list[tuple[float, float]]] = []
        bounds: list[list[tuple[float, float]]] = []
        lines: list[list[tuple[float, float]]] = []
        for k, entry in enumerate(entries[start : start + PER_PAGE]):
            cell_x = MARGIN + (k % COLUMNS) * (CELL_WIDTH + GAP)
            cell_top = GRID_TOP - (k // COLUMNS) * CELL_HEIGHT
            box = Box(
                cell_x + PLOT_LEFT,
                cell_top - PLOT_TOP,
                cell_x + CELL_WIDTH - PLOT_RIGHT,
                cell_top - CELL_HEIGHT + PLOT_BOTTOM,
            )
            points_label = ngettext("%(points)s game point", "%(points)s game points", entry.points) % {
                "points": entry.points
            }
            room = CELL_WIDTH - width(points_label, bold, TITLE_SIZE) - 8
            text.left(
                cell_x, cell_top - 9, fit(f"{entry.place}. {entry.name}", bold, TITLE_SIZE, room), bold, TITLE_SIZE
            )
            text.right(cell_x + CELL_WIDTH, cell_top - 9, points_label, bold, TITLE_SIZE)
            axes.append([(box.left, box.top), (box.left, box.bottom), (box.right, box.bottom)])
            text.centre((box.left + box.right) / 2, box.bottom - 19, x_label, font, SIZE)
            # The value axis' label, turned a quarter to read upwards.
            text.obj.setTextTransform(
                0, 1, -1, 0, cell_x + 6, (box.top + box.bottom) / 2 - width(y_label, font, SIZE) / 2
            )
            text.set_font(font, SIZE)
            text.obj.textOut(y_label)
            layout = chart_layout(entry.running, box, ticks=4, label_gap=14)
            if layout is None:
                text.centre((box.left + box.right) / 2, (box.top + box.bottom) / 2, no_deals, font, SIZE + 1)
                continue
            for value, y in layout.y_ticks:
                (zero if value == 0 else grid).append([(box.left, y), (box.right, y)])
                text.right(box.left - 2, y - 2, str(value), font, SIZE)
            ends = [x for _series, x in layout.boundaries[1:]] + [box.right]
            for (series, x), end in zip(layout.boundaries, ends, strict=True):
                if x > box.left:  # the first series begins on the value axis
                    bounds.append([(x, box.top), (x, box.bottom)])
                label = _("Series %(n)s") % {"n": series}
                if width(label, font, SIZE) > end - x - 4:
                    label = str(series)
                text.left(x + 2, box.top + 2, label, font, SIZE)
            for deal, x, labelled in layout.x_ticks:
                axes.append([(x, box.bottom), (x, box.bottom - 2.5)])
                if labelled:
                    text.centre(x, box.bottom - 9, str(deal), font, SIZE)
            lines.append(layout.line)
        for paths, gray, line_width, dash in (
            (grid, 0.84, 0.4, None),
            (bounds, 0.4, 0.5, [2, 1.5]),
            (zero, 0.1, 0.7, None),
            (axes, 0.1, 0.6, None),
        ):
            if paths:
                canvas.setStrokeGray(gray)
                canvas.setLineWidth(line_width)
                canvas.setDash(dash or [])
                canvas.addLiteral(_path(paths, "S"))
        if lines:
            canvas.setStrokeColorRGB(*LINE_GREEN)
            canvas.setLineWidth(1.1)
            canvas.setLineJoin(1)
            canvas.addLiteral(_path(lines, "S"))
            canvas.setLineJoin(0)
        canvas.setStrokeGray(0)
        canvas.setLineWidth(1)
        text.left(MARGIN, MARGIN + 2, fit(note, font, 6.5, PAGE_WIDTH - 2 * MARGIN), font, 6.5)
        text.flush()
        canvas.showPage()
