"""Table cards: the big table number, the seats and the entry link as a QR code.

A card stands on the table all evening: readable from the next table, with the link the
scorekeeper scans on a phone and the same link printed under the code for typing. Two
cards fit on an A4 page (each A5 landscape; cut along the line). Everybody at the table
reads the card, so it carries no PIN: each player's PIN is on his own slip (slips.py).
A smaller code in the lower right corner opens the table's second list (scoring.lists),
for the player who keeps it; it counts nothing and is only compared with the sheet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from .common import PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, fit, new_canvas, width
from .qr import matrix as qr_modules

CARD_WIDTH = PAGE_WIDTH
CARD_HEIGHT = PAGE_HEIGHT / 2
PAD = 28.0
QR_SIZE = 180.0
SECOND_QR_SIZE = 92.0
#: A run of dark modules in a row of a QR code.
DARK_RUN = re.compile(b"\x01+")


@dataclass(frozen=True, slots=True)
class CardSeat:
    number: int
    name: str
    club: str


@dataclass(frozen=True, slots=True)
class CardInput:
    tournament: str
    series: int
    table: int
    size: int
    url: str
    seats: tuple[CardSeat, ...]
    #: The second list's link; empty: no second code on the card.
    control_url: str = ""

    def texts(self) -> list[str]:
        return [self.tournament, self.url] + [s.name for s in self.seats] + [s.club for s in self.seats]


def draw_qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of ``url`` (:mod:`.qr`) as filled rectangles, one per horizontal run of dark modules.

    Vector, so it prints sharp at any size; ``(x, y)`` is the lower left corner of the
    code including its quiet zone of four modules. The rectangles are written in module
    units under one transformation (reportlab's public ``addLiteral``): short integer
    operators instead of a formatted float path, as 3,000 start cards have 750,000 of them.
    """
    matrix = qr_modules(url)
    border = 4
    modules = len(matrix) + 2 * border
    unit = size / modules
    ops = [f"q 0 g {unit:.5f} 0 0 {unit:.5f} {x:.3f} {y:.3f} cm"]
    for r, row in enumerate(matrix):
        bottom = modules - (r + border + 1)
        ops.extend(f"{m.start() + border} {bottom} {m.end() - m.start()} 1 re" for m in DARK_RUN.finditer(row))
    ops.append("f Q")
    canvas.addLiteral("\n".join(ops))


def draw_card(canvas: Canvas, text: Text, fonts: tuple[str, str], card: CardInput, y0: float) -> None:
    """One card in the band from ``y0`` to ``y0 + CARD_HEIGHT``."""
    font, bold = fonts
    top = y0 + CARD_HEIGHT - PAD
    left = PAD
    right = CARD_WIDTH - PAD
    qr_x = right - QR_SIZE
    text_room = qr_x - left - 24
    title = _("Table %(number)s") % {"number": card.table}
    text.left(left, top - 58, title, bold, 64)
    series = _("Series %(number)s") % {"number": card.series}
    text.left(left, top - 82, fit(f"{card.tournament} · {series}", font, 13, text_room), font, 13)
    y = top - 116
    for seat in card.seats:
        text.left(left, y, str(seat.number), bold, 20)
        text.left(left + 28, y, fit(seat.name, bold, 18, text_room - 28), bold, 18)
        if seat.club:
            text.left(left + 28, y - 13, fit(seat.club, font, 10, text_room - 28), font, 10)
        y -= 46
    qr_y = top - QR_SIZE - 20
    draw_qr(canvas, card.url, qr_x, qr_y, QR_SIZE)
    text.centre(qr_x + QR_SIZE / 2, top - 8, _("Scan to enter the games"), font, 10)
    url_size = 8
    room = QR_SIZE + 12
    if width(card.url, font, url_size) <= room:
        lines = [card.url]
    else:  # host on one line, the path on the next
        cut = card.url.find("/", card.url.find("//") + 2)
        lines = [card.url[:cut], card.url[cut:]] if cut > 0 else [card.url]
    for k, line in enumerate(lines):
        # Someone may have to type it: a long line is set smaller before anything is cut.
        size = max(5.5, min(url_size, url_size * room / width(line, font, url_size)))
        text.centre(qr_x + QR_SIZE / 2, qr_y - 4 - 10 * k, fit(line, font, size, room), font, size)
    if card.control_url:
        small_x, small_y = right - SECOND_QR_SIZE, y0 + PAD + 10
        draw_qr(canvas, card.control_url, small_x, small_y, SECOND_QR_SIZE)
        label_right = small_x - 8
        text.right(label_right, small_y + 58, _("Second list"), bold, 10)
        text.right(label_right, small_y + 46, _("for the player who keeps it;"), font, 8)
        text.right(label_right, small_y + 36, _("compared with the sheet, counts nothing"), font, 8)
    note = _("Seat 1 deals first, then the deal passes to the left (3.2.1).")
    if card.size == 4:
        note += " " + _("At a table of four the dealer sits out (3.2.7).")
    text.left(left, y0 + PAD - 6, fit(note, font, 9, right - left), font, 9)


def write_cards(cards: Sequence[CardInput], out, title: str, *, practice: bool = False) -> None:
    """Two cards per A4 page."""
    canvas = new_canvas(out, title, practice=practice)
    fonts = choose_fonts([t for card in cards for t in card.texts()])
    text = Text(canvas)
    for i, card in enumerate(cards):
        upper = i % 2 == 0
        y0 = CARD_HEIGHT if upper else 0
        draw_card(canvas, text, fonts, card, y0)
        if upper:
            canvas.setDash(4, 4)
            canvas.setLineWidth(0.4)
            canvas.line(12, CARD_HEIGHT, PAGE_WIDTH - 12, CARD_HEIGHT)
            canvas.setDash()
        if not upper or i == len(cards) - 1:
            text.flush()
            canvas.showPage()
    if not cards:
        canvas.drawString(PAD, PAGE_HEIGHT - PAD - 20, _("No tables."))
        canvas.showPage()
    canvas.save()
