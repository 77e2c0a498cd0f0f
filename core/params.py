"""Numbers from a query string (``?series=2``, ``?table=7``), read without surprises."""

from __future__ import annotations

#: No series or table number has more digits; int() refuses strings of thousands of
#: digits with a ValueError, which would be a 500 page.
MAX_DIGITS = 6


def number_param(value: str | None) -> int | None:
    """The whole number ``value`` spells in ASCII digits, or None for anything else.

    "²" and "٣" pass str.isdigit() but are no number here; an empty or missing value,
    a sign, a space or more than :data:`MAX_DIGITS` digits give None, and the caller
    answers with its own message naming the parameter.
    """
    if value and value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS:
        return int(value)
    return None
