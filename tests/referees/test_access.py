"""Who reaches the referees' pages: the tournament's referees and directors, nobody else.

A referee of another tournament gets 403 for this tournament's pages (and 404 for its
objects through his own tournament's URLs, see the per-view tests); anonymous users are
sent to the login page; the table link's token reaches only its own table.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from referees.models import Dispute, RefereeAssignment
from tests import factories

from .helpers import director_of, full_table, referee_of

pytestmark = pytest.mark.django_db

REFEREE_PAGES = [
    ("referees:board", False),
    ("referees:corrections_csv", False),
    ("referees:dispute_new", False),
    ("referees:dispute", True),
    ("referees:decide", True),
    ("referees:withdraw", True),
    ("referees:table", True),
    ("referees:table_paper", True),
    ("referees:correct", True),
    ("referees:void", True),
]
POST_ONLY = {"referees:decide", "referees:withdraw", "referees:table_paper", "referees:void"}


@pytest.fixture
def world():
    table = full_table(3)
    tournament = table.series.tournament
    dispute = Dispute.objects.create(table=table, description="x", raised_by="A")
    game = table.games.get(number=1)
    objects = {
        "referees:dispute": dispute.pk,
        "referees:decide": dispute.pk,
        "referees:withdraw": dispute.pk,
        "referees:table": table.pk,
        "referees:table_paper": table.pk,
        "referees:correct": game.pk,
        "referees:void": game.pk,
    }
    return tournament, objects


def urls(tournament, objects):
    for name, has_object in REFEREE_PAGES:
        args = [tournament.pk, objects[name]] if has_object else [tournament.pk]
        yield name, reverse(name, args=args)


def request(client, name, url):
    return client.post(url, {}) if name in POST_ONLY else client.get(url)


def test_anonymous_users_are_sent_to_log_in(client, world):
    for name, url in urls(*world):
        response = request(client, name, url)
        assert response.status_code == 302 and "/accounts/login/" in response.url, name


def test_a_referee_of_another_tournament_sees_nothing_of_this_one(client, world):
    tournament, objects = world
    client.force_login(referee_of(factories.tournament()))
    for name, url in urls(tournament, objects):
        assert request(client, name, url).status_code == 403, name
    assert client.get(reverse("referees:assign", args=[tournament.pk])).status_code == 403


def test_a_director_of_another_tournament_sees_nothing_of_this_one(client, world):
    tournament, objects = world
    client.force_login(director_of(factories.tournament()))
    for name, url in urls(tournament, objects):
        assert request(client, name, url).status_code == 403, name


def test_the_tournament_s_referee_and_director_get_every_page(client, world):
    tournament, objects = world
    for user in (referee_of(tournament), director_of(tournament), factories.user(superuser=True)):
        client.force_login(user)
        for name, url in urls(tournament, objects):
            if name not in POST_ONLY:
                assert client.get(url).status_code == 200, (name, user)


def test_a_referee_s_access_ends_with_the_assignment(client, world):
    tournament, _objects = world
    referee = referee_of(tournament)
    client.force_login(referee)
    assert client.get(reverse("referees:board", args=[tournament.pk])).status_code == 200
    RefereeAssignment.objects.filter(user=referee).delete()
    assert client.get(reverse("referees:board", args=[tournament.pk])).status_code == 403


def test_unknown_tournament_is_404(client):
    client.force_login(factories.user(superuser=True))
    assert client.get(reverse("referees:board", args=[999999])).status_code == 404
