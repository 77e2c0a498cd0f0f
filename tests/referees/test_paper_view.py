"""signoff:paper — the scorekeeper marks the sheet signed on paper by every player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import SignOff
from tests import factories

from .helpers import full_table, open_table

pytestmark = pytest.mark.django_db


def test_signed_on_paper_confirms_the_sheet(client):
    table = full_table(3)
    page = client.post(reverse("signoff:paper", args=[table.token]), follow=True).content.decode()
    assert "marked signed on paper; it is final now" in page
    assert "Signed on paper by all players (marked by table link" in page
    signoff = SignOff.objects.get(table=table)
    assert signoff.on_paper and signoff.confirmed_by == "table link"


def test_not_before_the_last_deal(client):
    table = open_table(3)
    factories.game(table, 1, passed_out=True)
    page = client.post(reverse("signoff:paper", args=[table.token]), follow=True).content.decode()
    assert "once its last deal is entered" in page
    assert not SignOff.objects.exists()


def test_not_twice(client):
    table = full_table(3)
    client.post(reverse("signoff:paper", args=[table.token]))
    page = client.post(reverse("signoff:paper", args=[table.token]), follow=True).content.decode()
    assert "5.5.3: this sheet is already confirmed" in page
    assert SignOff.objects.count() == 1


def test_get_is_not_allowed(client):
    assert client.get(reverse("signoff:paper", args=[full_table(3).token])).status_code == 405
