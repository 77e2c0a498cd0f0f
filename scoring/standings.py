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

    @property
    def total(self) -> int:
        return self.rating.rating


def seat_aggregates(games) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(table id, declarer seat) -> (points, won, lost): the one aggregate query."""
    rows = (
        games.filter(passed_out=False)
        .order_by()
        .values_list("table_id", "declarer_seat")
        .annotate(points=Sum("score"), won=Count("pk", filter=Q(won=True)), lost=Count("pk", filter=Q(lost=True)))
    )
    return {(table, seat): (points, won, lost) for table, seat, points, won, lost in rows}


def game_counts(games) -> dict[int, int]:
    """Deals entered per table (passed-out deals included)."""
    return dict(games.order_by().values_list("table_id").annotate(n=Count("pk")).values_list("table_id", "n"))


def compute(seats: Iterable[dict], games) -> list[PlayerStanding]:
    """Standings of the players in ``seats`` over ``games`` (both already filtered).

    ``seats`` are dicts with table_id, number, player_id, player__name,
    player__club__name, table__number, table__size, series__number.
    """
    per_seat = seat_aggregates(games)
    counts = game_counts(games)
    seats = list(seats)
    table_lost: dict[int, int] = defaultdict(int)
    for (table, _seat), (_points, _won, lost) in per_seat.items():
        table_lost[table] += lost

    players: dict[int, PlayerStanding] = {}
    for seat in seats:
        table = seat["table_id"]
        points, won, lost = per_seat.get((table, seat["number"]), (0, 0, 0))
        size = seat["table__size"]
        bonus = (table_lost.get(table, 0) - lost) * opponent_bonus(size)
        rating = Rating(points=points or 0, won=won, lost=lost, bonus=bonus)
        line = SeatLine(
            series_number=seat["series__number"],
            table_number=seat["table__number"],
            table_size=size,
            rating=rating,
            games=counts.get(table, 0),
        )
        standing = players.get(seat["player_id"])
        if standing is None:
            players[seat["player_id"]] = PlayerStanding(
                player_id=seat["player_id"],
                name=seat["player__name"],
                club=seat["player__club__name"] or "",
                rating=rating,
                tables=1,
                lines=[line],
            )
        else:
            standing.rating = standing.rating + rating
            standing.tables += 1
            standing.lines.append(line)
    return list(players.values())


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
    from tournaments.models import Seat

    seats = Seat.objects.filter(series__tournament=tournament)
    games = Game.objects.filter(table__series__tournament=tournament)
    if series_number is not None:
        seats = seats.filter(series__number=series_number)
        games = games.filter(table__series__number=series_number)
    rows = compute(seats.values(*SEAT_FIELDS), games)
    return rank(rows, lambda row: row.rating, lot_seed=tournament.lot_seed, lot_key=lambda row: row.player_id)
