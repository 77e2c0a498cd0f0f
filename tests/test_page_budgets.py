"""Every list page of a big tournament is a page, not the field: a fixed number of
queries and an HTML size that does not grow with the number of players.

Two fields, 520 and 1,040 players, with two series (the first finished, every second
table of the second played): each page reads the same number of queries at both sizes (within the
page's own limit), stays under the 250 KiB budget, and is about as large at 1,040 as
at 520 (the list pages show a page of rows, the pager says how many there are). The
speed itself is proven by ``manage.py bench``, never by a timed test.
"""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from draw.series import draw_series
from office.demo import random_game
from scoring.models import Game
from tests import factories
from tournaments.models import Club, Player, Registration, Series

pytestmark = pytest.mark.django_db

#: The HTML budget of a page, in bytes.
BUDGET = 250 * 1024

#: name -> (URL arguments, queries at most)
PAGES = {
    "director:detail": (("t",), 12),
    "director:progress": (("t",), 9),
    "director:series": (("t", 1), 12),
    "director:table": (("t", 2, 1), 20),
    "director:players": (("t",), 10),
    "director:desk": (("t",), 8),
    "director:statistics": (("t",), 12),
    "director:fee_account": (("t",), 20),
    "referees:board": (("t",), 14),
    "public:statistics": (("t",), 10),
}


def _field(players: int, director):
    """A tournament of ``players`` in clubs of 10: series 1 played and finished, series 2 half played."""
    t = factories.tournament(directors=[director], series_count=2, rounds_per_series=1, standings_public=True)
    clubs = Club.objects.bulk_create([Club(name=f"Budget club {players}-{i}") for i in range(players // 10)])
    people = Player.objects.bulk_create(
        [Player(name=f"Anna{i} Müller{i}", club=clubs[i % len(clubs)]).fill_keys() for i in range(players)]
    )
    Registration.objects.bulk_create(
        [Registration(tournament=t, player=p, start_number=i + 1) for i, p in enumerate(people)]
    )
    rng = random.Random(players)
    first = draw_series(t)
    _play(first, rng, every=1)
    Series.objects.filter(pk=first.pk).update(status=Series.Status.FINISHED)
    _play(draw_series(t, Series.Method.SEEDED, provisional=True), rng, every=2)
    return t


def _play(series, rng, every: int) -> None:
    """Every table (``every`` 1) or every second one played to the end: the same mix on any page."""
    games = []
    for table in series.tables.order_by("number")[::every]:
        for number in range(1, table.deals + 1):
            game = random_game(rng, number, table.size)
            game.table = table
            games.append(game)
    Game.objects.bulk_create(games)


def _measure(client, t, django_assert_max_num_queries) -> dict[str, tuple[int, int]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    found = {}
    for name, (args, limit) in PAGES.items():
        url = reverse(name, args=[t.pk if a == "t" else a for a in args])
        with django_assert_max_num_queries(limit), CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, name
        found[name] = (len(queries), len(response.content))
    return found


def test_list_pages_are_a_page_whatever_the_field(client, director, django_assert_max_num_queries):
    moderate = _measure(client, _field(520, director), django_assert_max_num_queries)
    large = _measure(client, _field(1040, director), django_assert_max_num_queries)
    for name in PAGES:
        (queries_moderate, size_moderate), (queries_large, size_large) = moderate[name], large[name]
        assert queries_large == queries_moderate, (
            f"{name}: {queries_moderate} queries at 520, {queries_large} at 1,040"
        )
        assert size_large <= BUDGET, f"{name}: {size_large} bytes"
        # A page of rows either way: only the numbers in it grow (the pager's "of 1040").
        assert size_large <= size_moderate * 1.05 + 1024, f"{name}: {size_moderate} -> {size_large} bytes"


def test_the_series_page_and_the_dashboard_find_a_player_by_name_in_any_order(client, director):
    t = _field(520, director)
    page = client.get(reverse("director:series", args=[t.pk, 1]), {"q": "muller7 anna7"}).content.decode()
    assert "Anna7 Müller7" in page and "Anna8 Müller8" not in page
    desk = client.get(reverse("director:desk", args=[t.pk]), {"q": "Müller12, Anna12"}).content.decode()
    assert "Anna12 Müller12" in desk and "Anna13 Müller13" not in desk
