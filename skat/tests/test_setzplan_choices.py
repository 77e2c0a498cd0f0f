"""Which plan a match day gets (skat/setzplan.py): tables of four where the line-up allows
(DOMAIN, "Structure of a tournament": tables of four preferred), no plan but no refusal
for a team alone, the refusals in full with their source (DOMAIN, "More practice":
league match days), and the plans of two short line-ups as published: the match report
prints the plan, and the same line-up must always get the same one."""

from __future__ import annotations

import pytest

from skat.rules import RuleError
from skat.setzplan import meetings, seating_plan


def test_four_teams_of_three_sit_at_three_tables_of_four():
    """12 players: three tables of four (12 = 3 x 4), not four of three; each team's three
    players at three different tables, so one table seats the fourth player of none."""
    plan = seating_plan([3, 3, 3, 3], 1)
    assert [len(table) for table in plan[0]] == [4, 4, 4]
    for table in plan[0]:
        assert len({team for team, _n in table}) == 4


@pytest.mark.parametrize("sizes", [[4], [3], [1]])
def test_one_team_alone_gets_no_plan_and_no_refusal(sizes):
    """A match day one team turned up to is no line-up the plan can seat (a team's players
    never share a table): None, and the ordinary draw decides, not an error."""
    assert seating_plan(sizes, 3) is None


@pytest.mark.parametrize(
    ("sizes", "series", "message"),
    [
        ([], 3, "teams: a seating plan is for up to 4 teams of up to 4 players (league)"),
        ([4, 4, 4, 4, 4], 3, "teams: a seating plan is for up to 4 teams of up to 4 players (league)"),
        ([4, 5, 4], 3, "teams: a seating plan is for up to 4 teams of up to 4 players (league)"),
        ([4, 4, 4], 0, "series: a match day has at least one series (league)"),
    ],
)
def test_what_is_no_match_day_is_refused_in_full(sizes, series, message):
    with pytest.raises(RuleError) as refused:
        seating_plan(sizes, series)
    assert str(refused.value) == message and refused.value.paragraph == "league"


def test_the_published_plan_of_four_four_three_and_two_players_over_two_series():
    plan = seating_plan([4, 4, 3, 2], 2)
    assert plan == [
        [
            [(0, 0), (1, 2), (2, 2)],
            [(0, 1), (1, 3), (2, 1)],
            [(0, 2), (1, 0), (2, 0), (3, 1)],
            [(0, 3), (1, 1), (3, 0)],
        ],
        [
            [(0, 0), (1, 3), (2, 0), (3, 0)],
            [(0, 1), (1, 2), (3, 1)],
            [(0, 2), (1, 1), (2, 2)],
            [(0, 3), (1, 0), (2, 1)],
        ],
    ]
    assert set(meetings(plan).values()) == {1}  # nobody meets twice


def test_the_published_plan_of_one_three_four_and_four_players():
    assert seating_plan([1, 3, 4, 4], 1) == [
        [
            [(1, 2), (2, 1), (3, 2)],
            [(1, 1), (2, 0), (3, 3)],
            [(1, 0), (2, 3), (3, 0)],
            [(0, 0), (2, 2), (3, 1)],
        ]
    ]


def test_three_full_teams_at_one_series_take_the_first_pattern():
    """Three teams of four (the fourth absent): no table of four can be had, so the first
    plan found stands: table n + 1 seats player n of each team, as with four teams."""
    assert seating_plan([4, 4, 4], 1) == [[[(0, n), (1, n), (2, n)] for n in range(4)]]
