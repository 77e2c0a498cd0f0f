"""Settlement of a table's totals, 5.5.5.

At the end of the last round each player settles with every other participant: player
i receives total_i - total_j from player j. Summed, that is total_i x number of
participants - the sum of all totals (the book's lines b - c), which is what is
printed per player; the pairwise table is the book's "table of transactions".
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import RuleError


def _check(totals: Sequence[int]) -> None:
    if len(totals) < 2:
        raise RuleError("totals", "a settlement needs at least two players", "5.5.5")


def settle(totals: Sequence[int]) -> list[int]:
    """5.5.5 (d): each player's total x participants - the sum of all totals."""
    _check(totals)
    overall = sum(totals)
    return [total * len(totals) - overall for total in totals]


def pairwise(totals: Sequence[int]) -> list[list[int]]:
    """5.5.5 table of transactions: m[i][j] is what player i receives from player j
    (negative: pays); m[i][i] = 0, and each row sums to :func:`settle`."""
    _check(totals)
    return [[mine - theirs for theirs in totals] for mine in totals]
