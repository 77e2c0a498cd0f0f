"""The export page and its downloads: the XLSX workbook and one CSV per sheet, for directors only."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from standings.places import standings
from tests import factories
from tests.transfer.test_exports import finished_tournament
from transfer.exports import RANKING_COLUMNS

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(client):
    t = finished_tournament(players=7, series=1)
    director = factories.user()
    t.directors.add(director)
    client.force_login(director)
    return t


def test_the_page_links_every_download(client, tournament):
    page = client.get(reverse("director:export", args=[tournament.pk])).content.decode()
    assert reverse("director:export_xlsx", args=[tournament.pk]) in page
    for sheet in ("ranking", "results", "games", "tournament", "players", "tables"):
        assert reverse("director:export_csv", args=[tournament.pk, sheet]) in page
    assert reverse("director:statistics", args=[tournament.pk]) in page, "the nav links the statistics"


def test_a_preisskat_exports_its_tournament_file_and_a_match_day_the_league_workbook(client, tournament):
    """Named by what it is: no "Ligadatei" for a tournament that is no league's match day."""
    import datetime

    from leagues.models import MatchDay

    url = reverse("director:export", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "Tournament file (XLSX)" in page and "League workbook" not in page
    _league, group, _teams = factories.league_group()
    MatchDay.objects.create(group=group, number=1, date=datetime.date(2026, 9, 5), tournament=tournament)
    page = client.get(url).content.decode()
    assert "League workbook (XLSX)" in page and "Tournament file (XLSX)" not in page
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ligadatei (XLSX)" in german


def test_the_xlsx_download_opens_with_the_standings(client, tournament):
    response = client.get(reverse("director:export_xlsx", args=[tournament.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "attachment" in response["Content-Disposition"] and ".xlsx" in response["Content-Disposition"]
    workbook = load_workbook(io.BytesIO(b"".join(response.streaming_content)), read_only=True)
    rows = list(workbook["Ranking"].iter_rows(values_only=True))
    assert rows[0] == (*RANKING_COLUMNS, "Category")
    assert [(r[0], r[9]) for r in rows[1:]] == [(e.place, e.rating.rating) for e in standings(tournament)]


def test_a_csv_download(client, tournament):
    response = client.get(reverse("director:export_csv", args=[tournament.pk, "games"]))
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeffSeries;Table;Deal;")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert len(rows) - 1 == sum(t.games.count() for t in tournament.series.get().tables.all())
    assert client.get(reverse("director:export_csv", args=[tournament.pk, "nonsense"])).status_code == 404


@pytest.mark.parametrize("name", ["export", "export_xlsx"])
def test_anonymous_and_other_directors_are_refused(client, name):
    t = finished_tournament(players=7, series=1)
    url = reverse(f"director:{name}", args=[t.pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(factories.user())
    assert client.get(url).status_code == 403
    assert client.get(reverse("director:export_csv", args=[t.pk, "ranking"])).status_code == 403
