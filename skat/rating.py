"""The performance rating (Leistungsbewertung): the extended Seeger-Fabian system.

The federation's rule (DOMAIN.md, "Performance rating"; reference 004, 6.1 for the
table of three): per player

    rating = game points + 50 x games won - 50 x games lost + opponent bonus

where game points are the scores of the games he declared (+value won, -2 x value
lost, 5.3.4), and the opponent bonus credits every game lost by another declarer at
his table: 40 to each of the two opponents at a table of three, 30 to each of the three
others, the dealer included, at a table of four. Passed-out deals count nothing (5.5.1):
they are simply not passed to :func:`rate_table`.

This module is the only place that rates. A seat's rating follows from its totals alone
(its game points, games won and lost, and its table's lost games): :func:`rate_seat`,
checked, which :func:`rate_table` and the office's per-seat rows use; and
:func:`rate_players`, its unchecked fast form, which sums it per player over every seat
of a tournament for the standings. Both take the bonus from :func:`_seat_bonus`.

Ranking order (the usual published rule, made explicit here and in the README):

1. higher rating;
2. on equal rating, more games won;
3. then fewer games lost;
4. then by lot. The lot is reproducible: the SHA-256 of ``f"{lot_seed}:{lot_key(item)}"``
   (the tournament's seed and a stable per-player key, e.g. the player's id), compared
   as a hex string, so the same results print the same ranking on every machine and in
   every Python run (Python's ``hash()`` is salted per process and is never used).

Places are 1..n and all distinct: the lot decides true ties. Each :class:`Ranked` entry
names in ``decided_by`` which of the four criteria put it below the entry just above it.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Generic, NamedTuple, TypeVar

from .rules import RuleError, gettext_noop

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

WIN_POINTS = 50
LOSS_POINTS = 50
#: Bonus to each other player for a game lost by the declarer, by table size.
OPPONENT_BONUS = {3: 40, 4: 30}


def _is_int(value: object) -> bool:
    """A true int: bools and floats are no seat, table size or score."""
    return isinstance(value, int) and not isinstance(value, bool)


def opponent_bonus(table_size: int) -> int:
    """40 at a table of three (two opponents), 30 at four (three others, dealer included).

    Any other size is refused: a table seats 3 or 4 players (3.2.7), and the federation
    rule defines no bonus for anything else.
    """
    if not _is_int(table_size) or table_size not in OPPONENT_BONUS:
        raise RuleError("table_size", gettext_noop("a table has 3 or 4 players, not {size}"), "3.2.7", size=table_size)
    return OPPONENT_BONUS[table_size]


class Rating(NamedTuple):
    """One player's counts; ``rating`` derives the extended Seeger-Fabian total.

    Ratings add up (``+``), so a player's series or tournament is the sum of his tables.
    A named tuple, immutable and cheap: the standings build one per player on every page.
    """

    points: int = 0
    won: int = 0
    lost: int = 0
    bonus: int = 0

    @property
    def rating(self) -> int:
        """Game points + 50 x won - 50 x lost + opponent bonus."""
        return self.points + WIN_POINTS * self.won - LOSS_POINTS * self.lost + self.bonus

    @property
    def seeger(self) -> int:
        """The classic Seeger-Fabian figure, without the opponent bonus."""
        return self.rating - self.bonus

    def __add__(self, other: Rating) -> Rating:  # type: ignore[override]
        """Sum a player's tables or series (not the tuple concatenation)."""
        if not isinstance(other, Rating):
            return NotImplemented
        return Rating(
            self.points + other.points, self.won + other.won, self.lost + other.lost, self.bonus + other.bonus
        )


def rate_table(table_size: int, games: Iterable[tuple[int, bool, int]]) -> list[Rating]:
    """Rate one table from its declared games: (declarer seat index from 0, won, score).

    ``score`` is the game's entry on the sheet: positive for a won game, negative (-2 x
    value) for a lost one (5.5.1, 5.3.4); a score whose sign contradicts ``won`` is
    refused rather than guessed. Passed-out deals are not given. Returns one
    :class:`Rating` per seat, in seat order.
    """
    opponent_bonus(table_size)  # 3.2.7: the size is refused before the seats are counted
    points = [0] * table_size
    won = [0] * table_size
    lost = [0] * table_size
    for declarer, game_won, score in games:
        if not _is_int(declarer) or not 0 <= declarer < table_size:
            raise RuleError(
                "declarer",
                gettext_noop("seat index {seat} is not at a table of {size}"),
                "3.1.1",
                seat=repr(declarer),
                size=table_size,
            )
        if not (_is_int(score) and (score > 0 if game_won else score < 0)):
            template = (
                gettext_noop("a won game scores its value (> 0), not {score}")
                if game_won
                else gettext_noop("a lost game scores -2 x its value (< 0), not {score}")
            )
            raise RuleError("score", template, "5.5.1", score=repr(score))
        points[declarer] += score
        if game_won:
            won[declarer] += 1
        else:
            lost[declarer] += 1
    total_lost = sum(lost)
    return [rate_seat(table_size, total_lost, points[i], won[i], lost[i]) for i in range(table_size)]


def _seat_bonus(per_lost: int, table_lost: int, lost: int) -> int:
    """The one formula of the opponent bonus: every game lost at the table but the seat's own.

    A lost game credits each other seat once (40 at three, 30 at four: ``per_lost``),
    never the declarer who lost it.
    """
    return (table_lost - lost) * per_lost


def _count(field: str, value: object) -> int:
    """A count of games: a true int, not below zero (5.5.1: each game is one win or one loss)."""
    if not _is_int(value) or value < 0:  # type: ignore[operator]
        raise RuleError(
            field, gettext_noop("a count of games is a whole number >= 0, not {count}"), "5.5.1", count=repr(value)
        )
    return value  # type: ignore[return-value]


def _points_agree(points: int, won: int, lost: int) -> bool:
    """Whether ``won`` games of at least +1 and ``lost`` ones of at most -1 can add up to ``points``."""
    if lost == 0:
        return points >= won if won else points == 0
    return points <= -lost if won == 0 else True


def rate_seat(table_size: int, table_lost: int, points: int, won: int, lost: int) -> Rating:
    """Rate one seat from its stored totals: the sum of what :func:`rate_table` credits it.

    ``points`` are the scores of the games it declared (won +value, lost -2 x value), ``won``
    and ``lost`` their number, ``table_lost`` the games lost at its table by every declarer,
    its own included. Totals that no games could add up to are refused, as
    :func:`rate_table` refuses such a game: a count below zero, a table that lost fewer
    games than the seat, or game points of the wrong sign (each won game scores at least
    1, each lost one at most -1, none nothing; 5.5.1).
    """
    per_lost = opponent_bonus(table_size)
    _count("won", won)
    _count("lost", lost)
    _count("table_lost", table_lost)
    if table_lost < lost:
        raise RuleError(
            "table_lost",
            gettext_noop("the table lost {table_lost} games, fewer than this seat's {lost}"),
            "5.5.1",
            table_lost=table_lost,
            lost=lost,
        )
    if not (_is_int(points) and _points_agree(points, won, lost)):
        raise RuleError(
            "points",
            gettext_noop("{won} won and {lost} lost games cannot score {points}"),
            "5.5.1",
            won=won,
            lost=lost,
            points=repr(points),
        )
    return Rating(points, won, lost, _seat_bonus(per_lost, table_lost, lost))


def rate_players(
    table_sizes: Mapping[Hashable, int], seats: Iterable[tuple[Hashable, K, int | None, int | None, int | None]]
) -> dict[K, Rating]:
    """Each player's :func:`rate_seat` summed over his seats: the standings' fast form.

    ``table_sizes``: the size of every table; ``seats``: (table, player, points, won,
    lost) per seat, all three None where the seat declared nothing (a LEFT JOIN to the
    stored seat totals). Each table's lost games are the sum over its seats.
    Only the table sizes are checked, once per size; the counts are taken as the
    database's triggers keep them, unchecked: this runs over every seat of a
    3,000-player tournament on each standings page, where building a checked
    :class:`Rating` per seat and adding them costs more than the query. The engine's
    tests hold it equal to the sums of the checked :func:`rate_seat`.
    """
    per_lost_of = {size: opponent_bonus(size) for size in set(table_sizes.values())}
    rows = list(seats)
    table_lost: dict[Hashable, int] = {}
    lost_of = table_lost.get
    for table, _player, _points, _won, lost in rows:
        if lost:
            table_lost[table] = lost_of(table, 0) + lost
    # Per table: its bonus per lost game and its lost games, looked up once per seat.
    terms = {table: (per_lost_of[size], lost_of(table, 0)) for table, size in table_sizes.items()}
    totals: dict[K, list[int]] = {}
    entry_of = totals.get
    bonus = _seat_bonus
    for table, player, points, won, lost in rows:
        per_lost, lost_there = terms[table]
        if points is None:  # declared nothing at this table
            points = won = lost = 0
        seat_bonus = bonus(per_lost, lost_there, lost)
        entry = entry_of(player)
        if entry is None:
            totals[player] = [points, won, lost, seat_bonus]
        else:
            entry[0] += points
            entry[1] += won
            entry[2] += lost
            entry[3] += seat_bonus
    return {player: Rating(*entry) for player, entry in totals.items()}


def tie_break_key(r: Rating) -> tuple[int, int, int]:
    """Ascending sort key, best first: higher rating, then more games won, then fewer lost."""
    return (-r.rating, -r.won, r.lost)


#: What ``decided_by`` names, by position in :func:`tie_break_key`.
_CRITERIA = ("rating", "won", "lost")


class Ranked(NamedTuple, Generic[T]):
    """A place in the ranking.

    ``decided_by`` names the criterion that separated this entry from the one ranked
    just above it: "rating", "won", "lost" or "lot"; None for the first place.
    """

    place: int
    item: T
    rating: Rating
    decided_by: str | None


def lot(seed: int | str, key: object) -> str:
    """The reproducible lot (tournament ties, league ties): SHA-256, never the per-process salted ``hash()``."""
    return hashlib.sha256(f"{seed}:{key}".encode()).hexdigest()


def rank(
    items: Iterable[T],
    rating_of: Callable[[T], Rating],
    lot_seed: int | str,
    lot_key: Callable[[T], object] = str,
) -> list[Ranked[T]]:
    """Rank ``items`` in the documented order; the lot decides true ties, so places are distinct.

    ``lot_key`` must be stable and unique per item (a player id is ideal; the default
    ``str(item)`` suits items whose text is unique). Items that agree on all counts *and*
    on the lot key cannot be told apart by the lot and keep their input order.
    """
    # Sort on the counts alone; the lot (a SHA-256 per item) is drawn only inside a run
    # of equal counts, which is rare: ranking 3,000 players stays a few milliseconds.
    items = list(items)
    ratings = [rating_of(item) for item in items]
    keys = [tie_break_key(rating) for rating in ratings]
    order: list[int] = []
    for _key, run in itertools.groupby(sorted(range(len(items)), key=keys.__getitem__), key=keys.__getitem__):
        tied = list(run)
        if len(tied) > 1:
            tied.sort(key=lambda i: lot(lot_seed, lot_key(items[i])))
        order.extend(tied)
    ranked: list[Ranked[T]] = []
    previous: tuple[int, int, int] | None = None
    for place, index in enumerate(order, start=1):
        key = keys[index]
        if previous is None:
            decided_by = None
        elif key[0] != previous[0]:
            decided_by = _CRITERIA[0]
        elif key[1] != previous[1]:
            decided_by = _CRITERIA[1]
        elif key[2] != previous[2]:
            decided_by = _CRITERIA[2]
        else:
            decided_by = "lot"
        ranked.append(Ranked(place, items[index], ratings[index], decided_by))
        previous = key
    return ranked
