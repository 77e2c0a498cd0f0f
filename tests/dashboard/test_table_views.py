"""The director's view of a table: what the dashboard's tiles and the series page open."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from signoff.models import SignOff
from tests import factories
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


def _url(t, series: int, table: int) -> str:
    return reverse("director:table", args=[t.pk, series, table])


def test_a_dashboard_tile_opens_the_table_not_its_entry_form(client, director):
    t, series = factories.drawn(players=8, directors=[director])
    table = series.tables.get(number=1)
    dashboard = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    tiles = re.findall(r'<a class="tile[^"]*" href="([^"]+)"', dashboard)
    assert _url(t, 1, 1) in tiles and _url(t, 1, 2) in tiles
    assert table.entry_url() not in dashboard, "entering a deal is the table page's own button"


def test_the_table_page_shows_players_sheet_and_state_and_enters_a_deal_only_by_its_button(client, director):
    t, series = factories.drawn(players=4, directors=[director], rounds_per_series=1)
    table = series.tables.get()
    factories.game(table, 1, passed_out=True)
    page = client.get(_url(t, 1, 1)).content.decode()
    for seat in Seat.objects.filter(table=table).select_related("player"):
        assert seat.player.name in page
    assert "1 of 4 deals" in page and "In play" in page and "passed out" in page
    enter = re.search(r'<a class="button enter-deal" href="([^"]+)">([^<]+)</a>', page)
    assert enter.groups() == (table.entry_url(), "Enter a deal (the table's entry form)")
    assert reverse("table:sheet", args=[table.control_token]) in page  # the second list's form
    assert reverse("referees:table", args=[t.pk, table.pk]) in page  # sign-off decisions, corrections
    assert reverse("director:table_sheet_pdf", args=[t.pk, 1, 1]) in page


def test_a_confirmed_sheet_says_so(client, director):
    t, series = factories.drawn(players=4, directors=[director], rounds_per_series=1)
    table = series.tables.get()
    for number in range(1, 5):
        factories.game(table, number, passed_out=True)
    page = client.get(_url(t, 1, 1)).content.decode()
    assert "Awaiting confirmation" in page and " not yet, " in page and " ·," not in page
    SignOff.objects.create(table=table)
    assert "Sheet confirmed" in client.get(_url(t, 1, 1)).content.decode()


def test_an_unknown_table_is_not_found(client, director):
    t, _series = factories.drawn(players=8, directors=[director])
    assert client.get(_url(t, 1, 9)).status_code == 404
    assert client.get(_url(t, 2, 1)).status_code == 404


def test_before_play_a_player_is_swapped_with_one_of_the_table_asked_for(client, director):
    t, series = factories.drawn(players=8, directors=[director])
    page = client.get(_url(t, 1, 1)).content.decode()
    assert "Change seats before the series starts" in page and 'name="first"' not in page
    page = client.get(_url(t, 1, 1), {"with": 2}).content.decode()
    first = Seat.objects.get(table__number=1, series=series, number=1)
    second = Seat.objects.get(table__number=2, series=series, number=1)
    changes = page[page.index('class="card noprint seat-changes"') :]
    assert changes.count("<option") == 4 + 4 + 4 + 1  # swap: here and there; move: here, to table 2
    response = client.post(
        reverse("director:swap", args=[t.pk, 1]), {"first": first.player_id, "second": second.player_id, "back": 1}
    )
    assert response.url == _url(t, 1, 1)
    assert Seat.objects.get(series=series, player_id=second.player_id).table.number == 1


def test_after_the_first_deal_no_seat_changes(client, director):
    t, series = factories.drawn(players=8, directors=[director])
    factories.game(series.tables.get(number=2), 1, passed_out=True)
    assert "Change seats" not in client.get(_url(t, 1, 1), {"with": 2}).content.decode()


def test_the_table_page_reads_a_fixed_number_of_queries(client, director, django_assert_max_num_queries):
    t, series = factories.drawn(players=8, directors=[director], rounds_per_series=2)
    for table in series.tables.all():
        for number in range(1, 6):
            factories.game(table, number, passed_out=True)
    with django_assert_max_num_queries(20):
        assert client.get(_url(t, 1, 1)).status_code == 200


def test_the_series_page_goes_to_a_table_by_its_number(client, director):
    t, _series = factories.drawn(players=8, directors=[director])
    series_page = reverse("director:series", args=[t.pk, 1])
    assert client.get(series_page, {"table": "2"}).url == _url(t, 1, 2)
    assert client.get(series_page, {"table": "9"}).status_code == 200  # no such table: the list


def test_a_table_asked_for_in_other_digits_offers_no_seat_change_and_never_fails(client, director):
    """``?with=²`` on the table page and ``?table=²`` on the series page: "²" passes
    str.isdigit() but int() refuses it; no such table, never a 500."""
    t, _series = factories.drawn(players=8, directors=[director])
    page = client.get(_url(t, 1, 1), {"with": "²"})
    assert page.status_code == 200 and 'name="first"' not in page.content.decode()
    assert client.get(reverse("director:series", args=[t.pk, 1]), {"table": "²"}).status_code == 200
