"""referees:table and referees:table_paper — one table's sheet for the referee."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from referees import corrections
from referees.models import Dispute
from signoff.models import SignOff
from signoff.pins import seat_pin
from tests import factories

from .helpers import full_table, open_table, referee_of

pytestmark = pytest.mark.django_db


def test_the_sheet_with_sign_off_disputes_and_correct_links(client):
    table = full_table(3)
    tournament = table.series.tournament
    referee = referee_of(tournament)
    game = table.games.get(number=1)
    corrections.void_game(game.pk, expected_version=1, user=referee, reason="x")
    # Confirmed after the void: a confirmation holds for the sheet as it stood.
    client.post(reverse("table:confirm", args=[table.token]), {"seat": 2, "pin": seat_pin(table, 2)})
    Dispute.objects.create(table=table, description="claim about seating", raised_by="A")
    client.force_login(referee)
    page = client.get(reverse("referees:table", args=[tournament.pk, table.pk])).content.decode()
    # Each name says where it stands, no dangling "Seat1 ·,".
    assert "Awaiting confirmation" in page and "✓ Seat2 confirmed" in page and "Seat1 not yet," in page
    assert " ·," not in page
    assert "claim about seating" in page
    assert reverse("referees:correct", args=[tournament.pk, game.pk]) in page
    assert "(changes: 1)" in page and 'class=" void"' in page
    assert reverse("table:correct", args=[table.token]) not in page  # the referee corrects any deal, here


def test_the_referee_marks_the_sheet_signed_on_paper(client):
    table = full_table(3)
    tournament = table.series.tournament
    client.force_login(referee_of(tournament, "ref"))
    paper = reverse("referees:table_paper", args=[tournament.pk, table.pk])
    page = client.get(reverse("referees:table", args=[tournament.pk, table.pk])).content.decode()
    assert 'name="signed" required' in page
    # Not ticked: asked for, nothing marked.
    response = client.post(paper, follow=True)
    assert "Signatures: tick that every player signed the printed sheet" in response.content.decode()
    assert not SignOff.objects.filter(table=table).exists()
    response = client.post(paper, {"signed": "on"}, follow=True)
    assert "signed on paper (marked by ref)" in response.content.decode()
    assert SignOff.objects.get(table=table).on_paper


def test_paper_before_the_last_deal_is_refused(client):
    table = open_table(3)
    tournament = table.series.tournament
    client.force_login(referee_of(tournament))
    response = client.post(
        reverse("referees:table_paper", args=[tournament.pk, table.pk]), {"signed": "on"}, follow=True
    )
    assert "once its last deal is entered (0 of 3)" in response.content.decode()
    assert not SignOff.objects.exists()


def test_a_table_of_another_tournament_is_404(client):
    table, other = full_table(3), full_table(3)
    tournament = table.series.tournament
    client.force_login(referee_of(tournament))
    assert client.get(reverse("referees:table", args=[tournament.pk, other.pk])).status_code == 404
    assert client.post(reverse("referees:table_paper", args=[tournament.pk, other.pk])).status_code == 404
    assert not SignOff.objects.exists()


def test_the_referee_reads_each_game_as_the_table_link_writes_it(client):
    """Was: "Hearts without 2 hand schneider = 60" where the table link said "schneider announced"."""
    table = open_table(3)
    tournament = table.series.tournament
    hearts = {"contract": "hearts", "tops_kind": "without", "tops": 2, "hand": True, "declarer_points": 95}
    factories.game(table, 1, declarer_seat=1, schneider_announced=True, **hearts)
    factories.game(
        table, 2, declarer_seat=2, contract="hearts", tops=1, hand=True, schwarz_announced=True, declarer_points=100
    )
    client.force_login(referee_of(tournament))
    page = client.get(reverse("referees:table", args=[tournament.pk, table.pk])).content.decode()
    link = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    for text in (
        'Hearts without 2 hand schneider announced <span class="muted">= 60</span>',
        'Hearts with 1 hand schneider schwarz announced <span class="muted">= 70</span>',
    ):
        assert text in page and text in link
    correct = client.get(reverse("referees:correct", args=[tournament.pk, table.games.get(number=1).pk]))
    assert (
        'Seat1 · Hearts without 2 hand schneider announced <span class="muted">= 60</span>' in correct.content.decode()
    )


def test_the_referee_sees_what_another_device_sent_before_deciding(client):
    """Two phones on the sheet's link sent deal 2 with other values: the referee's page
    names the deal and shows both entries (the second list's link holds nothing of it)."""
    table = open_table(3)
    factories.game(table, 1, declarer_seat=2, contract="hearts", tops=2, declarer_points=50)
    data = {"number": 1, "client_id": str(uuid.uuid4()), "tops_kind": "with"}
    data |= {"declarer_seat": 2, "contract": "hearts", "tops": 2, "declarer_points": 70}
    assert client.post(reverse("table:sheet", args=[table.token]), data).status_code == 409
    tournament = table.series.tournament
    client.force_login(referee_of(tournament))
    page = client.get(reverse("referees:table", args=[tournament.pk, table.pk])).content.decode()
    assert "Another device sent other values for 1 deal" in page
    assert "declarer&#x27;s card points 50 / 70" in page
