"""The package's endpoint (host token), the manager's download, the hall's import page and
command, and a publication that names its match day by the package's key."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from leagues.lineups import create_match_day
from leagues.models import League, MatchDay, Publication
from leagues.sending import tournament_file
from tests import factories
from tests.leagues.helpers import played_day

from .helpers import forget, hall_director, server_world

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def get_package(client, token: str | None, key: str | None = None):
    url = reverse("packages:api_package") + (f"?matchday={key}" if key is not None else "")
    return client.get(url, headers={"Authorization": f"Token {token}"} if token else {})


def test_the_endpoint_answers_the_hosts_own_match_days_only(client, django_assert_max_num_queries):
    _league, _host, token, day, elsewhere = server_world()
    # 8: the host token's guess is counted before its check (a row written, counted and
    # deleted again once the token proves right), then the host and the package's reads.
    with django_assert_max_num_queries(8):
        answer = get_package(client, token)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/json")
    assert "no-store" in answer["Cache-Control"]
    assert [d["key"] for d in answer.json()["match_days"]] == [day.key]
    assert get_package(client, token, day.key).json()["match_days"][0]["number"] == 1
    refused = get_package(client, token, elsewhere.key)
    assert refused.status_code == 403
    assert refused.json() == {"error": "matchday: match day 2 is hosted by SV Kreuz Bube"}
    assert get_package(client, token, "0" * 32).status_code == 404
    assert get_package(client, token, "x").json()["error"].startswith("matchday: 'x' is not a match day's key")
    assert get_package(client, None).status_code == 401
    assert "token is unknown" in get_package(client, "guessed").json()["error"]
    assert client.post(reverse("packages:api_package")).status_code == 405


def test_the_manager_downloads_the_same_package_for_a_hall_without_network(client):
    league, _host, token, day, _elsewhere = server_world()
    manager = factories.user("staffelleiter")
    league.managers.add(manager)
    client.force_login(manager)
    page = client.get(reverse("leagues:match_day", args=[day.pk]))
    assert reverse("packages:match_day_package", args=[day.pk]).encode() in page.content
    download = client.get(reverse("packages:match_day_package", args=[day.pk]))
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="verbandsliga-2026-staffel-1-1.json"'
    served = get_package(client, token).json()
    filed = json.loads(download.content)
    assert {**filed, "made_at": None} == {**served, "made_at": None}


def test_the_hall_imports_on_its_page_and_a_bad_file_is_refused(client):
    league, _host, _token, _day, _elsewhere = server_world()
    content = reverse("packages:match_day_package", args=[_day.pk])
    admin = factories.user("root", superuser=True)
    client.force_login(admin)
    body = client.get(content).content
    forget(league)
    client.force_login(hall_director())
    assert client.get(reverse("packages:import")).status_code == 200
    refused = client.post(reverse("packages:import"), {"file": SimpleUploadedFile("p.json", b"[[[")})
    assert refused.status_code == 422
    assert "Nothing was imported: file: The file is not JSON: line 1, column 4" in refused.content.decode()
    assert not League.objects.exists()
    done = client.post(reverse("packages:import"), {"file": SimpleUploadedFile("p.json", body)}, follow=True)
    league = League.objects.get()
    assert done.redirect_chain == [(reverse("leagues:league", args=[league.pk]), 302)]
    assert "League Verbandsliga 2026 set up." in done.content.decode()
    again = client.post(reverse("packages:import"), {"file": SimpleUploadedFile("p.json", body)}, follow=True)
    assert "Nothing changed: this office has the package already." in again.content.decode()
    neither = client.post(reverse("packages:import"), {"token": "t"})
    assert neither.status_code == 422 and "one of them" in neither.content.decode()


def test_a_publication_names_its_match_day_by_the_key(client):
    """Two match days of the host fit the file's teams and date: without the key the server
    cannot tell which (the old refusal); with the package's key it stores the right one."""
    _league, host, token, day, _elsewhere = server_world()
    twin = create_match_day(day.group, number=3, date=day.date, teams=list(day.teams.all()), host=host)
    _hall_league, group, teams = factories.league_group(series_per_matchday=2, rounds_per_series=1)
    hall = played_day(group, teams, 1, ["Team A", "Team C"])
    hall.tournament.date = day.date
    hall.tournament.save(update_fields=["date"])
    content = tournament_file(hall.tournament)
    url = reverse("leagues:publish")
    headers = {"Authorization": f"Token {token}"}
    guessed = client.post(url, content, content_type=XLSX, headers=headers)
    assert guessed.status_code == 400 and "several match days fit the file" in guessed.json()["error"]
    # A key the server never made (the hall set the match day up itself): found as before.
    own = client.post(f"{url}?key={hall.key}", content, content_type=XLSX, headers=headers)
    assert own.status_code == 400 and "several match days fit the file" in own.json()["error"]
    stored = client.post(f"{url}?key={twin.key}", content, content_type=XLSX, headers=headers)
    assert stored.status_code == 201 and stored.json()["match_day"] == twin.pk
    assert Publication.objects.get().match_day == twin
    both = client.post(f"{url}?key={twin.key}&matchday={twin.pk}", content, content_type=XLSX, headers=headers)
    assert both.json()["error"] == "key: give the match day's key or its id (matchday), not both"
    assert client.post(f"{url}?key=zz", content, content_type=XLSX, headers=headers).status_code == 400


@pytest.mark.django_db(transaction=True)
def test_the_command_fetches_the_package_from_the_server(live_server, capsys, settings):
    """On loopback from the live test server (the same database: the hall here is the server
    itself, so the import finds everything and changes nothing), then refusals by exit code."""
    settings.SKAT_LEAGUE_SERVERS = [live_server.url, "http://127.0.0.1:9"]
    league, _host, token, day, _elsewhere = server_world()
    manager = factories.user("staffelleiter")
    league.managers.add(manager)
    url = live_server.url + reverse("packages:api_package")
    call_command("import_matchday", url, "--user", "staffelleiter", "--token", token, "--matchday", day.key)
    out = capsys.readouterr().out
    assert "nothing changed: this office has the package already" in out
    assert f"key {day.key}" in out
    with pytest.raises(CommandError, match=r"refused: url: the league server refused \(401\)") as refused:
        call_command("import_matchday", url, "--user", "staffelleiter", "--token", "guessed")
    assert refused.value.returncode == 1
    # A redirect is not followed (the token would go along); a page that is no server's
    # answer shows nothing of itself.
    elsewhere = live_server.url + reverse("packages:import")
    with pytest.raises(CommandError, match=r"url: the address redirects elsewhere \(302\), and a redirect is not"):
        call_command("import_matchday", elsewhere, "--user", "staffelleiter", "--token", token)
    closed = "http://127.0.0.1:9/league/api/package/"
    with pytest.raises(CommandError, match="no connection") as offline:
        call_command("import_matchday", closed, "--user", "staffelleiter", "--token", token)
    assert offline.value.returncode == 3
    assert MatchDay.objects.count() == 2 and MatchDay.objects.get(pk=day.pk).date == datetime.date(2026, 9, 5)
