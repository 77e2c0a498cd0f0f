"""A practice tournament is marked on every page and PDF, and never exported or published to a league."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from pypdf import PdfReader

from printing.documents.common import PRACTICE_MARK
from tests import factories
from tournaments.models import Tournament
from tournaments.player_links import player_token

pytestmark = pytest.mark.django_db

BANNER = "A rehearsal: nothing here is a real result"


@pytest.fixture
def evening(client):
    """A drawn series of a practice tournament with published standings, its director logged in."""
    director = factories.user("practising")
    t, series = factories.drawn(players=7, directors=[director], standings_public=True)
    Tournament.objects.filter(pk=t.pk).update(practice=True)
    client.force_login(director)
    return t, series


def test_every_kind_of_page_says_practice(client, evening):
    t, series = evening
    table = series.tables.first()
    pages = [
        reverse("director:detail", args=[t.pk]),
        reverse("director:series", args=[t.pk, 1]),
        reverse("director:standings", args=[t.pk]),
        reverse("table:sheet", args=[table.token]),
        reverse("table:dispute", args=[table.token]),
        reverse("public:standings", args=[t.pk]),
        reverse("public:live", args=[t.pk]),
        reverse("player:page", args=[player_token(t.registrations.first())]),
        reverse("player:lookup", args=[t.pk]),
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        assert BANNER in response.content.decode(), path


def test_a_real_tournament_shows_no_practice_mark_and_no_rehearsal(client):
    director = factories.user("real")
    t, series = factories.drawn(players=7, directors=[director])
    client.force_login(director)
    for path in (reverse("director:detail", args=[t.pk]), reverse("table:sheet", args=[series.tables.first().token])):
        body = client.get(path).content.decode()
        assert BANNER not in body and "Play in background" not in body


def test_every_page_of_a_practice_pdf_is_marked(client, evening):
    t, _series = evening
    whole = ("standings_pdf", "start_list_pdf", "start_cards_pdf", "prizes_pdf")
    series_pdfs = ("series_sheets_pdf", "series_cards_pdf", "series_pin_slips_pdf", "series_settlement_pdf")
    for name in whole + series_pdfs:
        args = [t.pk] if name in whole else [t.pk, 1]
        response = client.get(reverse(f"director:{name}", args=args))
        content = b"".join(response.streaming_content) if response.streaming else response.content
        pages = [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]
        assert pages and all(PRACTICE_MARK in page for page in pages), name
    Tournament.objects.filter(pk=t.pk).update(practice=False)
    real = client.get(reverse("director:series_sheets_pdf", args=[t.pk, 1]))
    real_content = b"".join(real.streaming_content) if real.streaming else real.content
    assert PRACTICE_MARK not in PdfReader(io.BytesIO(real_content)).pages[0].extract_text()


def test_the_league_workbook_and_its_sheets_are_refused(client, evening):
    t, _series = evening
    page = client.get(reverse("director:export", args=[t.pk])).content.decode()
    assert "never exported or published to a league" in page and "Download XLSX" not in page
    for path in (reverse("director:export_xlsx", args=[t.pk]), reverse("director:export_csv", args=[t.pk, "ranking"])):
        response = client.get(path)
        assert response.status_code == 400
        assert "is a practice tournament (a rehearsal); a practice tournament is never exported" in (
            response.content.decode()
        )


def test_the_commands_never_send_or_export_a_practice_tournament_to_a_league(tmp_path, evening):
    t, _series = evening
    with pytest.raises(CommandError, match="practice tournament is never exported or published to a league"):
        call_command("publish_tournament", str(t.pk), "http://127.0.0.1:9/league/api/publish/", token="x")
    target = tmp_path / "out.xlsx"
    with pytest.raises(CommandError, match="practice tournament"):
        call_command("export_tournament", str(t.pk), str(target))
    assert not target.exists()


def test_a_practice_tournament_counts_in_no_ranking(evening):
    from rankings import services
    from rankings.models import Ranking, RankingTournament

    t, _series = evening
    t.refresh_from_db()
    ranking = Ranking.objects.create(name="Jahreswertung")
    with pytest.raises(
        services.RankingRefused, match=r"is a practice tournament \(a rehearsal\): its results count in no ranking"
    ):
        services.add_tournament(ranking, t, None)
    assert not RankingTournament.objects.exists()
