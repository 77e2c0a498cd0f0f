"""Match days as tournaments: set-up, line-ups, the draw keeps team-mates apart, substitutions."""

from __future__ import annotations

import datetime

import pytest

from draw.series import draw_series
from leagues import lineups
from leagues.models import LeagueEvent, Substitution
from skat.rules import RuleError
from tests import factories
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def set_up(series_per_matchday=2):
    manager = factories.user("staffelleiter")
    league, group, teams = factories.league_group(
        managers=[manager], series_per_matchday=series_per_matchday, rounds_per_series=1
    )
    day = lineups.create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams)
    return manager, league, group, teams, day


def roster(team, *positions):
    return [e.player for e in team.roster.filter(position__in=positions).select_related("player")]


def line_up_all(day, teams):
    for team in teams:
        lineups.set_line_up(day, team, roster(team, 1, 2, 3, 4))


def test_a_match_day_is_a_tournament_of_its_teams_directed_by_the_managers():
    manager, _league, _group, teams, day = set_up()
    tournament = day.tournament
    assert sorted(tournament.teams.values_list("name", flat=True)) == [t.name for t in teams]
    assert tournament.series_count == 2 and tournament.rounds_per_series == 1
    assert tournament.is_director(manager)


def test_a_match_day_of_the_longest_league_and_group_names_fits_the_tournaments_name():
    """The setup pages allow a league of 120 characters, a season of 20 and a group of 80: the
    match day's tournament is named after them within its 160 (PostgreSQL refuses more: a 500)."""
    _manager, league, group, teams, _day = set_up()
    league.name, league.season, group.name = "L" * 120, "S" * 20, "G" * 80
    league.save()
    group.save()
    day = lineups.create_match_day(group, number=12, date=datetime.date(2026, 9, 12), teams=teams)
    name = day.tournament.name
    assert len(name) <= Tournament._meta.get_field("name").max_length and name.endswith(" · 12")


def test_four_teams_of_four_sit_at_four_tables_one_of_each_team_at_each():
    _m, _l, _g, teams, day = set_up()
    line_up_all(day, teams)
    series = draw_series(day.tournament)
    team_of = dict(Registration.objects.filter(tournament=day.tournament).values_list("player_id", "team__name"))
    assert series.tables.count() == 4
    for table in series.tables.all():
        assert sorted(team_of[s.player_id] for s in table.seats.all()) == [t.name for t in teams]


def test_a_line_up_comes_from_the_roster_and_is_refused_by_name_otherwise():
    _m, _l, _g, teams, day = set_up()
    stranger = factories.player("Fremder")
    with pytest.raises(RuleError, match="players: Fremder is not on the roster of Team A"):
        lineups.set_line_up(day, teams[0], [stranger])
    with pytest.raises(RuleError, match="players: a line-up has 1 to 4 players, not 5"):
        lineups.set_line_up(day, teams[0], roster(teams[0], 1, 2, 3, 4, 5))
    lineups.set_line_up(day, teams[0], roster(teams[0], 1, 2, 3, 5))
    lineups.set_line_up(day, teams[0], roster(teams[0], 1, 2, 3, 4))  # changed again before the draw
    assert Registration.objects.filter(tournament=day.tournament).count() == 4
    assert LeagueEvent.objects.filter(match_day=day, kind="line_up").count() == 2


def test_no_line_up_change_once_drawn_only_a_substitution():
    _m, _l, _g, teams, day = set_up()
    line_up_all(day, teams)
    with pytest.raises(RuleError, match="before series 1 change the line-up"):
        lineups.substitute(day, teams[0], roster(teams[0], 1)[0], roster(teams[0], 5)[0])
    draw_series(day.tournament)
    with pytest.raises(RuleError, match="series 1 is drawn"):
        lineups.set_line_up(day, teams[0], roster(teams[0], 1, 2, 3, 4))


def test_a_substitute_plays_from_the_next_series_and_the_player_out_does_not_return():
    manager, _l, _g, teams, day = set_up()
    line_up_all(day, teams)
    series1 = draw_series(day.tournament)
    factories.play_series(series1)
    a1, a5 = roster(teams[0], 1)[0], roster(teams[0], 5)[0]
    substitution = lineups.substitute(day, teams[0], a1, a5, user=manager)
    assert substitution.before_series == 2
    series2 = draw_series(day.tournament)
    seated = set(series2.seats.values_list("player__name", flat=True))
    assert "A5" in seated and "A1" not in seated
    ups = lineups.line_ups(day)
    assert ups[0]["Team A"] == ["A1", "A2", "A3", "A4"]
    assert ups[1]["Team A"] == ["A2", "A3", "A4", "A5"]
    factories.play_series(series2)
    with pytest.raises(RuleError, match="every series is drawn"):
        lineups.substitute(day, teams[0], a5, roster(teams[0], 6)[0])
    assert Substitution.objects.get().player_in == a5


def test_substitution_refusals_name_the_player():
    _m, _l, _g, teams, day = set_up(series_per_matchday=3)
    line_up_all(day, teams)
    factories.play_series(draw_series(day.tournament))
    a1, a5, b5 = roster(teams[0], 1)[0], roster(teams[0], 5)[0], roster(teams[1], 5)[0]
    with pytest.raises(RuleError, match="player_in: B5 is not on the roster of Team A"):
        lineups.substitute(day, teams[0], a1, b5)
    with pytest.raises(RuleError, match="player_out: B5 does not play for Team A now"):
        lineups.substitute(day, teams[0], b5, a5)
    lineups.substitute(day, teams[0], a1, a5)
    factories.play_series(draw_series(day.tournament))
    with pytest.raises(RuleError, match="player_in: A1 has played this match day already and does not return"):
        lineups.substitute(day, teams[0], a5, a1)


def test_a_match_day_needs_two_teams_of_its_group():
    _m, _l, group, teams, _day = set_up()
    _l2, _g2, others = factories.league_group(teams=2)
    with pytest.raises(RuleError, match="teams: a match day needs at least two teams"):
        lineups.create_match_day(group, number=2, date=datetime.date(2026, 10, 1), teams=teams[:1])
    with pytest.raises(RuleError, match="teams: every team of a match day must belong to its group"):
        lineups.create_match_day(group, number=2, date=datetime.date(2026, 10, 1), teams=[teams[0], others[0]])
