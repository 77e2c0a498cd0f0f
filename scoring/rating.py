"""The performance rating (Leistungsbewertung): the extended Seeger-Fabian system.

The federation's rule (reference 004, DOMAIN): per player

    rating = game points + 50 x games won - 50 x games lost + opponent bonus

where game points are the scores of the games he declared (+value won, -2 x value
lost, 5.3.4), and the opponent bonus credits every game lost by another declarer at
his table: 40 to each of the two opponents at a table of three, 30 to each of the three
others, the dealer included, at a table of four. Passed-out deals count nothing.

Ranking order (the usual published rule, made explicit here and in the README):

1. higher rating;
2. on equal rating, more games won;
3. then fewer games lost;
4. then by lot. The lot is reproducible: a SHA-256 of the tournament's seed and the
   player's key, so the same results print the same ranking on every machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from .rules import RuleError

T = TypeVar("T")

WIN_POINTS = 50
LOSS_POINTS = 50
#: Bonus to each other player for a game lost by the declarer, by table size.
OPPONENT_BONUS = {3: 40, 4: 30}


def opponent_bonus(table_size: int) -> int:
    """40 at a table of three (two opponents), 30 at four (three others, dealer included)."""
    try:
        return OPPONENT_BONUS[table_size]
    except KeyError:
        raise RuleError("table_size", f"a table has 3 or 4 players, not {table_size}", "3.2.7") from None


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's counts; ``rating`` derives the extended Seeger-Fabian total."""

    points: int = 0
    won: int = 0
    lost: int = 0
    bonus: int = 0

    @property
    def rating(self) -> int:
        return self.points + WIN_POINTS * self.won - LOSS_POINTS * self.lost + self.bonus

    @property
    def seeger(self) -> int:
        """The classic Seeger-Fabian figure, without the opponent bonus."""
        return self.rating - self.bonus

    def __add__(self, other: Rating) -> Rating:
        """Sum a player's tables or series."""
        return Rating(
            points=self.points + other.points,
            won=self.won + other.won,
            lost=self.lost + other.lost,
            bonus=self.bonus + other.bonus,
        )


def rate_table(table_size: int, games: Iterable[tuple[int, bool, int]]) -> list[Rating]:
    """Rate one table from its declared games: (declarer seat index from 0, won, score).

    Returns one :class:`Rating` per seat, in seat order.
    """
    bonus = opponent_bonus(table_size)
    points = [0] * table_size
    won = [0] * table_size
    lost = [0] * table_size
    for declarer, game_won, score in games:
        if not 0 <= declarer < table_size:
            raise RuleError("declarer", f"seat index {declarer} is not at a table of {table_size}", "3.1.1")
        if (score > 0) != game_won:
            raise RuleError("score", f"a {'won' if game_won else 'lost'} game cannot score {score}", "5.3.4")
        points[declarer] += score
        if game_won:
            won[declarer] += 1
        else:
            lost[declarer] += 1
    total_lost = sum(lost)
    return [
        Rating(points=points[i], won=won[i], lost=lost[i], bonus=(total_lost - lost[i]) * bonus)
        for i in range(table_size)
    ]


def tie_break_key(r: Rating) -> tuple[int, int, int]:
    """Ascending sort key, best first: rating, then games won, then fewer games lost."""
    return (-r.rating, -r.won, r.lost)


@dataclass(frozen=True, slots=True)
class Ranked(Generic[T]):
    """A place in the ranking; ``decided_by`` names what separated it from the place above."""

    place: int
    item: T
    rating: Rating
    decided_by: str | None


def _lot(seed: int | str, key: object) -> str:
    return hashlib.sha256(f"{seed}:{key}".encode()).hexdigest()


def rank(
    items: Iterable[T],
    rating_of: Callable[[T], Rating],
    lot_seed: int | str,
    lot_key: Callable[[T], object] = str,
) -> list[Ranked[T]]:
    """Rank ``items`` by the documented order; the lot decides true ties, so places are distinct."""
    keyed = [(tie_break_key(rating_of(item)), _lot(lot_seed, lot_key(item)), item) for item in items]
    keyed.sort(key=lambda row: (row[0], row[1]))
    ranked: list[Ranked[T]] = []
    previous: tuple[int, int, int] | None = None
    for place, (key, _lot_value, item) in enumerate(keyed, start=1):
        if previous is None:
            decided_by = None
        elif key[0] != previous[0]:
            decided_by = "rating"
        elif key[1] != previous[1]:
            decided_by = "won"
        elif key[2] != previous[2]:
            decided_by = "lost"
        else:
            decided_by = "lot"
        ranked.append(Ranked(place=place, item=item, rating=rating_of(item), decided_by=decided_by))
        previous = key
    return ranked
