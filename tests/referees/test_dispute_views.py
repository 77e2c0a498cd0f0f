"""referees:dispute_new, referees:dispute, referees:decide, referees:withdraw — a dispute's life.

(One file for the dispute pages: they are one lifecycle, raised, then decided or withdrawn.)
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from referees.models import Dispute

from .helpers import full_table, referee_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client):
    table = full_table(3)
    tournament = table.series.tournament
    client.force_login(referee_of(tournament, "ref"))
    return tournament, table


def test_a_referee_records_a_dispute_about_a_deal(client, setup):
    """Opened from the table's page, the form names that table as at the table: series and number."""
    tournament, table = setup
    table_page = client.get(reverse("referees:table", args=[tournament.pk, table.pk])).content.decode()
    link = reverse("referees:dispute_new", args=[tournament.pk]) + "?series=1&amp;table=1"
    assert f'href="{link}"' in table_page
    page = client.get(reverse("referees:dispute_new", args=[tournament.pk]) + "?series=1&table=1").content.decode()
    assert '<option value="1" selected>Series 1</option>' in page and 'name="table" value="1"' in page
    response = client.post(
        reverse("referees:dispute_new", args=[tournament.pk]),
        {"series": 1, "table": table.number, "deal": 2, "description": "Claim of a revoke."},
    )
    dispute = Dispute.objects.get()
    assert response.url == reverse("referees:dispute", args=[tournament.pk, dispute.pk])
    assert (dispute.game.number, dispute.raised_by, dispute.raised_by_user.username) == (2, "ref", "ref")


def test_a_table_the_tournament_does_not_have_is_refused_by_name(client, setup):
    """The table is named as at the table, by series and number: another tournament's
    tables are not this one's, and a number the series has not drawn is named."""
    tournament, _table = setup
    other = full_table(3)
    other.number = 2  # another tournament's series 1, table 2: not reachable from here
    other.save(update_fields=["number"])
    new = reverse("referees:dispute_new", args=[tournament.pk])
    response = client.post(new, {"series": 1, "table": 2, "description": "x"})
    assert response.status_code == 422 and "Series 1 has no table 2." in response.content.decode()
    response = client.post(new, {"series": 2, "table": 1, "description": "x"})
    assert response.status_code == 422 and "Select a valid choice" in response.content.decode()
    response = client.post(new, {"series": 1, "table": 1, "deal": 9, "description": "x"})
    assert response.status_code == 422 and "Deal 9 is not entered at table 1." in response.content.decode()
    assert not Dispute.objects.exists()


def test_decided_with_a_paragraph_and_its_effect(client, setup):
    tournament, table = setup
    dispute = Dispute.objects.create(table=table, game=table.games.get(number=2), description="x", raised_by="A")
    page = client.get(reverse("referees:dispute", args=[tournament.pk, dispute.pk])).content.decode()
    assert '<optgroup label="4.1 The lead">' in page and "4.1.4 If anyone leads out of turn" in page
    response = client.post(
        reverse("referees:decide", args=[tournament.pk, dispute.pk]),
        {"paragraph": "4.2.5", "effect": "stands", "decision": "The cards were gathered; no revoke can be claimed."},
        follow=True,
    )
    page = response.content.decode()
    assert "Decision recorded (4.2.5)." in page and "4.2.5 (Following suit)" in page
    dispute.refresh_from_db()
    assert (dispute.status, dispute.paragraph, dispute.effect) == ("decided", "4.2.5", "stands")
    assert dispute.decided_by.username == "ref" and dispute.decided_at is not None
    # A decided dispute is not decided again.
    client.post(
        reverse("referees:decide", args=[tournament.pk, dispute.pk]),
        {"paragraph": "4.1.4", "effect": "stands", "decision": "other"},
    )
    dispute.refresh_from_db()
    assert dispute.paragraph == "4.2.5"


def test_a_decision_needs_a_paragraph_of_sections_3_to_5_and_a_text(client, setup):
    tournament, table = setup
    dispute = Dispute.objects.create(table=table, description="x", raised_by="A")
    for data in (
        {"paragraph": "7.2.5", "effect": "stands", "decision": "x"},
        {"paragraph": "", "effect": "stands", "decision": "x"},
        {"paragraph": "4.1.4", "effect": "stands", "decision": ""},
        {"paragraph": "4.1.4", "effect": "nonsense", "decision": "x"},
    ):
        response = client.post(reverse("referees:decide", args=[tournament.pk, dispute.pk]), data)
        assert response.status_code == 422, data
    dispute.refresh_from_db()
    assert dispute.status == "open"


def test_the_effect_corrected_needs_the_correction_first(client, setup):
    tournament, table = setup
    game = table.games.get(number=1)
    dispute = Dispute.objects.create(table=table, game=game, description="revoke", raised_by="A")
    decide = {"paragraph": "4.2.3", "effect": "corrected", "decision": "Revoke by the declarer: lost, simple."}
    response = client.post(reverse("referees:decide", args=[tournament.pk, dispute.pk]), decide)
    assert response.status_code == 422
    assert "Record the correction first" in response.content.decode()
    client.post(
        reverse("referees:correct", args=[tournament.pk, game.pk]),
        {
            "number": 1,
            "version": 1,
            "declarer_seat": 1,
            "contract": "grand",
            "tops": 1,
            "tops_kind": "with",
            "irregularity": "declarer",
            "reason": "4.2.3 revoke",
            "dispute": dispute.pk,
            "paragraph": "4.2.3",
        },
    )
    # The correction was the decision: the dispute closed with it, citing 4.2.3.
    dispute.refresh_from_db()
    assert (dispute.status, dispute.paragraph, dispute.effect, dispute.decision) == (
        "decided",
        "4.2.3",
        "corrected",
        "4.2.3 revoke",
    )
    response = client.get(reverse("referees:dispute", args=[tournament.pk, dispute.pk]))
    page = response.content.decode()
    assert "a game was corrected" in page
    assert "+48 → -96" in page  # the correction is listed with the dispute
    dispute.refresh_from_db()
    assert dispute.status == "decided" and dispute.corrections.count() == 1


def test_withdrawn(client, setup):
    tournament, table = setup
    dispute = Dispute.objects.create(table=table, description="x", raised_by="A")
    response = client.post(
        reverse("referees:withdraw", args=[tournament.pk, dispute.pk]), {"note": "Resolved at the table."}, follow=True
    )
    assert "The dispute is withdrawn." in response.content.decode()
    dispute.refresh_from_db()
    assert dispute.status == "withdrawn" and dispute.decision == "Resolved at the table."
    response = client.post(reverse("referees:withdraw", args=[tournament.pk, dispute.pk]), {}, follow=True)
    assert "already closed" in response.content.decode()
    response = client.post(
        reverse("referees:decide", args=[tournament.pk, dispute.pk]),
        {"paragraph": "4.1.4", "effect": "stands", "decision": "x"},
        follow=True,
    )
    assert "already closed" in response.content.decode()


def test_a_dispute_of_another_tournament_is_404(client, setup):
    tournament, _table = setup
    other = full_table(3)
    dispute = Dispute.objects.create(table=other, description="x", raised_by="A")
    for name in ("referees:dispute", "referees:decide", "referees:withdraw"):
        response = (
            client.post(reverse(name, args=[tournament.pk, dispute.pk]))
            if name != "referees:dispute"
            else (client.get(reverse(name, args=[tournament.pk, dispute.pk])))
        )
        assert response.status_code == 404, name


def test_the_dispute_pages_button_opens_the_correction_settling_it(client, setup):
    """The button "Correct or void deal 1" preselects "settles dispute" in both forms,
    as the small deal number link did."""
    import re

    tournament, table = setup
    game = table.games.get(number=1)
    dispute = Dispute.objects.create(table=table, game=game, description="revoke", raised_by="A")
    page = client.get(reverse("referees:dispute", args=[tournament.pk, dispute.pk])).content.decode()
    button = re.search(r'<a class="button secondary" href="([^"]+)">Correct or void deal 1</a>', page)
    assert button and button.group(1) == reverse("referees:correct", args=[tournament.pk, game.pk]) + (
        f"?dispute={dispute.pk}"
    )
    correct = client.get(button.group(1)).content.decode()
    assert correct.count(f'<option value="{dispute.pk}" selected>') == 2, "the correction and the void"
