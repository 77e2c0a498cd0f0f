"""Signed on paper needs authority: it confirms the sheet for every player with
no PIN, so only the director or a referee marks it (referees:table_paper), never a
holder of the table link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from signoff.models import SignOff

from .helpers import director_of, full_table

pytestmark = pytest.mark.django_db


def test_the_table_link_cannot_mark_the_sheet_signed_on_paper(client):
    table = full_table(3)
    paper = reverse("referees:table_paper", args=[table.series.tournament_id, table.pk])
    # A holder of the table link (he has opened the sheet) posts to the real URL: refused, nothing changes.
    assert client.get(reverse("table:sheet", args=[table.token])).status_code == 200
    response = client.post(paper)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login")), response
    assert not SignOff.objects.exists()
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert "All players signed the printed sheet" not in page
    assert "The director or a referee marks it signed on paper." in page
    assert reverse("referees:table", args=[table.series.tournament_id, table.pk]) not in page
    # The same post by the director marks it: the URL refused above is the live one.
    client.force_login(director_of(table.series.tournament))
    assert client.post(paper, {"signed": "on"}).status_code == 302
    assert SignOff.objects.filter(table=table).exists()


def test_a_director_on_the_table_link_is_sent_to_the_referees_page(client):
    table = full_table(3)
    client.force_login(director_of(table.series.tournament))
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert reverse("referees:table", args=[table.series.tournament_id, table.pk]) in page
