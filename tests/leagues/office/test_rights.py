"""The rights page: the office's administrator grants and withdraws league rights, each on
the record (administration without the Django admin)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import League
from leagues.office.models import RightChange
from tests import factories

pytestmark = pytest.mark.django_db

PAGE = "/league/rights/"


@pytest.fixture
def admin(client):
    boss = factories.user("office", superuser=True)
    client.force_login(boss)
    return boss


@pytest.fixture
def league():
    manager = factories.user("staffelleiter")
    league, _group, _teams = factories.league_group(managers=[manager], name="Verbandsliga")
    return league


def said(answer) -> str:
    """The last message the answer left (earlier ones wait in the session unread)."""
    return str(list(answer.wsgi_request._messages)[-1])


def revoke(client, user, right):
    return client.post(reverse("leagueoffice:revoke", args=[user.pk]), {"right": right})


def test_only_the_office_administrator_opens_the_page(client, league):
    assert reverse("leagueoffice:rights") == PAGE
    assert client.get(PAGE).status_code == 302  # to the login
    manager = league.managers.get()
    client.force_login(manager)  # a league manager is no office administrator
    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE, {"username": "staffelleiter", "right": "new"}).status_code == 403
    assert not manager.has_perm("leagues.add_league") and not RightChange.objects.exists()


def test_grant_and_withdraw_a_league_manager_on_the_record(client, admin, league):
    anna = factories.user("anna")
    answer = client.post(PAGE, {"username": "anna", "right": str(league.pk)})
    assert answer.status_code == 302
    assert league.managers.filter(pk=anna.pk).exists()
    # She directs the league's match days like every manager (leagues.setup.add_manager).
    page = client.get(PAGE).content.decode()
    assert 'data-user="anna"' in page and "Verbandsliga 2026" in page
    assert revoke(client, anna, league.pk).status_code == 302
    assert not league.managers.filter(pk=anna.pk).exists()
    record = list(
        RightChange.objects.order_by("pk").values_list("action", "right", "username", "league_name", "by_name")
    )
    assert record == [
        ("granted", "manager", "anna", "Verbandsliga 2026", "office"),
        ("revoked", "manager", "anna", "Verbandsliga 2026", "office"),
    ]
    assert "revoked · anna · league manager: Verbandsliga 2026" in client.get(PAGE).content.decode()


def test_the_right_to_set_up_leagues_and_a_new_account(client, admin):
    answer = client.post(PAGE, {"username": "bernd", "right": "new"})
    assert answer.status_code == 422
    assert "There is no user bernd yet: give a password" in answer.content.decode()
    answer = client.post(PAGE, {"username": "bernd", "right": "new", "password": "Kreuz-Bube-17"})
    assert answer.status_code == 302
    bernd = get_user_model().objects.get(username="bernd")
    assert bernd.check_password("Kreuz-Bube-17") and bernd.has_perm("leagues.add_league")
    answer = client.post(PAGE, {"username": "bernd", "right": "new"})
    assert answer.status_code == 422 and "bernd may set up new leagues already." in answer.content.decode()
    assert revoke(client, bernd, "new").status_code == 302
    bernd = get_user_model().objects.get(username="bernd")
    assert not bernd.has_perm("leagues.add_league")
    assert list(RightChange.objects.order_by("pk").values_list("action", "right")) == [
        ("granted", "new_leagues"),
        ("revoked", "new_leagues"),
    ]


def test_refusals_name_the_rule_and_change_nothing(client, admin, league):
    manager = league.managers.get()
    answer = client.post(PAGE, {"username": "staffelleiter", "right": str(league.pk)})
    assert "staffelleiter manages this league already." in answer.content.decode()
    answer = client.post(PAGE, {"username": "staffelleiter", "right": "999"})
    assert answer.status_code == 422 and "Select a valid choice" in answer.content.decode()
    answer = revoke(client, manager, league.pk)  # the last manager stays
    assert "staffelleiter is the last league manager of this league" in said(answer)
    assert "right: staffelleiter may not set up new leagues anyway" in said(revoke(client, manager, "new"))
    assert "right: there is no league x" in said(revoke(client, manager, "x"))
    assert list(league.managers.all()) == [manager] and not RightChange.objects.exists()


def test_the_leagues_own_managers_page_is_on_the_record_too(client, league):
    manager = league.managers.get()
    client.force_login(manager)
    factories.user("carla")
    client.post(reverse("leagues:managers", args=[league.pk]), {"username": "carla"})
    (change,) = RightChange.objects.all()
    assert (change.username, change.league_id, change.by_name, change.action) == (
        "carla",
        league.pk,
        "staffelleiter",
        "granted",
    )


def test_the_page_is_a_fixed_number_of_queries(client, admin, league, django_assert_max_num_queries):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(PAGE).status_code == 200
        return len(captured)

    few = queries()
    for n in range(5):
        other = League.objects.create(name=f"Liga {n}", season="2026")
        other.managers.add(factories.user(f"m{n}"), league.managers.get())
    with django_assert_max_num_queries(few):
        client.get(PAGE)


def test_the_front_page_leads_the_administrator_there(client, admin, league):
    assert 'href="/league/rights/"' in client.get(reverse("director:home")).content.decode()
    client.force_login(league.managers.get())
    assert 'href="/league/rights/"' not in client.get(reverse("director:home")).content.decode()
