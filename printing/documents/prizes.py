"""The prize list: the director pays out from it and each winner signs for his prize.

One row per prize: place, name, club, rating, the prize and a line for the winner's
signature (the receipt the organiser keeps). Under the rows the prize pool, the sum paid
out and what is left (or added by the organiser when fixed prizes exceed the pool).
Under the title, as on the ranking list, whether the ranking is final: a prize paid
out on a provisional ranking may have to be taken back.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .common import MARGIN, PAGE_HEIGHT, PAGE_WIDTH, Text, choose_fonts, fit, new_canvas, width
from .settlement import money
from .standings_list import status_line

#: Tall enough to sign in.
ROW = 24.0
SIZE = 9.5
TOP = PAGE_HEIGHT - MARGIN - 70
BOTTOM = MARGIN + 60
RIGHT = PAGE_WIDTH - MARGIN
ROWS_PER_PAGE = int((TOP - ROW - BOTTOM) // ROW)
#: x of each column's left edge (place and amounts are right-aligned at their right edge).
PLACE_RIGHT = MARGIN + 30
NAME = MARGIN + 40
CLUB = NAME + 150
RATING_RIGHT = CLUB + 140
PRIZE_RIGHT = RATING_RIGHT + 60
SIGNATURE = PRIZE_RIGHT + 14


def write_prize_list(payout, out, *, tournament, finality=None) -> None:
    """``payout``: :func:`money.ledger.prize_payout`'s answer; ``finality``:
    :func:`standings.places.finality`'s (None: no status line)."""
    from .scoresheet import _date

    title = _("Prize list")
    canvas = new_canvas(out, f"{tournament.name}: {title}", practice=tournament.practice)
    winners = payout.winners
    font, bold = choose_fonts(
        [tournament.name, tournament.venue, *(w.name for w in winners), *(w.club for w in winners)]
    )
    text = Text(canvas)
    line = " · ".join(p for p in (tournament.name, _date(tournament.date), tournament.venue) if p)
    status = status_line(finality)
    status_size = 10.0
    while status_size > 6 and width(status, bold, status_size) > RIGHT - MARGIN:
        status_size -= 0.5
    pages = max(1, -(-len(winners) // ROWS_PER_PAGE))
    prizes = payout.prizes
    for index in range(pages):
        top = PAGE_HEIGHT - MARGIN
        text.left(MARGIN, top - 16, title, bold, 15)
        text.left(MARGIN, top - 30, fit(line, font, 9, RIGHT - MARGIN - 90), font, 9)
        text.right(RIGHT, top - 30, _("page %(page)s of %(pages)s") % {"page": index + 1, "pages": pages}, font, 8)
        if status:
            text.left(MARGIN, top - 44, fit(status, bold, status_size, RIGHT - MARGIN), bold, status_size)
        y = TOP - ROW + 8
        text.right(PLACE_RIGHT, y, _("Place"), bold, SIZE)
        text.left(NAME, y, _("Name"), bold, SIZE)
        text.left(CLUB, y, _("Club"), bold, SIZE)
        text.right(RATING_RIGHT, y, _("Rating"), bold, SIZE)
        text.right(PRIZE_RIGHT, y, _("Prize"), bold, SIZE)
        # "Erhalten (Unterschrift)" is longer than "Received (signature)": made to fit, never cut.
        received = _("Received (signature)")
        received_size = SIZE
        while received_size > 6 and width(received, bold, received_size) > RIGHT - SIGNATURE:
            received_size -= 0.5
        text.left(SIGNATURE, y, received, bold, received_size)
        canvas.setLineWidth(0.8)
        canvas.line(MARGIN, TOP - ROW, RIGHT, TOP - ROW)
        canvas.setLineWidth(0.4)
        entries = winners[index * ROWS_PER_PAGE : (index + 1) * ROWS_PER_PAGE]
        for i, winner in enumerate(entries):
            bottom = TOP - ROW - (i + 1) * ROW
            y = bottom + 8
            text.right(PLACE_RIGHT, y, f"{winner.place}.", font, SIZE)
            # A category's own prize names its ranking: "Anna Müller (Damen)", place 1 of it.
            name = f"{winner.name} ({winner.category})" if winner.category else winner.name
            text.left(NAME, y, fit(name, font, SIZE, CLUB - NAME - 6), font, SIZE)
            text.left(CLUB, y, fit(winner.club, font, SIZE, RATING_RIGHT - 32 - CLUB), font, SIZE)
            text.right(RATING_RIGHT, y, str(winner.rating), font, SIZE)
            text.right(PRIZE_RIGHT, y, money(winner.amount), bold, SIZE)
            canvas.line(SIGNATURE, bottom + 5, RIGHT, bottom + 5)  # the line to sign on
        if not entries:
            text.left(
                MARGIN,
                TOP - 2 * ROW + 8,
                _("No prizes: the prize table is empty or nobody is ranked yet."),
                font,
                SIZE,
            )
        if index == pages - 1:
            y = TOP - ROW - len(entries) * ROW - 22
            sums = [
                (_("Prize pool"), prizes.pool),
                (_("Paid out as prizes"), prizes.paid_out),
                (_("Added by the organiser"), prizes.added) if prizes.added else (_("Left in the pool"), prizes.left),
            ]
            for k, (label, amount) in enumerate(sums):
                text.left(NAME, y - 13 * k, label, bold if k == 1 else font, SIZE)
                text.right(PRIZE_RIGHT, y - 13 * k, money(amount), bold if k == 1 else font, SIZE)
        signed = _("Director's signature:")
        text.left(MARGIN, MARGIN + 8, signed, font, SIZE)
        start = MARGIN + width(signed, font, SIZE) + 6  # the line begins after its label, in any language
        canvas.line(start, MARGIN + 6, start + 190, MARGIN + 6)
        text.flush()
        canvas.showPage()
    canvas.save()
