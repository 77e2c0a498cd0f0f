"""The money of a tournament table: fees each player pays, table money he receives.

Money rules are the tournament's own tables (DOMAIN, "Settlement"), never constants:

- lost-game fee (Verlustspielgeld): a step table "from the nth lost game on a sheet, pay
  x" (commonly 0.50 for the 1st-3rd, 1.00 from the 4th); a player pays for his own lost
  games, each at the step it falls on;
- passed-out fee: per table size, a step table "from the nth passed-out deal on, each
  player pays x" (e.g. 0.50 from the 4th at a table of three, from the 5th at four);
- table money (Tischgeld): per table size, an amount by place at the table, paid out to
  the players (e.g. 2.00 / 1.20 / 0.80 / 0 at four); by the tournament's choice either
  in full (what the table collects less is paid from the entry fees: the organiser's),
  or at most what the table collects (its list, lost-game and passed-out fees; a list
  fee paid in advance at the desk is the table's too; the entry fee is the tournament's),
  in the order of the places, each as far as the money goes;
- entry fee (Startgeld, once per tournament) and list fee (per series and sheet); the
  list fees paid in advance at the desk for series a player then withdraws from are
  refunded by the tournament's own share (:func:`list_fee_refund`);
- what is collected less the table money paid out is shared: the prize pool gets the
  tournament's percentage (rounded down to the cent), the organiser the rest;
- the prize table pays the pool out by place in the final ranking (:mod:`skat.prizes`).

Pure and exact: Decimal throughout, no float, no Django; the PDF and the pages only
print what these functions return.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from .rating import Rating, rank

ZERO = Decimal("0.00")
CENT = Decimal("0.01")

#: (from the nth occurrence on, amount), in any order.
Steps = Sequence[tuple[int, Decimal]]


class FeeError(ValueError):
    """A count or rule the fee arithmetic cannot use; the message names the field."""


def _count(value: int, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FeeError(f"{name}: must be a whole number of 0 or more, not {value!r}")
    return value


def step_amount(steps: Steps, nth: int) -> Decimal:
    """The amount for the ``nth`` occurrence (from 1): the step with the highest start <= n."""
    amount = ZERO
    best = 0
    for start, step in steps:
        if start < 1:
            raise FeeError(f"step: a schedule starts at the 1st occurrence or later, not {start}")
        if best < start <= nth:
            best, amount = start, Decimal(step)
    return amount


def cumulative(steps: Steps, count: int) -> Decimal:
    """The sum of the amounts for occurrences 1..count (each at its own step)."""
    _count(count, "count")
    ordered = sorted(steps)
    return sum((step_amount(ordered, n) for n in range(1, count + 1)), ZERO)


def lost_game_fees(steps: Steps, lost: int) -> Decimal:
    """What a player pays for ``lost`` games lost on one sheet."""
    return cumulative(steps, _count(lost, "lost"))


def passed_out_fees(steps: Steps, passed_out: int) -> Decimal:
    """What each player at the table pays for its ``passed_out`` passed-out deals."""
    return cumulative(steps, _count(passed_out, "passed_out"))


def table_money(amounts: Mapping[int, Decimal], place: int) -> Decimal:
    """The table money for ``place`` at the table (1 = best); a place without an amount gets 0."""
    if _count(place, "place") < 1:
        raise FeeError("place: places at a table start at 1")
    return Decimal(amounts.get(place, ZERO))


@dataclass(frozen=True, slots=True)
class FeeRules:
    """One tournament's money rules, read once from its tables."""

    entry_fee: Decimal = ZERO
    list_fee: Decimal = ZERO
    prize_pool_percent: int = 100
    lost_game_steps: tuple[tuple[int, Decimal], ...] = ()
    #: table size -> steps of the passed-out fee.
    passed_out_steps: Mapping[int, tuple[tuple[int, Decimal], ...]] = field(default_factory=dict)
    #: table size -> {place: amount}.
    table_money: Mapping[int, Mapping[int, Decimal]] = field(default_factory=dict)
    #: The share (%) of a list fee paid in advance that a withdrawal gets back per series
    #: he no longer plays (0: the organiser keeps it).
    list_fee_refund_percent: int = 100
    #: Table money is at most what the table collects (list, lost-game and passed-out
    #: fees), paid in the order of the places; False: in full, the rest from the entry fees.
    table_money_capped: bool = False


def refund_per_series(list_fee: Decimal, percent: int) -> Decimal:
    """What a withdrawal gets back for one series paid in advance and not played:
    ``percent`` % of the list fee, rounded down to the cent."""
    if not isinstance(percent, int) or isinstance(percent, bool) or not 0 <= percent <= 100:
        raise FeeError(f"list_fee_refund_percent: must be 0 to 100, not {percent!r}")
    return (Decimal(list_fee) * percent / 100).quantize(CENT, rounding=ROUND_DOWN)


def list_fee_refund(rules: FeeRules, *, series_count: int, first_series: int, withdrawn_after: int) -> Decimal:
    """What a player who paid the list fees of series ``first_series``..``series_count``
    in advance gets back when he withdraws after series ``withdrawn_after`` (before his
    first series: ``first_series - 1``): the tournament's share of each unplayed series."""
    _count(series_count, "series_count")
    if _count(first_series, "first_series") < 1:
        raise FeeError("first_series: series are numbered from 1")
    _count(withdrawn_after, "withdrawn_after")
    unplayed = max(series_count - max(withdrawn_after, first_series - 1), 0)
    return refund_per_series(rules.list_fee, rules.list_fee_refund_percent) * unplayed


@dataclass(frozen=True, slots=True)
class PlayerAccount:
    """One player's money at one table: what he pays and what he receives."""

    seat: int
    place: int
    lost_games: int
    entry_fee: Decimal
    list_fee: Decimal
    lost_game_fees: Decimal
    passed_out_fees: Decimal
    table_money: Decimal

    @property
    def pays(self) -> Decimal:
        return self.entry_fee + self.list_fee + self.lost_game_fees + self.passed_out_fees

    @property
    def balance(self) -> Decimal:
        """What he hands over at the table; negative: he is paid out."""
        return self.pays - self.table_money


@dataclass(frozen=True, slots=True)
class Account:
    """Sums of player accounts: a table's, a series' or a whole tournament's."""

    entry_fees: Decimal = ZERO
    list_fees: Decimal = ZERO
    lost_game_fees: Decimal = ZERO
    passed_out_fees: Decimal = ZERO
    table_money: Decimal = ZERO

    @property
    def collected(self) -> Decimal:
        return self.entry_fees + self.list_fees + self.lost_game_fees + self.passed_out_fees

    @property
    def kept(self) -> Decimal:
        """Collected less the table money paid out at the tables."""
        return self.collected - self.table_money

    def __add__(self, other: Account) -> Account:
        if not isinstance(other, Account):
            return NotImplemented
        return Account(
            entry_fees=self.entry_fees + other.entry_fees,
            list_fees=self.list_fees + other.list_fees,
            lost_game_fees=self.lost_game_fees + other.lost_game_fees,
            passed_out_fees=self.passed_out_fees + other.passed_out_fees,
            table_money=self.table_money + other.table_money,
        )

    @classmethod
    def of(cls, players: Sequence[PlayerAccount]) -> Account:
        return cls(
            entry_fees=sum((p.entry_fee for p in players), ZERO),
            list_fees=sum((p.list_fee for p in players), ZERO),
            lost_game_fees=sum((p.lost_game_fees for p in players), ZERO),
            passed_out_fees=sum((p.passed_out_fees for p in players), ZERO),
            table_money=sum((p.table_money for p in players), ZERO),
        )


def places(ratings: Sequence[Rating], lot_keys: Sequence[object], lot_seed: int | str) -> list[int]:
    """Each seat's place at the table, in seat order, by the ranking rule of
    :func:`skat.rating.rank` (rating, games won, fewer lost, then the lot)."""
    ranked = rank(range(len(ratings)), lambda i: ratings[i], lot_seed=lot_seed, lot_key=lambda i: lot_keys[i])
    result = [0] * len(ratings)
    for entry in ranked:
        result[entry.item] = entry.place
    return result


@dataclass(frozen=True, slots=True)
class TableCounts:
    """What a table's fee account depends on, counted: the games each seat lost, the
    passed-out deals, and how many seats pay the entry fee and the list fee there."""

    size: int
    lost: tuple[int, ...]
    passed_out: int
    entry_due: int
    list_due: int


def tables_account(rules: FeeRules, tables: Iterable[TableCounts]) -> Account:
    """The sum of :func:`table_account` over many tables, by counting instead of per seat.

    The same money: each distinct number of lost games and of passed-out deals is
    valued once, and every complete table pays its table money once per place (the
    places at a table are 1 to its size, each once: :func:`places` draws lots for ties).
    A whole tournament's account is a few dozen Decimal sums, not one per seat.
    """
    lost_counts: Counter[int] = Counter()
    passed: Counter[tuple[int, int]] = Counter()
    sizes: Counter[int] = Counter()
    #: Capped table money: the tables alike in what they collect, counted.
    alike: Counter[tuple[int, tuple[int, ...], int]] = Counter()
    entry_due = list_due = 0
    full = {size: _full_table_money(rules, size) for size in (3, 4)}

    # Each distinct count is valued once (a cumulative schedule is a Decimal sum per game).
    @functools.cache
    def lost_fee(lost: int) -> Decimal:
        return lost_game_fees(rules.lost_game_steps, lost)

    @functools.cache
    def passed_fee(size: int, deals: int) -> Decimal:
        return passed_out_fees(rules.passed_out_steps.get(size, ()), deals)

    for table in tables:
        if table.size not in (3, 4):
            raise FeeError(f"size: a table has 3 or 4 players, not {table.size!r}")
        if len(table.lost) != table.size:
            raise FeeError(f"seats: give one value per seat, {table.size} in all")
        lost_counts.update(table.lost)
        passed[table.size, table.passed_out] += 1
        sizes[table.size] += 1
        entry_due += table.entry_due
        list_due += table.list_due
        if rules.table_money_capped:
            alike[table.size, tuple(sorted(table.lost)), table.passed_out] += 1
    # Capped: paid place by place as far as the table's own fees go, in all the smaller of
    # the two. Every seat's list fee is the table's, paid here or in advance at the desk.
    capped_money = sum(
        (
            min(
                full[size],
                Decimal(rules.list_fee) * size
                + sum((lost_fee(lost) for lost in losts), ZERO)
                + passed_fee(size, deals) * size,
            )
            * n
            for (size, losts, deals), n in alike.items()
        ),
        ZERO,
    )
    lost_fees = sum((lost_fee(lost) * n for lost, n in lost_counts.items()), ZERO)
    # Every seat of the table pays its passed-out fees.
    passed_fees = sum((passed_fee(s, deals) * s * n for (s, deals), n in passed.items()), ZERO)
    money = capped_money if rules.table_money_capped else sum((full[size] * n for size, n in sizes.items()), ZERO)
    return Account(
        entry_fees=Decimal(rules.entry_fee) * entry_due,
        list_fees=Decimal(rules.list_fee) * list_due,
        lost_game_fees=lost_fees,
        passed_out_fees=passed_fees,
        table_money=money,
    )


def table_account(
    rules: FeeRules,
    *,
    size: int,
    lost: Sequence[int],
    places: Sequence[int],
    passed_out: int,
    entry_due: Sequence[bool] | None = None,
    list_due: Sequence[bool] | None = None,
) -> tuple[PlayerAccount, ...]:
    """Every player's account at one table, in seat order.

    ``lost`` are the games each seat lost on this sheet, ``places`` its place at the
    table, ``passed_out`` the table's passed-out deals; ``entry_due`` says who pays the
    entry fee at this table (not yet paid, first series), ``list_due`` who pays the list
    fee here (default: everybody; not who paid his list fees at the desk).
    """
    if size not in (3, 4):
        raise FeeError(f"size: a table has 3 or 4 players, not {size!r}")
    if (
        len(lost) != size
        or len(places) != size
        or (entry_due is not None and len(entry_due) != size)
        or (list_due is not None and len(list_due) != size)
    ):
        raise FeeError(f"seats: give one value per seat, {size} in all")
    due = entry_due if entry_due is not None else [False] * size
    list_due = list_due if list_due is not None else [True] * size
    passed = passed_out_fees(rules.passed_out_steps.get(size, ()), passed_out)
    money = rules.table_money.get(size, {})
    list_fees = [Decimal(rules.list_fee) if list_due[seat] else ZERO for seat in range(size)]
    lost_fees = [lost_game_fees(rules.lost_game_steps, lost[seat]) for seat in range(size)]
    paid = [table_money(money, places[seat]) for seat in range(size)]
    if rules.table_money_capped:
        # Every seat's list fee counts, paid here or in advance at the desk: a player who
        # paid at the desk must not shrink his table's table money.
        collected = Decimal(rules.list_fee) * size + sum(lost_fees, ZERO) + passed * size
        paid = _as_far_as_it_goes(paid, places, collected)
    return tuple(
        PlayerAccount(
            seat=seat,
            place=places[seat - 1],
            lost_games=lost[seat - 1],
            entry_fee=Decimal(rules.entry_fee) if due[seat - 1] else ZERO,
            list_fee=list_fees[seat - 1],
            lost_game_fees=lost_fees[seat - 1],
            passed_out_fees=passed,
            table_money=paid[seat - 1],
        )
        for seat in range(1, size + 1)
    )


def _full_table_money(rules: FeeRules, size: int) -> Decimal:
    """A table's table money in full: every place's amount once."""
    return sum((table_money(rules.table_money.get(size, {}), place) for place in range(1, size + 1)), ZERO)


def _as_far_as_it_goes(amounts: list[Decimal], places: Sequence[int], available: Decimal) -> list[Decimal]:
    """Each seat's table money, paid in the order of the places (1 first) out of
    ``available``: each in full while the money lasts, the next what is left, then 0."""
    paid = list(amounts)
    for seat in sorted(range(len(amounts)), key=lambda seat: places[seat]):
        paid[seat] = min(amounts[seat], available)
        available -= paid[seat]
    return paid


@dataclass(frozen=True, slots=True)
class Distribution:
    """Where the money goes: the prize pool's share of what is kept, the organiser the rest."""

    kept: Decimal
    prize_pool: Decimal
    organiser: Decimal


def distribute(kept: Decimal, percent: int) -> Distribution:
    """Share ``kept`` (collected less table money): ``percent`` % to the prize pool,
    rounded down to the cent, the rest to the organiser; the two add up to ``kept``."""
    if not isinstance(percent, int) or isinstance(percent, bool) or not 0 <= percent <= 100:
        raise FeeError(f"prize_pool_percent: must be 0 to 100, not {percent!r}")
    kept = Decimal(kept)
    # Table money above the fees is the organiser's loss; the pool never goes negative.
    pool = max(ZERO, (kept * percent / 100).quantize(CENT, rounding=ROUND_DOWN))
    return Distribution(kept=kept, prize_pool=pool, organiser=kept - pool)
