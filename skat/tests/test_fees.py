"""The fee arithmetic: the DOMAIN schedules, exact to the cent."""

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skat import fees
from skat.rating import Rating

COMMON = ((1, D("0.50")), (4, D("1.00")))  # DOMAIN: 0.50 for the 1st-3rd lost game, 1.00 from the 4th


@pytest.mark.parametrize(
    ("lost", "expected"),
    [(0, "0.00"), (1, "0.50"), (3, "1.50"), (4, "2.50"), (5, "3.50"), (10, "8.50")],
)
def test_common_lost_game_schedule(lost, expected):
    assert fees.lost_game_fees(COMMON, lost) == D(expected)


def test_flat_fee_and_unordered_steps():
    assert fees.lost_game_fees(((1, D("1.00")),), 7) == D("7.00")
    assert fees.lost_game_fees(((4, D("1.00")), (1, D("0.50"))), 5) == D("3.50")


def test_a_schedule_starting_later_charges_nothing_before():
    assert fees.step_amount(((3, D("2")),), 2) == D("0")
    assert fees.lost_game_fees(((3, D("2.00")),), 4) == D("4.00")


def test_no_schedule_no_fee():
    assert fees.lost_game_fees((), 12) == D("0")


@pytest.mark.parametrize(("passed", "expected"), [(3, "0.00"), (4, "0.50"), (6, "1.50")])
def test_passed_out_fee_from_the_4th_deal_at_three(passed, expected):
    assert fees.passed_out_fees(((4, D("0.50")),), passed) == D(expected)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", None])
def test_counts_must_be_whole_and_not_negative(bad):
    with pytest.raises(fees.FeeError, match="lost"):
        fees.lost_game_fees(COMMON, bad)


def test_steps_start_at_one():
    with pytest.raises(fees.FeeError, match="step"):
        fees.lost_game_fees(((0, D("1")),), 2)


def test_table_money_by_place():
    at_four = {1: D("2.00"), 2: D("1.20"), 3: D("0.80"), 4: D("0")}
    assert [fees.table_money(at_four, p) for p in (1, 2, 3, 4)] == [D("2.00"), D("1.20"), D("0.80"), D("0")]
    assert fees.table_money({1: D("2.00")}, 3) == D("0")
    with pytest.raises(fees.FeeError, match="place"):
        fees.table_money(at_four, 0)


RULES = fees.FeeRules(
    entry_fee=D("15.00"),
    list_fee=D("2.00"),
    prize_pool_percent=90,
    lost_game_steps=COMMON,
    passed_out_steps={3: ((4, D("0.50")),), 4: ((5, D("0.50")),)},
    table_money={4: {1: D("2.00"), 2: D("1.20"), 3: D("0.80")}, 3: {1: D("2.00"), 2: D("1.00")}},
)


def test_table_account_at_four():
    accounts = fees.table_account(
        RULES, size=4, lost=[0, 2, 1, 5], places=[1, 3, 2, 4], passed_out=6, entry_due=[True, False, False, False]
    )
    a, b, c, d = accounts
    # A: entry + list + no lost + passed (5th and 6th: 2 x 0.50) - table money for the 1st place
    assert (a.entry_fee, a.list_fee, a.lost_game_fees, a.passed_out_fees, a.table_money) == (
        D("15.00"),
        D("2.00"),
        D("0.00"),
        D("1.00"),
        D("2.00"),
    )
    assert a.pays == D("18.00") and a.balance == D("16.00")
    assert b.lost_game_fees == D("1.00") and b.table_money == D("0.80") and b.balance == D("3.20")
    assert c.lost_game_fees == D("0.50") and c.table_money == D("1.20")
    assert d.lost_game_fees == D("3.50") and d.table_money == D("0") and d.balance == D("6.50")
    total = fees.Account.of(accounts)
    assert total.collected == D("15.00") + 4 * D("2.00") + D("5.00") + 4 * D("1.00")
    assert total.table_money == D("4.00")
    assert total.kept == total.collected - D("4.00")


def test_table_account_at_three_without_entry_fees():
    accounts = fees.table_account(RULES, size=3, lost=[4, 0, 0], places=[3, 1, 2], passed_out=4)
    assert [a.passed_out_fees for a in accounts] == [D("0.50")] * 3
    assert [a.table_money for a in accounts] == [D("0"), D("2.00"), D("1.00")]
    assert all(a.entry_fee == 0 for a in accounts)
    assert accounts[0].lost_game_fees == D("2.50")


def test_table_account_refuses_wrong_shapes():
    with pytest.raises(fees.FeeError, match="size"):
        fees.table_account(RULES, size=5, lost=[0] * 5, places=[1, 2, 3, 4, 5], passed_out=0)
    with pytest.raises(fees.FeeError, match="seats"):
        fees.table_account(RULES, size=4, lost=[0, 0, 0], places=[1, 2, 3, 4], passed_out=0)


def test_accounts_add_up():
    one = fees.Account(list_fees=D("8"), table_money=D("4"))
    two = fees.Account(entry_fees=D("15"), lost_game_fees=D("3.5"))
    both = one + two
    assert both.collected == D("26.5") and both.kept == D("22.5")
    assert one.__add__(3) is NotImplemented


def test_places_follow_the_ranking_rule():
    ratings = [Rating(points=100), Rating(points=300), Rating(points=100, won=1), Rating(points=-50)]
    # 100 + 50 = 150 for seat 3 beats seat 1's 100
    assert fees.places(ratings, [11, 12, 13, 14], lot_seed=7) == [3, 1, 2, 4]


def test_distribution_rounds_the_pool_down_and_adds_up():
    d = fees.distribute(D("100.05"), 90)
    assert d.prize_pool == D("90.04") and d.organiser == D("10.01")
    assert d.prize_pool + d.organiser == D("100.05")
    assert fees.distribute(D("-3.00"), 90).prize_pool == D("0.00")
    with pytest.raises(fees.FeeError, match="prize_pool_percent"):
        fees.distribute(D("10"), 101)


# --- the prize table ---------------------------------------------------------------------

P = fees.PrizeRule


def test_shares_of_the_pool_are_rounded_down_to_the_cent():
    prizes = fees.prize_list(D("1000.00"), [P(1, percent=D("33.33")), P(2, percent=D("25")), P(3, D("12.5"))], 50)
    assert prizes.prizes == ((1, D("333.30")), (2, D("250.00")), (3, D("125.00")))
    assert prizes.paid_out == D("708.30") and prizes.left == D("291.70") and prizes.added == D("0")
    thirds = fees.prize_list(D("100.00"), [P(n, percent=D("33.33")) for n in (1, 2, 3)], 3)
    assert [amount for _place, amount in thirds.prizes] == [D("33.33")] * 3 and thirds.left == D("0.01")


def test_fixed_prizes_are_paid_as_they_stand_and_the_organiser_adds_what_the_pool_lacks():
    prizes = fees.prize_list(D("150.00"), [P(2, amount=D("50")), P(1, amount=D("120"))], 10)
    assert prizes.prizes == ((1, D("120.00")), (2, D("50.00")))
    assert prizes.left == D("-20.00") and prizes.added == D("20.00")


def test_shares_and_fixed_prizes_mix():
    prizes = fees.prize_list(D("200.00"), [P(1, percent=D("50")), P(2, amount=D("30")), P(3, percent=D("10"))], 3)
    assert prizes.prizes == ((1, D("100.00")), (2, D("30.00")), (3, D("20.00")))


def test_places_beyond_the_players_get_nothing():
    prizes = fees.prize_list(D("90.00"), [P(n, percent=D("10")) for n in range(1, 11)], 4)
    assert [place for place, _amount in prizes.prizes] == [1, 2, 3, 4]
    assert fees.prize_list(D("90.00"), [P(1, percent=D("10"))], 0).prizes == ()


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
        fees.prize_list(D("100"), rules, 10)


@given(
    pool=st.decimals(min_value=0, max_value=100000, places=2),
    shares=st.lists(st.decimals(min_value=0, max_value=25, places=2), max_size=4),
    players=st.integers(min_value=0, max_value=6),
)
def test_shares_never_pay_out_more_than_the_pool(pool, shares, players):
    prizes = fees.prize_list(pool, [P(n, percent=share) for n, share in enumerate(shares, start=1)], players)
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
