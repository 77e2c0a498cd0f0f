"""The performance rating (Leistungsbewertung): the extended Seeger-Fabian system.

The federation's rule (DOMAIN.md, "Performance rating"; reference 004, 6.1 for the
table of three): per player

    rating = game points + 50 x games won - 50 x games lost + opponent bonus

where game points are the scores of the games he declared (+value won, -2 x value
lost, 5.3.4), and the opponent bonus credits every game lost by another declarer at
his table: 40 to each of the two opponents at a table of three, 30 to each of the three
others, the dealer included, at a table of four. Passed-out deals count nothing (5.5.1):
they are simply not passed to :func:`rate_table`.

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
from collections.abc import Callable, Iterable
from typing import Generic, NamedTuple, TypeVar

from .rules import RuleError, gettext_noop

T = TypeVar("T")

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
    bonus = opponent_bonus(table_size)
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
    # Every lost game credits each other seat once: all lost games but one's own.
    return [
        Rating(points=points[i], won=won[i], lost=lost[i], bonus=(total_lost - lost[i]) * bonus)
        for i in range(table_size)
    ]


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
