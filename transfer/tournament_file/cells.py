"""Reading the tournament file's cells: every refusal names the sheet, row and column."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from core.tabular import typed as text
from core.workbooks import WorkbookError, worksheet
from core.workbooks import rows as workbook_rows

from ..exports import FORMAT_VERSION


class TransferError(ValueError):
    """The workbook cannot be imported; the message names the sheet, row and column."""


def _read(name: str):
    """Rows of the sheet ``name``, each error of the file a :class:`TransferError`; read
    under the limits the workbook was opened with (:func:`.importer.import_tournament`)."""

    def rows(workbook, *, min_row: int = 1):
        try:
            found = worksheet(workbook, name)
            if found is None:
                raise TransferError(f"sheet {name!r} is missing; export the tournament with this office")
            yield from workbook_rows(found, min_row=min_row)
        except WorkbookError as error:
            raise TransferError(str(error)) from None

    return rows


def sheet_rows(workbook, name: str, columns: tuple[str, ...], optional: tuple[str, ...] = ()):
    """The sheet's rows as lists of ``columns`` then ``optional`` (None where a file of before
    has not got an optional column)."""
    # The sheet's stated dimensions are not trusted (nor needed): rows end at their last value.
    rows = _read(name)(workbook)
    header = next(rows, (1, []))[1]
    positions = {title: i for i, title in enumerate(header) if title is not None}
    missing = [c for c in columns if c not in positions]
    if missing:
        raise TransferError(f"sheet {name}: missing columns {', '.join(missing)}")
    index = [positions[c] for c in columns] + [positions.get(c) for c in optional]
    for number, values in rows:
        if all(v is None for v in values):
            continue
        padded = [*values, None] + [None] * (len(header) - len(values))
        yield number, [padded[i] if i is not None else None for i in index]


def whole(value, where: str, *, optional: bool = False, least: int = 0, most: int = 32767) -> int | None:
    """A whole number from ``least`` to ``most`` (by default what a PositiveSmallIntegerField
    holds on every database), or a refusal naming the cell: a number the columns cannot
    store must never reach the database (an overflow there is a 500, not a message)."""
    if value is None or value == "":
        if optional:
            return None
        raise TransferError(f"{where}: a whole number is required")
    number = None
    if isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        try:
            number = int(value.strip())
        except ValueError:  # "²" passes isdigit(); thousands of digits exceed int()'s limit
            number = None
    if number is None:
        raise TransferError(f"{where}: {value!r} is not a whole number")
    if not least <= number <= most:
        raise TransferError(f"{where}: {number} is not a whole number from {least} to {most}")
    return number


def flag(value) -> bool:
    return text(value).casefold() in {"x", "1", "true", "yes", "ja"}


def settings_of(workbook) -> dict[str, object]:
    values = {}
    for _number, row in _read("Tournament")(workbook, min_row=2):
        if row and row[0] is not None:
            values[str(row[0])] = row[1] if len(row) > 1 else None
    if whole(values.get("Format"), "Tournament, Format", optional=True) != FORMAT_VERSION:
        raise TransferError(f"Tournament, Format: this office reads format {FORMAT_VERSION}")
    return values


def decimal(value, where: str) -> Decimal:
    try:
        return Decimal(str(value if value is not None else "0"))
    except InvalidOperation:
        raise TransferError(f"{where}: {value!r} is not an amount") from None


#: The largest value of a PositiveSmallIntegerField on every database (PostgreSQL's smallint),
#: of an IntegerField (a seed), and of a BigAutoField (an id).
SMALLINT_MAX = 32767
INT_MAX = 2**31 - 1
BIGINT_MAX = 2**63 - 1


def step_number(value, where: str) -> int:
    """A step or a place: a whole number from 1 to what its column holds, or a named refusal."""
    number = whole(value, where, least=-BIGINT_MAX, most=BIGINT_MAX)
    if not 1 <= number <= SMALLINT_MAX:
        raise TransferError(f"{where}: {number} is not a number from 1 to {SMALLINT_MAX}")
    return number


def money(value: str, where: str, *, below: int = 10**4) -> Decimal:
    """An amount in cents, 0 or more and below ``below`` (the model's column: a fee has
    6 digits, a prize 8), so PostgreSQL never refuses what this let through."""
    amount = decimal(value, where)
    if not amount.is_finite() or not 0 <= amount < below or amount != amount.quantize(Decimal("0.01")):
        raise TransferError(f"{where}: {value!r} is not an amount of 0 to {below - 1}.99 in cents")
    return amount
