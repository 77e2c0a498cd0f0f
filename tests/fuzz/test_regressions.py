"""One test per bug the fuzzing found (the evaluate command's are in test_evaluate_fuzz.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db

TOURNAMENT = {
    "name": "Open",
    "date": "2026-11-23",
    "series_count": "2",
    "rounds_per_series": "12",
    "entry_fee": "0",
    "list_fee": "0",
    "prize_pool_percent": "100",
}


@pytest.fixture
def director_client():
    director = factories.user("director", superuser=True)
    client = Client()
    client.force_login(director)
    return director, client


def test_a_bad_hidden_field_of_the_game_form_is_shown_with_its_name(client):
    """Was: a stale or tampered deal number / entry id was refused without a word."""
    table = factories.table_of(3)
    url = reverse("tables:sheet", args=[table.token])
    response = client.post(url, {"number": "abc", "client_id": "x", "contract": "grand", "declarer_seat": "1"})
    assert response.status_code == 422
    page = response.content.decode()
    assert "deal: Enter a whole number." in page
    assert "entry id: Enter a valid UUID." in page
    assert "Reload the page to get a fresh form." in page
    assert not Game.objects.exists()


def test_the_preview_names_the_field_of_each_error(client):
    """Was: "Enter a whole number." without saying which field."""
    table = factories.table_of(3)
    response = client.post(reverse("tables:preview", args=[table.token]), {"number": "1", "tops": "x"})
    assert "Tops: Enter a whole number." in response.content.decode()


@pytest.mark.parametrize("name", ["tournaments:create", "tournaments:edit", "tournaments:players"])
def test_an_empty_post_is_answered_with_the_missing_fields(director_client, name):
    """Was: an empty POST left the form unbound and showed it again without a word."""
    director, client = director_client
    t = factories.tournament(directors=[director])
    url = reverse(name) if name == "tournaments:create" else reverse(name, args=[t.pk])
    response = client.post(url, {})
    assert response.status_code in {200, 422}
    assert "This field is required." in response.content.decode()


def test_a_tampered_fee_step_id_is_shown(director_client):
    """Was: a fee row's hidden id error was never rendered."""
    director, client = director_client
    t = factories.tournament(directors=[director])
    data = TOURNAMENT | {"fees-TOTAL_FORMS": "1", "fees-INITIAL_FORMS": "1", "fees-0-id": "999999"}
    data |= {"fees-0-from_lost_game": "1", "fees-0-amount": "1.00"}
    response = client.post(reverse("tournaments:edit", args=[t.pk]), data)
    assert response.status_code == 200
    assert "fee step: Select a valid choice." in response.content.decode()


def test_fee_steps_may_exchange_their_numbers_in_one_save(director_client):
    """Was: a 500 (IntegrityError) when step "from 1" became "from 4" while "from 4" became "from 6"."""
    director, client = director_client
    t = factories.tournament(directors=[director])
    first = t.lost_game_fees.create(from_lost_game=1, amount="0.50")
    second = t.lost_game_fees.create(from_lost_game=4, amount="1.00")
    data = TOURNAMENT | {"fees-TOTAL_FORMS": "2", "fees-INITIAL_FORMS": "2"}
    data |= {"fees-0-id": first.pk, "fees-0-from_lost_game": "4", "fees-0-amount": "0.50"}
    data |= {"fees-1-id": second.pk, "fees-1-from_lost_game": "6", "fees-1-amount": "1.00"}
    assert client.post(reverse("tournaments:edit", args=[t.pk]), data).status_code == 302
    assert [(f.from_lost_game, str(f.amount)) for f in t.lost_game_fees.all()] == [(4, "0.50"), (6, "1.00")]
    # And a real duplicate is still refused by the formset, with nothing changed.
    fees = {f"fees-{i}-id": f.pk for i, f in enumerate(t.lost_game_fees.all())}
    data |= fees | {"fees-0-from_lost_game": "5", "fees-1-from_lost_game": "5"}
    response = client.post(reverse("tournaments:edit", args=[t.pk]), data)
    assert response.status_code == 200
    assert "duplicate" in response.content.decode()
    assert [f.from_lost_game for f in t.lost_game_fees.all()] == [4, 6]


def test_a_superscript_series_number_in_the_standings_query(director_client):
    """Was: ?series=² passed isdigit() and int() failed: a 500."""
    director, client = director_client
    t, _series = factories.drawn(8, directors=[director])
    for value in ("²", "٣", "1"):
        assert client.get(reverse("tournaments:standings", args=[t.pk]), {"series": value}).status_code == 200
