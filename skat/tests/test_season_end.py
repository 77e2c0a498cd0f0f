"""The end of a season (skat.league, skat.individual): deductions, promotion and
relegation places, and the individual ranking (Einzelwertung), by worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skat.individual import Individual, rank_individuals
from skat.league import LeagueError, Place, TeamResult, check_places, deduct, rank_table, season, zones


def _row(team, won, game_points):
    return TeamResult(team, [game_points], [Fraction(won)], Fraction(won), Fraction(0), 1)


def test_a_deduction_is_taken_off_the_points_the_table_ranks_by():
    # A 25:2 and B 24:3; two points off A for a missed match report: B 24 before A 23.
    total = season([{"A": _row("A", 25, 900), "B": _row("B", 24, 800), "C": _row("C", 3, 100)}])
    deduct(total, {"A": Fraction(2), "Z": Fraction(1)})  # Z is no team of this group
    assert total["A"].points == 23 and total["A"].won == 25
    assert [p.result.team for p in rank_table(total.values())] == ["B", "A", "C"]
    assert (total["A"] + TeamResult("A", deducted=Fraction(1, 2))).deducted == Fraction(5, 2)
    with pytest.raises(LeagueError, match="deduction, B: must not be negative"):
        deduct(total, {"B": Fraction(-1)})


def test_deductions_add_up_and_a_nought_or_a_half_is_a_deduction_too():
    # A match report missed (1) and later a half point for a late one; nought changes nothing.
    total = season([{"A": _row("A", 25, 900)}])
    deduct(total, {"A": Fraction(1)})
    deduct(total, {"A": Fraction(0)})
    deduct(total, {"A": Fraction(1, 2)})
    assert total["A"].deducted == Fraction(3, 2) and total["A"].points == Fraction(47, 2)


def test_promotion_and_relegation_places_of_a_group_of_six():
    table = [Place(n, _row(f"T{n}", 10 - n, 0), None) for n in range(1, 7)]
    assert zones(table, 2, 1) == {1: "promotion", 2: "promotion", 6: "relegation"}
    assert zones(table, 0, 0) == {}
    shared = [Place(1, _row(t, 0, 0), None) for t in "ABC"]  # before the first match day
    assert zones(shared, 1, 1) == {}


def test_impossible_places_are_refused_naming_the_field():
    with pytest.raises(LeagueError, match="promotion, relegation: 4 \\+ 3 places are more than the group's 6 teams"):
        check_places(6, 4, 3)
    with pytest.raises(LeagueError, match=r"^relegation: must be 0 or more"):
        check_places(6, 1, -1)
    with pytest.raises(LeagueError, match=r"^promotion: must be 0 or more, not -1$"):
        check_places(6, -1, 0)
    check_places(6, 3, 3)


def test_the_individual_ranking_sums_every_series_and_shares_equal_sums():
    series = {"Anna": [1200, 800, 950], "Bernd": [2000, 950], "Carl": [1500, 1000, 450], "Dora": [400]}
    ranked = rank_individuals(series)
    assert [(r.player, r.place, r.total) for r in ranked] == [
        ("Anna", 1, 2950),
        ("Bernd", 1, 2950),
        ("Carl", 1, 2950),
        ("Dora", 4, 400),
    ]
    assert ranked[1] == Individual("Bernd", 1, 2950, 2, 2, 2000)
    assert ranked[1].average == 1475.0


def test_best_series_minimum_and_the_tie_break_are_the_rules():
    series = {"Anna": [1200, 800, 950], "Bernd": [2000, 950], "Carl": [1500, 1000, 450], "Dora": [400]}
    # The best two series count; at least two played; a tie goes to the better best series.
    ranked = rank_individuals(series, best=2, minimum=2, tie="best_series")
    assert [(r.player, r.place, r.total, r.counted) for r in ranked] == [
        ("Bernd", 1, 2950, 2),
        ("Carl", 2, 2500, 2),
        ("Anna", 3, 2150, 2),
        ("Dora", None, 400, 1),
    ]
    assert Individual("X", None, 0, 0, 0, 0).average == 0.0
    tied = rank_individuals({"A": [100, 50], "B": [120, 30]}, tie="best_series")
    assert [(r.player, r.place) for r in tied] == [("B", 1), ("A", 2)]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"best": -1}, "^best: must be a whole number 0 or more"),
        ({"minimum": True}, "^minimum: must be a whole number"),
        ({"tie": "lot"}, '^tie: must be "shared" or "best_series"'),
        ({"best": 2, "minimum": 3}, "^minimum: 3 series are more than the 2 series counted"),
    ],
)
def test_impossible_individual_rules_are_refused(rules, message):
    with pytest.raises(LeagueError, match=message):
        rank_individuals({"A": [1]}, **rules)
