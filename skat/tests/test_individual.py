"""The individual ranking (Einzelwertung, skat.individual) at its edges: the league's rules
table decides counted series, attendance and ties (DOMAIN, "More practice": annual and
cup rankings: best N of M, a minimum attendance; make each a rule, never a constant)."""

from __future__ import annotations

import pytest

from skat.individual import Individual, check_rules, rank_individuals
from skat.league import LeagueError


def test_players_below_the_minimum_are_listed_by_their_sum_then_by_name():
    # Attendance rule: fewer than two series played is listed without a place, best sum first.
    series = {"Ed": [300], "Fe": [500], "Al": [300], "Bo": [100, 100]}
    ranked = rank_individuals(series, minimum=2)
    assert ranked == [
        Individual("Bo", 1, 200, 2, 2, 100),
        Individual("Fe", None, 500, 1, 1, 500),
        Individual("Al", None, 300, 1, 1, 300),
        Individual("Ed", None, 300, 1, 1, 300),
    ]


def test_a_shared_place_after_others_takes_the_place_of_the_first_of_them():
    # Equal sums share the place, the next one skips it (1, 2, 3, 3, 5).
    series = {"A": [40], "B": [30], "C": [20], "D": [20], "E": [10]}
    assert [r.place for r in rank_individuals(series)] == [1, 2, 3, 3, 5]


def test_equal_sums_and_equal_best_series_share_under_the_best_series_rule():
    series = {"B": [100, 50], "A": [100, 50], "C": [90, 60], "D": [10]}
    ranked = rank_individuals(series, tie="best_series")
    assert [(r.player, r.place) for r in ranked] == [("A", 1), ("B", 1), ("C", 3), ("D", 4)]


def test_a_player_with_no_series_has_nothing_counted_and_no_best_series():
    ranked = rank_individuals({"Z": [], "Y": [5]})
    assert ranked == [Individual("Y", 1, 5, 1, 1, 5), Individual("Z", 2, 0, 0, 0, 0)]
    assert ranked[1].average == 0.0


def test_best_counts_only_the_best_series_and_every_series_played():
    (row,) = rank_individuals({"A": [300, 900, 500, 100]}, best=3)
    assert (row.total, row.played, row.counted, row.best) == (1700, 4, 3, 900)
    assert row.average == 566.7


def test_the_key_only_orders_equal_players_for_reading():
    series = {"a": [10], "B": [10], "c": [20]}
    ranked = rank_individuals(series, key=str.lower)
    assert [(r.player, r.place) for r in ranked] == [("c", 1), ("a", 2), ("B", 2)]
    unranked = rank_individuals(series, minimum=2, key=str.lower)
    assert [r.player for r in unranked] == ["c", "a", "B"]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"best": -1}, "best: must be a whole number 0 or more, not -1"),
        ({"best": "2"}, "best: must be a whole number 0 or more, not '2'"),
        ({"best": 1.5}, "best: must be a whole number 0 or more, not 1.5"),
        ({"best": False}, "best: must be a whole number 0 or more, not False"),
        ({"minimum": -1}, "minimum: must be a whole number 0 or more, not -1"),
        ({"minimum": None}, "minimum: must be a whole number 0 or more, not None"),
        ({"tie": "lot"}, 'tie: must be "shared" or "best_series", not \'lot\''),
        ({"best": 2, "minimum": 3}, "minimum: 3 series are more than the 2 series counted"),
    ],
)
def test_impossible_rules_are_refused_with_the_whole_message(rules, message):
    full = {"best": 0, "minimum": 0, "tie": "shared", **rules}
    with pytest.raises(LeagueError) as refused:
        check_rules(full["best"], full["minimum"], full["tie"])
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("best", "minimum", "tie"),
    [(0, 0, "shared"), (0, 5, "shared"), (2, 2, "best_series"), (3, 1, "shared"), (1, 0, "best_series")],
)
def test_possible_rules_are_accepted(best, minimum, tie):
    check_rules(best, minimum, tie)  # no error: every series counts when best is 0


def test_the_shared_rule_looks_at_sums_only_and_the_best_series_rule_first_at_sums():
    # "shared": equal sums share, whatever the best series; "best_series": the sum decides
    # first, more series played do not.
    series = {"A": [100, 50], "B": [120, 30], "C": [60, 60, 20]}
    shared = rank_individuals(series)
    assert [(r.player, r.place) for r in shared] == [("A", 1), ("B", 1), ("C", 3)]
    ranked = rank_individuals(series, tie="best_series")
    assert [(r.player, r.place) for r in ranked] == [("B", 1), ("A", 2), ("C", 3)]
