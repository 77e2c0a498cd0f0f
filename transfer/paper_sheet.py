"""Importing a finished paper scoresheet (5.5.2) for one table: every row through the engine.

One row per deal, with the columns of the printed sheet (English or German headers):
deal, dealer (optional, checked), declarer (name or seat number), contract (diamonds ...
or Karo/Herz/Pik/Kreuz/Grand/Null), with/without (mit/ohne), tops, hand, schneider
announced, schwarz announced, ouvert, declarer card points, declarer tricks, bid, passed
out, and optionally the game value the scorekeeper wrote (compared with the engine's).
Flags are ticked with x, ja, yes or 1 and left empty otherwise.

Each row is read and valued by :func:`transfer.paper_rows.parse_row` (the engine: so every refusal is the
engine's, with its paragraph), prefixed by the row and column. Nothing is written unless
every row is valid, and only into a table that has no games yet; the deals are stored by
:func:`scoring.services.create_deals`, valued again under the table's lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import BinaryIO

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.spreadsheets import SpreadsheetError, read_table
from scoring import services
from scoring.models.deals import SHEET_IMPORT

from .paper_rows import REQUIRED, SHEET_COLUMNS, parse_row


@dataclass
class SheetImport:
    errors: list[tuple[int, str]] = field(default_factory=list)
    games: int = 0


def import_sheet(table, upload: BinaryIO, name: str, *, entered_by: str = "") -> SheetImport:
    """Check every row of a paper sheet for ``table``, then store all deals or none.

    Raises :class:`SpreadsheetError` for an unreadable file or a table that cannot take
    an import (games already entered, series finished); bad rows come back in ``errors``.
    """
    from tournaments.models import Series, Table

    table = Table.objects.select_related("series__tournament").get(pk=table.pk)
    _check_table(table)
    deals = table.deals
    rows = read_table(upload, name, SHEET_COLUMNS, REQUIRED, max_rows=deals + 10)
    players = dict(table.seats.values_list("number", "player__name"))
    if len(players) != table.size:
        raise SpreadsheetError(_("Table %(n)s is not fully seated.") % {"n": table.number})
    result = SheetImport()
    games = []
    for expected, row in enumerate(rows, start=1):
        game, problems = parse_row(row, players, expected, table.size, deals)
        for problem in problems:
            result.errors.append((row.number, problem))
        game.table = table
        game.entered_by = (entered_by or SHEET_IMPORT)[:80]  # a code: shown translated (entered_by_label)
        games.append(game)
    if result.errors:
        return result
    try:
        with transaction.atomic():
            Table.objects.lock(table.pk)
            _check_table(table)
            services.create_deals(games, locked=True)
            Series.objects.filter(pk=table.series_id, status=Series.Status.DRAWN).update(status=Series.Status.RUNNING)
    except IntegrityError:
        raise SpreadsheetError(_("Deals were entered at this table meanwhile; nothing was imported.")) from None
    result.games = len(games)
    return result


def _check_table(table) -> None:
    from tournaments.models import Series

    if table.series.status == Series.Status.FINISHED:
        raise SpreadsheetError(
            _("Series %(n)s is finished; a referee corrects it now (5.5.3).") % {"n": table.series.number}
        )
    entered = table.games.count()
    if entered:
        raise SpreadsheetError(
            ngettext(
                "Table %(table)s already has %(n)s deal entered; a sheet is imported only into an empty table.",
                "Table %(table)s already has %(n)s deals entered; a sheet is imported only into an empty table.",
                entered,
            )
            % {"table": table.number, "n": entered}
        )
