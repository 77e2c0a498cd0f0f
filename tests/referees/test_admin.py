"""The admin: referees can be assigned there; disputes, corrections and sign-offs are read-only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from referees import corrections
from referees.models import Dispute, RefereeAssignment
from signoff.confirm import SignOffRefused, confirm_seat, mark_on_paper
from signoff.models import SignOff
from tests import factories

from .helpers import full_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(factories.user(superuser=True))
    return client


def test_the_audit_records_are_listed_but_not_editable(admin_client):
    table = full_table(3)
    user = factories.user("ref")
    dispute = Dispute.objects.create(table=table, description="x", raised_by="A")
    correction = corrections.void_game(table.games.get(number=1).pk, expected_version=1, user=user, reason="x")
    signoff = mark_on_paper(table, by="ref")
    for model, obj in (
        ("referees_dispute", dispute),
        ("referees_correction", correction),
        ("signoff_signoff", signoff),
    ):
        assert admin_client.get(reverse(f"admin:{model}_changelist")).status_code == 200
        assert admin_client.get(reverse(f"admin:{model}_add")).status_code == 403
        page = admin_client.get(reverse(f"admin:{model}_change", args=[obj.pk])).content.decode()
        assert 'name="_save"' not in page
        assert admin_client.post(reverse(f"admin:{model}_delete", args=[obj.pk]), {"post": "yes"}).status_code == 403
    assert str(correction) == f"{correction.game} v1->v2" and "Dispute" in str(dispute) and str(signoff)
    assert Dispute.objects.count() == 1 and SignOff.objects.count() == 1


def test_a_referee_is_assigned_in_the_admin_too(admin_client):
    tournament = factories.tournament()
    anna = factories.user("anna")
    response = admin_client.post(
        reverse("admin:referees_refereeassignment_add"), {"tournament": tournament.pk, "user": anna.pk}
    )
    assert response.status_code == 302
    assignment = RefereeAssignment.objects.get()
    assert assignment.assigned_by.is_superuser and str(assignment) == f"anna ({tournament})"


def test_the_service_refuses_a_seat_the_table_does_not_have():
    table = full_table(3)
    with pytest.raises(SignOffRefused) as caught:
        confirm_seat(table, 4, "0000")
    assert "Seat 4 is not at this table" in caught.value.message


def test_the_sign_offs_old_admin_addresses_lead_to_its_new_one(admin_client):
    """An admin bookmark of a sign-off made by an earlier release (under referees or scoring) still arrives."""
    response = admin_client.get("/admin/referees/signoff/5/change/?_changelist_filters=on_paper")
    assert response.status_code == 301
    assert response["Location"] == "/admin/signoff/signoff/5/change/?_changelist_filters=on_paper"
    assert admin_client.get("/admin/referees/signoff/")["Location"] == "/admin/signoff/signoff/"
    assert admin_client.get("/admin/scoring/signoff/3/change/")["Location"] == "/admin/signoff/signoff/3/change/"
    assert admin_client.get("/admin/scoring/listsaccepted/")["Location"] == "/admin/signoff/listsaccepted/"
    assert admin_client.get("/admin/signoff/listsaccepted/").status_code == 200
    assert admin_client.get("/admin/scoring/game/").status_code == 200  # the games stay where they are
