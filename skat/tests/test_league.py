"""The league arithmetic (scoring/league.py): league points per series, tables, the lot."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skat.league import (
    LeagueError,
    TeamResult,
    as_number,
    match_day,
    rank_table,
    score_line,
    season,
    series_points,
)

TEAMS = ["A", "B", "C", "D"]
points_of_teams = st.lists(st.integers(-500, 2500), min_size=2, max_size=8).map(
    lambda points: {f"T{i}": p for i, p in enumerate(points)}
)


def test_four_teams_get_three_two_one_nothing():
    assert series_points({"A": 1228, "B": 904, "C": 1310, "D": 12}) == {
        "A": (2, 1),
        "B": (1, 2),
        "C": (3, 0),
        "D": (0, 3),
    }


def test_equal_game_points_share_the_point_or_give_it_to_both():
    half = Fraction(1, 2)
    split = series_points({"A": 900, "B": 900, "C": 100})
    assert split == {"A": (1 + half, half), "B": (1 + half, half), "C": (0, 2)}
    both = series_points({"A": 900, "B": 900, "C": 100}, tie="both")
    assert both == {"A": (2, 0), "B": (2, 0), "C": (0, 2)}


def test_a_team_that_does_not_turn_up_gets_no_points_and_loses_to_everyone():
    result = series_points({"A": -300, "B": None, "C": None})
    assert result == {"A": (2, 0), "B": (0, 2), "C": (0, 2)}


def test_a_rule_outside_the_settings_is_refused_by_name():
    with pytest.raises(LeagueError, match="tie: must be"):
        series_points({"A": 1, "B": 2}, tie="coin")
    with pytest.raises(LeagueError, match="tie_break: must be"):
        rank_table([], tie_break="age")


@given(points_of_teams)
def test_a_series_hands_out_n_times_n_minus_1_over_2_points(points):
    n = len(points)
    result = series_points(points)
    assert sum(won for won, _lost in result.values()) == Fraction(n * (n - 1), 2)
    assert all(won + lost == n - 1 for won, lost in result.values())
    assert all(won.denominator in (1, 2) for won, _lost in result.values())


@given(points_of_teams)
def test_outscoring_more_teams_never_gives_fewer_points(points):
    result = series_points(points)
    for a in points:
        for b in points:
            if points[a] > points[b]:
                assert result[a][0] > result[b][0]
            elif points[a] == points[b]:
                assert result[a] == result[b]


@given(points_of_teams)
def test_both_gives_each_tied_pair_two_points_and_split_one(points):
    n = len(points)
    split = sum(w for w, _ in series_points(points, "split").values())
    both = sum(w for w, _ in series_points(points, "both").values())
    tied_pairs = sum(1 for i, a in enumerate(points) for b in list(points)[i + 1 :] if points[a] == points[b])
    assert split == Fraction(n * (n - 1), 2)
    assert both == split + tied_pairs


def test_a_match_day_of_three_series_is_worth_nine_points():
    day = match_day(
        [
            {"A": 1228, "B": 904, "C": 1310, "D": 12},
            {"A": 1100, "B": 1000, "C": 800, "D": 700},
            {"A": 1310, "B": 100, "C": 200, "D": 300},
        ]
    )
    assert (day["A"].won, day["A"].lost, day["A"].game_points) == (8, 1, 3638)
    assert day["A"].series_points == [1228, 1100, 1310]
    assert day["A"].series_won == [2, 3, 3]
    assert sum(r.won for r in day.values()) == 18
    with pytest.raises(LeagueError, match="series 2: must list the same teams"):
        match_day([{"A": 1, "B": 2}, {"A": 1, "C": 2}])


@given(st.lists(st.lists(st.integers(-500, 2500), min_size=4, max_size=4), min_size=1, max_size=4))
def test_every_team_of_a_day_has_won_plus_lost_three_per_series(series):
    day = match_day([dict(zip(TEAMS, points, strict=True)) for points in series])
    assert all(r.won + r.lost == 3 * len(series) for r in day.values())


def test_the_season_adds_the_match_days_up():
    one = match_day([{"A": 10, "B": 5}])
    two = match_day([{"A": 1, "B": 5}, {"A": 3, "B": 3}])
    total = season([one, two], teams=["A", "B", "C"])
    assert (total["A"].won, total["A"].lost, total["A"].game_points, total["A"].matchdays) == (
        Fraction(3, 2),
        Fraction(3, 2),
        14,
        2,
    )
    assert total["C"].matchdays == 0 and total["C"].won == 0


def test_the_table_ranks_by_points_then_game_points_then_the_lot():
    rows = [
        TeamResult("A", [100], [Fraction(1)], Fraction(1), Fraction(1)),
        TeamResult("B", [200], [Fraction(1)], Fraction(1), Fraction(1)),
        TeamResult("C", [50], [Fraction(2)], Fraction(2), Fraction(0)),
        TeamResult("D", [100], [Fraction(1)], Fraction(1), Fraction(1)),
    ]
    table = rank_table(rows, lot_seed=7)
    assert [p.result.team for p in table][:2] == ["C", "B"]
    assert [p.decided_by for p in table][:3] == [None, "points", "game_points"]
    assert table[3].decided_by == "lot"
    # Reproducible: the same seed draws the same lot; the lot depends on the seed only.
    assert [p.result.team for p in rank_table(reversed(rows), lot_seed=7)] == [p.result.team for p in table]
    lots = {tuple(p.result.team for p in rank_table(rows, lot_seed=seed))[2:] for seed in range(20)}
    assert lots == {("A", "D"), ("D", "A")}


def test_best_series_breaks_a_tie_before_the_lot():
    rows = [
        TeamResult("A", [100, 100], [], Fraction(2), Fraction(0)),
        TeamResult("B", [190, 10], [], Fraction(2), Fraction(0)),
    ]
    table = rank_table(rows, tie_break="best_series")
    assert [p.result.team for p in table] == ["B", "A"]
    assert table[1].decided_by == "best_series"


@given(st.lists(st.tuples(st.integers(0, 18), st.integers(-1000, 5000)), min_size=1, max_size=10))
def test_the_ranking_is_sorted_and_every_place_is_distinct(rows):
    results = [TeamResult(f"T{i}", [gp], [], Fraction(won, 2), Fraction(0)) for i, (won, gp) in enumerate(rows)]
    table = rank_table(results)
    assert [p.place for p in table] == list(range(1, len(rows) + 1))
    keys = [(p.result.won, p.result.game_points) for p in table]
    assert keys == sorted(keys, reverse=True)


def test_points_print_whole_or_half():
    assert as_number(Fraction(8)) == 8 and isinstance(as_number(Fraction(8)), int)
    assert as_number(Fraction(15, 2)) == 7.5
    assert score_line(Fraction(25), Fraction(2)) == "25:2"
    assert score_line(Fraction(15, 2), Fraction(3, 2)) == "7½:1½"
