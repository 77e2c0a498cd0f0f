"""The start list for the wall: start number, name, club, and table/seat in every drawn
series, alphabetical by surname (the list players look for their name on)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .common import MARGIN, PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, fit, new_canvas

ROW = 15.0
SIZE = 10.0
TOP = PAGE_HEIGHT - MARGIN - 44
BOTTOM = MARGIN + 14
RIGHT = PAGE_WIDTH - MARGIN
NUMBER_WIDTH = 40.0
SERIES_WIDTH = 52.0
#: A withdrawn player's cell in the series after he left.
WITHDREW = "x"


class StartLine(NamedTuple):
    start_number: int | None
    name: str
    club: str
    #: "table/seat" in each drawn series ("" where he does not sit).
    seats: tuple[str, ...]


def write_start_list(
    lines: Sequence[StartLine], series: Sequence[int], out, *, tournament, not_seated: int = 0
) -> None:
    """``lines`` in the order printed (by surname); ``series`` the drawn series' numbers;
    ``not_seated``: the registered players left off (no seat in any drawn series)."""
    from .scoresheet_data import _date

    title = _("Start list")
    canvas = new_canvas(out, f"{tournament.name}: {title}", practice=tournament.practice)
    font, bold = choose_fonts([tournament.name, tournament.venue] + [f"{ln.name} {ln.club}" for ln in lines])
    text = Text(canvas)
    per_page = int((TOP - ROW - BOTTOM) // ROW)
    pages = max(1, -(-len(lines) // per_page))
    heading = " · ".join(p for p in (tournament.name, _date(tournament.date), tournament.venue) if p)
    x_name = MARGIN + NUMBER_WIDTH + 8
    series_left = RIGHT - SERIES_WIDTH * len(series)
    room = series_left - x_name - 8
    name_room, club_room = room * 0.55, room * 0.45
    x_club = x_name + name_room
    for page in range(pages):
        top = PAGE_HEIGHT - MARGIN
        text.left(MARGIN, top - 18, title, bold, 16)
        text.left(MARGIN, top - 32, fit(heading, font, 9, RIGHT - MARGIN - 90), font, 9)
        text.right(RIGHT, top - 32, _("page %(page)s of %(pages)s") % {"page": page + 1, "pages": pages}, font, 8)
        y = TOP - ROW + 4
        text.right(MARGIN + NUMBER_WIDTH, y, _("No."), bold, SIZE)
        text.left(x_name, y, _("Name"), bold, SIZE)
        text.left(x_club, y, _("Club"), bold, SIZE)
        for i, number in enumerate(series):
            label = _("Series %(n)s") % {"n": number}
            text.centre(series_left + SERIES_WIDTH * (i + 0.5), y, label, bold, SIZE - 2)
        chunk = lines[page * per_page : (page + 1) * per_page]
        canvas.setFillGray(0.92)
        shade = canvas.beginPath()
        for i in range(1, len(chunk), 2):
            shade.rect(MARGIN, TOP - ROW - (i + 1) * ROW, RIGHT - MARGIN, ROW)
        canvas.drawPath(shade, stroke=0, fill=1)
        canvas.setFillGray(0)
        canvas.setLineWidth(0.8)
        canvas.line(MARGIN, TOP - ROW, RIGHT, TOP - ROW)
        for i, line in enumerate(chunk):
            y = TOP - ROW - (i + 1) * ROW + 4
            text.right(MARGIN + NUMBER_WIDTH, y, str(line.start_number or "-"), font, SIZE)
            text.left(x_name, y, fit(line.name, bold, SIZE, name_room - 6), bold, SIZE)
            text.left(x_club, y, fit(line.club, font, SIZE, club_room - 6), font, SIZE)
            for k, seat in enumerate(line.seats):
                text.centre(series_left + SERIES_WIDTH * (k + 0.5), y, seat, font, SIZE)
        if not chunk:
            text.left(MARGIN, TOP - 2 * ROW + 4, _("Nobody registered yet."), font, SIZE)
        if series:
            legend = _("Table/seat in each series; seat 1 deals first; x: withdrew.")
            if not_seated:
                legend += " " + ngettext(
                    "%(n)s registered player without a seat in any drawn series (not checked in) is not listed.",
                    "%(n)s registered players without a seat in any drawn series (not checked in) are not listed.",
                    not_seated,
                ) % {"n": not_seated}
            text.left(MARGIN, MARGIN, fit(legend, font, 7, RIGHT - MARGIN), font, 7)
        text.flush()
        canvas.showPage()
    canvas.save()
