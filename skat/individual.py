"""The league-wide individual ranking (Einzelwertung): every player's series of a season.

A series a player sat at a table counts with its score, the extended Seeger-Fabian rating
of that series (DOMAIN, "Performance rating"). The league's rules table says, never a
constant here:

- ``best``: count only the player's best N series (0: every series played);
- ``minimum``: a player with fewer series played is listed below the ranked, without a
  place (the league's attendance rule);
- ``tie``: ``"shared"``: equal sums share the place (1, 1, 3); ``"best_series"``: the
  higher best series ranks first, equal ones then share.

Pure Python, like :mod:`skat.league`; the pages and the files use the same function.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .league import LeagueError

K = TypeVar("K", bound=Hashable)

INDIVIDUAL_TIES = ("shared", "best_series")


@dataclass(frozen=True, slots=True)
class Individual:
    player: Any
    #: None: fewer series played than the rules' minimum (listed, not ranked).
    place: int | None
    #: The sum of the counted series.
    total: int
    played: int
    counted: int
    best: int

    @property
    def average(self) -> float:
        """Score per counted series, one decimal."""
        return round(self.total / self.counted, 1) if self.counted else 0.0


def check_rules(best: object, minimum: object, tie: object) -> None:
    """Refuse rules the ranking cannot follow, naming the field."""
    for name, value in (("best", best), ("minimum", minimum)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise LeagueError(f"{name}: must be a whole number 0 or more, not {value!r}")
    if tie not in INDIVIDUAL_TIES:
        raise LeagueError(f'tie: must be "shared" or "best_series", not {tie!r}')
    if best and minimum > best:  # type: ignore[operator]
        raise LeagueError(f"minimum: {minimum} series are more than the {best} series counted")


def rank_individuals(
    series: Mapping[K, Sequence[int]],
    *,
    best: int = 0,
    minimum: int = 0,
    tie: str = "shared",
    key: Callable[[Any], object] = str,
) -> list[Individual]:
    """Every player ranked by the sum of his counted series; ``key`` orders equal ones for
    reading (by name), never deciding a place."""
    check_rules(best, minimum, tie)
    rows = []
    for player, scores in series.items():
        counted = sorted(scores, reverse=True)[:best] if best else list(scores)
        rows.append((player, sum(counted), len(scores), len(counted), max(scores, default=0)))

    def criteria(row: tuple) -> tuple[int, ...]:
        return (-row[1], -row[4]) if tie == "best_series" else (-row[1],)

    ranked = sorted((r for r in rows if r[2] >= minimum), key=lambda r: (*criteria(r), key(r[0])))
    unranked = sorted((r for r in rows if r[2] < minimum), key=lambda r: (-r[1], key(r[0])))
    found: list[Individual] = []
    for index, row in enumerate(ranked):
        shared = index and criteria(ranked[index - 1]) == criteria(row)
        place = found[-1].place if shared else index + 1
        found.append(Individual(row[0], place, row[1], row[2], row[3], row[4]))
    found += [Individual(r[0], None, r[1], r[2], r[3], r[4]) for r in unranked]
    return found
