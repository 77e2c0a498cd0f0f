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


# --- table money at most what the table collects ------------------------------------------

CAPPED = fees.FeeRules(
    entry_fee=D("10.00"),
    list_fee=D("0.00"),
    lost_game_steps=((1, D("0.50")),),
    table_money={4: {1: D("2.00"), 2: D("1.20"), 3: D("0.80")}, 3: {1: D("1.50"), 2: D("0.50")}},
    table_money_capped=True,
)


def test_capped_table_money_is_paid_in_the_order_of_the_places_as_far_as_the_fees_go():
    """Worked by hand: lost games 1, 0, 2, 0 pay 0.50 + 1.00 = 1.50 (the list fee is 0, the
    entry fee paid here is the tournament's). Places 3, 1, 4, 2: place 1 (seat 2) gets 1.50
    of its 2.00, place 2 (seat 4) nothing of its 1.20: the table keeps 0, not -2.50."""
    accounts = fees.table_account(
        CAPPED, size=4, lost=[1, 0, 2, 0], places=[3, 1, 4, 2], passed_out=0, entry_due=[True, False, False, False]
    )
    assert [a.table_money for a in accounts] == [D("0.00"), D("1.50"), D("0.00"), D("0.00")]
    table = fees.Account.of(accounts)
    assert (table.collected, table.table_money, table.kept) == (D("11.50"), D("1.50"), D("10.00"))


def test_capped_table_money_is_paid_in_full_where_the_table_collects_enough():
    """List fee 1.00 x 4 and 1.50 of lost-game fees: 5.50 covers the 4.00 in full."""
    rules = fees.FeeRules(
        list_fee=D("1.00"),
        lost_game_steps=CAPPED.lost_game_steps,
        table_money=CAPPED.table_money,
        table_money_capped=True,
    )
    accounts = fees.table_account(rules, size=4, lost=[1, 0, 2, 0], places=[3, 1, 4, 2], passed_out=0)
    assert [a.table_money for a in accounts] == [D("0.80"), D("2.00"), D("0.00"), D("1.20")]


def test_capped_table_money_counts_the_list_fees_paid_in_advance_at_the_desk():
    """Worked by hand: list fee 1.00, no lost games; all four paid their list fees at the
    desk. The table's list fees are still 4.00 and cover its 4.00 of table money in full,
    as they do when paid at the table; counted by table, the same."""
    rules = fees.FeeRules(list_fee=D("1.00"), table_money=CAPPED.table_money, table_money_capped=True)
    at_desk = fees.table_account(rules, size=4, lost=[0] * 4, places=[3, 1, 4, 2], passed_out=0, list_due=[False] * 4)
    at_table = fees.table_account(rules, size=4, lost=[0] * 4, places=[3, 1, 4, 2], passed_out=0)
    assert [a.table_money for a in at_desk] == [D("0.80"), D("2.00"), D("0.00"), D("1.20")]
    assert [a.table_money for a in at_desk] == [a.table_money for a in at_table]
    counted = fees.tables_account(
        rules, [fees.TableCounts(size=4, lost=(0,) * 4, passed_out=0, entry_due=0, list_due=0)]
    )
    assert (counted.list_fees, counted.table_money) == (D("0.00"), D("4.00"))


def test_in_full_the_table_money_is_paid_whatever_the_table_collects():
    """The other choice: 4.00 paid, 1.50 collected: the table leaves -2.50 (from the entry fees)."""
    rules = fees.FeeRules(lost_game_steps=CAPPED.lost_game_steps, table_money=CAPPED.table_money)
    table = fees.Account.of(fees.table_account(rules, size=4, lost=[1, 0, 2, 0], places=[3, 1, 4, 2], passed_out=0))
    assert (table.table_money, table.kept) == (D("4.00"), D("-2.50"))


@given(
    lost=st.lists(st.integers(0, 6), min_size=3, max_size=4),
    passed_out=st.integers(0, 5),
    list_fee=st.sampled_from([D("0"), D("0.50"), D("1.00")]),
    capped=st.booleans(),
)
def test_counting_the_tables_gives_the_same_table_money_as_seat_by_seat(lost, passed_out, list_fee, capped):
    size = len(lost)
    rules = fees.FeeRules(
        list_fee=list_fee,
        lost_game_steps=CAPPED.lost_game_steps,
        passed_out_steps={3: ((2, D("0.20")),), 4: ((3, D("0.20")),)},
        table_money=CAPPED.table_money,
        table_money_capped=capped,
    )
    places = list(range(size, 0, -1))
    by_seat = fees.Account.of(fees.table_account(rules, size=size, lost=lost, places=places, passed_out=passed_out))
    counted = fees.tables_account(
        rules, [fees.TableCounts(size=size, lost=tuple(lost), passed_out=passed_out, entry_due=0, list_due=size)]
    )
    assert counted == by_seat
    assert not capped or counted.table_money <= counted.collected
