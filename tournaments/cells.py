"""Cells the office writes to a CSV or XLSX file: typed-in text never becomes a formula.

Names, clubs, reasons and usernames are typed in by people; a spreadsheet program runs
a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula (CSV and formula
injection, OWASP). Every writer (the league CSV and workbook in ``scoring.exports``,
the referees' ``corrections.csv``) passes each row through :func:`cells`, so no column
can be forgotten; the tournament import takes the apostrophe off again (:func:`typed`).
"""

from __future__ import annotations

from collections.abc import Iterable

#: First characters that make Excel and LibreOffice read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text(value: str | None) -> str | None:
    """Typed-in text as a cell: formula-like text gets a leading apostrophe; empty is None."""
    if not value:
        return None
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def cells(row: Iterable[object]) -> list[object]:
    """A row as written: every text through :func:`text`, numbers, dates and None as they are."""
    return [text(value) if isinstance(value, str) else value for value in row]


def typed(value: object) -> str:
    """A text cell as it was typed in: stripped, the apostrophe :func:`text` added removed."""
    written = "" if value is None else str(value).strip()
    if written.startswith("'") and written[1:].startswith(FORMULA_STARTS):
        return written[1:]
    return written
