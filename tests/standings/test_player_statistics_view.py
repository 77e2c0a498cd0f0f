"""A player's statistics page with the running-score chart."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tests.standings.test_statistics import small  # noqa: F401 - fixture
from tests.transfer.test_exports import finished_tournament

pytestmark = pytest.mark.django_db


def test_the_page_shows_the_figures_the_chart_and_each_series(client, small):  # noqa: F811
    t, anna, *_ = small
    director = factories.user()
    t.directors.add(director)
    client.force_login(director)
    page = client.get(reverse("director:player_statistics", args=[t.pk, anna.pk])).content.decode()
    assert "<h1>Anna" in page and "<strong>3</strong>games as declarer" in page
    assert "<svg" in page and "Running score of Anna" in page
    assert '<td>1</td><td class="num">47</td><td class="num">47</td>' in page
    assert '<td>2</td><td class="num">50</td><td class="num">97</td>' in page


def test_unknown_players_are_404(client, small):  # noqa: F811
    t, *_ = small
    client.force_login(factories.user(superuser=True))
    other = factories.player("Not playing")
    assert client.get(reverse("director:player_statistics", args=[t.pk, other.pk])).status_code == 404


def test_public_only_when_published_and_directors_only_their_own(client):
    t = finished_tournament(players=7, series=1)
    player = t.registrations.first().player_id
    public = reverse("public:player_statistics", args=[t.pk, player])
    director = reverse("director:player_statistics", args=[t.pk, player])
    assert client.get(public).status_code == 404
    assert client.get(director).status_code == 302
    client.force_login(factories.user())
    assert client.get(director).status_code == 403
    t.standings_public = True
    t.save()
    assert client.get(public).status_code == 200


def test_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    for players in (7, 13):
        t = finished_tournament(players=players, series=2)
        t.standings_public = True
        t.save()
        player = t.registrations.first().player_id
        with django_assert_max_num_queries(5):
            assert client.get(reverse("public:player_statistics", args=[t.pk, player])).status_code == 200


def test_the_standings_link_each_name_here(client):
    t = finished_tournament(players=7, series=1)
    player = t.registrations.first().player_id
    client.force_login(factories.user(superuser=True))
    page = client.get(reverse("director:standings", args=[t.pk])).content.decode()
    assert f'href="{reverse("director:player_statistics", args=[t.pk, player])}"' in page
    t.standings_public = True
    t.save()
    client.logout()
    page = client.get(reverse("public:standings", args=[t.pk])).content.decode()
    assert f'href="{reverse("public:player_statistics", args=[t.pk, player])}"' in page
