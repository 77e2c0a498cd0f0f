"""Certificates (Urkunden) for the prize-giving: one A4 page per place, signed by the director.

Clubs hand one to each of the top places and to each category's winner ("1st place,
Women"). Each page carries the tournament, its date and venue, the place, the player's
name and club and his rating, under a title in large type inside a double frame, and a
line for the director's signature. Names are printed whole (a long one gets a smaller
size, never an ellipsis), in the fonts every sheet uses (DejaVu for letters Helvetica
lacks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .common import PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, new_canvas, width

FRAME = 36.0
CENTRE = PAGE_WIDTH / 2
ROOM = PAGE_WIDTH - 2 * FRAME - 60


@dataclass(frozen=True, slots=True)
class Certificate:
    place: int
    name: str
    club: str
    rating: int
    #: The category whose own ranking the place is of ("" for the overall ranking).
    category: str = ""


def _sized(text: str, font: str, size: float, smallest: float = 10.0) -> float:
    """The largest size up to ``size`` at which ``text`` fits the page's width, whole."""
    while size > smallest and width(text, font, size) > ROOM:
        size -= 1
    return size


def _frame(canvas) -> None:
    canvas.setLineWidth(2.5)
    canvas.rect(FRAME, FRAME, PAGE_WIDTH - 2 * FRAME, PAGE_HEIGHT - 2 * FRAME)
    canvas.setLineWidth(0.8)
    canvas.rect(FRAME + 7, FRAME + 7, PAGE_WIDTH - 2 * FRAME - 14, PAGE_HEIGHT - 2 * FRAME - 14)


def write_certificates(
    certificates: Sequence[Certificate], out, *, tournament, date: str, provisional: str = ""
) -> None:
    """One page per certificate, in the order given; a page saying none when the list is
    empty. ``date``: the tournament's date as the page's language writes it;
    ``provisional``: the ranking's status line while it is not final, printed on every
    page (a certificate handed out on it may have to be taken back), else empty."""
    title = _("Certificate")
    canvas = new_canvas(out, f"{tournament.name}: {title}", practice=tournament.practice)
    font, bold = choose_fonts([tournament.name, tournament.venue, *(f"{c.name} {c.club}" for c in certificates)])
    text = Text(canvas)
    event = " · ".join(part for part in (date, tournament.venue) if part)
    for certificate in certificates or [None]:
        _frame(canvas)
        top = PAGE_HEIGHT - FRAME - 120
        text.centre(CENTRE, top, title, bold, _sized(title, bold, 44))
        text.centre(CENTRE, top - 70, tournament.name, bold, _sized(tournament.name, bold, 20))
        if event:
            text.centre(CENTRE, top - 96, event, font, _sized(event, font, 13))
        if provisional:
            text.centre(CENTRE, top - 130, provisional, bold, _sized(provisional, bold, 12, smallest=6))
        if certificate is None:
            text.centre(CENTRE, top - 220, _("Nobody is ranked yet."), font, 14)
        else:
            _body(text, certificate, font, bold, top)
        signature_y = FRAME + 90
        canvas.setLineWidth(0.6)
        canvas.line(CENTRE - 110, signature_y, CENTRE + 110, signature_y)
        text.centre(CENTRE, signature_y - 14, _("Director's signature"), font, 10)
        text.flush()
        canvas.showPage()
    canvas.save()


def _body(text: Text, certificate: Certificate, font: str, bold: str, top: float) -> None:
    place = _("%(place)s. place") % {"place": certificate.place}
    if certificate.category:
        place = _("%(place)s in the category %(category)s") % {"place": place, "category": certificate.category}
    text.centre(CENTRE, top - 190, place, bold, _sized(place, bold, 28))
    text.centre(CENTRE, top - 250, certificate.name, bold, _sized(certificate.name, bold, 34))
    if certificate.club:
        text.centre(CENTRE, top - 285, certificate.club, font, _sized(certificate.club, font, 18))
    points = _("with %(rating)s points (rating)") % {"rating": certificate.rating}
    text.centre(CENTRE, top - 340, points, font, _sized(points, font, 16))
