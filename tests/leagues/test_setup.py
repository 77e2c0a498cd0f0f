"""Setting up a league (leagues/setup.py): the rules the forms cannot see alone."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.db import connection

from leagues import publication, setup
from leagues.models import Group, Host, LeagueTeam, RosterEntry
from leagues.publication import digest, host_of
from leagues.setup import RosterRow
from leagues.setup_forms import LEAGUE_FIELDS
from skat.rules import RuleError
from tests import factories
from tests.threads import in_parallel
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def empty_teams(count: int) -> list[LeagueTeam]:
    """A league's teams "Team A".. with empty rosters."""
    _league, group, _none = factories.league_group(teams=0)
    return [LeagueTeam.objects.create(group=group, name=f"Team {chr(65 + n)}") for n in range(count)]


def test_a_membership_number_finds_the_known_player():
    teams = empty_teams(2)
    known = factories.player("Anna Acht", membership_number="DSKV-1")
    setup.save_roster(teams[0], [RosterRow(1, "Anna Acht", "", "DSKV-1"), RosterRow(2, "Bernd Bube")], captain=1)
    roster = list(RosterEntry.objects.filter(team=teams[0]).order_by("position"))
    assert roster[0].player == known and roster[1].player.name == "Bernd Bube"
    teams[0].refresh_from_db()
    assert teams[0].captain == known


def test_a_membership_number_of_another_name_is_refused():
    teams = empty_teams(1)
    factories.player("Anna Acht", membership_number="DSKV-1")
    with pytest.raises(RuleError) as refused:
        setup.save_roster(teams[0], [RosterRow(1, "Bernd Bube", "", "DSKV-1")], captain=None)
    assert refused.value.field == "membership_number" and refused.value.params["position"] == 1
    assert not RosterEntry.objects.exists() and Player.objects.count() == 1


def test_a_player_of_another_roster_by_membership_number_is_refused():
    teams = empty_teams(2)
    setup.save_roster(teams[0], [RosterRow(1, "Anna Acht", "", "DSKV-1")], captain=None)
    with pytest.raises(RuleError) as refused:
        setup.save_roster(teams[1], [RosterRow(3, "Anna Acht", "Club B", "DSKV-1")], captain=None)
    assert "on the roster of Team A" in refused.value.message and refused.value.params["position"] == 3


def test_the_same_player_by_number_and_by_name_is_once_in_a_roster():
    teams = empty_teams(1)
    setup.save_roster(teams[0], [RosterRow(1, "Anna Acht", "", "DSKV-1")], captain=None)
    rows = [RosterRow(1, "Anna Acht", "", "DSKV-1"), RosterRow(2, "Anna Acht")]
    with pytest.raises(RuleError) as refused:
        setup.save_roster(teams[0], rows, captain=None)
    assert refused.value.params == {"player": "Anna Acht", "other": 1, "position": 2}


def test_a_known_player_of_the_same_name_and_club_is_matched_not_made_twice():
    """No membership number: the person the office knows by name and club (from a
    tournament, another season) is the roster's player, in any word order."""
    teams = empty_teams(1)
    known = factories.player("Anna Acht", club="SC Kreuz")
    setup.save_roster(teams[0], [RosterRow(1, "Acht Anna", "SC Kreuz")], captain=None)
    assert RosterEntry.objects.get().player == known
    assert Player.objects.filter(club=known.club).count() == 1


def test_two_known_players_of_the_same_name_and_club_ask_for_the_membership_number():
    teams = empty_teams(1)
    factories.player("Anna Acht", club="SC Kreuz", membership_number="DSKV-1")
    factories.player("Anna Acht", club="SC Kreuz", membership_number="DSKV-2")
    with pytest.raises(RuleError) as refused:
        setup.save_roster(teams[0], [RosterRow(2, "Anna Acht", "SC Kreuz")], captain=None)
    assert refused.value.field == "membership_number" and refused.value.params["position"] == 2
    assert "2 players called Anna Acht of this club are known" in refused.value.message
    assert not RosterEntry.objects.exists() and Player.objects.count() == 2
    setup.save_roster(teams[0], [RosterRow(2, "Anna Acht", "SC Kreuz", "DSKV-2")], captain=None)
    assert RosterEntry.objects.get().player.membership_number == "DSKV-2"


def test_the_same_name_in_another_league_is_another_roster():
    (first,) = empty_teams(1)
    (second,) = empty_teams(1)
    setup.save_roster(first, [RosterRow(1, "Anna Acht")], captain=None)
    setup.save_roster(second, [RosterRow(1, "Anna Acht")], captain=None)
    assert RosterEntry.objects.count() == 2


def test_a_withdrawn_host_token_publishes_no_more_and_a_new_one_does():
    league, _group, _teams = factories.league_group(teams=2)
    host, token = setup.add_host(league, "SC Kreuz")
    assert host_of(token) == host
    setup.set_active(host, False)
    with pytest.raises(Exception, match="unknown or withdrawn"):
        host_of(token)
    fresh = setup.replace_host_token(host)
    assert host_of(fresh) == host and Host.objects.get().token_digest == digest(fresh)
    with pytest.raises(Exception, match="unknown or withdrawn"):
        host_of(token)


def test_a_host_token_never_starts_with_a_dash_an_option_would_take_it_for(monkeypatch):
    """``--token -Ky...`` is an option without its value to argparse: such tokens are drawn again."""
    league, _group, _teams = factories.league_group(teams=2)
    drawn = iter(["-first", "-second", "third"])
    monkeypatch.setattr(publication.secrets, "token_urlsafe", lambda nbytes: next(drawn))
    _host, token = setup.add_host(league, "SC Kreuz")
    assert token == "third"
    drawn = iter(["-again", "fourth"])
    assert setup.replace_host_token(_host) == "fourth"


@pytest.mark.django_db(transaction=True)
def test_two_managers_putting_one_player_on_two_rosters_at_once_get_one_refusal(monkeypatch):
    """A player plays for one team of the league, also when two managers save two teams'
    rosters at the same moment: both read the other rosters before either writes (held
    together here), and only one roster may take him. Meaningful on PostgreSQL (SQLite's
    immediate transactions run one after the other)."""
    teams = empty_teams(2)
    factories.player("Anna Acht", membership_number="DSKV-1")
    read_both = threading.Barrier(2)
    other_rosters = setup._other_rosters

    def held(team):
        found = other_rosters(team)
        if connection.vendor == "sqlite":
            # Immediate transactions: the other save waits at its BEGIN and cannot read
            # until this one commits; holding here could only wait out the timeout.
            return found
        # Both have read; a lock that makes the second wait breaks the hold after a moment.
        with contextlib.suppress(threading.BrokenBarrierError):
            read_both.wait(timeout=2)
        return found

    monkeypatch.setattr(setup, "_other_rosters", held)

    def save(index: int):
        try:
            setup.save_roster(teams[index], [RosterRow(1, "Anna Acht", "", "DSKV-1")], captain=1)
        except RuleError as error:
            return error.field
        return "saved"

    assert sorted(in_parallel(save, 2)) == ["player", "saved"]
    assert RosterEntry.objects.filter(player__membership_number="DSKV-1").count() == 1


def _league_twice(league, group, team):
    fields = {f: getattr(league, f) for f in LEAGUE_FIELDS}
    setup.create_league(fields | {"name": league.name.upper()}, factories.user())


TWINS = {
    "league": (_league_twice, "season", "has a season"),
    "group": (lambda league, group, team: setup.save_group(league, group.name.upper()), "name", "has a group"),
    "team": (lambda league, group, team: setup.save_team(group, team.name.upper(), ""), "name", "has a team"),
    "host": (lambda league, group, team: setup.add_host(league, "SC HERZ DAME"), "name", "has a host"),
}


@pytest.mark.parametrize("kind", TWINS)
def test_a_name_a_second_manager_wrote_between_check_and_write_is_refused_by_name(kind, monkeypatch):
    """Two managers adding the same name at once, in any case: both checks see no twin,
    the database's unique constraint (on the name in lower case) refuses the second row,
    and the second manager reads the same refusal as if he had come second (not a 500);
    nothing of his is written."""
    from django.db.models import QuerySet

    league, group, teams = factories.league_group()
    setup.add_host(league, "SC Herz Dame")
    counts = [model.objects.count() for model in (type(league), type(group), LeagueTeam, Host)]
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)  # the twin is not yet visible
    write, field, words = TWINS[kind]
    with pytest.raises(RuleError) as refused:
        write(league, group, teams[0])
    assert refused.value.field == field and words in refused.value.message
    assert [model.objects.count() for model in (type(league), type(group), LeagueTeam, Host)] == counts


def test_a_refused_rename_leaves_the_group_and_the_team_as_they_were(monkeypatch):
    """The page shown again after a refusal shows the group's and the team's own names,
    not the refused ones (the twin written meanwhile by another manager)."""
    from django.db.models import QuerySet

    league, group, teams = factories.league_group()
    other = setup.save_group(league, "Staffel 2")
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)
    for rename in (
        lambda: setup.save_group(league, "STAFFEL 1", other),
        lambda: setup.save_team(group, "TEAM B", "", teams[0]),
    ):
        with pytest.raises(RuleError):
            rename()
    assert other.name == "Staffel 2" and teams[0].name == "Team A"
    assert (Group.objects.get(pk=other.pk).name, LeagueTeam.objects.get(pk=teams[0].pk).name) == (
        "Staffel 2",
        "Team A",
    )
