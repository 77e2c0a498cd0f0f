"""The running scoresheet of one table, as on the paper list (5.5.2).

Adds up the stored scores (never re-values a game) into each player's running total,
leaves voided games out of the rating (they stay on the sheet, scoring nothing), and
marks round boundaries: a round is one deal by each player (3.2.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .models import Game
from .rating import Rating, rate_table


@dataclass(frozen=True, slots=True)
class Row:
    game: Game
    totals: tuple[int, ...]
    round_end: bool


@dataclass(frozen=True, slots=True)
class Sheet:
    size: int
    deals: int
    rows: tuple[Row, ...]
    ratings: tuple[Rating, ...]

    @property
    def entered(self) -> int:
        return len(self.rows)

    @property
    def complete(self) -> bool:
        return self.entered >= self.deals

    @property
    def rounds(self) -> int:
        return self.deals // self.size

    @property
    def current_round(self) -> int:
        return min(self.entered // self.size + 1, self.rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        return self.rows[-1].totals if self.rows else (0,) * self.size


def build(size: int, deals: int, games: Sequence[Game]) -> Sheet:
    totals = [0] * size
    rows = []
    for game in games:
        if game.declarer_seat is not None:
            totals[game.declarer_seat - 1] += game.score  # 0 for a voided game
        rows.append(Row(game=game, totals=tuple(totals), round_end=game.number % size == 0))
    # A voided game stays on the sheet (its row, struck through) but is neither won nor lost.
    declared = [(g.declarer_seat - 1, g.won, g.score) for g in games if g.declarer_seat is not None and not g.voided]
    ratings = rate_table(size, declared)
    return Sheet(size=size, deals=deals, rows=tuple(rows), ratings=tuple(ratings))
