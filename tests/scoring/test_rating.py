"""The extended Seeger-Fabian rating and the documented ranking order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rating import Rating, opponent_bonus, rank, rate_table, tie_break_key
from scoring.rules import RuleError


def worked_example_games() -> list[tuple[int, bool, int]]:
    """DOMAIN's table of four: game points A +492, B +628, C +660, D -32; won 12/12/10/6;
    lost 0/2/1/5. Concrete games that add up to exactly those figures."""
    games = []
    games += [(0, True, 36)] * 10 + [(0, True, 66)] * 2  # A: 12 won: 492
    games += [(1, True, 60)] * 11 + [(1, True, 40)] + [(1, False, -36)] * 2  # B: 700 - 72 = 628
    games += [(2, True, 72)] * 9 + [(2, True, 108)] + [(2, False, -96)]  # C: 756 - 96 = 660
    games += [(3, True, 22)] * 4 + [(3, True, 30)] * 2 + [(3, False, -36)] * 5  # D: 148 - 180 = -32
    return games


def test_the_domain_worked_example_comes_out_exactly():
    games = worked_example_games()
    assert len(games) == 48
    a, b, c, d = rate_table(4, games)
    assert [(r.points, r.won, r.lost) for r in (a, b, c, d)] == [(492, 12, 0), (628, 12, 2), (660, 10, 1), (-32, 6, 5)]
    assert [r.seeger for r in (a, b, c, d)] == [1092, 1128, 1110, 18]
    assert [r.bonus for r in (a, b, c, d)] == [8 * 30, 6 * 30, 7 * 30, 3 * 30]
    assert [r.rating for r in (a, b, c, d)] == [1332, 1308, 1320, 108]


def test_rating_arithmetic():
    r = Rating(points=492, won=12, lost=0, bonus=240)
    assert r.rating == 492 + 600 + 240
    assert r + Rating(points=-10, won=1, lost=2, bonus=30) == Rating(points=482, won=13, lost=2, bonus=270)


def test_at_a_table_of_three_each_opponent_gets_40():
    ratings = rate_table(3, [(0, False, -48), (1, True, 23)])
    assert [(r.points, r.won, r.lost, r.bonus, r.rating) for r in ratings] == [
        (-48, 0, 1, 0, -98),
        (23, 1, 0, 40, 113),
        (0, 0, 0, 40, 40),
    ]


def test_at_a_table_of_four_the_dealer_gets_30_too():
    # Seat 1 deals game 1; seat 2 loses it: seats 1, 3 and 4 get 30 each.
    ratings = rate_table(4, [(1, False, -40)])
    assert [r.bonus for r in ratings] == [30, 0, 30, 30]


@pytest.mark.parametrize("size", [2, 5])
def test_only_tables_of_three_and_four(size):
    with pytest.raises(RuleError) as raised:
        opponent_bonus(size)
    assert raised.value.field == "table_size"


def test_bad_games_are_refused():
    with pytest.raises(RuleError) as raised:
        rate_table(3, [(3, True, 18)])
    assert raised.value.field == "declarer"
    with pytest.raises(RuleError) as raised:
        rate_table(3, [(0, True, -36)])
    assert raised.value.field == "score"
    with pytest.raises(RuleError):
        rate_table(3, [(0, False, 18)])


games_strategy = st.integers(3, 4).flatmap(
    lambda size: st.tuples(
        st.just(size),
        st.lists(
            st.tuples(st.integers(0, size - 1), st.booleans(), st.integers(18, 264)).map(
                lambda g: (g[0], g[1], g[2] if g[1] else -2 * g[2])
            ),
            max_size=48,
        ),
    )
)


@given(games_strategy)
def test_bonus_adds_up_to_every_lost_game_times_the_others(table):
    size, games = table
    ratings = rate_table(size, games)
    lost = sum(1 for _seat, won, _score in games if not won)
    assert sum(r.bonus for r in ratings) == lost * (size - 1) * opponent_bonus(size)
    assert sum(r.points for r in ratings) == sum(score for _seat, _won, score in games)
    for r in ratings:
        assert r.rating == r.points + 50 * r.won - 50 * r.lost + r.bonus


def test_ranking_order_rating_then_won_then_lost_then_lot():
    players = {
        "top": Rating(points=500),
        "more_won": Rating(points=0, won=4, lost=0, bonus=300),  # 500
        "fewer_won": Rating(points=150, won=3, lost=0, bonus=200),  # 500
        "more_lost": Rating(points=250, won=4, lost=1, bonus=100),  # 500
        "tie_a": Rating(points=100),
        "tie_b": Rating(points=100),
    }
    ranked = rank(players, players.__getitem__, lot_seed=1)
    order = [r.item for r in ranked]
    assert order[:4] == ["more_won", "more_lost", "fewer_won", "top"]
    assert set(order[4:]) == {"tie_a", "tie_b"}
    assert [r.place for r in ranked] == [1, 2, 3, 4, 5, 6]
    assert [r.decided_by for r in ranked] == [None, "lost", "won", "won", "rating", "lot"]


def test_the_lot_is_reproducible_and_depends_on_the_seed():
    players = [f"p{i}" for i in range(20)]
    same = [r.item for r in rank(players, lambda _p: Rating(), lot_seed="open-2026")]
    assert same == [r.item for r in rank(players, lambda _p: Rating(), lot_seed="open-2026")]
    other = [r.item for r in rank(players, lambda _p: Rating(), lot_seed="open-2027")]
    assert sorted(other) == sorted(same) and other != same


@given(st.lists(st.tuples(st.integers(-500, 500), st.integers(0, 20), st.integers(0, 20)), max_size=30))
def test_rank_is_a_permutation_in_tie_break_order(values):
    items = list(range(len(values)))
    ratings = {i: Rating(points=p, won=w, lost=n) for i, (p, w, n) in enumerate(values)}
    ranked = rank(items, ratings.__getitem__, lot_seed=3)
    assert sorted(r.item for r in ranked) == items
    keys = [tie_break_key(r.rating) for r in ranked]
    assert keys == sorted(keys)
