"""Uploading a paper scoresheet for one table on the series page."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db

SHEET = b"Nr;Alleinspieler;Spiel;Spitzen;Augen;Reizwert\n1;Seat1;Kreuz;1;70;24\n2;Seat2;Grand;2;80;\n"


@pytest.fixture
def table(client):
    table = factories.table_of(3, rounds_per_series=1)
    director = factories.user()
    table.series.tournament.directors.add(director)
    client.force_login(director)
    return table


def url(table):
    return reverse("director:sheet_import", args=[table.series.tournament_id, table.series.number, table.number])


def post(client, table, content: bytes, name: str = "sheet.csv"):
    return client.post(url(table), {"file": SimpleUploadedFile(name, content)}, follow=True)


def test_the_tables_page_offers_an_upload_while_the_table_is_empty(client, table):
    table_page = reverse("director:table", args=[table.series.tournament_id, 1, table.number])
    assert url(table) in client.get(table_page).content.decode()
    factories.game(table, 1, passed_out=True)
    assert url(table) not in client.get(table_page).content.decode(), "a table with games takes no import"


def test_a_good_sheet_is_imported(client, table):
    page = post(client, table, SHEET).content.decode()
    assert "Table 1: 2 deals imported" in page
    assert list(table.games.values_list("value", flat=True)) == [24, 72]


def test_an_invalid_row_names_row_column_and_paragraph(client, table):
    page = post(client, table, SHEET + b"3;Seat3;Grand;5;80;\n").content.decode()
    assert "Nothing was imported: 1 problem." in page
    assert "Row 4: tops: 2.4.3:" in page
    assert not Game.objects.exists()


def test_a_bad_file_is_a_message(client, table):
    page = post(client, table, b"\x00\x00\x00", "sheet.csv").content.decode()
    assert "Nothing was imported: The file is not a CSV text file or an XLSX workbook." in page
    page = post(client, table, b"\x00\x00\x00", "sheet.xlsx").content.decode()
    assert "Nothing was imported: The file is not a readable XLSX workbook." in page


def test_an_unknown_table_is_404(client, table):
    response = client.post(
        reverse("director:sheet_import", args=[table.series.tournament_id, 1, 9]),
        {"file": SimpleUploadedFile("s.csv", SHEET)},
    )
    assert response.status_code == 404


def test_anonymous_and_other_directors_are_refused(client):
    table = factories.table_of(3, rounds_per_series=1)
    assert client.post(url(table), {"file": SimpleUploadedFile("s.csv", SHEET)}).status_code == 302
    client.force_login(factories.user())
    assert client.post(url(table), {"file": SimpleUploadedFile("s.csv", SHEET)}).status_code == 403
    assert not Game.objects.exists()
