"""director:directors and director:director_remove — a director lets a second
director or a helper at the desk in by user name, and takes one out; the tournament
always keeps one director."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from referees.models import RefereeAssignment
from tests import factories

pytestmark = pytest.mark.django_db

STRONG = "Herz-Dame-1970"


@pytest.fixture
def tournament(client, director):
    return factories.tournament(directors=[director])


def directors_of(tournament) -> list[str]:
    return sorted(tournament.directors.values_list("username", flat=True))


def page(tournament) -> str:
    return reverse("director:directors", args=[tournament.pk])


def remove(tournament, user) -> str:
    return reverse("director:director_remove", args=[tournament.pk, user.pk])


def test_the_dashboard_links_to_the_directors_page(client, tournament):
    dashboard = client.get(reverse("director:detail", args=[tournament.pk])).content.decode()
    assert f'href="{page(tournament)}"' in dashboard


def test_the_page_lists_the_directors_and_marks_you(client, tournament):
    tournament.directors.add(factories.user("anna"))
    response = client.get(page(tournament))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'data-director="anna"' in body and 'data-director="director"' in body and "(you)" in body


def test_an_existing_account_is_named_director(client, tournament):
    anna = factories.user("anna")
    response = client.post(page(tournament), {"username": "anna"}, follow=True)
    assert "anna directs this tournament now." in response.content.decode()
    assert "The account was created" not in response.content.decode()
    assert directors_of(tournament) == ["anna", "director"]
    client.force_login(anna)
    assert client.get(reverse("director:detail", args=[tournament.pk])).status_code == 200


def test_a_new_director_gets_an_account_made_here(client, tournament):
    response = client.post(page(tournament), {"username": "helper", "password": STRONG}, follow=True)
    body = response.content.decode()
    assert "helper directs this tournament now." in body and "The account was created" in body
    helper = get_user_model().objects.get(username="helper")
    assert helper.check_password(STRONG) and not helper.is_staff and not helper.is_superuser
    assert directors_of(tournament) == ["director", "helper"]
    assert client.login(username="helper", password=STRONG)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "helper", "password": "1234"}, "This password is too short"),
        ({"username": "helper", "password": "password123"}, "This password is too common"),
        ({"username": "helper", "password": "helper"}, "The password is too similar to the username"),
        ({"username": "helper"}, "There is no user helper yet: give a password and the office creates the account."),
        ({"username": "anna", "password": STRONG}, "anna has an account already; leave the password empty."),
        ({"username": "no body!"}, "Enter a valid username."),
        ({"username": ""}, "This field is required."),
    ],
)
def test_a_weak_password_an_unknown_user_or_a_password_for_an_account_is_refused(client, tournament, data, message):
    factories.user("anna")
    users = get_user_model().objects.count()
    response = client.post(page(tournament), data)
    assert response.status_code == 422 and message in response.content.decode()
    assert directors_of(tournament) == ["director"] and get_user_model().objects.count() == users


def test_a_disabled_account_is_refused(client, tournament):
    factories.user("anna", is_active=False)
    response = client.post(page(tournament), {"username": "anna"})
    assert response.status_code == 422 and "The account anna is disabled." in response.content.decode()
    assert directors_of(tournament) == ["director"]


def test_a_director_is_not_named_twice(client, tournament):
    response = client.post(page(tournament), {"username": "director"})
    assert response.status_code == 422 and "director directs this tournament already." in response.content.decode()
    assert directors_of(tournament) == ["director"]


def test_a_twin_post_that_made_the_account_first_is_a_message_not_a_500(client, tournament, monkeypatch):
    """Between the form's checks and its save another request creates the same account."""
    from tournaments.forms import DirectorForm

    checked = DirectorForm.clean

    def clean_then_twin(self):
        data = checked(self)
        get_user_model().objects.create_user("helper", password=STRONG)  # the twin's account
        return data

    monkeypatch.setattr(DirectorForm, "clean", clean_then_twin)
    response = client.post(page(tournament), {"username": "helper", "password": STRONG})
    assert response.status_code == 422
    assert "helper was just made or assigned from another request" in response.content.decode()
    assert directors_of(tournament) == ["director"]


def test_removing_another_director(client, tournament):
    anna = factories.user("anna")
    tournament.directors.add(anna)
    response = client.post(remove(tournament, anna), follow=True)
    assert response.redirect_chain[-1][0] == page(tournament)
    assert "anna no longer directs this tournament." in response.content.decode()
    assert directors_of(tournament) == ["director"]


def test_the_last_director_cannot_be_removed(client, tournament, director):
    body = client.get(page(tournament)).content.decode()
    assert "the last director stays" in body and remove(tournament, director) not in body
    response = client.post(remove(tournament, director), follow=True)
    assert "Directors: director is the last director of this tournament, and a tournament always keeps one." in (
        response.content.decode()
    )
    assert directors_of(tournament) == ["director"]


def test_removing_yourself_leaves_the_others_and_takes_you_to_the_front_page(client, tournament, director):
    tournament.directors.add(factories.user("anna"))
    response = client.post(remove(tournament, director))
    assert response.status_code == 302 and response.url == reverse("director:home")
    assert directors_of(tournament) == ["anna"]
    assert client.get(page(tournament)).status_code == 403


def test_removing_yourself_asks_first(client, tournament, director):
    tournament.directors.add(factories.user("anna"))
    body = client.get(page(tournament)).content.decode()
    assert body.count("data-confirm=") == 1 and "Remove yourself?" in body


def test_a_superuser_who_is_no_director_stays_on_the_page(client, tournament):
    anna = factories.user("anna")
    tournament.directors.add(anna)
    client.force_login(factories.user("root", superuser=True))
    assert client.post(remove(tournament, anna)).url == page(tournament)


def test_a_user_who_is_not_a_director_of_the_tournament_is_404_on_removal(client, tournament):
    stranger = factories.user("stranger")
    factories.tournament(directors=[stranger])
    assert client.post(remove(tournament, stranger)).status_code == 404
    assert client.get(remove(tournament, factories.user("anna"))).status_code == 405


@pytest.mark.parametrize("who", ["a referee", "another tournament's director", "a plain user"])
def test_only_a_director_may_name_or_remove_directors(client, tournament, director, who):
    if who == "a referee":
        user = factories.user("referee")
        RefereeAssignment.objects.create(tournament=tournament, user=user)
    elif who == "another tournament's director":
        user = factories.user("other")
        factories.tournament(directors=[user])
    else:
        user = factories.user("plain")
    factories.user("anna")
    tournament.directors.add(factories.user("bernd"))
    client.force_login(user)
    assert client.get(page(tournament)).status_code == 403
    assert client.post(page(tournament), {"username": "anna"}).status_code == 403
    assert client.post(page(tournament), {"username": user.username}).status_code == 403
    assert client.post(remove(tournament, director)).status_code == 403
    assert directors_of(tournament) == ["bernd", "director"]


def test_the_list_is_a_fixed_number_of_queries(client, tournament, django_assert_max_num_queries):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(page(tournament)).status_code == 200
        return len(captured)

    tournament.directors.add(factories.user("anna"))
    two = queries()
    tournament.directors.add(*(factories.user(f"helper{n}") for n in range(6)))
    with django_assert_max_num_queries(two):
        client.get(page(tournament))
    assert queries() == two
