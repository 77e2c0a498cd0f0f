"""The floor of the league XLSX figure: rows shaped like the export's, written by bare openpyxl."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Sequence

XLSX_COLUMNS = 14


def synthetic_rows(count: int, columns: int = XLSX_COLUMNS) -> Iterator[tuple]:
    """Rows shaped like the league export's (text, dates, numbers), made without the database."""
    date = datetime.date(2026, 11, 23)
    contracts = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
    for i in range(count):
        row = (
            "Bench 3000",
            date,
            i % 3 + 1,
            i // 48 % 750 + 1,
            i % 48 + 1,
            f"Player {i % 3000:04d}",
            f"Bench club {i % 200:03d}",
            contracts[i % 6],
            i % 4 + 1,
            i % 120,
            (i % 200) - 90,
            i % 2 == 0,
            i % 7 == 0,
            "bench",
        )
        yield row[:columns]


def xlsx_floor(rows: Iterable[Sequence], out) -> None:
    """The cheapest XLSX openpyxl writes: write-only mode, one sheet, the rows as given."""
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Games")
    for row in rows:
        sheet.append(row)
    workbook.save(out)
