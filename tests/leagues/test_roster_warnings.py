"""Warnings for players who play on a match day without being on their team's roster
: the match-day page names them and the rule."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues import checks
from leagues.models import RosterEntry
from tests import factories
from tournaments.models import Registration

from .helpers import played_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(client):
    manager = factories.user("staffelleiter")
    client.force_login(manager)
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    return played_day(group, teams, 1, ["Team A", "Team B"], substitute=True)


def test_a_match_day_of_roster_players_warns_of_nothing(client, day, django_assert_max_num_queries):
    assert checks.roster_warnings(day) == []
    with django_assert_max_num_queries(33):  # the warnings are three of them, the forfeits one
        page = client.get(reverse("leagues:match_day", args=[day.pk])).content.decode()
    assert "roster-warnings" not in page


def test_a_player_taken_off_the_roster_after_playing_is_named_with_the_rule(client, day):
    RosterEntry.objects.filter(team__name="Team A", player__name="A2").delete()
    Registration.objects.filter(tournament=day.tournament, player__name="B3").update(team=None)
    assert checks.roster_warnings(day) == [
        "A2 plays for Team A but is not on its roster: a team fields only its own roster's players.",
        "B3 plays for no team of this match day: every player plays for a team of his roster.",
    ]
    page = client.get(reverse("leagues:match_day", args=[day.pk])).content.decode()
    assert 'class="card warning roster-warnings" role="alert"' in page
    assert "A2 plays for Team A but is not on its roster: a team fields only its own roster&#x27;s players." in page
