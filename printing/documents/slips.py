"""PIN slips: one per seated player, cut apart and handed to each player face down.

Every player confirms his table's sheet himself (5.5.3), so his PIN must be his alone:
it is printed on his own slip, never on the table card the whole table reads. Twenty
slips to an A4 page, two columns of ten rows; each table starts a new row and takes two
rows (a table of three leaves one slot empty), so a page holds five whole tables and no
table is split across pages: the director cuts a page into tables along the solid
lines, then each table into its slips along the dashed ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from .common import PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, fit, new_canvas, width, wrap

COLUMNS = 2
ROWS = 10
EDGE = 16.0
SLIP_WIDTH = (PAGE_WIDTH - 2 * EDGE) / COLUMNS
SLIP_HEIGHT = (PAGE_HEIGHT - 2 * EDGE) / ROWS
PAD = 8.0
PIN_SIZE = 26.0
NOTE_SIZE = 7.0
NOTE_LEADING = 8.5


@dataclass(frozen=True, slots=True)
class Slip:
    """One player's slip: where he sits and the PIN that confirms his table's sheet."""

    tournament: str
    series: int
    table: int
    seat: int
    name: str
    pin: str


def layout(tables: Sequence[Sequence[Slip]]) -> list[list[tuple[int, int, Slip]]]:
    """The slips of each page as (row, column, slip): each table from a new row, never split across pages."""
    pages: list[list[tuple[int, int, Slip]]] = []
    page: list[tuple[int, int, Slip]] = []
    row = 0
    for slips in tables:
        rows = -(-len(slips) // COLUMNS)
        if row + rows > ROWS and page:
            pages.append(page)
            page, row = [], 0
        page.extend((row + k // COLUMNS, k % COLUMNS, slip) for k, slip in enumerate(slips))
        row += rows
    if page:
        pages.append(page)
    return pages


def draw_slip(text: Text, fonts: tuple[str, str], slip: Slip, x0: float, y0: float, note: list[str]) -> None:
    """One slip with its lower left corner at ``(x0, y0)``: who, where, the PIN, and what to do with it."""
    font, bold = fonts
    left = x0 + PAD
    right = x0 + SLIP_WIDTH - PAD
    top = y0 + SLIP_HEIGHT - PAD
    pin_room = width("0000", bold, PIN_SIZE)
    room = right - left - pin_room - 12
    text.left(left, top - 7, fit(slip.tournament, font, 7.5, room), font, 7.5)
    place = _("Series %(series)s · Table %(table)s · Seat %(seat)s") % {
        "series": slip.series,
        "table": slip.table,
        "seat": slip.seat,
    }
    text.left(left, top - 20, fit(place, bold, 10, room), bold, 10)
    text.left(left, top - 35, fit(slip.name, bold, 12, room), bold, 12)
    text.right(right, top - 7, _("PIN"), font, 7.5)
    text.right(right, top - 34, slip.pin, bold, PIN_SIZE)
    # Set on the slip's foot: a longer translation takes a third line upwards, into the
    # free band under the name. Written top down, so the text reads in order when copied.
    for k, line in enumerate(note):
        text.left(left, y0 + PAD + NOTE_LEADING * (len(note) - 1 - k), line, font, NOTE_SIZE)


def cut_lines(canvas: Canvas, rows: int, table_starts: Sequence[int]) -> None:
    """Dashed lines around and between the first ``rows`` rows; a solid, thicker one above
    each row in ``table_starts``, where the next table begins."""
    canvas.setLineWidth(0.4)
    canvas.setDash(3, 3)
    bottom = PAGE_HEIGHT - EDGE - rows * SLIP_HEIGHT
    path = canvas.beginPath()
    for r in range(rows + 1):
        y = PAGE_HEIGHT - EDGE - r * SLIP_HEIGHT
        path.moveTo(EDGE, y)
        path.lineTo(PAGE_WIDTH - EDGE, y)
    for c in range(COLUMNS + 1):
        x = EDGE + c * SLIP_WIDTH
        path.moveTo(x, PAGE_HEIGHT - EDGE)
        path.lineTo(x, bottom)
    canvas.drawPath(path)
    canvas.setDash()
    canvas.setLineWidth(1.2)
    for r in table_starts:
        y = PAGE_HEIGHT - EDGE - r * SLIP_HEIGHT
        canvas.line(EDGE, y, PAGE_WIDTH - EDGE, y)


def write_slips(tables: Sequence[Sequence[Slip]], out, title: str, *, practice: bool = False) -> None:
    """Every slip of ``tables`` (each a table's slips in seat order) on A4 pages, 20 to a page."""
    canvas = new_canvas(out, title, practice=practice)
    slips = [slip for table in tables for slip in table]
    fonts = choose_fonts([t for slip in slips for t in (slip.tournament, slip.name)])
    font = fonts[0]
    text = Text(canvas)
    instruction = _(
        "Keep this PIN to yourself. When your table's sheet is complete, type it on the table phone "
        "to confirm the sheet (5.5.3)."
    )
    note = wrap(instruction, font, NOTE_SIZE, SLIP_WIDTH - 2 * PAD, lines=3)
    for page in layout(tables):
        rows = 1 + max(row for row, _column, _slip in page)
        first_rows: dict[int, int] = {}
        for row, _column, slip in page:
            first_rows.setdefault(slip.table, row)
        cut_lines(canvas, rows, sorted(set(first_rows.values()) - {0}))
        for row, column, slip in page:
            x0 = EDGE + column * SLIP_WIDTH
            y0 = PAGE_HEIGHT - EDGE - (row + 1) * SLIP_HEIGHT
            draw_slip(text, fonts, slip, x0, y0, note)
        text.flush()
        canvas.showPage()
    if not slips:
        canvas.drawString(EDGE + PAD, PAGE_HEIGHT - EDGE - 20, _("No seated players."))
        canvas.showPage()
    canvas.save()
