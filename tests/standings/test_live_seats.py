"""The projector's "where do I sit" screens (standings.seat_board), read as a spec.

- After a draw, until the series' first deal, the projector shows the seats first: every
  seated player by surname with start number, table and seat, 40 to a screen; the last
  seat screen leads to the standings, the standings' last page back to the seats.
- Once the first deal is entered the screen shows only the standings (a screen that asks
  for seats gets the standings' first page).
- A seat swapped after the draw shows on the next screen (the results mark changes).
- Unpublished standings: the screens do not turn (404), as for the standings.
- A screen costs a few queries.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments.models import Registration, Seat

pytestmark = pytest.mark.django_db


def _hall(players: int, **fields):
    t, series = factories.drawn(players, standings_public=True, rounds_per_series=1, **fields)
    for number, reg in enumerate(Registration.objects.filter(tournament=t).order_by("pk"), start=1):
        Registration.objects.filter(pk=reg.pk).update(start_number=number)
    return t, series


def _get(client, t, **query) -> str:
    response = client.get(reverse("public:live", args=[t.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_after_the_draw_the_seats_come_first_by_surname_forty_to_a_screen(client):
    t, series = _hall(45)
    first = _get(client, t)
    assert "Series 1 is drawn: where do I sit?" in first
    assert first.count('<td class="name">') == 40
    assert "Page 1 of 2" in first and "/me/find/" in first
    names = [s.player.name for s in Seat.objects.filter(series=series).select_related("player")]
    by_surname = sorted(names, key=lambda n: (n.split()[-1].lower(), n))
    assert first.index(by_surname[0]) < first.index(by_surname[39])
    second = _get(client, t, part="seats", page="2")
    assert second.count('<td class="name">') == 5
    # The last seat screen leads to the standings' first page; their last page back to the seats.
    assert "part=board" in second.split('data-next="')[1].split('"')[0]
    standings_last = _get(client, t, part="board", page="3")
    assert "part=seats" in standings_last.split('data-next="')[1].split('"')[0]


def test_once_play_has_begun_only_the_standings_turn(client):
    t, series = _hall(8)
    table = series.tables.order_by("number").first()
    factories.game(table, 1, passed_out=True)
    assert "where do I sit" not in _get(client, t)
    assert "where do I sit" not in _get(client, t, part="seats", page="1")
    assert "part=board" in _get(client, t, part="board").split('data-next="')[1].split('"')[0]


def test_a_seat_swapped_after_the_draw_shows_on_the_next_screen(client):
    t, series = _hall(8)
    _get(client, t)
    seat = Seat.objects.filter(series=series, table__number=1, number=1).select_related("player").get()
    other = Seat.objects.filter(series=series, table__number=2, number=1).select_related("player").get()
    seat.delete()
    Seat.objects.filter(pk=other.pk).update(player=seat.player)
    Seat.objects.create(table_id=seat.table_id, series=series, number=1, player=other.player)
    page = _get(client, t, part="seats", page="1")
    row = page.split(seat.player.name)[1].split("</tr>")[0]
    assert '<td class="num table-no">2</td>' in row


def test_unpublished_standings_turn_no_seat_screens(client):
    t, _series = factories.drawn(8, standings_public=False)
    assert client.get(reverse("public:live", args=[t.pk]), {"part": "seats"}).status_code == 404


def test_a_seat_screen_costs_a_few_queries(client, django_assert_max_num_queries):
    t, _series = _hall(45)
    with django_assert_max_num_queries(12):
        _get(client, t, part="seats", page="2")
