"""The players' PINs for confirming a table's sheet.

A PIN is derived, not stored: HMAC-SHA256 keyed with the SECRET_KEY over the table link's
token and the seat number, reduced to four digits. So

- nothing secret sits in the database (a copy of it does not reveal the PINs);
- reissuing a table link (a new token) changes that table's PINs with it: a card printed
  for the old link no longer confirms anything;
- the table card and the office always agree without storing anything.

Rotating SECRET_KEY changes every PIN: do not rotate it between printing the table cards
and the end of the tournament. Four digits are guessable, so wrong PINs are throttled
per table (:mod:`referees.signoff`).
"""

from __future__ import annotations

import hmac

from django.utils.crypto import salted_hmac

PIN_DIGITS = 4


def seat_pin(table, seat_number: int) -> str:
    """The 4-digit PIN of ``seat_number`` at ``table``, as printed on the table card."""
    digest = salted_hmac("referees.pins.seat_pin", f"{table.token}:{seat_number}", algorithm="sha256").hexdigest()
    return f"{int(digest, 16) % 10**PIN_DIGITS:0{PIN_DIGITS}d}"


def pin_matches(table, seat_number: int, pin: str) -> bool:
    """Compare in constant time, so the answer's timing reveals nothing."""
    return hmac.compare_digest(seat_pin(table, seat_number), (pin or "").strip())
