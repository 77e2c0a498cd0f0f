"""At once, for real: two threads with their own database connections (tests/threads.py).

Two walk-ins quick-added together get two start numbers; two directors changing one
series' seats together leave every table whole; a deal entered while the director
removes a no-show either stops the removal or is refused, never lands on the changed
table. Runs on SQLite and PostgreSQL (DATABASE_URL).
"""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from tests import factories
from tests.threads import in_parallel
from tournaments import services
from tournaments.models import Registration, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def posts_at_once(director, *posts):
    """Each (url, data) posted by the director from its own client, released together."""
    clients = []
    for _ in posts:
        client = Client()
        client.force_login(director)
        clients.append(client)
    return in_parallel(lambda i: clients[i].post(*posts[i]), len(posts))


def assert_whole(series) -> None:
    """Every table has 3 or 4 seats numbered 1..n matching its size; nobody sits twice."""
    players = list(Seat.objects.filter(series=series).values_list("player_id", flat=True))
    assert len(players) == len(set(players))
    for table in Table.objects.filter(series=series):
        numbers = sorted(table.seats.values_list("number", flat=True))
        assert table.size in (3, 4) and numbers == list(range(1, table.size + 1)), (table.number, numbers)


@pytest.mark.parametrize("attempt", range(3))
def test_two_walk_ins_quick_added_at_once_get_two_start_numbers(attempt):
    director = factories.user(f"director{attempt}")
    t = factories.tournament(directors=[director])
    factories.registered(t, 3)
    services.give_start_numbers(t, 3)
    url = reverse("director:desk_add", args=[t.pk])
    first, second = posts_at_once(
        director, (url, {"walkin-name": "Wanda Walkin"}), (url, {"walkin-name": "Willi Walkin"})
    )
    assert [first.status_code, second.status_code] == [302, 302]
    numbers = sorted(Registration.objects.filter(tournament=t, present=True).values_list("start_number", flat=True))
    assert numbers == [4, 5]


def test_a_start_number_taken_meanwhile_is_tried_again_with_the_next(monkeypatch):
    """The database refuses a start number twice; the registration takes the next one."""
    t = factories.tournament()
    services.register(t, services.Entry(name="Anna Erste"))  # start number 1
    real = services.give_start_numbers
    calls = []

    def stale(tournament, count):
        calls.append(count)
        return range(1, 2) if len(calls) == 1 else real(tournament, count)  # 1 is taken

    monkeypatch.setattr(services, "give_start_numbers", stale)
    late = services.register(t, services.Entry(name="Bernd Zweiter"))
    assert late.start_number == 2 and len(calls) == 2
    assert Registration.objects.filter(tournament=t).count() == 2


def test_a_double_registration_is_not_tried_again():
    t = factories.tournament()
    services.register(t, services.Entry(name="Anna Erste", club="SC Altenburg"))
    with pytest.raises(IntegrityError):
        services.register(t, services.Entry(name="Anna Erste", club="SC Altenburg"))


@pytest.mark.parametrize("attempt", range(3))
def test_two_directors_removing_no_shows_at_once_leave_every_table_whole(attempt):
    director = factories.user(f"director{attempt}")
    t, series = factories.drawn(10, directors=[director])  # 4, 3, 3
    a = Seat.objects.select_related("player").get(series=series, table__number=2, number=1).player
    b = Seat.objects.select_related("player").get(series=series, table__number=3, number=1).player
    url = reverse("director:no_show", args=[t.pk, 1])
    responses = posts_at_once(director, (url, {"player": a.name}), (url, {"player": b.name}))
    assert [r.status_code for r in responses] == [302, 302]
    seated = set(Seat.objects.filter(series=series).values_list("player_id", flat=True))
    # One after the other: the first takes a player from the four, the second finds no
    # four left and sends his two to the other threes, or is refused; never half of each.
    assert a.pk not in seated
    assert_whole(series)


@pytest.mark.parametrize("attempt", range(3))
def test_a_deal_entered_while_the_director_removes_a_no_show_never_lands_on_the_changed_table(attempt):
    director = factories.user(f"director{attempt}")
    t, series = factories.drawn(8, directors=[director])
    table = Table.objects.get(series=series, number=1)
    gone = Seat.objects.select_related("player").get(table=table, number=4).player.name
    deal = {"number": "1", "client_id": str(uuid.uuid4()), "passed_out": "on"}
    sheet, no_show = Client(), Client()
    no_show.force_login(director)
    responses = in_parallel(
        lambda i: (
            sheet.post(reverse("table:sheet", args=[table.token]), deal)
            if i == 0
            else no_show.post(reverse("director:no_show", args=[t.pk, 1]), {"player": gone})
        ),
        2,
    )
    removed = not Seat.objects.filter(series=series, player__name=gone).exists()
    entered = Game.objects.filter(table__series=series).exists()
    # Either the deal came first and the removal is refused, or the removal came first and
    # the deal (meant for the old four) is refused: never both.
    assert removed != entered, [r.status_code for r in responses]
    assert_whole(series)
