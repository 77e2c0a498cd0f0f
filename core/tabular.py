"""Every CSV and XLSX file the office writes, written here: typed-in text never becomes a formula.

Names, clubs, teams, groups, leagues, reasons and usernames are typed in by people; a
spreadsheet program runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab
or carriage return before one) as a formula: CSV and formula injection (OWASP). So no
module of the office writes a CSV or a workbook itself (``tests/test_export_formulas.py``
refuses ``csv.writer``, openpyxl's ``Workbook`` and the two content types anywhere else):
the exports hand their header and rows to :func:`csv_lines`, :func:`write_csv` or
:func:`write_xlsx`, which pass every cell through :func:`cells`. A new export cannot
forget the guard, because it has no other way to write.

The guard puts an apostrophe before formula-like text, as a person types it in a cell
to keep it text; the tournament file's import takes it off again (:func:`typed`), so a
name comes back exactly as it was written, apostrophes included.

CSV for German Excel and LibreOffice: ``;`` because German Excel's list separator is the
semicolon (the comma is the decimal separator), and UTF-8 with a byte order mark because
Excel reads a CSV without one as Windows-1252 and garbles "ü" and "ß". A German export
(``language="de"``) also writes decimals with a comma (7,5), as German spreadsheet programs
read them; otherwise 7.5 would be read as a date or as text.
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import BinaryIO, TextIO

#: First characters that make Excel and LibreOffice read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: The mark the guard puts before formula-like text (a spreadsheet's "this is text").
ESCAPE = "'"
CSV_DELIMITER = ";"
CSV_BOM = "\ufeff"
#: Cells written as they are: they are never read as a formula (bool is an int, datetime a date).
_SCALARS = (int, float, Decimal, datetime.date, datetime.time, datetime.timedelta, type(None))
CSV_TYPE = "text/csv; charset=utf-8"
#: Languages whose spreadsheet programs read a decimal comma (the office's: German).
DECIMAL_COMMA_LANGUAGES = ("de",)
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _needs_escape(value: str) -> bool:
    """Formula-like text, also behind apostrophes (so that :func:`typed` can tell them apart)."""
    return value.lstrip(ESCAPE).startswith(FORMULA_STARTS)


def text(value: str | None) -> str | None:
    """Typed-in text as a cell: formula-like text gets a leading apostrophe; empty is None."""
    if not value:
        return None
    return ESCAPE + value if _needs_escape(value) else value


def cells(row: Iterable[object]) -> list[object]:
    """A row as written: numbers, dates and None as they are, everything else as text through
    :func:`text` (also a lazy translation or an object: it is written as its text anyway)."""
    return [value if isinstance(value, _SCALARS) else text(str(value)) for value in row]


def typed(value: object) -> str:
    """A text cell as it was typed in: stripped, the apostrophe :func:`text` added removed."""
    written = "" if value is None else str(value).strip()
    if written.startswith(ESCAPE) and _needs_escape(written):
        return written[1:]
    return written


# --- CSV -------------------------------------------------------------------------------------


class _Line:
    """The csv module's file: keeps the last line written, so rows stream one by one."""

    text = ""

    def write(self, value: str) -> None:
        self.text = value


def decimal_comma(language: str | None) -> bool:
    """Whether a CSV for readers of ``language`` (e.g. "de", "de-at") writes 7,5 for 7.5."""
    return bool(language) and language.split("-")[0].lower() in DECIMAL_COMMA_LANGUAGES


def _with_comma(row: list[object]) -> list[object]:
    """Decimals (floats, Decimal; never an int or a text) written with a decimal comma."""
    return [str(value).replace(".", ",") if isinstance(value, float | Decimal) else value for value in row]


def csv_lines(
    header: Sequence[object], rows: Iterable[Iterable[object]], *, language: str | None = None
) -> Iterator[str]:
    """The file line by line (for a streaming response): the byte order mark and the header first.
    ``language``: the readers' language; German writes decimals with a comma."""
    line = _Line()
    writer = csv.writer(line, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    comma = decimal_comma(language)
    writer.writerow(cells(header))
    yield CSV_BOM + line.text
    for row in rows:
        written = cells(row)
        writer.writerow(_with_comma(written) if comma else written)
        yield line.text


def csv_text(header: Sequence[object], rows: Iterable[Iterable[object]], *, language: str | None = None) -> str:
    """The whole file as text."""
    return "".join(csv_lines(header, rows, language=language))


def write_csv(
    out: TextIO, header: Sequence[object], rows: Iterable[Iterable[object]], *, language: str | None = None
) -> None:
    """Write the file to a text stream (or anything with ``write``, e.g. an HttpResponse)."""
    for line in csv_lines(header, rows, language=language):
        out.write(line)


# --- XLSX ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    """One sheet of a workbook. ``styled``: a bold header row, frozen while scrolling, and
    columns as wide as ``widths`` says (by column name; others fit their header)."""

    title: str
    columns: Sequence[str]
    rows: Iterable[Iterable[object]]
    styled: bool = False
    widths: Mapping[str, int] = field(default_factory=dict)


def write_xlsx(out: BinaryIO, sheets: Iterable[Sheet]) -> None:
    """Write the workbook to ``out`` (a file opened for binary writing).

    openpyxl's write-only mode streams each sheet to a temporary file as its rows arrive,
    so a sheet's rows (and ``sheets`` itself) may be generators read once.
    """
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    for spec in sheets:
        sheet = workbook.create_sheet(spec.title)
        header = cells(spec.columns)
        if spec.styled:
            sheet.freeze_panes = "A2"
            for index, name in enumerate(spec.columns, start=1):
                width = spec.widths.get(name, max(8, len(name) + 2))
                sheet.column_dimensions[get_column_letter(index)].width = width
            header = [WriteOnlyCell(sheet, value=name) for name in header]
            for head in header:
                head.font = bold
        sheet.append(header)
        append = sheet.append
        for row in spec.rows:
            append(cells(row))
    workbook.save(out)
