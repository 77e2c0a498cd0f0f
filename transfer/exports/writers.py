"""The writers: the whole league workbook (XLSX) and each of its sheets as CSV.

Rows are streamed: openpyxl in write-only mode writes each sheet as its rows arrive.
Every file is written by :mod:`core.tabular`: typed-in text is never a formula.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from django.utils.translation import gettext as _

from core import tabular
from core.tabular import Sheet, write_csv, write_xlsx

from .columns import (
    GAMES_COLUMNS,
    PLAYERS_EXPORT_COLUMNS,
    RANKING_EXPORT_COLUMNS,
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
    "Ranking": (RANKING_EXPORT_COLUMNS, ranking_rows),
    "Teams": (TEAMS_COLUMNS, team_rows),
    "Results": (RESULTS_COLUMNS, results_rows),
    "Games": (GAMES_COLUMNS, game_rows),
    "Tournament": (TOURNAMENT_COLUMNS, tournament_rows),
    "Players": (PLAYERS_EXPORT_COLUMNS, player_rows),
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


class PracticeNotExported(Exception):
    """A practice tournament's results leave the office for no league: they are not real."""


def refuse_practice(tournament) -> None:
    """Raise :class:`PracticeNotExported` for a practice tournament (a rehearsal, ``manage.py rehearse``)."""
    if tournament.practice:
        raise PracticeNotExported(
            _(
                "Tournament: %(name)s is a practice tournament (a rehearsal); a practice tournament is never "
                "exported or published to a league."
            )
            % {"name": tournament.name}
        )


def league_xlsx(tournament, out: BinaryIO, category=None) -> None:
    """Write the whole workbook to ``out`` (a file opened for binary writing); with a
    ``category``, its Ranking sheet is that category's own ranking. The header rows are
    bold and frozen so the columns stay readable while scrolling. A practice tournament's
    is refused (:func:`refuse_practice`)."""
    refuse_practice(tournament)
    write_xlsx(
        out,
        (
            Sheet(title, columns, rows(tournament), styled=True, widths=_WIDE)
            for title, (columns, rows) in _sheets(category).items()
        ),
    )


def csv_lines(tournament, sheet: str, category=None) -> Iterator[str]:
    """One sheet as CSV text, line by line (for a streaming response); refused for a practice tournament."""
    refuse_practice(tournament)
    columns, rows = _sheets(category)[sheet]
    return tabular.csv_lines(columns, rows(tournament))


def league_csv(tournament, sheet: str, out: TextIO) -> None:
    """Write one sheet (a key of :data:`SHEETS`) as CSV to a text stream; refused for a practice tournament."""
    refuse_practice(tournament)
    columns, rows = SHEETS[sheet]
    write_csv(out, columns, rows(tournament))
