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


def _rows(query) -> list[tuple]:
    """The rows of a ``values_list`` query as plain tuples, without the ORM's per-row conversion.

    The ORM writes the SQL (portable); the rows hold only integers and text, and
    converting them row by row costs more than the query for a 3,000-player tournament.
    """
    sql, params = query.query.sql_with_params()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def seat_aggregates(games, *, deals: bool = False) -> list[tuple]:
    """(table id, declarer seat, points, won, lost) per seat that declared: the one aggregate query.

    With ``deals`` each row also counts the deals and the passed-out deals form a group
    of their own (seat ``None``), for a table's line: they count as dealt, score nothing.
    Without it the query reads only the covering index's rows of declared games, which
    is all the ranking needs.
    """
    query = games.order_by()
    if not deals:
        query = query.filter(declarer_seat__isnull=False)
    query = query.values_list("table_id", "declarer_seat").annotate(
        # COUNT(won) and COUNT(*): columns of the covering index (COUNT(id) costs a third more on SQLite).
        points=Sum("score"),
        won=Count("won", filter=Q(won=True)),
        lost=Count("lost", filter=Q(lost=True)),
    )
    if deals:
        query = query.annotate(deals=Count("*"))
    return _rows(query)


#: What :func:`compute` reads of each seat; :data:`LINE_FIELDS` adds what a table's line shows.
SEAT_FIELDS = ("table_id", "number", "player_id", "table__size")
LINE_FIELDS = (*SEAT_FIELDS, "table__number", "series__number")

#: Seats per table in the integer keys (table id x 8 + seat): no tuple per lookup.
_SEAT_KEY = 8


def compute(
    seats: Iterable[tuple],
    games,
    names: dict[int, tuple[str, str | None]],
    *,
    with_lines: bool = False,
    confirmed_tables: set[int] | None = None,
) -> list[PlayerStanding]:
    """Standings of the players in ``seats`` over ``games`` (both already filtered).

    ``seats`` are tuples in the order of :data:`SEAT_FIELDS` (:data:`LINE_FIELDS` with
    ``with_lines``); ``names`` maps each player to his name and club. One pass over the
    seats adding plain integers per player; ``with_lines`` keeps each table's line too
    (for a player's own page), which the ranking list does not need. With
    ``confirmed_tables`` (the ids of the tables whose sheet is confirmed), each player
    counts his tables not confirmed yet. The loops are
    written for speed (integer keys, no objects per seat): they run over every seat of
    a 3,000-player tournament on each standings page.
    """
    per_seat: dict[int, tuple] = {}
    table_lost: dict[int, int] = defaultdict(int)
    table_deals: dict[int, int] = defaultdict(int)
    for row in seat_aggregates(games, deals=with_lines):
        table = row[0]
        per_seat[table * _SEAT_KEY + (row[1] or 0)] = row
        table_lost[table] += row[4]
        if with_lines:
            table_deals[table] += row[5]

    seat_row = per_seat.get
    bonus_for = {size: opponent_bonus(size) for size in (3, 4)}
    totals: dict[int, list[int]] = {}
    lines: dict[int, list[SeatLine]] = defaultdict(list)
    for seat in seats:
        table, number, player_id, size = seat[:4]
        row = seat_row(table * _SEAT_KEY + number)
        if row is None:
            points = won = lost = 0
        else:
            points, won, lost = row[2] or 0, row[3], row[4]
        bonus = (table_lost[table] - lost) * bonus_for[size]
        unconfirmed = 0 if confirmed_tables is None or table in confirmed_tables else 1
        entry = totals.get(player_id)
        if entry is None:
            totals[player_id] = [points, won, lost, bonus, 1, unconfirmed]
        else:
            entry[0] += points
            entry[1] += won
            entry[2] += lost
            entry[3] += bonus
            entry[4] += 1
            entry[5] += unconfirmed
        if with_lines:
            lines[player_id].append(
                SeatLine(
                    series_number=seat[5],
                    table_number=seat[4],
                    table_size=size,
                    rating=Rating(points=points, won=won, lost=lost, bonus=bonus),
                    games=table_deals[table],
                )
            )
    return [
        PlayerStanding(
            player_id=player_id,
            name=names[player_id][0],
            club=names[player_id][1] or "",
            rating=Rating(points, won, lost, bonus),
            tables=tables,
            lines=lines.get(player_id) or [],
            unconfirmed=unconfirmed,
        )
        for player_id, (points, won, lost, bonus, tables, unconfirmed) in totals.items()
    ]


def standings(tournament, series_number: int | None = None) -> list[Ranked[PlayerStanding]]:
    """Ranked standings of a tournament, overall or for one series.

    Order (documented in rating.py): rating, then games won, then fewer games lost,
    then a reproducible lot from the tournament's seed. Three queries, whatever the size:
    the games' aggregate, the seats (with each table's size and sign-off), the players' names.
    """
    from tournaments.models import Player, Seat, Table

    seats = Seat.objects.filter(series__tournament=tournament)
    tables = Table.objects.filter(series__tournament=tournament)
    if series_number is not None:
        seats = seats.filter(series__number=series_number)
        tables = tables.filter(series__number=series_number)
    # A subquery on the tables, so the GROUP BY runs on the covering index alone.
    games = Game.objects.filter(table__in=tables.values("pk"))
    people = Player.objects.filter(pk__in=seats.values("player_id")).order_by().values_list("pk", "name", "club__name")
    # Only confirmed sheets are final (referees app, 5.5.3); the others are marked provisional.
    # The sign-off rides along with the seats (a LEFT JOIN), not in a query of its own.
    seat_rows = _rows(seats.order_by().values_list(*SEAT_FIELDS, "table__signoff"))
    rows = _player_totals(seat_rows, seat_aggregates(games), _rows(people))
    return rank(rows, _rating_of, lot_seed=tournament.lot_seed, lot_key=_player_id_of)


def _rating_of(row: PlayerStanding) -> Rating:
    return row.rating


def _player_id_of(row: PlayerStanding) -> int:
    return row.player_id


def _player_totals(seat_rows: list[tuple], aggregates: list[tuple], names: list[tuple]) -> list[PlayerStanding]:
    """Each player's summed tables: :func:`compute` without a table's lines, for the ranking list.

    ``seat_rows``: (table id, seat, player id, table size, sign-off id or None);
    ``aggregates``: :func:`seat_aggregates` rows of declared games; ``names``: (player
    id, name, club). The same sums as :func:`compute` (tests/scoring/test_standings.py
    holds them equal to the engine's :func:`scoring.rating.rate_table` per table), in
    fewer steps: it runs over every seat of a 3,000-player tournament on each standings
    page, so the loops keep plain integers and one list per player, and build the
    :class:`Rating` and :class:`PlayerStanding` objects only once per player.
    """
    per_seat: dict[int, tuple[int, int, int]] = {}
    table_lost: dict[int, int] = {}
    lost_of = table_lost.get
    for table, declarer, points, won, lost in aggregates:
        per_seat[table * _SEAT_KEY + declarer] = (points or 0, won, lost)
        table_lost[table] = lost_of(table, 0) + lost
    seat_row = per_seat.get
    bonus_for = {size: opponent_bonus(size) for size in (3, 4)}
    nothing = (0, 0, 0)
    totals: dict[int, list[int]] = {}
    entry_of = totals.get
    for table, number, player_id, size, signoff in seat_rows:
        points, won, lost = seat_row(table * _SEAT_KEY + number, nothing)
        bonus = (lost_of(table, 0) - lost) * bonus_for[size]
        entry = entry_of(player_id)
        if entry is None:
            totals[player_id] = [points, won, lost, bonus, 1, signoff is None]
        else:
            entry[0] += points
            entry[1] += won
            entry[2] += lost
            entry[3] += bonus
            entry[4] += 1
            entry[5] += signoff is None
    name_of = {pk: (name, club or "") for pk, name, club in names}
    return [
        PlayerStanding(player_id, *name_of[player_id], Rating(points, won, lost, bonus), tables, [], int(unconfirmed))
        for player_id, (points, won, lost, bonus, tables, unconfirmed) in totals.items()
    ]


def sheet_counts(tournament, series_number: int | None = None) -> tuple[int, int]:
    """(confirmed, all) sheets of the tournament or one series: how final the standings are."""
    from tournaments.models import Table

    tables = Table.objects.filter(series__tournament=tournament)
    if series_number is not None:
        tables = tables.filter(series__number=series_number)
    counts = tables.aggregate(all=Count("pk"), confirmed=Count("signoff"))
    return counts["confirmed"], counts["all"]
