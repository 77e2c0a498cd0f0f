"""The office grid: a table's paper list typed at the desk, valued as typed, saved whole."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import ControlEntry, Game
from tests import factories
from tournaments.models import Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    table = factories.table_of(3, rounds_per_series=1)  # 3 deals
    director = factories.user()
    table.series.tournament.directors.add(director)
    client.force_login(director)
    return table


def url(table, name="director:grid"):
    return reverse(name, args=[table.series.tournament_id, table.series.number, table.number])


def save(client, table, lines: dict[int, str], **extra):
    data = {f"line-{n}": text for n, text in lines.items()} | {"start": "1"} | extra
    return client.post(url(table), data)


def test_the_grid_offers_one_row_per_deal_from_the_next(client, table):
    factories.game(table, 1, passed_out=True)
    page = client.get(url(table)).content.decode()
    assert 'name="line-1"' not in page
    assert 'name="line-2"' in page and 'name="line-3"' in page
    assert 'name="start" value="2"' in page


def test_a_typed_row_is_valued_by_the_rules_as_it_is_typed(client, table):
    answer = client.post(url(table, "director:grid_preview"), {"deal": "1", "line-1": "1h2 75"})
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "Seat1" in page
    assert ">30<" in page and "+30" in page  # hearts with 2, game: 3 x 10


def test_a_preview_names_the_row_field_and_rule_of_a_refusal(client, table):
    page = client.post(url(table, "director:grid_preview"), {"deal": "2", "line-2": "1q1 70"}).content.decode()
    assert "Deal 2, contract: 2.1.1: q is not a contract letter" in page
    page = client.post(url(table, "director:grid_preview"), {"deal": "1", "line-1": "1g5 70"}).content.decode()
    assert "Deal 1, tops: 2.4.3: a grand has at most 4 tops, not 5" in page


def test_the_whole_list_is_saved_through_the_phones_path(client, table, director=None):
    answer = save(client, table, {1: "1h2 75", 2: "2n", 3: "-"})
    assert answer.status_code == 302
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [(g.number, g.declarer_seat, g.contract, g.score, g.passed_out) for g in games] == [
        (1, 1, "hearts", 30, False),
        (2, 2, "null", 23, False),
        (3, None, "", 0, True),
    ]
    assert all(g.entered_by.endswith(": office grid") for g in games)
    table.series.refresh_from_db()
    assert table.series.status == Series.Status.RUNNING  # the first deal starts the series, as on the phone


def test_one_bad_row_saves_nothing_and_is_named(client, table):
    answer = save(client, table, {1: "1h2 75", 2: "2h2 50 b19"})
    page = answer.content.decode()
    assert answer.status_code == 422
    assert "Nothing saved. Deal 2, bid: 3.3.2" in page
    assert not Game.objects.filter(table=table).exists()
    assert 'value="1h2 75"' in page, "the typed rows stay for the correction"


def test_a_gap_in_the_list_is_refused(client, table):
    answer = save(client, table, {1: "1h2 75", 3: "-"})
    assert "Deal 2, deal: 3.2.1" in answer.content.decode()
    assert not Game.objects.filter(table=table).exists()


def test_the_dealer_at_four_cannot_be_declarer(client):
    table = factories.table_of(4, rounds_per_series=1)
    director = factories.user()
    table.series.tournament.directors.add(director)
    client.force_login(director)
    answer = save(client, table, {1: "1h2 75"})
    assert "Deal 1, declarer: 3.2.7: the dealer sits out" in answer.content.decode()


def test_a_seat_the_table_does_not_have_is_refused(client, table):
    answer = save(client, table, {1: "4h2 75"})
    assert "Deal 1, declarer: 3.1.1: there is no seat 4 at this table" in answer.content.decode()


def test_sending_the_same_list_again_saves_nothing_twice(client, table):
    data = {"line-1": "1h2 75", "client-1": "6b1f0d1e-5f69-4d5e-9c39-6b0c3f6d0a11", "start": "1"}
    client.post(url(table), data)
    answer = client.post(url(table), data, follow=True)
    assert Game.objects.filter(table=table).count() == 1
    assert "1 deal was saved already" in answer.content.decode()


def test_a_deal_entered_meanwhile_on_a_phone_refuses_the_list(client, table):
    factories.game(table, 1, passed_out=True)
    answer = save(client, table, {1: "1h2 75", 2: "2n"})
    assert answer.status_code == 422
    assert "Deal 1, deal: 5.5.3: deal 1 is already entered" in answer.content.decode()
    assert Game.objects.filter(table=table).count() == 1


def test_the_second_list_is_typed_into_its_own_list(client, table):
    factories.game(table, 1, declarer_seat=1, contract="hearts", tops=2, declarer_points=75)
    answer = save(client, table, {1: "1h2 75"}, list="second")
    assert answer.status_code == 302
    assert answer["Location"].endswith("?list=second")
    assert ControlEntry.objects.get(table=table).score == 30
    assert Game.objects.filter(table=table).count() == 1


def test_a_finished_series_takes_no_list(client, table):
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.FINISHED)
    page = client.get(url(table)).content.decode()
    assert "Series 1 is finished" in page and 'name="line-1"' not in page
    save(client, table, {1: "1h2 75"})
    assert not Game.objects.exists()


def test_a_referee_may_type_a_list_a_stranger_may_not(client, table):
    from referees.models import RefereeAssignment

    referee = factories.user()
    RefereeAssignment.objects.create(tournament=table.series.tournament, user=referee)
    client.force_login(referee)
    assert client.get(url(table)).status_code == 200
    client.force_login(factories.user())
    assert client.get(url(table)).status_code == 403
    assert save(client, table, {1: "1h2 75"}).status_code == 403


def test_the_series_page_links_every_tables_grid(client, table):
    page = client.get(reverse("director:series", args=[table.series.tournament_id, 1])).content.decode()
    assert url(table) in page


def test_the_grid_costs_a_fixed_number_of_queries(client, table, django_assert_max_num_queries):
    with django_assert_max_num_queries(20):
        client.get(url(table))
