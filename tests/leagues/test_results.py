"""Match-day results and the season table from the stored games (leagues/results.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from leagues.results import match_day_result, season_tables, series_game_points, team_season
from tests import factories

from .helpers import played_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def group():
    _league, group, teams = factories.league_group(series_per_matchday=2, rounds_per_series=1)
    return group, teams


def test_a_series_won_by_one_team_gives_it_three_points_and_the_rest_share(group):
    group, teams = group
    day = played_day(group, teams, 1, ["Team A", None])
    result = match_day_result(day)
    assert result.series == 2
    first = result.table[0].result
    # Each of A's four players wins a grand: +48 +50 = 98 each; nobody loses a game.
    assert (first.team.name, first.series_points, first.won, first.lost) == ("Team A", [392, 0], 4.5, 1.5)
    assert sum(p.result.won for p in result.table) == 12
    assert all(p.result.won == Fraction(5, 2) for p in result.table[1:])


def test_the_season_adds_the_match_days_and_ranks_by_points_then_game_points(group):
    group, teams = group
    played_day(group, teams, 1, ["Team A", "Team B"])
    played_day(group, teams, 2, ["Team B", "Team C"], substitute=True)
    (season,) = season_tables([group])
    rows = {p.result.team.name: p.result for p in season.table}
    # B: 1 (beside the two other losers) + 3, then 3 + 1.
    assert (rows["Team B"].won, rows["Team B"].lost, rows["Team B"].matchdays) == (8, 4, 2)
    assert [p.result.team.name for p in season.table][:1] == ["Team B"]
    # D never wins a series: half a point against each of the two other losers, four times.
    assert (rows["Team D"].won, rows["Team D"].lost) == (4, 8)
    assert sum(r.won for r in rows.values()) == 4 * 6
    assert not season.binding


def test_the_season_reads_in_a_constant_number_of_queries(group, django_assert_max_num_queries):
    group, teams = group
    played_day(group, teams, 1, ["Team A", "Team B"])
    played_day(group, teams, 2, ["Team C", "Team D"])
    with django_assert_max_num_queries(9):  # three of them the season's forfeits, deductions and places
        season_tables([group])


def test_game_points_count_whoever_of_the_team_sat(group):
    group, teams = group
    day = played_day(group, teams, 1, ["Team A", "Team A"], substitute=True)
    points, drawn = series_game_points([day.tournament_id])
    assert drawn == {day.tournament_id: 2}
    assert points[day.tournament_id, 2, "Team A"] == 392  # A5 in for A1, still four winners


def test_a_team_page_has_its_days_and_its_players_averages(group):
    group, teams = group
    played_day(group, teams, 1, ["Team A", None], substitute=True)
    season = team_season(teams[0])
    (_day, place, result) = season.days[0]
    assert place == 1 and result.game_points == 392
    players = {name: (played, total, average) for name, played, total, average in season.players}
    assert players["A1"] == (1, 98, 98.0)
    assert players["A5"] == (1, 0, 0.0)
    assert players["A2"] == (2, 98, 49.0)
