"""Statistics of a tournament and its players, from the stored games (never re-valued).

Every function is a fixed number of queries whatever the size of the tournament:
conditional aggregates in SQL (``Count``/``Sum`` with ``filter=Q(...)``) grouped by
(table, declarer seat), then one pass over the seats adds each seat's figures to its
player, as :mod:`standings.places` does.

* :func:`player_statistics` - per player: games declared, won, lost, suit games, grands,
  nulls, hand games, average game value (2 queries);
* :func:`tournament_statistics` - the same for the whole tournament plus deals, passed-out
  deals, overbids, schneider and schwarz (1 query);
* :func:`running_scores` - each player's running total of game points, deal by deal over
  all his series, for the chart on the player's page and the PDF appendix (2 queries).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Max, Q, Sum

from scoring.models import Game
from skat.rules import Contract

SUITS = [Contract.DIAMONDS.value, Contract.HEARTS.value, Contract.SPADES.value, Contract.CLUBS.value]


@dataclass(slots=True)
class DeclarerStats:
    """One player's games as declarer. ``value_sum`` is the sum of the game values."""

    player_id: int
    name: str
    club: str
    games: int = 0
    won: int = 0
    lost: int = 0
    suit: int = 0
    grand: int = 0
    null: int = 0
    hand: int = 0
    value_sum: int = 0

    @property
    def average_value(self) -> float | None:
        """The mean game value of the games he declared (None when he declared none)."""
        return self.value_sum / self.games if self.games else None


@dataclass(frozen=True, slots=True)
class TournamentStats:
    deals: int
    passed_out: int
    games: int
    won: int
    lost: int
    suit: int
    grand: int
    null: int
    hand: int
    overbid: int
    schneider: int
    schwarz: int
    average_value: float | None
    highest_value: int | None


def _aggregates(**extra) -> dict:
    return {
        "games": Count("pk", filter=Q(passed_out=False)),
        "won": Count("pk", filter=Q(won=True)),
        "lost": Count("pk", filter=Q(lost=True)),
        "suit": Count("pk", filter=Q(contract__in=SUITS)),
        "grand": Count("pk", filter=Q(contract=Contract.GRAND.value)),
        "null": Count("pk", filter=Q(contract=Contract.NULL.value)),
        "hand": Count("pk", filter=Q(hand=True)),
        **extra,
    }


def _games(tournament):
    """The games that count: a game voided by a referee stays on the sheet but not in the figures."""
    return Game.objects.filter(table__series__tournament=tournament, voided=False)


def _seats(tournament, player_ids=None):
    from tournaments.models import Seat

    seats = Seat.objects.filter(series__tournament=tournament)
    if player_ids is not None:
        seats = seats.filter(player_id__in=list(player_ids))
    return seats


def player_statistics(tournament, player_ids=None) -> dict[int, DeclarerStats]:
    """player id -> his games as declarer, over all series (or only ``player_ids``: then
    only the games of their tables are grouped, so a page of 50 players reads a few
    hundred games, not the tournament's)."""
    games = _games(tournament).filter(passed_out=False)
    seats = _seats(tournament, player_ids).values_list(
        "table_id", "number", "player_id", "player__name", "player__club__name"
    )
    if player_ids is not None:
        seats = list(seats)
        games = games.filter(table_id__in={table for table, *_rest in seats})
    per_seat = {
        (table, seat): rest
        for table, seat, *rest in games.order_by()
        .values_list("table_id", "declarer_seat")
        .annotate(**_aggregates(value_sum=Sum("value")))
        .values_list("table_id", "declarer_seat", "games", "won", "lost", "suit", "grand", "null", "hand", "value_sum")
    }
    stats: dict[int, DeclarerStats] = {}
    for table, seat, player_id, name, club in seats:
        entry = stats.get(player_id)
        if entry is None:
            entry = stats[player_id] = DeclarerStats(player_id=player_id, name=name, club=club or "")
        figures = per_seat.get((table, seat))
        if figures is None:
            continue
        games, won, lost, suit, grand, null, hand, value_sum = figures
        entry.games += games
        entry.won += won
        entry.lost += lost
        entry.suit += suit
        entry.grand += grand
        entry.null += null
        entry.hand += hand
        entry.value_sum += value_sum or 0
    return stats


def tournament_statistics(tournament) -> TournamentStats:
    """The whole tournament in one aggregate query."""
    # Prefixed names: an aggregate may not share its name with a field another one filters on.
    figures = _games(tournament).aggregate(
        n_deals=Count("pk"),
        n_passed_out=Count("pk", filter=Q(passed_out=True)),
        n_overbid=Count("pk", filter=Q(overbid=True)),
        n_schneider=Count("pk", filter=Q(schneider=True)),
        n_schwarz=Count("pk", filter=Q(schwarz=True)),
        n_average_value=Avg("value", filter=Q(passed_out=False)),
        n_highest_value=Max("value"),
        **{f"n_{name}": aggregate for name, aggregate in _aggregates().items()},
    )
    figures = {name.removeprefix("n_"): value for name, value in figures.items()}
    if not figures["games"]:
        figures["highest_value"] = None
    return TournamentStats(**figures)


def running_scores(tournament, player_ids=None) -> dict[int, list[tuple[int, int, int]]]:
    """player id -> [(series number, deal, running total of game points), ...].

    One point per deal of the player's table in each series, in series and deal order;
    the total carries over from one series to the next (the paper sheet's running
    column, continued). Deals he did not declare leave it unchanged. Two queries.
    """
    seats = list(
        _seats(tournament, player_ids)
        .order_by("series__number")
        .values_list("player_id", "table_id", "number", "series__number")
    )
    games = (
        _games(tournament).order_by("table_id", "number").values_list("table_id", "number", "declarer_seat", "score")
    )
    if player_ids is not None:
        games = games.filter(table_id__in={table for _p, table, _n, _s in seats})
    by_table: dict[int, list[tuple[int, int | None, int]]] = {}
    for table, number, declarer, score in games:
        by_table.setdefault(table, []).append((number, declarer, score))
    result: dict[int, list[tuple[int, int, int]]] = {}
    totals: dict[int, int] = {}
    for player_id, table, seat, series in seats:
        points = result.setdefault(player_id, [])
        total = totals.get(player_id, 0)
        for number, declarer, score in by_table.get(table, ()):
            if declarer == seat:
                total += score
            points.append((series, number, total))
        totals[player_id] = total
    return result
