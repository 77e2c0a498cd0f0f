"""table:dispute — a table calls a referee about its own sheet, and only its own (4.5.10)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from referees import disputes
from referees.models import Dispute

from .helpers import full_table, open_table, referee_of

pytestmark = pytest.mark.django_db


def url(table):
    return reverse("table:dispute", args=[table.token])


def test_the_form_and_the_table_s_disputes(client):
    table = full_table(3)
    page = client.get(url(table)).content.decode()
    assert "call a referee" in page and "4.5.10" in page
    assert (
        reverse("table:dispute", args=[table.token])
        in client.get(reverse("table:sheet", args=[table.token])).content.decode()
    )


def test_a_dispute_about_a_deal_is_recorded_as_open(client):
    table = full_table(3)
    response = client.post(url(table), {"deal": 2, "description": "Seat 3 revoked in trick 4.", "name": "Anna"})
    assert response.status_code == 302
    dispute = Dispute.objects.get()
    assert (dispute.table, dispute.game.number, dispute.status) == (table, 2, "open")
    assert dispute.raised_by == "Anna (table link)" and dispute.raised_by_user is None
    page = client.get(url(table)).content.decode()
    assert "deal 2" in page and "open" in page


def test_a_dispute_about_the_whole_sheet(client):
    table = open_table(3)
    client.post(url(table), {"description": "Wrong seat order.", "name": "Bernd"})
    assert Dispute.objects.get().game is None


def test_a_deal_that_is_not_entered_is_refused(client):
    table = open_table(3)
    response = client.post(url(table), {"deal": 2, "description": "x", "name": "A"})
    assert response.status_code == 422
    assert "Deal 2 is not entered at table 1." in response.content.decode()
    assert not Dispute.objects.exists()


def test_a_link_cannot_raise_a_dispute_for_another_table(client):
    mine, other = full_table(3), full_table(3)
    other_game = other.games.get(number=1)
    # Whatever the post names, the dispute is about the link's own table and its own deal.
    client.post(url(mine), {"table": other.pk, "game": other_game.pk, "deal": 1, "description": "x", "name": "A"})
    dispute = Dispute.objects.get()
    assert dispute.table == mine and dispute.game.table == mine
    assert not Dispute.objects.filter(table=other).exists()


def test_description_and_name_are_required(client):
    response = client.post(url(full_table(3)), {"deal": 1})
    assert response.status_code == 422
    assert response.content.decode().count("This field is required") == 2


def test_an_unknown_token_is_404(client):
    assert client.get(reverse("table:dispute", args=["nope"])).status_code == 404


def test_a_table_link_may_have_only_a_few_open_disputes(client):
    from referees.disputes import MAX_OPEN_FROM_LINK

    table = full_table(3)
    for n in range(MAX_OPEN_FROM_LINK):
        assert client.post(url(table), {"description": f"claim {n}", "name": "Anna"}).status_code == 302
    # A referee's own disputes about the table do not count against the link.
    Dispute.objects.create(
        table=table, description="r", raised_by="ref", raised_by_user=referee_of(table.series.tournament)
    )
    response = client.post(url(table), {"description": "one more", "name": "Anna"})
    assert response.status_code == 422
    assert f"This table already has {MAX_OPEN_FROM_LINK} open disputes; a referee is on the way." in (
        response.content.decode()
    )
    assert Dispute.objects.filter(table=table, raised_by_user=None).count() == MAX_OPEN_FROM_LINK
    # A decided one frees its place.
    disputes.withdraw(
        Dispute.objects.filter(table=table, raised_by_user=None).first(), user=referee_of(table.series.tournament)
    )
    assert client.post(url(table), {"description": "again", "name": "Anna"}).status_code == 302


def test_a_long_claim_is_refused_with_the_limit(client):
    from referees.disputes import MAX_LINK_TEXT

    table = full_table(3)
    response = client.post(url(table), {"description": "x" * (MAX_LINK_TEXT + 1), "name": "Anna"})
    assert response.status_code == 422
    assert f"At most {MAX_LINK_TEXT} characters (this text has {MAX_LINK_TEXT + 1})" in response.content.decode()
    assert not Dispute.objects.exists()
    assert client.post(url(table), {"description": "x" * MAX_LINK_TEXT, "name": "Anna"}).status_code == 302


def test_an_invisible_name_is_refused(client):
    response = client.post(url(full_table(3)), {"description": "x", "name": "\u200b\u202e"})
    assert response.status_code == 422 and "Not a name: " in response.content.decode()
    assert not Dispute.objects.exists()
