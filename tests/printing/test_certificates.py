"""Certificates for the prize-giving: the top places and each category's winner, one page each."""

from __future__ import annotations

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from signoff.confirm import mark_on_paper
from standings.places import standings
from tests.transfer.test_exports import finished_tournament
from tournaments.models import Registration, Table, Tournament

pytestmark = pytest.mark.django_db


def pages(response) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


@pytest.fixture
def played(director):
    t = finished_tournament(players=9, series=1)
    t.directors.add(director)
    return t


def test_the_top_three_and_each_categorys_winner_get_a_page(client, played):
    ranked = standings(played)
    women = played.categories.create(name="Damen")
    # The women's winner: the best of the two put in the category, places 5 and 7 overall.
    fifth, seventh = ranked[4].item, ranked[6].item
    Registration.objects.filter(tournament=played, player_id__in=[fifth.player_id, seventh.player_id]).update(
        category=women
    )
    response = client.get(reverse("director:certificates_pdf", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    texts = pages(response)
    assert len(texts) == 4
    for page, entry in zip(texts[:3], ranked[:3], strict=True):
        assert f"{entry.place}. place" in page and entry.item.name in page
        assert f"with {entry.rating.rating} points" in page
    assert "1. place in the category Damen" in texts[3] and fifth.name in texts[3]
    assert all("Director's signature" in page for page in texts)


def test_in_german_a_certificate_is_an_urkunde(client, played):
    response = client.get(
        reverse("director:certificates_pdf", args=[played.pk]), {"places": "1"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    [page] = pages(response)
    assert "Urkunde" in page and "1. Platz" in page and "Unterschrift der Turnierleitung" in page
    assert "urkunden" in response["Content-Disposition"]


@pytest.mark.parametrize("places", ["0", "101", "x", "-1", "3.5", "", "²", "٣", "9" * 5000])
def test_a_number_of_places_out_of_range_is_named(client, played, places):
    response = client.get(
        reverse("director:certificates_pdf", args=[played.pk]), {"places": places}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "places: a whole number from 1 to 100" in response.content.decode()


def test_the_fee_account_page_offers_them_without_a_prize_table(client, played):
    page = client.get(reverse("director:fee_account", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert reverse("director:certificates_pdf", args=[played.pk]) in page


def test_the_number_of_categories_adds_no_query(played):
    """Each category's winner is found in the same queries for one category as for five."""
    from printing.documents import certificates_pdf

    ranked = standings(played)
    registrations = list(Registration.objects.filter(tournament=played).order_by("pk"))

    def queries_with(count: int) -> int:
        for n in range(played.categories.count(), count):
            category = played.categories.create(name=f"Category {n}")
            Registration.objects.filter(pk=registrations[n].pk).update(category=category)
        with CaptureQueriesContext(connection) as captured:
            certificates_pdf(played, ranked, places=1, out=io.BytesIO())
        return len(captured)

    assert queries_with(1) == queries_with(5)


def test_certificates_on_a_provisional_ranking_say_so_on_every_page(client, director):
    """Series 1 of 2 played: the ranking is not final, so a certificate handed out now may
    have to be taken back; every page says why, as the prize list does."""
    t = finished_tournament(players=9, series=1)
    Tournament.objects.filter(pk=t.pk).update(series_count=2)
    t.directors.add(director)
    response = client.get(
        reverse("director:certificates_pdf", args=[t.pk]), {"places": "2"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    texts = pages(response)
    assert len(texts) == 2 and all("Provisional" in page for page in texts)


def test_certificates_on_a_final_ranking_carry_no_mark(client, director):
    t = finished_tournament(players=9, series=1)
    for table in Table.objects.filter(series__tournament=t):
        mark_on_paper(table, by="test")
    t.directors.add(director)
    response = client.get(
        reverse("director:certificates_pdf", args=[t.pk]), {"places": "1"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    [page] = pages(response)
    assert "Provisional" not in page and "1. place" in page
