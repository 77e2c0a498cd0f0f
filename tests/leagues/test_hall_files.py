"""What the league server checks in a hall's file and takes from it (leagues/hall_files.py,
republication.py, rejection.py)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues import checks
from leagues.lineups import create_match_day
from leagues.models import LeagueEvent, MatchDay, Publication, Substitution
from leagues.publication import new_host
from leagues.results import match_day_result
from leagues.sending import tournament_file
from referees.models import Correction
from scoring.models import Game
from tests import factories
from tournaments.models import Registration, Tournament

from .helpers import played_day, roster
from .test_publication import post

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall():
    """The hall laptop's match day (here the same database): A5 came in for A1 before series 2."""
    _league, group, teams = factories.league_group(series_per_matchday=2, rounds_per_series=1)
    return played_day(group, teams, 1, ["Team A", "Team C"], substitute=True).tournament


@pytest.fixture
def server():
    manager = factories.user("staffelleiter")
    league, group, teams = factories.league_group(
        managers=[manager], name="Verbandsliga", series_per_matchday=2, rounds_per_series=1
    )
    host, token = new_host(league, "SC Herz Dame")
    day = create_match_day(group, number=1, date=datetime.date(2026, 9, 1), teams=teams, host=host)
    return manager, host, token, day


def points(day) -> dict[str, str]:
    return {p.result.team.name: f"{p.result.won}:{p.result.lost}" for p in match_day_result(day).table}


# 3: no stand-alone tournaments from hosts


def test_a_file_of_no_match_day_of_the_host_is_refused_and_nothing_is_stored(client, hall, server):
    _manager, _host, token, day = server
    Registration.objects.filter(tournament=hall, team__name="Team D").update(team=None)
    hall.teams.filter(name="Team D").update(name="Team Z")
    hall.registrations.filter(team__isnull=True).update(team=hall.teams.get(name="Team Z"))
    tournaments = Tournament.objects.count()
    answer = post(client, tournament_file(hall), token)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("matchday: no match day of this host has the file's teams; ")
    assert f"{day.pk} (Match day 1, Staffel 1, 2026-09-01)" in answer.json()["error"]
    assert Tournament.objects.count() == tournaments and not Publication.objects.exists()


def test_a_host_publishes_only_to_its_own_match_days(client, hall, server):
    _manager, _host, token, day = server
    MatchDay.objects.filter(pk=day.pk).update(host=None)
    answer = post(client, tournament_file(hall), token, day.pk)
    assert answer.status_code == 403
    assert answer.json()["error"] == "matchday: match day 1 has no host yet; the league manager names its host"


def test_a_copy_stored_stand_alone_before_does_not_swallow_the_match_days_publication(client, hall, server):
    _manager, host, token, day = server
    content = tournament_file(hall)
    from leagues.publication import content_digest

    stray = Tournament.objects.create(name=str(day), date=day.date, series_count=2, rounds_per_series=1)
    Publication.objects.create(host=host, digest=content_digest(content), tournament=stray)
    answer = post(client, content, token, day.pk)
    assert answer.status_code == 201 and answer.json()["match_day"] == day.pk
    assert not Tournament.objects.filter(pk=stray.pk).exists()
    assert Publication.objects.get().match_day == day


# 4: the league's rule


def test_the_format_must_be_the_leagues(client, hall, server):
    _manager, _host, token, day = server
    league = day.group.league
    league.rounds_per_series = 12
    league.save()
    answer = post(client, tournament_file(hall), token, day.pk)
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "file, Tournament: 2 series of 1 rounds; Verbandsliga 2026 plays 2 series of 12 rounds a match day "
        "(the league's rule)"
    )


def test_a_player_on_no_roster_does_not_count(client, hall, server):
    _manager, _host, token, day = server
    Registration.objects.filter(tournament=hall, player__name="A2").update(
        player=factories.player("Ringer", membership_number="999")
    )
    from tournaments.models import Seat

    Seat.objects.filter(series__tournament=hall, player__name="A2").update(
        player=Registration.objects.get(tournament=hall, player__name="Ringer").player
    )
    answer = post(client, tournament_file(hall), token, day.pk)
    assert answer.status_code == 400
    assert (
        answer.json()["error"] == "file, Players: Ringer is not on the roster of Team A; a team fields its own roster"
    )
    assert not Publication.objects.exists() and not day.tournament.series.exists()


def test_a_roster_player_is_not_fielded_twice_under_a_second_hall_player_of_his_name(client, hall, server):
    _manager, _host, token, day = server
    from tournaments.models import Seat

    stranger = factories.player("a1", membership_number="")
    Registration.objects.filter(tournament=hall, player__name="A2").update(player=stranger)
    Seat.objects.filter(series__tournament=hall, player__name="A2").update(player=stranger)
    answer = post(client, tournament_file(hall), token, day.pk)
    assert answer.status_code == 400
    assert answer.json()["error"] == "file, Players: a1 plays twice; A1 of Team A is in the file already"
    assert not Publication.objects.exists() and not day.tournament.series.exists()


def test_the_hall_players_are_the_rosters_players(client, hall, server):
    _manager, _host, token, day = server
    assert post(client, tournament_file(hall), token, day.pk).status_code == 201
    day.refresh_from_db()
    rostered = {e.player_id for t in day.teams.all() for e in t.roster.all()}
    assert set(day.tournament.registrations.values_list("player_id", flat=True)) <= rostered


def test_the_manager_removes_a_publication_with_a_reason(client, hall, server):
    manager, _host, token, day = server
    content = tournament_file(hall)
    assert post(client, content, token, day.pk).status_code == 201
    day.refresh_from_db()
    assert points(day)["Team A"] == "4:2"
    client.force_login(manager)
    publication = Publication.objects.get()
    url = reverse("leagues:remove_publication", args=[day.pk, publication.pk])
    refused = client.post(url, {"reason": ""}, follow=True)
    assert "reason: say why the publication is removed" in refused.content.decode()
    client.post(url, {"reason": "a player on no roster"})
    day.refresh_from_db()
    assert not day.tournament.series.exists() and points(day) == {}
    assert Tournament.objects.get(pk=publication.tournament_id).archived
    event = day.events.last()
    assert event.kind == "rejected" and event.user == manager and event.note.endswith(": a player on no roster")
    again = post(client, content, token, day.pk)
    assert again.status_code == 409 and "the league manager removed this file on " in again.json()["error"]
    page = client.get(reverse("leagues:match_day", args=[day.pk])).content.decode()
    assert "a player on no roster" in page and "removed" in page


def test_removing_a_re_published_correction_removes_the_file_it_corrected_too(client, hall, server):
    """Both count through the match day's one tournament: neither stays listed as counting,
    and the first file sent again is refused, not "already stored" with nothing counting."""
    manager, _host, token, day = server
    first = tournament_file(hall)
    assert post(client, first, token, day.pk).status_code == 201
    game = Game.objects.filter(table__series__tournament=hall, won=True).order_by("pk").first()
    game.declarer_points = 50
    game.apply_rules(game.table.size)
    game.save()
    assert post(client, tournament_file(hall), token, day.pk).status_code == 201
    correction = Publication.objects.order_by("received_at", "pk").last()
    checks.remove_publication(correction, user=manager, reason="a wrong correction")
    day.refresh_from_db()
    assert points(day) == {}
    assert not Publication.objects.filter(match_day=day, rejected_at__isnull=True).exists()
    again = post(client, first, token, day.pk)
    assert again.status_code == 409 and "the league manager removed this file on " in again.json()["error"]


def test_a_binding_match_days_publication_stays(client, hall, server):
    manager, _host, token, day = server
    assert post(client, tournament_file(hall), token, day.pk).status_code == 201
    checks.check(day, user=manager)
    checks.make_binding(day, user=manager)
    client.force_login(manager)
    publication = Publication.objects.get()
    answer = client.post(
        reverse("leagues:remove_publication", args=[day.pk, publication.pk]), {"reason": "late"}, follow=True
    )
    assert "match day 1 is binding: its results can no longer be removed" in answer.content.decode()
    assert Publication.objects.get().rejected_at is None


# 6: hall and server agree


def test_the_halls_substitutions_come_with_the_publication(client, hall, server):
    _manager, _host, token, day = server
    assert post(client, tournament_file(hall), token, day.pk).status_code == 201
    (substitution,) = Substitution.objects.filter(match_day=day)
    assert (substitution.team.name, substitution.before_series) == ("Team A", 2)
    assert (substitution.player_out.name, substitution.player_in.name) == ("A1", "A5")
    assert substitution.player_in == roster(day.teams.get(name="Team A"), 5)[0]


def test_a_deal_corrected_on_the_hall_is_an_audited_correction_on_the_server(client, hall, server):
    manager, host, token, day = server
    assert post(client, tournament_file(hall), token, day.pk).status_code == 201
    day.refresh_from_db()
    checks.check(day, user=manager)
    game = Game.objects.filter(table__series__tournament=hall, won=True).order_by("pk").first()
    game.declarer_points = 50
    game.apply_rules(game.table.size)
    game.save()
    answer = post(client, tournament_file(hall), token, day.pk)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["message"].startswith("stored as corrections of match day 1: series 1, table ")
    hall_scores = sorted(Game.objects.filter(table__series__tournament=hall).values_list("score", flat=True))
    server_scores = sorted(
        Game.objects.filter(table__series__tournament=day.tournament).values_list("score", flat=True)
    )
    assert hall_scores == server_scores
    (correction,) = Correction.objects.filter(game__table__series__tournament=day.tournament)
    assert correction.reason == "re-published by SC Herz Dame" and correction.made_by.username == f"host-{host.pk}"
    assert not correction.made_by.is_active
    day.refresh_from_db()
    assert day.checked_at is None  # the result changed: checked again
    assert LeagueEvent.objects.filter(match_day=day, kind="republished").count() == 1
    # The history and the corrections say whose upload it was, not the internal account.
    client.force_login(manager)
    page = client.get(reverse("leagues:match_day", args=[day.pk])).content.decode()
    assert "the hall&#x27;s upload (SC Herz Dame)" in page and f"host-{host.pk}" not in page
    checks.check(day, user=manager)
    checks.make_binding(day, user=manager)
    game.declarer_points = 40
    game.apply_rules(game.table.size)
    game.save()
    late = post(client, tournament_file(hall), token, day.pk)
    assert late.status_code == 409 and "binding" in late.json()["error"]


# Loose end: team names in publication files match the league's whatever their case.


def test_a_files_team_in_other_case_is_the_match_days_team(client, hall, server):
    _manager, _host, token, day = server
    expected = points(MatchDay.objects.get(tournament=hall))
    hall.teams.filter(name="Team A").update(name="team a")
    hall.teams.filter(name="Team B").update(name="TEAM B")
    answer = post(client, tournament_file(hall), token)  # no --matchday: found by its teams
    assert answer.status_code == 201, answer.content
    day.refresh_from_db()
    assert sorted(day.tournament.teams.values_list("name", flat=True)) == ["Team A", "Team B", "Team C", "Team D"]
    assert points(day) == expected
    (substitution,) = Substitution.objects.filter(match_day=day)
    assert substitution.team.name == "Team A"


def test_a_file_with_two_teams_differing_only_in_case_is_refused(client, hall, server):
    _manager, _host, token, day = server
    from tournaments.models import Team

    twin = Team.objects.create(tournament=hall, name="team a")
    Registration.objects.filter(tournament=hall, player__name="A2").update(team=twin)
    answer = post(client, tournament_file(hall), token, day.pk)
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "file, Players, Team: Team A and team a differ only in case; a match day's team is written one way"
    )
    assert not Publication.objects.exists() and not day.tournament.series.exists()
