"""referees:assign and referees:unassign — the director names the tournament's referees."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from referees.models import RefereeAssignment
from tests import factories

from .helpers import director_of, referee_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(client):
    t = factories.tournament()
    client.force_login(director_of(t, "boss"))
    return t


def test_the_director_assigns_a_referee_by_user_name(client, tournament):
    factories.user("anna")
    response = client.post(reverse("referees:assign", args=[tournament.pk]), {"username": "anna"}, follow=True)
    assert "anna referees this tournament now." in response.content.decode()
    assignment = RefereeAssignment.objects.get()
    assert (assignment.user.username, assignment.assigned_by.username) == ("anna", "boss")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nobody", "There is no user nobody yet: give a password and the office creates the account."),
        ("anna", "anna already referees"),
        ("no body!", "Enter a valid username."),
    ],
)
def test_unknown_or_twice_is_refused(client, tournament, name, message):
    referee_of(tournament, "anna")
    response = client.post(reverse("referees:assign", args=[tournament.pk]), {"username": name})
    assert response.status_code == 422 and message in response.content.decode()
    assert RefereeAssignment.objects.count() == 1


def test_removing_a_referee(client, tournament):
    referee_of(tournament, "anna")
    assignment = RefereeAssignment.objects.get()
    response = client.post(reverse("referees:unassign", args=[tournament.pk, assignment.pk]), follow=True)
    assert "anna no longer referees this tournament." in response.content.decode()
    assert not RefereeAssignment.objects.exists()


def test_a_referee_may_not_assign(client, tournament):
    client.force_login(referee_of(tournament, "anna"))
    factories.user("bernd")
    assert client.post(reverse("referees:assign", args=[tournament.pk]), {"username": "bernd"}).status_code == 403
    assignment = RefereeAssignment.objects.get()
    assert client.post(reverse("referees:unassign", args=[tournament.pk, assignment.pk])).status_code == 403
    assert RefereeAssignment.objects.count() == 1


def test_an_assignment_of_another_tournament_is_404(client, tournament):
    other = factories.tournament()
    referee_of(other, "anna")
    assignment = RefereeAssignment.objects.get()
    assert client.post(reverse("referees:unassign", args=[tournament.pk, assignment.pk])).status_code == 404


def test_a_new_referee_gets_an_account_made_here(client, tournament):
    url = reverse("referees:assign", args=[tournament.pk])
    response = client.post(url, {"username": "schiri", "password": "Herz-Dame-1970"}, follow=True)
    page = response.content.decode()
    assert "schiri referees this tournament now." in page and "The account was created" in page
    user = RefereeAssignment.objects.get().user
    assert user.username == "schiri" and user.check_password("Herz-Dame-1970") and not user.is_staff
    assert client.login(username="schiri", password="Herz-Dame-1970")


@pytest.mark.parametrize(
    ("data", "field_message"),
    [
        ({"username": "schiri", "password": "1234"}, "This password is too short"),
        ({"username": "schiri", "password": "password123"}, "This password is too common"),
        ({"username": "anna", "password": "Herz-Dame-1970"}, "anna has an account already; leave the password empty."),
    ],
)
def test_a_weak_password_or_a_password_for_an_existing_account_is_refused(client, tournament, data, field_message):
    factories.user("anna")
    users = get_user_model().objects.count()
    response = client.post(reverse("referees:assign", args=[tournament.pk]), data)
    assert response.status_code == 422 and field_message in response.content.decode()
    assert not RefereeAssignment.objects.exists() and get_user_model().objects.count() == users


def test_a_disabled_account_is_not_assigned(client, tournament):
    user = factories.user("anna")
    user.is_active = False
    user.save()
    response = client.post(reverse("referees:assign", args=[tournament.pk]), {"username": "anna"})
    assert response.status_code == 422 and "The account anna is disabled." in response.content.decode()


def test_a_twin_post_that_made_the_account_first_is_a_message_not_a_500(client, tournament, monkeypatch):
    """Between the form's checks and its save another request creates the same account."""
    from referees.forms import AssignForm

    checked = AssignForm.clean

    def clean_then_twin(self):
        data = checked(self)
        get_user_model().objects.create_user("schiri", password="Herz-Dame-1970")  # the twin's account
        return data

    monkeypatch.setattr(AssignForm, "clean", clean_then_twin)
    response = client.post(
        reverse("referees:assign", args=[tournament.pk]), {"username": "schiri", "password": "Herz-Dame-1970"}
    )
    assert response.status_code == 422
    assert "schiri was just made or assigned from another request" in response.content.decode()
    assert not RefereeAssignment.objects.exists()
