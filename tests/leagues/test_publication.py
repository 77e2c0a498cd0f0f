"""The hall-to-league publication endpoint (leagues/publication.py, leagues/api.py)."""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import tempfile

import pytest
from django.urls import reverse

from leagues.lineups import create_match_day
from leagues.models import LeagueEvent, Publication
from leagues.publication import content_digest, new_host
from leagues.sending import tournament_file
from scoring.models import Game
from tests import factories, hostile_xlsx
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
    league, group, teams = factories.league_group(
        managers=[manager], name="Verbandsliga", series_per_matchday=2, rounds_per_series=1
    )
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


def test_the_same_results_again_in_another_file_change_nothing(client, hall_file, server):
    content, original = hall_file
    _league, _host, token, day = server
    assert post(client, content, token, day.pk).status_code == 201
    Tournament.objects.filter(pk=original.pk).update(venue="Vereinsheim")  # another file of the same day
    answer = post(client, tournament_file(Tournament.objects.get(pk=original.pk)), token, day.pk)
    assert answer.status_code == 409
    assert answer.json()["error"] == "file: match day 1 has these results already; no deal differs"
    assert Publication.objects.count() == 1


def test_without_a_match_day_the_file_goes_to_the_hosts_match_day_of_its_teams(client, hall_file, server):
    content, _original = hall_file
    _league, _host, token, day = server
    answer = post(client, content, token)
    assert answer.status_code == 201 and answer.json()["match_day"] == day.pk
    day.refresh_from_db()
    assert day.tournament_id == answer.json()["tournament"]
    again = post(client, content, token, day.pk)  # the later --matchday publication: the same, stored
    assert again.status_code == 200 and again.json()["match_day"] == day.pk


def test_the_same_file_from_a_second_host_of_the_league_is_stored_once(client, hall_file, server):
    """Both clubs' laptops publish the evening: the results are on the server once, and the
    second is told who published them (leagues.publication._stored says why not a 409)."""
    content, original = hall_file
    league, _host, token, day = server
    guest, guest_token = new_host(league, "Kreuz Bube Nord")
    first = post(client, content, token)
    assert first.status_code == 201
    tournaments = Tournament.objects.count()
    again = post(client, tournament_file(original), guest_token)  # exported anew on the guest's laptop
    assert again.status_code == 200, again.json()
    assert again.json()["stored"] is False and again.json()["tournament"] == first.json()["tournament"]
    assert again.json()["published_by"] == "SC Herz Dame"
    assert again.json()["message"] == "already stored: SC Herz Dame published this file before, nothing changed"
    assert Tournament.objects.count() == tournaments and Publication.objects.count() == 1
    # Named for a match day the stored file is not: a conflict naming the publisher, nothing stored.
    other = create_match_day(day.group, number=2, date=datetime.date(2026, 9, 12), teams=day.teams.all(), host=guest)
    conflict = post(client, content, guest_token, other.pk)
    assert conflict.status_code == 409
    assert conflict.json()["error"].startswith("file: SC Herz Dame published this file as match day 1 on ")
    assert Tournament.objects.count() == tournaments + 1 and Publication.objects.count() == 1


def test_a_host_of_another_league_stores_its_own_copy(client, hall_file, server):
    content, _original = hall_file
    _league, _host, token, _day = server
    other, group, teams = factories.league_group(name="Landesliga", series_per_matchday=2, rounds_per_series=1)
    stranger, stranger_token = new_host(other, "SC Pik As")
    create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams, host=stranger)
    assert post(client, content, token).status_code == 201
    assert post(client, content, stranger_token).status_code == 201
    assert Publication.objects.count() == 2


def test_no_refusal_names_a_file_of_the_server(client, server):
    """The import read a temporary file whose path every refusal began with ("file: /tmp/tmpab12.xlsx: ...")."""
    _league, _host, token, _day = server
    for content in (hostile_xlsx.many_members(), hostile_xlsx.missing_sheet(), hostile_xlsx.bad_value()):
        error = post(client, content, token).json()["error"]
        assert error.startswith("file: ") and tempfile.gettempdir() not in error and ".xlsx" not in error, error
    assert not Publication.objects.exists()


def test_the_digest_of_an_office_export_is_the_one_stored_before_the_guard(hall_file):
    """Publications stored before the guard keep matching a resend of their file."""
    from openpyxl import load_workbook

    content, _original = hall_file
    workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    before = hashlib.sha256()
    for sheet in workbook.worksheets:
        before.update(json.dumps(sheet.title).encode())
        for row in sheet.iter_rows(values_only=True):
            before.update(json.dumps(row, default=str).encode())
    workbook.close()
    assert content_digest(content) == before.hexdigest()


def test_a_file_larger_than_a_publication_is_refused_naming_the_limit(client, server):
    _league, _host, token, _day = server
    answer = post(client, b"PK" + b"\0" * (2 * 2**20), token)
    assert answer.status_code == 413
    assert answer.json()["error"].startswith("file: 2.0 MB; a publication is at most 2 MB")
