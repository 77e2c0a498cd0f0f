"""Uploading a player list on the players page: a summary, or every bad row and nothing written."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from office.demo import PLAYERS_CSV
from tests import factories
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(client):
    t = factories.tournament()
    director = factories.user()
    t.directors.add(director)
    client.force_login(director)
    return t


def post(client, t, content: bytes, name: str = "players.csv"):
    url = reverse("director:players_import", args=[t.pk])
    return client.post(url, {"file": SimpleUploadedFile(name, content)}, follow=True)


def test_the_players_page_offers_the_upload(client, tournament):
    page = client.get(reverse("director:players", args=[tournament.pk])).content.decode()
    assert reverse("director:players_import", args=[tournament.pk]) in page
    assert 'enctype="multipart/form-data"' in page


def test_the_demo_list_registers_everyone(client, tournament):
    response = post(client, tournament, PLAYERS_CSV.read_bytes())
    assert "24 players registered (24 new, 0 already known by membership number)." in response.content.decode()
    assert Registration.objects.filter(tournament=tournament).count() == 24


def test_bad_rows_are_listed_and_nothing_is_registered(client, tournament):
    response = post(client, tournament, b"Name;Mitgliedsnummer\nAnna;1\n;2\nBernd;1\n")
    page = response.content.decode()
    assert "Nothing was imported: 2 problems." in page
    assert "Row 3: Name: empty" in page and "Row 4: membership number 1: already in row 2" in page
    assert "Or tick “import the valid rows, skip the others” and upload it again: 1 row is valid." in page
    assert not Registration.objects.exists()


def test_the_valid_rows_are_imported_and_the_others_listed_when_ticked(client, tournament):
    """Two bad rows cost themselves only, not the whole list."""
    response = client.post(
        reverse("director:players_import", args=[tournament.pk]),
        {
            "file": SimpleUploadedFile("p.csv", b"Name;Mitgliedsnummer\nAnna;1\n;2\nBernd;1\nCarl;3\n"),
            "skip_bad_rows": "1",
        },
        follow=True,
    )
    page = response.content.decode()
    assert "2 players registered (2 new" in page
    assert "2 rows were skipped; correct them and import them alone:" in page
    assert "Row 3: Name: empty" in page and "Row 4: membership number 1: already in row 2" in page
    assert sorted(Registration.objects.values_list("player__name", flat=True)) == ["Anna", "Carl"]


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"", "p.csv", "The file is empty."),
        (b"%PDF-1.7 binary \x00\x00", "p.pdf", "not a CSV text file"),
        (b"PK\x03\x04garbage", "p.xlsx", "not a readable XLSX"),
        (b"club;nation\nA;DE\n", "p.csv", "Missing columns: Name"),
        (b"\xd0\xcf\x11\xe0", "p.xls", "Old Excel files"),
        (b"\x81\x8d\x8f\x90\x9d", "p.csv", "neither UTF-8 nor Windows-1252"),
    ],
)
def test_bad_files_give_a_message_never_a_500(client, tournament, content, name, message):
    response = post(client, tournament, content, name)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Registration.objects.exists()


def test_no_file(client, tournament):
    response = client.post(reverse("director:players_import", args=[tournament.pk]), follow=True)
    assert "Choose a CSV or XLSX file" in response.content.decode()


def test_anonymous_and_other_directors_are_refused(client):
    t = factories.tournament()
    url = reverse("director:players_import", args=[t.pk])
    upload = {"file": SimpleUploadedFile("p.csv", b"name\nX\n")}
    assert client.post(url, upload).status_code == 302
    client.force_login(factories.user())
    assert client.post(url, {"file": SimpleUploadedFile("p.csv", b"name\nX\n")}).status_code == 403
    assert not Registration.objects.exists()


def test_one_problem_and_one_player_are_counted_in_the_singular(client, tournament):
    page = post(client, tournament, b"name;club\n;SC Nord\n").content.decode()
    assert "Nothing was imported: 1 problem. Correct" in page
    page = post(client, tournament, b"name;club\nAnna Schulz;SC Nord\n").content.decode()
    assert "1 player registered (1 new, 0 already known by membership number)." in page


def test_an_extra_column_is_named_in_the_summary_not_a_reason_to_refuse(client, tournament):
    response = post(client, tournament, b"Name;Vorname;Geburtsjahr;Telefon\nBerg;Anna;1961;0431\n")
    page = response.content.decode()
    assert "1 player registered" in page
    assert "Columns not read (the office does not know them): Telefon." in page
    assert Registration.objects.get(tournament=tournament).player.birth_year == 1961


def test_an_age_category_is_added_with_its_rule(client, tournament):
    url = reverse("director:category_add", args=[tournament.pk])
    response = client.post(url, {"name": "Senioren", "age_from": "60", "age_under": ""}, follow=True)
    assert "Senioren ≥ 60" in response.content.decode()
    refused = client.post(url, {"name": "Leer", "age_from": "60", "age_under": "21"})
    assert refused.status_code == 422 and "must be below" in refused.content.decode()
    assert list(tournament.categories.values_list("name", "age_from")) == [("Senioren", 60)]
