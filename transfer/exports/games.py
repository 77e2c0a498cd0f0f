"""The Games sheet: every deal as entered, with the values the engine gave it.

Rows are streamed: the games are fetched in chunks straight from the database cursor,
so a 3,000-player tournament's 108,000 games never sit in memory at once.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db import connections

from scoring.describe import announced_levels
from scoring.models import Game

# The games' columns as the database gives them, in the order _game_rows reads them.
_GAME_FIELDS = (
    "table__series__number",
    "table__number",
    "number",
    "dealer_seat",
    "declarer_seat",
    "table_id",
    "contract",
    "tops_kind",
    "tops",
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
    "bid",
    "declarer_points",
    "declarer_tricks",
    "value",
    "won",
    "lost",
    "overbid",
    "score",
    "passed_out",
    "irregularity",
    "voided",
)
CHUNK = 5000


def _seat_names(tournament) -> dict[tuple[int, int], tuple[str, str]]:
    from tournaments.models import Seat

    return {
        (table, seat): (name, number)
        for table, seat, name, number in Seat.objects.filter(series__tournament=tournament).values_list(
            "table_id", "number", "player__name", "player__membership_number"
        )
    }


def game_rows(tournament) -> Iterator[tuple]:
    """The Games sheet: every deal in series, table and deal order, fetched in chunks.

    The rows come from the database cursor without the ORM's per-row conversion (the
    values are plain integers, strings and booleans); flags are written ``x`` or empty.
    """
    names = _seat_names(tournament)
    query = (
        Game.objects.filter(table__series__tournament=tournament)
        .order_by("table__series__number", "table__number", "number")
        .values_list(*_GAME_FIELDS)
    )
    sql, params = query.query.sql_with_params()
    nobody = (None, None)
    # A server-side cursor on PostgreSQL (what QuerySet.iterator() uses), so the rows
    # arrive in chunks there too; on SQLite a plain cursor already fetches lazily.
    with connections[query.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while True:
            chunk = cursor.fetchmany(CHUNK)
            if not chunk:
                break
            for (
                series,
                table_number,
                deal,
                dealer,
                declarer,
                table,
                contract,
                tops_kind,
                tops,
                hand,
                schneider,
                schneider_announced,
                schwarz,
                schwarz_announced,
                ouvert,
                bid,
                points,
                tricks,
                value,
                won,
                lost,
                overbid,
                score,
                passed_out,
                irregularity,
                voided,
            ) in chunk:
                declarer_name, declarer_number = names.get((table, declarer), nobody) if declarer else nobody
                # 5.2.6: schwarz announced (and ouvert) include schneider announced, as on the PDF.
                schneider_announced, schwarz_announced = announced_levels(
                    contract, schneider_announced, schwarz_announced, ouvert
                )
                yield (
                    series,
                    table_number,
                    deal,
                    dealer,
                    names.get((table, dealer), nobody)[0],
                    declarer,
                    declarer_name,
                    declarer_number,
                    contract or None,
                    tops_kind or None,
                    tops,
                    "x" if hand else None,
                    "x" if schneider else None,
                    "x" if schneider_announced else None,
                    "x" if schwarz else None,
                    "x" if schwarz_announced else None,
                    "x" if ouvert else None,
                    bid,
                    points,
                    tricks,
                    value,
                    "won" if won else "lost" if lost else None,
                    "x" if overbid else None,
                    score,
                    "x" if passed_out else None,
                    irregularity or None,
                    "x" if voided else None,
                )
