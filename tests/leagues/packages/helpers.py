"""A league server's world and its package, and a hall that does not have it yet."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import Permission

from leagues.lineups import create_match_day
from leagues.models import League, MatchDay
from leagues.packages.export import host_match_days, package
from leagues.publication import new_host
from tests import factories
from tournaments.models import Tournament


def server_world(**league_fields):
    """Verbandsliga: one group of four teams (rosters of six, A1 with a membership number),
    host SC Herz Dame with match day 1; another host with match day 2."""
    league_fields = {"name": "Verbandsliga", "series_per_matchday": 2, "rounds_per_series": 1} | league_fields
    league, group, teams = factories.league_group(**league_fields)
    first = teams[0].roster.get(position=1).player
    type(first).objects.filter(pk=first.pk).update(membership_number="10001")
    host, token = new_host(league, "SC Herz Dame")
    other, _other_token = new_host(league, "SV Kreuz Bube")
    day = create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams, host=host)
    elsewhere = create_match_day(group, number=2, date=datetime.date(2026, 10, 3), teams=teams[:2], host=other)
    return league, host, token, day, elsewhere


def exported(host) -> dict:
    return package(host, host_match_days(host))


def forget(league: League) -> None:
    """The hall's office has none of the server's league: its match days, their
    tournaments and the league go (the players stay, as a hall knows people already)."""
    days = MatchDay.objects.filter(group__league=league)
    tournaments = list(days.values_list("tournament_id", flat=True))
    days.delete()
    Tournament.objects.filter(pk__in=tournaments).delete()
    league.delete()


def hall_director():
    user = factories.user("halle")
    user.user_permissions.add(Permission.objects.get(codename="add_league"))
    return type(user).objects.get(pk=user.pk)  # the permission cache starts empty
