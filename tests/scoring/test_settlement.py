"""5.5.5 settlement per player and pairwise."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import RuleError
from scoring.settlement import pairwise, settle


def test_the_book_example():
    # A 196, B 33, C -12, D 85: sum 302; b = total x 4; d = b - c.
    # The book's bottom line prints "-17" for B: a typo for -170 (33 x 4 - 302).
    assert settle([196, 33, -12, 85]) == [482, -170, -350, 38]
    table = pairwise([196, 33, -12, 85])
    assert table[0] == [0, 163, 208, 111]  # A receives 163 from B, 208 from C, 111 from D
    assert [sum(row) for row in table] == [482, -170, -350, 38]


def test_a_settlement_needs_two_players():
    for totals in ([], [10]):
        with pytest.raises(RuleError) as raised:
            settle(totals)
        assert raised.value.field == "totals"
        with pytest.raises(RuleError):
            pairwise(totals)


@given(st.lists(st.integers(-3000, 3000), min_size=2, max_size=6))
def test_settlements_balance(totals):
    settled = settle(totals)
    table = pairwise(totals)
    assert sum(settled) == 0
    assert [sum(row) for row in table] == settled
    for i in range(len(totals)):
        assert table[i][i] == 0
        for j in range(len(totals)):
            assert table[i][j] == -table[j][i]
