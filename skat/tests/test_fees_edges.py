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


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ([fees.PrizeRule(place=-1, amount=D(1))], "place: must be a whole number of 0 or more, not -1"),
        ([fees.PrizeRule(place=0, amount=D(1))], "place: places in the ranking start at 1"),
        (
            [fees.PrizeRule(place=1, percent=D(60)), fees.PrizeRule(place=2, percent=D("40.5"))],
            "percent: the shares add up to 100.5 %, more than the whole pool",
        ),
    ],
)
def test_a_prize_table_the_arithmetic_cannot_pay_is_refused_by_name(rules, message):
    refused(message, fees.check_prize_rules, rules)


def test_a_prize_table_at_its_limits_is_accepted():
    fees.check_prize_rules([fees.PrizeRule(place=1, percent=D(100))])
    fees.check_prize_rules([fees.PrizeRule(place=1, amount=D(0)), fees.PrizeRule(place=2, amount=D("0.50"))])
    fees.check_prize_rules([fees.PrizeRule(place=1, percent=D("60.5")), fees.PrizeRule(place=2, percent=D("39.5"))])


def test_a_prize_list_names_a_bad_count_and_rounds_shares_down():
    refused("places: must be a whole number", fees.prize_list, D("10"), [], -1)
    prizes = fees.prize_list(D("0.07"), [fees.PrizeRule(place=1, percent=D(50))], 1)
    assert prizes.prizes == ((1, D("0.03")),)
