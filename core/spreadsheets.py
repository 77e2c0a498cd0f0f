"""Reading uploaded spreadsheets (CSV or XLSX) into validated rows, with clear refusals.

Directors upload what Excel or LibreOffice saved: XLSX, or CSV in UTF-8 (with or
without BOM) or Windows-1252 (German Excel's "CSV (Trennzeichen-getrennt)"), separated
by ``;``, ``,`` or tabs. Column headers are matched loosely (case, spaces, punctuation
and umlauts ignored) against English and German names, so "Mitglieds-Nr." and
"membership number" both work. Every problem with the file itself raises
:class:`SpreadsheetError` with a message for the director; nothing here writes to the
database.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from itertools import compress
from typing import BinaryIO

from django.utils.translation import gettext as _

from .workbooks import UPLOADS, WorkbookError, open_workbook, worksheet
from .workbooks import rows as workbook_rows

#: Rows allowed above the header and blank rows between the rows of a full list.
ROOM_ABOVE = 100
#: Uploads above this size are refused before they are read (a scoresheet is a few KB,
#: a player list of 3,000 about 150 KB).
MAX_UPLOAD_BYTES = 5 * 1024 * 1024

#: A tick box's TRUE is True; its FALSE is a blank cell (None).
Cell = str | int | bool | None


class SpreadsheetError(ValueError):
    """The file cannot be read as the expected table; the message is for the director."""


@dataclass(frozen=True, slots=True)
class Row:
    """One data row: ``number`` is the row number a spreadsheet program shows (header = 1)."""

    number: int
    values: dict[str, Cell]

    def get(self, key: str) -> Cell:
        return self.values.get(key)


def header_key(text: object) -> str:
    """ "Mitglieds-Nr." -> "mitgliedsnr": lower case, letters and digits only, umlauts folded."""
    folded = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.casefold())


def cell(value: object) -> Cell:
    """A cell as text, whole number or True: blanks and FALSE become None, 61.0 becomes 61."""
    if value is None:
        return None
    if isinstance(value, bool):
        return True if value else None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    text = str(value).strip()
    return text or None


def _csv_rows(data: bytes) -> list[list[str]]:
    if b"\x00" in data:  # anywhere: PostgreSQL refuses NUL in text
        raise SpreadsheetError(_("The file is not a CSV text file or an XLSX workbook."))
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise SpreadsheetError(_("The CSV file is neither UTF-8 nor Windows-1252 text; save it as CSV (UTF-8)."))
    first_line = text.split("\n", 1)[0]
    delimiter = max(";,\t", key=first_line.count)
    try:
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as error:
        raise SpreadsheetError(_("The CSV file cannot be read: %(error)s") % {"error": error}) from None


def _xlsx_value(xlsx_cell) -> object:
    """A cell's value; a number the sheet shows zero-padded (format ``00000``, as club
    lists format membership numbers) as that text, so 00417 stays 00417, not 417."""
    value = xlsx_cell.value
    if isinstance(value, int | float) and not isinstance(value, bool):
        shown = getattr(xlsx_cell, "number_format", None) or ""
        if len(shown) > 1 and set(shown) == {"0"} and float(value).is_integer():
            return str(int(value)).zfill(len(shown))
    return value


def _xlsx_rows(data: bytes, sheet: str | None, max_rows: int) -> list[list[object]]:
    """The sheet's rows by row number (row n at index n - 1), read through :mod:`.workbooks`."""
    try:
        workbook = open_workbook(io.BytesIO(data), UPLOADS)
        try:
            found = worksheet(workbook, sheet) if sheet else None
            if found is None:
                found = worksheet(workbook)
            rows: list[list[object]] = []
            for number, values in workbook_rows(
                found, last_row=max_rows + 1 + ROOM_ABOVE, limits=UPLOADS, value=_xlsx_value
            ):
                if values:
                    rows.extend([] for _gap in range(number - 1 - len(rows)))
                    rows.append(values)
            return rows
        finally:
            workbook.close()
    except WorkbookError as error:
        raise SpreadsheetError(str(error)) from None


def raw_rows(upload: BinaryIO, name: str, *, sheet: str | None = None, max_rows: int = 10_000) -> list[list[object]]:
    """The file's rows as lists of cells, header first; the kind is told by content, not name."""
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise SpreadsheetError(
            _("The file is too large (%(size)s MB); the limit is %(limit)s MB.")
            % {"size": round(size / 2**20, 1), "limit": MAX_UPLOAD_BYTES // 2**20}
        )
    data = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise SpreadsheetError(
            _("The file is too large; the limit is %(limit)s MB.") % {"limit": MAX_UPLOAD_BYTES // 2**20}
        )
    if not data.strip():
        raise SpreadsheetError(_("The file is empty."))
    if data.startswith(b"PK\x03\x04"):
        return _xlsx_rows(data, sheet, max_rows)
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise SpreadsheetError(_("Old Excel files (.xls) cannot be read; save the file as .xlsx or CSV."))
    if name.lower().endswith((".xlsx", ".xlsm")):
        raise SpreadsheetError(_("The file is not a readable XLSX workbook."))
    if name.lower().endswith(BINARY_SUFFIXES):
        raise SpreadsheetError(_("The file is not a CSV text file or an XLSX workbook."))
    return _csv_rows(data)


#: Files that are surely no CSV, whatever bytes they start with.
BINARY_SUFFIXES = (".pdf", ".ods", ".odt", ".doc", ".docx", ".png", ".jpg", ".jpeg", ".gif", ".zip")


def read_table(
    upload: BinaryIO,
    name: str,
    columns: Mapping[str, Iterable[str]],
    required: Iterable[str],
    *,
    sheet: str | None = None,
    max_rows: int = 10_000,
    allow_unknown: bool = False,
    titles: dict[str, str] | None = None,
    ignored: list[str] | None = None,
    shown: Mapping[str, object] | None = None,
) -> list[Row]:
    """Rows of the upload keyed by column key; raise :class:`SpreadsheetError` for the file.

    ``columns`` maps each key to the header names it accepts (English and German).
    Blank rows are skipped; more than ``max_rows`` data rows are refused. ``titles``, when
    given, is filled with each key's header as the file writes it ("Nachname"), for
    messages that name the column the user sees. ``ignored``, when given, is filled with the
    headers of the columns not known, which are then left out instead of refused.
    ``shown`` names each key as messages show it (in the page's language), for a header
    that lacks it.
    """
    rows = raw_rows(upload, name, sheet=sheet, max_rows=max_rows)
    while rows and all(cell(v) is None for v in rows[0]):
        rows.pop(0)
    if not rows:
        raise SpreadsheetError(_("The file is empty."))
    positions, unknown = _header(rows[0], columns, titles)
    _check_columns(
        positions, unknown, shown or {key: key for key in columns}, required, allow_unknown or ignored is not None
    )
    if ignored is not None:
        ignored.extend(dict.fromkeys(unknown))  # a heading written twice is named once
        ignored.extend(_unnamed_columns(rows))
    result = _data_rows(rows[1:], positions)
    if len(result) > max_rows:
        raise SpreadsheetError(_("The file has more than %(max)s rows.") % {"max": max_rows})
    if not result:
        raise SpreadsheetError(_("The file has a header but no rows."))
    return result


def _header(
    header: list[object], columns: Mapping[str, Iterable[str]], titles: dict[str, str] | None
) -> tuple[dict[str, int], list[str]]:
    """Each known column's position in the header row, and the titles of those not known.
    A column named twice (under any of its names) is refused."""
    aliases = {header_key(alias): key for key, names in columns.items() for alias in (key, *names)}
    positions: dict[str, int] = {}
    unknown = []
    for index, title in enumerate(header):
        if cell(title) is None:
            continue
        key = aliases.get(header_key(title))
        if key is None:
            unknown.append(str(title))
        elif key in positions:
            raise SpreadsheetError(_("The column %(column)s appears twice.") % {"column": title})
        else:
            positions[key] = index
            if titles is not None:
                titles[key] = str(title).strip()
    return positions, unknown


def _unnamed_columns(rows: list[list[object]]) -> list[str]:
    """Columns without a heading that hold data below it: left out as unknown ones are, and
    named by their position so the user sees what was not read. Only a row's filled cells
    are looked at (found at C speed): a file of thousands of empty columns costs no more
    than reading it."""
    header = rows[0]
    width = max(len(values) for values in rows)
    left = {index for index in range(width) if index >= len(header) or cell(header[index]) is None}
    found = set()
    for values in rows[1:]:
        if not left:
            break
        # The cells that are not blank (None, "", FALSE); a 0 is data, and blank to compress(): all looked at.
        filled = sorted(left) if 0 in values else compress(range(len(values)), values)
        for index in filled:
            if index in left and index < len(values) and cell(values[index]) is not None:
                found.add(index)
        left -= found
    return [str(_("column %(number)s (no heading)") % {"number": index + 1}) for index in sorted(found)]


def _check_columns(
    positions: dict[str, int],
    unknown: list[str],
    shown: Mapping[str, object],
    required: Iterable[str],
    allow_unknown: bool,
) -> None:
    """Refuse a header without a required column, or with an unknown one unless allowed;
    each column named as ``shown`` names it."""
    missing = [str(shown.get(key, key)) for key in required if key not in positions]
    if missing:
        raise SpreadsheetError(
            _("Missing columns: %(missing)s. The first row must name the columns, e.g. %(example)s.")
            % {"missing": ", ".join(missing), "example": ", ".join(str(title) for title in shown.values())}
        )
    if unknown and not allow_unknown:
        raise SpreadsheetError(
            _("Unknown columns: %(unknown)s. Known columns: %(known)s.")
            % {"unknown": ", ".join(unknown), "known": ", ".join(str(title) for title in shown.values())}
        )


def _data_rows(rows: list[list[object]], positions: dict[str, int]) -> list[Row]:
    """The rows under the header keyed by column, numbered as the file numbers them; blank rows skipped."""
    result = []
    for number, values in enumerate(rows, start=2):
        row = {key: cell(values[index]) if index < len(values) else None for key, index in positions.items()}
        if all(value is None for value in row.values()):
            continue
        result.append(Row(number=number, values=row))
    return result


TRUE_WORDS = frozenset({"x", "1", "ja", "j", "yes", "y", "true", "wahr", "✓", "✔"})
FALSE_WORDS = frozenset({"0", "nein", "n", "no", "false", "falsch", "-"})


def flag(value: Cell) -> bool | None:
    """A tick on the sheet: empty, x, ja, yes, 1 ... -> bool; None when unreadable."""
    if value is None:
        return False
    if value is True:
        return True
    text = str(value).strip().casefold()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS or not text:
        return False
    return None


def whole_number(value: Cell) -> int | None:
    """A whole number from a cell, or None when blank; raises ValueError when not a number."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError("TRUE")  # a tick, not a number
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    raise ValueError(text)
