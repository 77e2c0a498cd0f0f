"""The fee arithmetic at its edges: each boundary, rounding and message that mutation
testing (make mutation) showed no other test pinned."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from skat import fees
from skat.rating import Rating


def refused(pattern: str, call, *args, **kwargs) -> None:
    """``call`` raises FeeError whose message starts with ``pattern`` (the field first)."""
    with pytest.raises(fees.FeeError) as raised:
        call(*args, **kwargs)
    assert str(raised.value).startswith(pattern), str(raised.value)


def test_the_refund_share_is_0_to_100_as_a_whole_number():
    assert fees.refund_per_series(D("5.00"), 100) == D("5.00")
    assert fees.refund_per_series(D("5.00"), 0) == D("0.00")
    refused("list_fee_refund_percent: must be 0 to 100, not 101", fees.refund_per_series, D("5.00"), 101)
    refused("list_fee_refund_percent: must be 0 to 100, not True", fees.refund_per_series, D("5.00"), True)


def test_a_refund_is_rounded_down_to_the_cent():
    # 50 % of 0.07 is 0.035: down to 0.03 (half-even and half-up would give 0.04).
    assert fees.refund_per_series(D("0.07"), 50) == D("0.03")


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"series_count": -1, "first_series": 1, "withdrawn_after": 0}, "series_count: must be a whole number"),
        ({"series_count": 3, "first_series": -1, "withdrawn_after": 0}, "first_series: must be a whole number"),
        ({"series_count": 3, "first_series": 0, "withdrawn_after": 0}, "first_series: series are numbered from 1"),
        ({"series_count": 3, "first_series": 1, "withdrawn_after": -1}, "withdrawn_after: must be a whole number"),
    ],
)
def test_a_refund_names_the_count_it_cannot_use(counts, message):
    rules = fees.FeeRules(list_fee=D("5.00"))
    refused(message, fees.list_fee_refund, rules, **counts)


def test_a_late_entry_withdrawing_before_his_first_series_gets_back_what_he_paid():
    """Entered for series 3 of 3 only, withdrawn before it: one list fee paid, one back."""
    rules = fees.FeeRules(list_fee=D("5.00"), list_fee_refund_percent=100)
    assert fees.list_fee_refund(rules, series_count=3, first_series=3, withdrawn_after=0) == D("5.00")
    assert fees.list_fee_refund(rules, series_count=3, first_series=3, withdrawn_after=2) == D("5.00")
    assert fees.list_fee_refund(rules, series_count=3, first_series=3, withdrawn_after=3) == D("0.00")


def test_places_at_a_table_of_tied_seats_follow_the_lot_seed_and_keys():
    tied = [Rating(0, 0, 0, 0)] * 3
    by_seed = {tuple(fees.places(tied, ["a", "b", "c"], seed)) for seed in range(12)}
    assert len(by_seed) > 1, "the seed decides the lot"
    for seed in range(12):
        forward = fees.places(tied, ["a", "b", "c"], seed)
        assert sorted(forward) == [1, 2, 3]
        # The lot follows each seat's key, not its position: reversed keys, reversed places.
        assert fees.places(tied, ["c", "b", "a"], seed) == forward[::-1]


def test_the_prize_pool_share_is_0_to_100_and_rounded_down():
    assert fees.distribute(D("10"), 0) == fees.Distribution(kept=D("10"), prize_pool=D("0"), organiser=D("10"))
    assert fees.distribute(D("10"), 100) == fees.Distribution(kept=D("10"), prize_pool=D("10.00"), organiser=D("0"))
    assert fees.distribute(D("0.07"), 50).prize_pool == D("0.03")
    refused("prize_pool_percent: must be 0 to 100, not True", fees.distribute, D("10"), True)
    refused("prize_pool_percent: must be 0 to 100, not 101", fees.distribute, D("10"), 101)


def printed(account: fees.Account) -> list[str]:
    """The account's five sums as a page prints them."""
    sums = (account.entry_fees, account.list_fees, account.lost_game_fees, account.passed_out_fees)
    return [str(s) for s in (*sums, account.table_money)]


def test_the_account_of_no_tables_prints_cents():
    """A series without tables yet: every sum is 0.00 as money prints, not a bare 0."""
    account = fees.tables_account(fees.FeeRules(entry_fee=D("5.00"), list_fee=D("3.00")), [])
    assert printed(account) == ["0.00"] * 5
    assert str(account.kept) == "0.00"


def test_a_table_size_without_a_passed_out_schedule_or_table_money_pays_none():
    """The schedules are per table size: a table of four where only tables of three have
    a passed-out fee and table money pays the lost games alone."""
    rules = fees.FeeRules(
        lost_game_steps=((1, D("0.50")),),
        passed_out_steps={3: ((1, D("0.50")),)},
        table_money={3: {1: D("2.00")}},
    )
    table = fees.TableCounts(size=4, lost=(1, 0, 0, 2), passed_out=5, entry_due=0, list_due=0)
    account = fees.tables_account(rules, [table])
    assert (account.lost_game_fees, account.passed_out_fees, account.table_money) == (D("1.50"), D("0.00"), D("0.00"))


def test_a_table_of_three_pays_the_table_money_of_its_three_places_only():
    """Table money is by place at the table: a row naming a 4th place pays nobody at three."""
    rules = fees.FeeRules(table_money={3: {1: D("2.00"), 2: D("1.00"), 3: D("0.50"), 4: D("9.00")}})
    table = fees.TableCounts(size=3, lost=(0, 0, 0), passed_out=0, entry_due=0, list_due=0)
    assert fees.tables_account(rules, [table, table]).table_money == D("7.00")


def test_the_fee_counts_and_the_place_name_their_field():
    refused("passed_out: must be a whole number of 0 or more, not -1", fees.passed_out_fees, (), -1)
    refused("lost: must be a whole number of 0 or more, not 2.5", fees.lost_game_fees, (), 2.5)
    refused("place: must be a whole number of 0 or more, not -1", fees.table_money, {}, -1)
    with pytest.raises(fees.FeeError) as raised:
        fees.table_money({1: D("2.00")}, 0)
    assert str(raised.value) == "place: places at a table start at 1"


def test_the_sum_of_no_accounts_prints_cents():
    assert printed(fees.Account.of([])) == ["0.00"] * 5


@pytest.mark.parametrize("wrong", ["lost", "places", "entry_due", "list_due"])
def test_each_per_seat_value_of_a_table_account_is_one_per_seat(wrong):
    given = {"lost": [0, 0, 0, 0], "places": [1, 2, 3, 4], "entry_due": [False] * 4, "list_due": [True] * 4}
    given[wrong] = given[wrong][:3]
    seats = "seats: give one value per seat, 4 in all"
    refused(seats, fees.table_account, fees.FeeRules(), size=4, passed_out=0, **given)


def test_a_table_account_lists_each_seat_with_its_own_place_games_and_fees():
    """Seat by seat, nothing taken from a neighbour: seats 1-4 with their places, lost
    games and list fee; a size without a passed-out schedule or table money pays none."""
    rules = fees.FeeRules(
        list_fee=D("2.00"),
        lost_game_steps=((1, D("0.50")),),
        passed_out_steps={3: ((1, D("0.50")),)},
        table_money={3: {1: D("2.00")}},
    )
    accounts = fees.table_account(
        rules, size=4, lost=[3, 0, 1, 2], places=[2, 4, 1, 3], passed_out=6, list_due=[True, False, True, False]
    )
    assert [(a.seat, a.place, a.lost_games, a.list_fee, a.lost_game_fees) for a in accounts] == [
        (1, 2, 3, D("2.00"), D("1.50")),
        (2, 4, 0, D("0.00"), D("0.00")),
        (3, 1, 1, D("2.00"), D("0.50")),
        (4, 3, 2, D("0.00"), D("1.00")),
    ]
    assert {(a.passed_out_fees, a.table_money) for a in accounts} == {(D("0.00"), D("0.00"))}


def test_no_occurrences_cost_0_00_and_a_bad_count_is_named():
    assert str(fees.cumulative(((1, D("0.50")),), 0)) == "0.00"
    refused("count: must be a whole number of 0 or more, not -1", fees.cumulative, (), -1)


def test_two_steps_from_the_same_occurrence_charge_the_lower_amount_once():
    """A schedule naming one start twice (the office's form refuses it) is not charged
    twice: the steps are taken in order and the first of equal starts, the lower amount, applies."""
    assert fees.cumulative(((1, D("1.00")), (1, D("0.50"))), 2) == D("1.00")
    assert fees.step_amount(((1, D("0.50")), (1, D("1.00"))), 1) == D("0.50")
