"""A series' tables as the dashboard and the series page list them: by state, by player, a page at a time."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from dashboard.table_list import table_list
from signoff.models import SignOff
from tests import factories
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def series():
    """Five tables of four: table 1 confirmed, 2 complete, 3 playing, 4 and 5 not started."""
    _t, series = factories.drawn(players=20, rounds_per_series=1)
    tables = {t.number: t for t in series.tables.all()}
    for number in (1, 2):
        for deal in range(1, 5):
            factories.game(tables[number], deal, passed_out=True)
    factories.game(tables[3], 1, passed_out=True)
    SignOff.objects.create(table=tables[1])
    return series


def _list(series, per_page=50, **params):
    return table_list(RequestFactory().get("/", params), series, per_page)


def test_the_filters_count_every_table_and_keep_the_state_asked_for(series):
    listed = _list(series)
    counts = {f.key: f.count for f in listed.filters}
    assert counts == {"": 5, "playing": 3, "behind": 0, "awaiting": 1, "confirmed": 1, "differ": 0}
    assert [t.number for t in _list(series, state="playing").page] == [3, 4, 5]
    assert [t.number for t in _list(series, state="awaiting").page] == [2]
    assert [t.number for t in _list(series, state="nonsense").page] == [1, 2, 3, 4, 5]


def test_a_page_of_tables_with_its_players(series):
    page = _list(series, per_page=2, page=2).page
    assert [t.number for t in page] == [3, 4]
    names = list(Seat.objects.filter(table__series=series, table__number=3).order_by("number"))
    assert page[0].players == tuple(s.player.name for s in names)


def test_a_player_is_found_at_his_table(series):
    seat = Seat.objects.filter(table__series=series, table__number=4).select_related("player").first()
    seat.player.name = "Anna Müller"
    seat.player.save()
    assert [t.number for t in _list(series, q="mueller anna").page] == [4]
    assert [t.number for t in _list(series, q="Müller, A.").page] == [4]


def test_a_start_number_in_other_digits_finds_no_table_and_never_fails(series):
    """ "²" passes str.isdigit() but int() refuses it (a 500 on the series page)."""
    assert list(_list(series, q="²").page) == []


def test_a_seat_locked_by_wrong_pins_shows_on_the_dashboard(client, director):
    """5.5.3: wrong PINs lock a seat; the director sees it on the series' tiles and rows,
    not only on the referee's page, so he goes to lift it."""
    from django.urls import reverse

    from signoff.confirm import PIN_ATTEMPTS, lift_pin_lock
    from signoff.models import PinFailure
    from tests.referees.helpers import full_table

    table = full_table(3)
    t = table.series.tournament
    t.directors.add(director)
    PinFailure.objects.bulk_create([PinFailure(table=table, seat_number=2) for _ in range(PIN_ATTEMPTS)])
    PinFailure.objects.create(table=table, seat_number=3)  # one wrong PIN locks nothing
    for url in (reverse("director:detail", args=[t.pk]), reverse("director:series", args=[t.pk, 1])):
        page = client.get(url).content.decode()
        assert "PIN locked: seat 2" in page and "seat 3" not in page.split("PIN locked")[1][:40]
    lift_pin_lock(table, 2)
    assert "PIN locked" not in client.get(reverse("director:detail", args=[t.pk])).content.decode()
