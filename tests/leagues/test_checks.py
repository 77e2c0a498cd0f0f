"""The league manager's check, binding and the corrections it closes (leagues/checks.py)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from leagues import checks
from leagues.models import LeagueEvent
from leagues.results import match_day_result
from referees.corrections import correct_game
from scoring.models import Game
from skat.rules import RuleError
from tests import factories

from .helpers import played_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    manager = factories.user("staffelleiter")
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    return manager, played_day(group, teams, 1, ["Team A", None])


def won_game(day):
    return Game.objects.filter(table__series__tournament=day.tournament, won=True).order_by("pk").first()


def test_a_correction_changes_the_result_and_is_listed_for_the_check(day):
    manager, day = day
    game = won_game(day)
    correct_game(game.pk, expected_version=game.version, changes={"declarer_points": 50}, user=manager, reason="list")
    result = match_day_result(day)
    a = next(p.result for p in result.table if p.result.team.name == "Team A")
    assert a.series_points[0] == 294 - 146  # three grands won (294), one lost: -146
    (correction,) = checks.corrections(day)
    assert correction.made_by == manager and correction.before["score"] == 48


def test_checked_then_binding_and_then_no_correction(day):
    manager, day = day
    with pytest.raises(RuleError, match="match_day: check the match day before it becomes binding"):
        checks.make_binding(day, user=manager)
    checks.check(day, user=manager, note="lists agree")
    day.refresh_from_db()
    assert day.checked_by == manager and not day.binding
    checks.make_binding(day, user=manager)
    day.refresh_from_db()
    assert day.binding and day.binding_by == manager
    game = won_game(day)
    with pytest.raises(RuleError, match="match day 1 is binding: its results can no longer be corrected"):
        correct_game(game.pk, expected_version=game.version, changes={"declarer_points": 50}, user=manager, reason="x")
    with pytest.raises(RuleError, match="the match day is binding already"):
        checks.check(day, user=manager)
    assert list(LeagueEvent.objects.filter(match_day=day).values_list("kind", flat=True))[-2:] == [
        "checked",
        "binding",
    ]


def test_the_league_period_makes_a_checked_match_day_binding_by_itself(day):
    manager, day = day
    checks.check(day, user=manager)
    day.refresh_from_db()
    assert day.binding_since() is None
    later = day.checked_at + datetime.timedelta(days=14)
    assert day.binding_since(now=later) == later
    type(day).objects.filter(pk=day.pk).update(binding_due=timezone.now() - datetime.timedelta(days=1))
    day.refresh_from_db()
    assert day.binding


def test_a_match_day_without_play_cannot_be_checked():
    manager = factories.user("m")
    _league, group, teams = factories.league_group(managers=[manager])
    from leagues.lineups import create_match_day

    empty = create_match_day(group, number=1, date=datetime.date(2026, 9, 1), teams=teams)
    with pytest.raises(RuleError, match="no series of this match day is played yet"):
        checks.check(empty, user=manager)


def test_a_match_day_with_an_open_series_cannot_be_checked():
    """The check refused while a series is still open, naming it."""
    from draw.series import draw_series
    from tournaments.models import Series

    manager = factories.user("m")
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    day = played_day(group, teams, 1, ["Team A"])
    draw_series(day.tournament)  # series 2 drawn, not finished
    with pytest.raises(RuleError, match="match_day: series 2 is still open: finish it before the check"):
        checks.check(day, user=manager)
    day.refresh_from_db()
    assert day.checked_at is None and not LeagueEvent.objects.filter(match_day=day, kind="checked").exists()
    Series.objects.filter(tournament=day.tournament).update(status=Series.Status.RUNNING)
    with pytest.raises(RuleError, match="series 1, 2 are still open"):
        checks.check(day, user=manager)
