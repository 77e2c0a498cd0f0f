"""Nothing bypasses the lock: once deals are entered the admin cannot delete
games, change seats or a series' status, or change a tournament's rounds; the director's
edit form refuses the same changes with the same message."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from scoring.models import Game
from tests import factories
from tests.referees.helpers import director_of, open_table
from tournaments.models import Seat, Series, Table, Tournament

pytestmark = pytest.mark.django_db

ROUNDS_REFUSED = "Deals are entered already: rounds per series stay at 1"


@pytest.fixture
def admin_client(client):
    client.force_login(factories.user(superuser=True))
    return client


def played_table() -> Table:
    table = open_table(4)  # one round: 4 deals
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=70)
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.RUNNING)
    return table


def test_the_admin_deletes_no_game_nor_what_holds_one(admin_client):
    table = played_table()
    game = table.games.get()
    assert admin_client.post(reverse("admin:scoring_game_delete", args=[game.pk]), {"post": "yes"}).status_code == 403
    for name, obj in (("series", table.series), ("table", table), ("tournament", table.series.tournament)):
        response = admin_client.post(reverse(f"admin:tournaments_{name}_delete", args=[obj.pk]), {"post": "yes"})
        assert response.status_code == 403, name
    assert Game.objects.filter(pk=game.pk).exists() and Table.objects.filter(pk=table.pk).exists()


def test_a_played_series_status_tables_and_seats_are_read_only(admin_client):
    table = played_table()
    page = admin_client.get(reverse("admin:tournaments_series_change", args=[table.series_id])).content.decode()
    assert 'name="_save"' not in page and 'name="status"' not in page
    response = admin_client.post(
        reverse("admin:tournaments_series_change", args=[table.series_id]),
        {"tournament": table.series.tournament_id, "number": 1, "status": "drawn", "method": "random"},
    )
    assert response.status_code == 403
    assert Series.objects.get(pk=table.series_id).status == Series.Status.RUNNING
    page = admin_client.get(reverse("admin:tournaments_table_change", args=[table.pk])).content.decode()
    assert 'name="_save"' not in page and 'name="seats-0-player"' not in page
    before = list(Seat.objects.filter(table=table).values_list("number", "player_id"))
    assert admin_client.post(reverse("admin:tournaments_table_change", args=[table.pk]), {}).status_code == 403
    assert list(Seat.objects.filter(table=table).values_list("number", "player_id")) == before


def test_before_play_the_admin_still_changes_seats(admin_client):
    table = open_table(4)
    page = admin_client.get(reverse("admin:tournaments_table_change", args=[table.pk])).content.decode()
    assert 'name="_save"' in page and 'name="seats-0-player"' in page


def _admin_form(tournament: Tournament, **changes):
    tournament = Tournament.objects.get(pk=tournament.pk)  # as stored, as the admin loads it
    model_admin = admin.site._registry[Tournament]
    request = RequestFactory().get("/")
    request.user = factories.user(superuser=True)
    form_class = model_admin.get_form(request, tournament)
    data = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": "",
        "series_count": tournament.series_count,
        "rounds_per_series": tournament.rounds_per_series,
        "lot_seed": tournament.lot_seed,
        "entry_fee": "0",
        "list_fee": "0",
        "prize_pool_percent": 100,
        "list_fee_refund_percent": 100,
        "table_money_from": "table",
    } | changes
    return form_class(data, instance=tournament)


def test_the_admin_refuses_other_rounds_once_deals_are_entered():
    table = open_table(4)
    tournament = table.series.tournament
    assert _admin_form(tournament, rounds_per_series=2).is_valid()  # nothing played: fine
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=70)
    form = _admin_form(tournament, rounds_per_series=12)
    assert not form.is_valid()
    assert ROUNDS_REFUSED in form.errors["rounds_per_series"][0] and "(5.5.3)" in form.errors["rounds_per_series"][0]
    assert _admin_form(tournament, series_count=0).errors["series_count"] == ["1 series is already drawn."]
    assert _admin_form(tournament, name="Renamed").is_valid()  # the rest stays editable


def test_the_directors_form_refuses_other_rounds_once_deals_are_entered(client):
    table = played_table()
    tournament = table.series.tournament
    client.force_login(director_of(tournament))
    data = {
        "name": tournament.name,
        "date": "2026-11-23",
        "series_count": 1,
        "rounds_per_series": 12,
        "entry_fee": "0",
        "list_fee": "0",
        "prize_pool_percent": 100,
        "fees-TOTAL_FORMS": 0,
        "fees-INITIAL_FORMS": 0,
        "fees-MIN_NUM_FORMS": 0,
        "fees-MAX_NUM_FORMS": 1000,
    }
    response = client.post(reverse("director:edit", args=[tournament.pk]), data)
    assert response.status_code == 200 and ROUNDS_REFUSED in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rounds_per_series == 1 and table.deals == 4
    # The same post keeping the rounds saves.
    assert (
        client.post(reverse("director:edit", args=[tournament.pk]), data | {"rounds_per_series": 1}).status_code == 302
    )
