"""The prize table (skat.prizes): shares rounded down to the cent, fixed amounts, the
organiser adding what the pool lacks, and every table the arithmetic cannot pay refused by name."""

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skat import fees
from skat.prizes import PrizeRule, check_prize_rules, prize_list


def refused(pattern: str, call, *args, **kwargs) -> None:
    """``call`` raises FeeError whose message starts with ``pattern`` (the field first)."""
    with pytest.raises(fees.FeeError) as raised:
        call(*args, **kwargs)
    assert str(raised.value).startswith(pattern), str(raised.value)


P = PrizeRule


def test_shares_of_the_pool_are_rounded_down_to_the_cent():
    prizes = prize_list(D("1000.00"), [P(1, percent=D("33.33")), P(2, percent=D("25")), P(3, D("12.5"))], 50)
    assert prizes.prizes == ((1, D("333.30")), (2, D("250.00")), (3, D("125.00")))
    assert prizes.paid_out == D("708.30") and prizes.left == D("291.70") and prizes.added == D("0")
    thirds = prize_list(D("100.00"), [P(n, percent=D("33.33")) for n in (1, 2, 3)], 3)
    assert [amount for _place, amount in thirds.prizes] == [D("33.33")] * 3 and thirds.left == D("0.01")


def test_fixed_prizes_are_paid_as_they_stand_and_the_organiser_adds_what_the_pool_lacks():
    prizes = prize_list(D("150.00"), [P(2, amount=D("50")), P(1, amount=D("120"))], 10)
    assert prizes.prizes == ((1, D("120.00")), (2, D("50.00")))
    assert prizes.left == D("-20.00") and prizes.added == D("20.00")


def test_shares_and_fixed_prizes_mix():
    prizes = prize_list(D("200.00"), [P(1, percent=D("50")), P(2, amount=D("30")), P(3, percent=D("10"))], 3)
    assert prizes.prizes == ((1, D("100.00")), (2, D("30.00")), (3, D("20.00")))


def test_places_beyond_the_players_get_nothing():
    prizes = prize_list(D("90.00"), [P(n, percent=D("10")) for n in range(1, 11)], 4)
    assert [place for place, _amount in prizes.prizes] == [1, 2, 3, 4]
    assert prize_list(D("90.00"), [P(1, percent=D("10"))], 0).prizes == ()


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ([P(0, percent=D("10"))], "place: places in the ranking start at 1"),
        ([P(1, percent=D("10")), P(1, amount=D("5"))], "place: place 1 has two prizes"),
        ([P(1)], "percent: place 1 needs either a share of the pool or a fixed amount"),
        ([P(1, percent=D("10"), amount=D("5"))], "percent: place 1 needs either"),
        ([P(1, percent=D("101"))], "percent: a share of the pool is 0 to 100 %, not 101"),
        ([P(1, percent=D("60")), P(2, percent=D("50"))], "percent: the shares add up to 110 %"),
        ([P(1, amount=D("-1"))], "amount: a prize is 0 or more, not -1"),
    ],
)
def test_a_prize_table_that_cannot_be_paid_out_is_refused_naming_the_field(rules, message):
    with pytest.raises(fees.FeeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        prize_list(D("100"), rules, 10)


@given(
    pool=st.decimals(min_value=0, max_value=100000, places=2),
    shares=st.lists(st.decimals(min_value=0, max_value=25, places=2), max_size=4),
    players=st.integers(min_value=0, max_value=6),
)
def test_shares_never_pay_out_more_than_the_pool(pool, shares, players):
    prizes = prize_list(pool, [P(n, percent=share) for n, share in enumerate(shares, start=1)], players)
    assert D("0") <= prizes.paid_out <= pool
    assert len(prizes.prizes) == min(players, len(shares))
    assert prizes.added == D("0")


@pytest.mark.parametrize(
    ("percent", "withdrawn_after", "expected"),
    [
        (100, 1, "10.00"),  # paid series 1-3 at 5.00, played 1: two refunded whole
        (50, 1, "5.00"),
        (0, 1, "0.00"),  # the organiser keeps them
        (100, 0, "15.00"),  # a no-show in series 1 played none
        (100, 3, "0.00"),  # withdrew after the last series: played everything
        (33, 2, "1.65"),  # 33 % of 5.00, rounded down to the cent
    ],
)
def test_a_withdrawal_gets_the_tournaments_share_of_each_unplayed_list_fee(percent, withdrawn_after, expected):
    rules = fees.FeeRules(list_fee=D("5.00"), list_fee_refund_percent=percent)
    refund = fees.list_fee_refund(rules, series_count=3, first_series=1, withdrawn_after=withdrawn_after)
    assert refund == D(expected)


def test_a_late_entry_is_refunded_only_the_series_he_paid_for():
    rules = fees.FeeRules(list_fee=D("5.00"), list_fee_refund_percent=100)
    # Plays from series 2, paid series 2 and 3; a no-show in series 2 gets both back.
    assert fees.list_fee_refund(rules, series_count=3, first_series=2, withdrawn_after=1) == D("10.00")


def test_a_refund_share_outside_0_to_100_is_refused_by_name():
    with pytest.raises(fees.FeeError, match="list_fee_refund_percent"):
        fees.refund_per_series(D("5.00"), 120)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ([PrizeRule(place=-1, amount=D(1))], "place: must be a whole number of 0 or more, not -1"),
        ([PrizeRule(place=0, amount=D(1))], "place: places in the ranking start at 1"),
        (
            [PrizeRule(place=1, percent=D(60)), PrizeRule(place=2, percent=D("40.5"))],
            "percent: the shares add up to 100.5 %, more than the whole pool",
        ),
    ],
)
def test_a_prize_table_the_arithmetic_cannot_pay_is_refused_by_name(rules, message):
    refused(message, check_prize_rules, rules)


def test_a_prize_table_at_its_limits_is_accepted():
    check_prize_rules([PrizeRule(place=1, percent=D(100))])
    check_prize_rules([PrizeRule(place=1, amount=D(0)), PrizeRule(place=2, amount=D("0.50"))])
    check_prize_rules([PrizeRule(place=1, percent=D("60.5")), PrizeRule(place=2, percent=D("39.5"))])


def test_a_prize_list_names_a_bad_count_and_rounds_shares_down():
    refused("places: must be a whole number", prize_list, D("10"), [], -1)
    prizes = prize_list(D("0.07"), [PrizeRule(place=1, percent=D(50))], 1)
    assert prizes.prizes == ((1, D("0.03")),)
