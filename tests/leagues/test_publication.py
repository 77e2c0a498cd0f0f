"""The hall-to-league publication endpoint (leagues/publication.py, leagues/api.py)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues.lineups import create_match_day
from leagues.models import LeagueEvent, Publication
from leagues.publication import new_host
from leagues.sending import tournament_file
from scoring.models import Game
from tests import factories
from tournaments.models import Team, Tournament

from .helpers import played_day

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def hall_file():
    """A match day played on the hall laptop (here the same database), as its tournament file."""
    _league, group, teams = factories.league_group(series_per_matchday=2, rounds_per_series=1)
    day = played_day(group, teams, 1, ["Team A", "Team C"])
    return tournament_file(day.tournament), day.tournament


@pytest.fixture
def server():
    """The league server's side: its own league with the same team names, a host and match day 1."""
    manager = factories.user("staffelleiter")
    league, group, teams = factories.league_group(managers=[manager], name="Verbandsliga")
    host, token = new_host(league, "SC Herz Dame")
    day = create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams, host=host)
    return league, host, token, day


def post(client, content: bytes, token: str | None, match_day=None):
    url = reverse("leagues:publish") + (f"?matchday={match_day}" if match_day is not None else "")
    headers = {"Authorization": f"Token {token}"} if token else {}
    return client.post(url, content, content_type=XLSX, headers=headers)


def test_a_file_sent_twice_is_stored_once(client, hall_file, server):
    content, original = hall_file
    _league, _host, token, day = server
    placeholder = day.tournament_id
    first = post(client, content, token, day.pk)
    assert first.status_code == 201, first.json()
    assert first.json()["stored"] is True
    # Every game's value agrees; only the order of players tied on everything may differ,
    # as the lot draws by player id and ids taken on the server cannot be kept.
    assert all(d.startswith("Ranking, ") for d in first.json()["differences"])
    day.refresh_from_db()
    assert day.tournament_id == first.json()["tournament"]
    assert not Tournament.objects.filter(pk=placeholder).exists()  # the empty set-up is replaced
    games = Game.objects.filter(table__series__tournament=day.tournament).count()
    assert games == Game.objects.filter(table__series__tournament=original).count()
    again = post(client, tournament_file(original), token, day.pk)  # exported anew: other bytes, same cells
    assert again.status_code == 200 and again.json()["stored"] is False
    assert "nothing changed" in again.json()["message"]
    assert Publication.objects.count() == 1
    assert Tournament.objects.count() == 2  # the hall's own and the one published
    assert LeagueEvent.objects.filter(kind="published").count() == 1
    assert day.tournament.is_director(factories.user("x", superuser=True))


def test_refusals_name_the_reason(client, hall_file, server):
    content, _original = hall_file
    _league, host, token, day = server
    assert post(client, content, None).status_code == 401
    assert "token is unknown" in post(client, content, "guessed").json()["error"]
    assert post(client, b"", token).json()["error"].startswith("file: empty")
    refused = post(client, b"not a workbook", token)
    assert refused.status_code == 400 and refused.json()["error"].startswith("file: ")
    assert post(client, content, token, 9999).status_code == 404
    assert post(client, content, token, "x").json()["error"].startswith("matchday: 'x' is not")
    _other_host, other_token = new_host(host.league, "Other club")
    assert post(client, content, other_token, day.pk).status_code == 403
    Team.objects.filter(tournament=day.tournament, name="Team D").update(name="Team Z")
    from leagues.models import LeagueTeam

    LeagueTeam.objects.filter(group=day.group, name="Team D").update(name="Team Z")
    stranger = post(client, content, token, day.pk)
    assert stranger.status_code == 400
    assert (
        stranger.json()["error"]
        == "file, Players, Team: Team D does not play match day 1 of Verbandsliga 2026, Staffel 1"
    )
    assert not Publication.objects.exists()
    assert client.get(reverse("leagues:publish")).status_code == 405
    # No session counts (the endpoint is exempt from CSRF because of that): only the token.
    client.force_login(factories.user("root", superuser=True))
    assert post(client, content, None, day.pk).status_code == 401


def test_a_match_day_number_in_other_digits_or_too_long_is_refused_not_a_500(client, hall_file, server):
    """ "²" passes str.isdigit() but int() refuses it, as it refuses thousands of digits."""
    content, _original = hall_file
    _league, _host, token, _day = server
    for raw in ("%C2%B2", "9" * 5000):
        answer = post(client, content, token, raw)
        assert answer.status_code == 400 and answer.json()["error"].startswith("matchday: "), raw


def test_a_match_day_with_results_on_the_server_is_not_overwritten(client, hall_file, server):
    content, original = hall_file
    _league, _host, token, day = server
    assert post(client, content, token, day.pk).status_code == 201
    Tournament.objects.filter(pk=original.pk).update(venue="Vereinsheim")  # another file of the same day
    answer = post(client, tournament_file(Tournament.objects.get(pk=original.pk)), token, day.pk)
    assert answer.status_code == 409
    assert answer.json()["error"] == "matchday: match day 1 has results already; the league manager corrects them"
    assert Publication.objects.count() == 1


def test_a_plain_tournament_is_published_without_a_match_day(client, hall_file, server):
    content, _original = hall_file
    _league, _host, token, _day = server
    answer = post(client, content, token)
    assert answer.status_code == 201 and answer.json()["match_day"] is None
