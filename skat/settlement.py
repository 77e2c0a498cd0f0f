"""Settlement of the individual totals at the end of the last round, 5.5.5.

Each player settles with every other participant: player i receives
total_i - total_j from player j (a negative amount is paid). Summed over all j, that is

    total_i x number of participants - sum of all totals

(the book's lines b - c, "d"), which is what is printed per player. The pairwise matrix
is the book's "table of transactions". Because every amount one player receives is paid
by another, the settlements always sum to zero. When the totals sum to a negative
number, b - c is b + |c|, as the book notes; no special case is needed.

Amounts are in game points; converting to money (5.5.4, 1p per point or a fraction,
rounded up) is the caller's business.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import RuleError, gettext_noop


def _check(totals: Sequence[int]) -> None:
    """Refuse fewer than two totals.

    A settlement is made between participants; a lone player has nobody to receive from
    or pay, and an empty list is a mistake upstream, not a table. Returning ``[0]`` or
    ``[]`` would hide that, so it is a :class:`RuleError` on ``totals``.
    """
    if len(totals) < 2:
        raise RuleError(
            "totals", gettext_noop("a settlement needs at least two players, not {count}"), "5.5.5", count=len(totals)
        )


def settle(totals: Sequence[int]) -> list[int]:
    """5.5.5 line d, per player: total x number of participants - sum of all totals.

    This is the row sum of :func:`pairwise`, computed directly in O(n).
    """
    _check(totals)
    overall = sum(totals)
    return [total * len(totals) - overall for total in totals]


def pairwise(totals: Sequence[int]) -> list[list[int]]:
    """5.5.5 table of transactions: ``m[i][j] = totals[i] - totals[j]``.

    ``m[i][j]`` is what player i receives from player j (negative: what he pays), so
    ``m[i][i] == 0``, ``m[j][i] == -m[i][j]`` and each row sums to :func:`settle`. The
    book prints the same table the other way round: its row j, column i is our m[i][j].
    """
    _check(totals)
    return [[mine - theirs for theirs in totals] for mine in totals]
