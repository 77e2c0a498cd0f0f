"""Standings: the extended Seeger-Fabian rating of every player, from stored games.

One SQL aggregate does the work: games grouped by (table, declarer seat) give each
seat's game points, games won and games lost. Everything else follows per seat, not
per game: a seat's opponent bonus is the games lost by the others at its table
(the table's lost games minus its own) times 40 at a table of three or 30 at four
(:func:`scoring.rating.opponent_bonus`). So the cost is one GROUP BY over the games
plus a pass over the seats, whatever the number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connections
from django.db.models import Count, Q, Sum

from .models import Game
from .rating import Ranked, Rating, opponent_bonus, rank


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One player's result at one table of one series."""

    series_number: int
    table_number: int
    table_size: int
    rating: Rating
    games: int


@dataclass(slots=True)
class PlayerStanding:
    player_id: int
    name: str
    club: str
    rating: Rating
    tables: int
    lines: list[SeatLine]
    #: Tables of this player whose sheet is not confirmed yet: his result is provisional.
    unconfirmed: int = 0

    @property
    def total(self) -> int:
        return self.rating.rating


def seat_aggregates(games) -> dict[tuple[int, int | None], tuple[int, int, int, int]]:
    """(table id, declarer seat) -> (deals, points, won, lost): the one aggregate query.

    Passed-out deals form the group of seat ``None``: they count as dealt, score nothing.
    """
    query = (
        games.order_by()
        .values_list("table_id", "declarer_seat")
        .annotate(
            deals=Count("pk"),
            points=Sum("score"),
            won=Count("pk", filter=Q(won=True)),
            lost=Count("pk", filter=Q(lost=True)),
        )
    )
    # The ORM writes the SQL (portable: COUNT ... FILTER on PostgreSQL and SQLite); the
    # rows are plain integers, so they are fetched without the ORM's per-row conversion,
    # which costs more than the query itself for a 3,000-player tournament.
    sql, params = query.query.sql_with_params()
    with connections[games.db].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {(table, seat): (deals, points or 0, won, lost) for table, seat, deals, points, won, lost in rows}


def compute(
    seats: Iterable[tuple], games, *, with_lines: bool = False, confirmed_tables: set[int] | None = None
) -> list[PlayerStanding]:
    """Standings of the players in ``seats`` over ``games`` (both already filtered).

    ``seats`` are tuples in the order of :data:`SEAT_FIELDS`. One pass over the seats,
    adding plain integers per player; ``with_lines`` keeps each table's line too (for a
    player's own page), which the ranking list does not need. With ``confirmed_tables`` (the
    ids of the tables whose sheet is confirmed), each player counts his tables not confirmed yet.
    """
    per_seat = seat_aggregates(games)
    table_lost: dict[int, int] = defaultdict(int)
    table_deals: dict[int, int] = defaultdict(int)
    for (table, _seat), (deals, _points, _won, lost) in per_seat.items():
        table_lost[table] += lost
        table_deals[table] += deals

    totals: dict[int, list] = {}
    bonus_for = {size: opponent_bonus(size) for size in (3, 4)}
    for table, number, player_id, name, club, table_number, size, series_number in seats:
        _deals, points, won, lost = per_seat.get((table, number), (0, 0, 0, 0))
        bonus = (table_lost[table] - lost) * bonus_for[size]
        entry = totals.get(player_id)
        if entry is None:
            entry = totals[player_id] = [name, club or "", 0, 0, 0, 0, 0, [], 0]
        entry[2] += points
        entry[3] += won
        entry[4] += lost
        entry[5] += bonus
        entry[6] += 1
        if confirmed_tables is not None and table not in confirmed_tables:
            entry[8] += 1
        if with_lines:
            entry[7].append(
                SeatLine(
                    series_number=series_number,
                    table_number=table_number,
                    table_size=size,
                    rating=Rating(points=points, won=won, lost=lost, bonus=bonus),
                    games=table_deals[table],
                )
            )
    return [
        PlayerStanding(
            player_id=player_id,
            name=name,
            club=club,
            rating=Rating(points=points, won=won, lost=lost, bonus=bonus),
            tables=tables,
            lines=lines,
            unconfirmed=unconfirmed,
        )
        for player_id, (name, club, points, won, lost, bonus, tables, lines, unconfirmed) in totals.items()
    ]


SEAT_FIELDS = (
    "table_id",
    "number",
    "player_id",
    "player__name",
    "player__club__name",
    "table__number",
    "table__size",
    "series__number",
)


def standings(tournament, series_number: int | None = None) -> list[Ranked[PlayerStanding]]:
    """Ranked standings of a tournament, overall or for one series.

    Order (documented in rating.py): rating, then games won, then fewer games lost,
    then a reproducible lot from the tournament's seed.
    """
    from tournaments.models import Seat, Table

    seats = Seat.objects.filter(series__tournament=tournament)
    tables = Table.objects.filter(series__tournament=tournament)
    if series_number is not None:
        seats = seats.filter(series__number=series_number)
        tables = tables.filter(series__number=series_number)
    # A subquery on the tables, so the GROUP BY runs on the covering index alone.
    games = Game.objects.filter(table__in=tables.values("pk"))
    # Only confirmed sheets are final (referees app, 5.5.3); the others are marked provisional.
    confirmed = set(tables.filter(signoff__isnull=False).values_list("pk", flat=True))
    rows = compute(seats.values_list(*SEAT_FIELDS), games, confirmed_tables=confirmed)
    return rank(rows, lambda row: row.rating, lot_seed=tournament.lot_seed, lot_key=lambda row: row.player_id)


def sheet_counts(tournament, series_number: int | None = None) -> tuple[int, int]:
    """(confirmed, all) sheets of the tournament or one series: how final the standings are."""
    from tournaments.models import Table

    tables = Table.objects.filter(series__tournament=tournament)
    if series_number is not None:
        tables = tables.filter(series__number=series_number)
    counts = tables.aggregate(all=Count("pk"), confirmed=Count("signoff"))
    return counts["confirmed"], counts["all"]
