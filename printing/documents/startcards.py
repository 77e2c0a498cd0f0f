"""Start cards: one per player, handed over at the door with his start number.

Each card carries the player's name, his start number in large type and his own page's
private link as a QR code (players: where he sits in the series now drawn, his results,
his place): after every draw he scans it instead of queueing at the wall. Under the code
the lookup address, for a phone without a camera (start number and surname). Ten cards
to an A4 page, two columns of five; cut along the dashed lines. The link opens his page
only: it enters nothing and signs nothing (the PINs stay on their own slips).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from .cards import draw_qr
from .common import PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, fit, new_canvas, wrap_whole

COLUMNS = 2
ROWS = 5
EDGE = 16.0
CARD_WIDTH = (PAGE_WIDTH - 2 * EDGE) / COLUMNS
CARD_HEIGHT = (PAGE_HEIGHT - 2 * EDGE) / ROWS
PAD = 10.0
QR_SIZE = 118.0
NUMBER_SIZE = 34.0


@dataclass(frozen=True, slots=True)
class StartCard:
    tournament: str
    start_number: int | None
    name: str
    club: str
    #: The absolute address of his own page (the QR code).
    url: str
    #: The absolute address of the lookup by start number and surname.
    lookup_url: str


#: The name of the PDF form with what every card shows alike.
FORM = "startcard"


def draw_static(canvas: Canvas, fonts: tuple[str, str], tournament: str, lookup_url: str) -> None:
    """What every card shows alike (the tournament, the label, the note with the lookup
    address), drawn once as a PDF form that each card places: 3,000 cards are 3,000
    short references instead of 30,000 strings."""
    font, _bold = fonts
    canvas.beginForm(FORM)
    text = Text(canvas)
    left, top = PAD, CARD_HEIGHT - PAD
    room = _qr_x(0) - left - 4
    text.left(left, top - 8, fit(tournament, font, 8, room), font, 8)
    text.left(left, top - 58, _("Start number"), font, 8)
    note = _(
        "Scan for your table and seat after every draw, your results and your place. "
        "Or open %(url)s with your start number and surname."
    ) % {"url": lookup_url}
    # Whole, never cut: the German text and a long hall address need five lines, the
    # address broken where a line ends (it is read and typed, not clicked).
    lines, size = wrap_whole(note, font, 7, room, lines=4, smallest=5.5, most=5)
    step = size + 1.5
    for k, line in enumerate(lines):
        text.left(left, PAD + 2 + step * (len(lines) - 1 - k), line, font, size)
    text.flush()
    canvas.endForm()


def _qr_x(x0: float) -> float:
    return x0 + CARD_WIDTH - PAD - QR_SIZE + 6


def draw_start_card(text: Text, fonts: tuple[str, str], card: StartCard, x0: float, y0: float) -> None:
    """One card's own part with its lower left corner at ``(x0, y0)``: the form
    (:func:`draw_static`) placed there, his name, club, start number and QR code."""
    canvas = text.canvas
    canvas.saveState()
    canvas.translate(x0, y0)
    canvas.doForm(FORM)
    canvas.restoreState()
    font, bold = fonts
    left, top = x0 + PAD, y0 + CARD_HEIGHT - PAD
    qr_x = _qr_x(x0)
    room = qr_x - left - 4
    text.left(left, top - 26, fit(card.name, bold, 13, room), bold, 13)
    if card.club:
        text.left(left, top - 39, fit(card.club, font, 9, room), font, 9)
    text.left(left, top - 58 - NUMBER_SIZE, str(card.start_number or "-"), bold, NUMBER_SIZE)
    draw_qr(canvas, card.url, qr_x, y0 + (CARD_HEIGHT - QR_SIZE) / 2, QR_SIZE)


def cut_lines(canvas: Canvas) -> None:
    canvas.setLineWidth(0.4)
    canvas.setDash(3, 3)
    path = canvas.beginPath()
    for r in range(ROWS + 1):
        y = PAGE_HEIGHT - EDGE - r * CARD_HEIGHT
        path.moveTo(EDGE, y)
        path.lineTo(PAGE_WIDTH - EDGE, y)
    for c in range(COLUMNS + 1):
        x = EDGE + c * CARD_WIDTH
        path.moveTo(x, PAGE_HEIGHT - EDGE)
        path.lineTo(x, EDGE)
    canvas.drawPath(path)
    canvas.setDash()


def write_start_cards(cards: Sequence[StartCard], out, title: str, *, practice: bool = False) -> None:
    """Every card, ten to an A4 page in the order given (by start number); a practice
    tournament's pages are marked as such (printing.documents.common)."""
    canvas = new_canvas(out, title, practice=practice)
    fonts = choose_fonts([t for card in cards for t in (card.tournament, card.name, card.club)])
    if cards:  # every card of a tournament has its name and lookup address
        draw_static(canvas, fonts, cards[0].tournament, cards[0].lookup_url)
    text = Text(canvas)
    per_page = COLUMNS * ROWS
    for start in range(0, max(len(cards), 1), per_page):
        for k, card in enumerate(cards[start : start + per_page]):
            row, column = divmod(k, COLUMNS)
            x0 = EDGE + column * CARD_WIDTH
            y0 = PAGE_HEIGHT - EDGE - (row + 1) * CARD_HEIGHT
            draw_start_card(text, fonts, card, x0, y0)
        if not cards:
            text.left(EDGE + PAD, PAGE_HEIGHT - EDGE - 20, _("Nobody registered yet."), fonts[0], 10)
        text.flush()
        cut_lines(canvas)
        canvas.showPage()
    canvas.save()
