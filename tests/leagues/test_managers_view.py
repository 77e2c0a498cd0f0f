"""leagues:managers and leagues:manager_remove — a league manager names a co-manager by
user name (who then directs the league's match days too) and takes one out; the league
always keeps one league manager."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.lineups import create_match_day
from tests import factories

pytestmark = pytest.mark.django_db

STRONG = "Herz-Dame-1970"


@pytest.fixture
def boss(client):
    user = factories.user("boss")
    client.force_login(user)
    return user


@pytest.fixture
def league(boss):
    """A league managed by ``boss`` with match day 1 set up."""
    league, group, teams = factories.league_group(teams=2, roster=4, managers=[boss])
    create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams)
    return league


def managers_of(league) -> list[str]:
    return sorted(league.managers.values_list("username", flat=True))


def match_day_tournament(league):
    return league.groups.get().match_days.get(number=1).tournament


def page(league) -> str:
    return reverse("leagues:managers", args=[league.pk])


def remove(league, user) -> str:
    return reverse("leagues:manager_remove", args=[league.pk, user.pk])


def test_the_league_page_links_to_the_managers_page(client, league):
    body = client.get(reverse("leagues:league", args=[league.pk])).content.decode()
    assert f'href="{page(league)}"' in body


def test_the_page_lists_the_league_managers_and_marks_you(client, league):
    league.managers.add(factories.user("anna"))
    response = client.get(page(league))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'data-manager="anna"' in body and 'data-manager="boss"' in body and "(you)" in body


def test_a_manager_named_directs_the_existing_match_days(client, league):
    anna = factories.user("anna")
    response = client.post(page(league), {"username": "anna"}, follow=True)
    assert "anna is a league manager now, and directs the league&#x27;s 1 match day." in response.content.decode()
    assert managers_of(league) == ["anna", "boss"]
    day = match_day_tournament(league)
    assert day.is_director(anna)
    client.force_login(anna)
    assert client.get(reverse("leagues:league", args=[league.pk])).status_code == 200
    assert client.get(reverse("director:detail", args=[day.pk])).status_code == 200


def test_a_new_league_manager_gets_an_account_made_here(client, league):
    response = client.post(page(league), {"username": "staffel", "password": STRONG}, follow=True)
    body = response.content.decode()
    assert "staffel is a league manager now" in body and "The account was created" in body
    user = get_user_model().objects.get(username="staffel")
    assert user.check_password(STRONG) and not user.is_staff and not user.is_superuser
    assert match_day_tournament(league).is_director(user)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "staffel", "password": "1234"}, "This password is too short"),
        ({"username": "staffel", "password": "password123"}, "This password is too common"),
        ({"username": "staffel"}, "There is no user staffel yet: give a password and the office creates the account."),
        ({"username": "anna", "password": STRONG}, "anna has an account already; leave the password empty."),
        ({"username": "no body!"}, "Enter a valid username."),
        ({"username": "boss"}, "boss is a league manager of this league already."),
    ],
)
def test_a_weak_password_an_unknown_user_or_a_manager_twice_is_refused(client, league, data, message):
    factories.user("anna")
    users = get_user_model().objects.count()
    response = client.post(page(league), data)
    assert response.status_code == 422 and message in response.content.decode()
    assert managers_of(league) == ["boss"] and get_user_model().objects.count() == users
    assert list(match_day_tournament(league).directors.values_list("username", flat=True)) == ["boss"]


def test_a_disabled_account_is_refused(client, league):
    factories.user("anna", is_active=False)
    response = client.post(page(league), {"username": "anna"})
    assert response.status_code == 422 and "The account anna is disabled." in response.content.decode()
    assert managers_of(league) == ["boss"]


def test_a_twin_post_that_made_the_account_first_is_a_message_not_a_500(client, league, monkeypatch):
    from leagues.setup_forms import ManagerForm

    checked = ManagerForm.clean

    def clean_then_twin(self):
        data = checked(self)
        get_user_model().objects.create_user("staffel", password=STRONG)  # the twin's account
        return data

    monkeypatch.setattr(ManagerForm, "clean", clean_then_twin)
    response = client.post(page(league), {"username": "staffel", "password": STRONG})
    assert response.status_code == 422
    assert "staffel was just made or assigned from another request" in response.content.decode()
    assert managers_of(league) == ["boss"]


def test_a_manager_taken_out_no_longer_directs_the_match_days(client, league):
    anna = factories.user("anna")
    client.post(page(league), {"username": "anna"})
    response = client.post(remove(league, anna), follow=True)
    assert response.redirect_chain[-1][0] == page(league)
    assert "anna is no longer a league manager of this league, nor director of its match days." in (
        response.content.decode()
    )
    assert managers_of(league) == ["boss"] and not match_day_tournament(league).is_director(anna)


def test_the_last_league_manager_cannot_be_removed(client, league, boss):
    body = client.get(page(league)).content.decode()
    assert "the last league manager stays" in body and remove(league, boss) not in body
    response = client.post(remove(league, boss), follow=True)
    assert "league managers: boss is the last league manager of this league, and a league always keeps one" in (
        response.content.decode()
    )
    assert managers_of(league) == ["boss"] and match_day_tournament(league).is_director(boss)


def test_removing_yourself_leaves_the_others_and_takes_you_to_the_front_page(client, league, boss):
    factories.user("anna")
    client.post(page(league), {"username": "anna"})
    response = client.post(remove(league, boss))
    assert response.status_code == 302 and response.url == reverse("director:home")
    assert managers_of(league) == ["anna"]
    assert client.get(page(league)).status_code == 403
    assert client.get(reverse("director:detail", args=[match_day_tournament(league).pk])).status_code == 403


def test_a_user_who_is_not_a_manager_of_the_league_is_404_on_removal(client, league):
    stranger = factories.user("stranger")
    factories.league_group(teams=0, managers=[stranger])
    assert client.post(remove(league, stranger)).status_code == 404
    assert client.get(remove(league, stranger)).status_code == 405


@pytest.mark.parametrize("who", ["another league's manager", "a director of a match day only", "a plain user"])
def test_only_a_league_manager_may_name_or_remove_league_managers(client, league, boss, who):
    if who == "another league's manager":
        user = factories.user("other")
        factories.league_group(teams=0, managers=[user])
    elif who == "a director of a match day only":
        user = factories.user("desk")
        match_day_tournament(league).directors.add(user)
    else:
        user = factories.user("plain")
    factories.user("anna")
    league.managers.add(factories.user("bernd"))
    client.force_login(user)
    assert client.get(page(league)).status_code == 403
    assert client.post(page(league), {"username": "anna"}).status_code == 403
    assert client.post(page(league), {"username": user.username}).status_code == 403
    assert client.post(remove(league, boss)).status_code == 403
    assert managers_of(league) == ["bernd", "boss"]


def test_the_list_is_a_fixed_number_of_queries(client, league, django_assert_max_num_queries):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(page(league)).status_code == 200
        return len(captured)

    league.managers.add(factories.user("anna"))
    two = queries()
    league.managers.add(*(factories.user(f"staffel{n}") for n in range(6)))
    with django_assert_max_num_queries(two):
        client.get(page(league))
    assert queries() == two


def test_a_match_days_directors_page_keeps_the_league_managers_and_lets_a_helper_go(client, boss, league):
    """On a match day's own directors page the league's managers stay (the page says where
    to take one out); the host's helper named there is taken out there."""
    anna = factories.user("anna")
    client.post(reverse("leagues:managers", args=[league.pk]), {"username": "anna"})
    tournament = match_day_tournament(league)
    helper = factories.user("helper")
    tournament.directors.add(helper)
    remove = lambda user: reverse("director:director_remove", args=[tournament.pk, user.pk])  # noqa: E731
    page = client.post(remove(anna), follow=True).content.decode()
    assert "anna manages the league" in page and "take him out on the league&#x27;s managers page" in page
    assert sorted(tournament.directors.values_list("username", flat=True)) == ["anna", "boss", "helper"]
    client.post(remove(helper))
    assert sorted(tournament.directors.values_list("username", flat=True)) == ["anna", "boss"]
    client.post(reverse("leagues:manager_remove", args=[league.pk, anna.pk]))
    assert sorted(tournament.directors.values_list("username", flat=True)) == ["boss"]
