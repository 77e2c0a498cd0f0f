"""The prize table: the prize pool paid out by place in the final ranking.

Each line gives a place a share of the pool or a fixed amount (DOMAIN, "Prize money":
entry fees commonly paid out in full, prizes per category beside the overall list). The
pool itself is what :func:`skat.fees.distribute` leaves for it. Pure and exact: Decimal
throughout, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from .fees import CENT, ZERO, FeeError, _count


@dataclass(frozen=True, slots=True)
class PrizeRule:
    """One line of the tournament's prize table: the player ranked ``place`` gets
    ``percent`` % of the prize pool or the fixed ``amount`` (exactly one of the two)."""

    place: int
    percent: Decimal | None = None
    amount: Decimal | None = None


@dataclass(frozen=True, slots=True)
class PrizeList:
    """What each place receives, and how that compares with the prize pool."""

    pool: Decimal
    #: (place, amount), by place; only places that a player holds and a rule names.
    prizes: tuple[tuple[int, Decimal], ...]

    @property
    def paid_out(self) -> Decimal:
        return sum((amount for _place, amount in self.prizes), ZERO)

    @property
    def left(self) -> Decimal:
        """The pool less the prizes: what stays (rounding, unassigned shares); negative
        when fixed prizes exceed the pool and the organiser adds the difference."""
        return self.pool - self.paid_out

    @property
    def added(self) -> Decimal:
        """What the organiser adds when the prizes exceed the pool (0 otherwise)."""
        return max(ZERO, -self.left)


def check_prize_rules(rules: Sequence[PrizeRule]) -> None:
    """Refuse a prize table the arithmetic cannot pay out; the message names the field."""
    seen: set[int] = set()
    percent_total = ZERO
    for rule in rules:
        if _count(rule.place, "place") < 1:
            raise FeeError("place: places in the ranking start at 1")
        if rule.place in seen:
            raise FeeError(f"place: place {rule.place} has two prizes")
        seen.add(rule.place)
        if (rule.percent is None) == (rule.amount is None):
            raise FeeError(f"percent: place {rule.place} needs either a share of the pool or a fixed amount")
        if rule.percent is not None:
            if not ZERO <= Decimal(rule.percent) <= 100:
                raise FeeError(f"percent: a share of the pool is 0 to 100 %, not {rule.percent}")
            percent_total += Decimal(rule.percent)
        elif Decimal(rule.amount) < 0:
            raise FeeError(f"amount: a prize is 0 or more, not {rule.amount}")
    if percent_total > 100:
        total = format(percent_total.normalize(), "f")
        raise FeeError(f"percent: the shares add up to {total} %, more than the whole pool")


def prize_list(pool: Decimal, rules: Sequence[PrizeRule], places: int) -> PrizeList:
    """The prize of every place from 1 to ``places`` (the players ranked) that a rule names.

    A share is ``percent`` % of ``pool``, rounded down to the cent (so the shares never
    pay out more than the pool); a fixed amount is paid as it stands. Places beyond the
    number of players get nothing: a prize table written for 100 players also serves 60.
    """
    check_prize_rules(rules)
    _count(places, "places")
    pool = Decimal(pool)
    prizes = []
    for rule in sorted(rules, key=lambda r: r.place):
        if rule.place > places:
            continue
        if rule.percent is not None:
            amount = (pool * Decimal(rule.percent) / 100).quantize(CENT, rounding=ROUND_DOWN)
        else:
            amount = Decimal(rule.amount).quantize(CENT)
        prizes.append((rule.place, max(ZERO, amount)))
    return PrizeList(pool=pool, prizes=tuple(prizes))
