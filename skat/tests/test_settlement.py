"""5.5.5 settlement per player and pairwise."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skat.rules import RuleError
from skat.settlement import pairwise, settle

BOOK_TOTALS = [196, 33, -12, 85]  # A, B, C, D; sum 302


def test_the_book_example_per_player():
    # Line b = total x 4: 784, 132, -48, 340; line c = 302 each; line d = b - c.
    assert settle(BOOK_TOTALS) == [482, -170, -350, 38]


def test_the_book_example_pairwise():
    table = pairwise(BOOK_TOTALS)
    # "Player A will receive from B 163 (+196 - 33), from C 208 (196 - (-12)), and from
    # D 111 (196 - 85), total 482."
    assert table[0] == [0, 163, 208, 111]
    # The book's table of transactions, with row = payer and column = receiver, so it is
    # the transpose of ours. Its bottom line (column sums) prints "+482 -17 -350 +38":
    # "-17" is a typo for -170, B's settlement 33 x 4 - 302 (= -163 + 45 - 52).
    book = [
        [0, -163, -208, -111],
        [163, 0, -45, 52],
        [208, 45, 0, 97],
        [111, -52, -97, 0],
    ]
    assert table == [list(column) for column in zip(*book, strict=True)]
    assert [sum(column) for column in zip(*book, strict=True)] == [482, -170, -350, 38]
    assert [sum(row) for row in table] == settle(BOOK_TOTALS)


def test_a_negative_overall_total():
    # 5.5.5: if the minus points exceed the plus points, line c is negative and line d
    # comes to b plus |c|. Sum -130: -100 x 3 + 130, -50 x 3 + 130, 20 x 3 + 130.
    assert settle([-100, -50, 20]) == [-170, -20, 190]


def test_two_players():
    assert settle([50, -30]) == [80, -80]
    assert pairwise([50, -30]) == [[0, 80], [-80, 0]]


@pytest.mark.parametrize("totals", [[], [10]])
@pytest.mark.parametrize("function", [settle, pairwise])
def test_a_settlement_needs_two_players(function, totals):
    with pytest.raises(RuleError) as raised:
        function(totals)
    assert (raised.value.field, raised.value.paragraph) == ("totals", "5.5.5")
    # The message says how many totals came (make mutation: count dropped, or None).
    assert str(raised.value) == f"totals: a settlement needs at least two players, not {len(totals)} (5.5.5)"


totals_strategy = st.lists(st.integers(-3000, 3000), min_size=2, max_size=8)


@given(totals_strategy)
def test_settlements_sum_to_zero(totals):
    assert sum(settle(totals)) == 0


@given(totals_strategy)
def test_pairwise_is_antisymmetric(totals):
    table = pairwise(totals)
    n = len(totals)
    assert len(table) == n and all(len(row) == n for row in table)
    for i in range(n):
        assert table[i][i] == 0
        for j in range(n):
            assert table[i][j] == -table[j][i]


@given(totals_strategy)
def test_pairwise_rows_sum_to_the_settlement(totals):
    assert [sum(row) for row in pairwise(totals)] == settle(totals)


@given(totals_strategy, st.integers(-1000, 1000))
def test_only_differences_matter(totals, shift):
    # Everyone settles on differences: adding the same amount to all totals changes nothing.
    assert settle([t + shift for t in totals]) == settle(totals)
