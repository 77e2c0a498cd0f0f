"""The tournament statistics page: for directors, and for everybody once the standings are public."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tests.standings.test_statistics import small  # noqa: F401 - fixture
from tests.transfer.test_exports import finished_tournament

pytestmark = pytest.mark.django_db


def test_the_director_sees_totals_and_every_player_linked(client, small):  # noqa: F811
    t, anna, *_ = small
    director = factories.user()
    t.directors.add(director)
    client.force_login(director)
    page = client.get(reverse("director:statistics", args=[t.pk])).content.decode()
    assert "<strong>6</strong>deals" in page and "<strong>1</strong>passed out" in page
    assert "<strong>37.4</strong>average game value" in page
    assert reverse("director:player_statistics", args=[t.pk, anna.pk]) in page
    assert "32.3" in page, "Anna's average game value"


def test_public_once_the_standings_are_published(client):
    t = finished_tournament(players=7, series=1)
    url = reverse("public:statistics", args=[t.pk])
    assert client.get(url).status_code == 404
    t.standings_public = True
    t.save()
    page = client.get(url).content.decode()
    player = t.registrations.first().player_id
    assert reverse("public:player_statistics", args=[t.pk, player]) in page
    assert reverse("director:export", args=[t.pk]) not in page, "no director navigation in public"


def test_anonymous_and_other_directors_are_refused(client):
    t = finished_tournament(players=7, series=1)
    url = reverse("director:statistics", args=[t.pk])
    assert client.get(url).status_code == 302
    client.force_login(factories.user())
    assert client.get(url).status_code == 403
    assert client.get(reverse("public:statistics", args=[t.pk])).status_code == 404


def test_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    for players in (7, 13):
        t = finished_tournament(players=players, series=2)
        t.standings_public = True
        t.save()
        with django_assert_max_num_queries(8):  # the results mark; standings: + the confirmed sheets
            assert client.get(reverse("public:statistics", args=[t.pk])).status_code == 200
        # Unchanged results: the order and the figures come from the cache.
        with django_assert_max_num_queries(4):
            assert client.get(reverse("public:statistics", args=[t.pk])).status_code == 200


def test_a_new_deal_shows_at_once_though_the_figures_are_cached(client, small):  # noqa: F811
    t, *_ = small
    director = factories.user()
    t.directors.add(director)
    client.force_login(director)
    url = reverse("director:statistics", args=[t.pk])
    assert "<strong>6</strong>deals" in client.get(url).content.decode()
    assert "<strong>6</strong>deals" in client.get(url).content.decode()  # from the cache
    table = t.series.first().tables.first()
    factories.game(table, table.games.count() + 1, passed_out=True)
    page = client.get(url).content.decode()
    assert "<strong>7</strong>deals" in page and "<strong>2</strong>passed out" in page


def test_a_search_in_other_digits_finds_nobody_and_never_fails(client):
    """ "²" passes str.isdigit() but int() refuses it; a long number exceeds a start number."""
    t = finished_tournament(players=7, series=1)
    t.standings_public = True
    t.save()
    url = reverse("public:statistics", args=[t.pk])
    for query in ("²", "٣", "9" * 30):
        response = client.get(url, {"q": query})
        assert response.status_code == 200, query
        assert reverse("public:player_statistics", args=[t.pk, t.registrations.first().player_id]) not in (
            response.content.decode()
        )
