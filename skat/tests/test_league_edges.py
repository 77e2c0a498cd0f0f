"""The league arithmetic at its edges: the season's rows, the tie-breaks and the lot seed
of a match day, and the messages that mutation testing (make mutation) showed no other
test pinned."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skat.league import LeagueError, TeamResult, evaluate_match_day, match_day, rank_table, season

from .test_cli_matchday import TEAMS, lost_grand, table


def order(data: dict) -> list[str]:
    return [team["name"] for team in evaluate_match_day(data)["teams"]]


def teams_of(places) -> list[str]:
    return [p.result.team for p in places]


def test_a_season_keeps_each_teams_name_and_league_points_per_series():
    one = match_day([{"A": 10, "B": 5}])
    two = match_day([{"A": 1, "B": 5}])
    for total in (season([one, two]), season([one, two], teams=["A", "B", "C"])):
        assert total["A"].team == "A" and total["A"].series_points == [10, 1]
        assert total["A"].series_won == [1, 0] and total["B"].series_won == [0, 1]
    assert season([], teams=["C"])["C"].team == "C"


EQUAL = [  # level on league and game points; X's best series 100, Y's 190
    TeamResult("X", [100, 100], [], Fraction(2), Fraction(0)),
    TeamResult("Y", [190, 10], [], Fraction(2), Fraction(0)),
]


def test_the_lot_tie_break_ignores_the_best_series_and_best_series_uses_it():
    lot_first = next(s for s in range(50) if teams_of(rank_table(EQUAL, tie_break="lot", lot_seed=s))[0] == "X")
    by_lot = rank_table(EQUAL, tie_break="lot", lot_seed=lot_first)
    assert teams_of(by_lot) == ["X", "Y"] and by_lot[1].decided_by == "lot"
    by_best = rank_table(EQUAL, tie_break="best_series", lot_seed=lot_first)
    assert teams_of(by_best) == ["Y", "X"] and by_best[1].decided_by == "best_series"


def test_the_default_lot_seed_is_0():
    rows = [TeamResult(name, [0], [], Fraction(1), Fraction(0)) for name in "ABCDEF"]
    assert teams_of(rank_table(rows)) == teams_of(rank_table(rows, lot_seed=0))
    assert teams_of(rank_table(rows, lot_seed=1)) != teams_of(rank_table(rows, lot_seed=0))


LEVEL = {"teams": TEAMS, "series": [[table("A1", "B1", "C1", "D1"), table("B2", "C2", "D2", "A2")]]}


def test_a_match_day_draws_its_lot_with_its_seed_0_by_default():
    """Nothing played: all four level, the lot alone orders them, by the match day's seed."""
    assert order(LEVEL) == order(LEVEL | {"lot_seed": 0}) == ["Herz Dame", "Kreuz Bube", "Karo Zehn", "Pik As"]
    assert order(LEVEL | {"lot_seed": 1}) == ["Herz Dame", "Pik As", "Karo Zehn", "Kreuz Bube"]
    assert order(LEVEL | {"lot_seed": "x"}) == ["Herz Dame", "Kreuz Bube", "Pik As", "Karo Zehn"]


def test_a_match_day_breaks_ties_by_its_tie_break():
    """Series 1: C2 loses a grand (-146; +30 to each other seat). Series 2: B1 and D2 lose
    one each. Herz Dame, Karo Zehn and Pik As end level at 2½ points and -86; Pik As has
    the best series (60 against 30)."""
    data = {
        "teams": TEAMS,
        "series": [
            [table("A1", "B1", "C1", "D1"), table("B2", "C2", "D2", "A2", games=[lost_grand("C2")])],
            [
                table("A1", "B1", "C1", "D1", games=[lost_grand("B1")]),
                table("B2", "C2", "D2", "A2", games=[lost_grand("D2")]),
            ],
        ],
    }
    assert order(data | {"tie_break": "lot"}) == ["Kreuz Bube", "Herz Dame", "Karo Zehn", "Pik As"]
    assert order(data | {"tie_break": "best_series"}) == ["Kreuz Bube", "Pik As", "Herz Dame", "Karo Zehn"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (LEVEL | {"tie_break": "age"}, 'tie_break: must be "lot" or "best_series", not \'age\''),
        (LEVEL | {"lot_seed": True}, "lot_seed: must be a whole number or a text"),
        (LEVEL | {"lot_seed": 1.5}, "lot_seed: must be a whole number or a text"),
        (LEVEL | {"series": [[]]}, "series 1: must be a list of table sheets"),
        (
            LEVEL | {"teams": TEAMS | {"Herz Dame": ["B1", "B2", "B1"]}},
            "teams, Herz Dame: B1 is listed twice (also in Herz Dame)",
        ),
    ],
)
def test_a_match_day_names_what_it_cannot_use(data, message):
    with pytest.raises(LeagueError) as raised:
        evaluate_match_day(data)
    assert str(raised.value) == message
