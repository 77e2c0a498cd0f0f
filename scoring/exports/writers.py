"""The writers: the whole league workbook (XLSX) and each of its sheets as CSV.

Rows are streamed: openpyxl in write-only mode writes each sheet as its rows arrive.
Every row goes through :func:`tournaments.cells.cells`: typed-in text is never a formula.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from tournaments.cells import cells

from .columns import (
    GAMES_COLUMNS,
    PLAYERS_COLUMNS,
    RANKING_COLUMNS,
    RESULTS_COLUMNS,
    TABLES_COLUMNS,
    TEAMS_COLUMNS,
    TOURNAMENT_COLUMNS,
)
from .games import game_rows
from .results import ranking_rows, results_rows, team_rows
from .tournament import player_rows, table_rows, tournament_rows

#: The sheets in workbook order: name, columns, rows. The CSV export offers the same by name.
SHEETS: dict[str, tuple[tuple[str, ...], Callable[..., Iterator[tuple]]]] = {
    "Ranking": (RANKING_COLUMNS, ranking_rows),
    "Teams": (TEAMS_COLUMNS, team_rows),
    "Results": (RESULTS_COLUMNS, results_rows),
    "Games": (GAMES_COLUMNS, game_rows),
    "Tournament": (TOURNAMENT_COLUMNS, tournament_rows),
    "Players": (PLAYERS_COLUMNS, player_rows),
    "Tables": (TABLES_COLUMNS, table_rows),
}


#: Column widths (characters) for names; other columns fit their header.
_WIDE = {"Name": 26, "Club": 26, "Team": 26, "Players": 60, "Dealer": 22, "Declarer": 22, "Value": 30, "Field": 20}


def _sheets(category) -> dict:
    """:data:`SHEETS`, the Ranking sheet ranking only ``category`` when one is given."""
    if category is None:
        return SHEETS
    columns, _rows = SHEETS["Ranking"]
    return SHEETS | {"Ranking": (columns, lambda tournament: ranking_rows(tournament, category))}


def league_xlsx(tournament, out: BinaryIO, category=None) -> None:
    """Write the whole workbook to ``out`` (a file opened for binary writing); with a
    ``category``, its Ranking sheet is that category's own ranking.

    openpyxl's write-only mode streams each sheet to a temporary file as rows arrive;
    the header row is bold and frozen so the columns stay readable while scrolling.
    """
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    for title, (columns, rows) in _sheets(category).items():
        sheet = workbook.create_sheet(title)
        sheet.freeze_panes = "A2"
        for index, name in enumerate(columns, start=1):
            width = _WIDE.get(name, max(8, len(name) + 2))
            sheet.column_dimensions[get_column_letter(index)].width = width
        header = []
        for name in columns:
            head = WriteOnlyCell(sheet, value=name)
            head.font = bold
            header.append(head)
        sheet.append(header)
        append = sheet.append
        for row in rows(tournament):
            append(cells(row))
    workbook.save(out)


#: CSV for German Excel and LibreOffice: ";" because German Excel's list separator is
#: the semicolon (the comma is the decimal separator), and UTF-8 with a byte order mark
#: because Excel reads a CSV without one as Windows-1252 and garbles "ü" and "ß".
CSV_DELIMITER = ";"
CSV_BOM = "\ufeff"


def csv_lines(tournament, sheet: str, category=None) -> Iterator[str]:
    """One sheet as CSV text, line by line (for a streaming response)."""
    columns, rows = _sheets(category)[sheet]

    class _Line:
        text = ""

        def write(self, value: str) -> None:
            self.text = value

    line = _Line()
    writer = csv.writer(line, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    writer.writerow(columns)
    yield CSV_BOM + line.text
    for row in rows(tournament):
        writer.writerow(cells(row))
        yield line.text


def league_csv(tournament, sheet: str, out: TextIO) -> None:
    """Write one sheet (a key of :data:`SHEETS`) as CSV to a text stream."""
    for text in csv_lines(tournament, sheet):
        out.write(text)
