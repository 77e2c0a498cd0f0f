"""The players' PINs for confirming a table's sheet.

A PIN is derived, not stored: HMAC-SHA256 keyed with the SECRET_KEY over the table link's
token and the seat number, reduced to four digits. So

- nothing secret sits in the database (a copy of it does not reveal the PINs);
- reissuing a table link (a new token) changes that table's PINs with it: a slip printed
  for the old link no longer confirms anything;
- the printed PIN slips and the office always agree without storing anything.

Each player gets his PIN on his own slip (``printing.documents.slips``), handed to him
face down, never on the table card the whole table reads: the PIN stands for his own
signature under the sheet (5.5.3), so nobody else may know it.

Rotating SECRET_KEY changes every PIN: do not rotate it between printing the PIN slips
and the end of the tournament. Four digits are guessable, so wrong PINs are throttled
per seat, never per table (:mod:`signoff.confirm`: a lock belongs to the seat guessed at).
"""

from __future__ import annotations

import hmac

from django.utils.crypto import salted_hmac

PIN_DIGITS = 4


def seat_pin(table, seat_number: int) -> str:
    """The 4-digit PIN of ``seat_number`` at ``table``, as printed on that player's PIN slip."""
    # The salt names the module where PINs were first made: changing it would change every
    # PIN already printed on a slip, so it stays as it was when this lived in referees.
    digest = salted_hmac("referees.pins.seat_pin", f"{table.token}:{seat_number}", algorithm="sha256").hexdigest()
    return f"{int(digest, 16) % 10**PIN_DIGITS:0{PIN_DIGITS}d}"


def pin_matches(table, seat_number: int, pin: str) -> bool:
    """Compare in constant time, so the answer's timing reveals nothing. A PIN is four ASCII
    digits: anything else (Arabic-Indic or full-width digits) is simply wrong (compare_digest
    refuses non-ASCII text with a TypeError, which was a 500)."""
    typed = (pin or "").strip()
    return typed.isascii() and hmac.compare_digest(seat_pin(table, seat_number).encode(), typed.encode())
