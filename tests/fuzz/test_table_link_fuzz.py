"""Random and malformed game entries, previews and corrections on a table link.

Never a 500; a refused post changes nothing and shows every error where the
scorekeeper sees which field it concerns; an accepted one stores a game exactly as the
engine values it.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import event, given

from scoring import entry
from scoring.models import ControlEntry, Game
from tests import factories

from .strategies import FUZZ, assert_errors_name_their_field, game_data

pytestmark = pytest.mark.django_db


def games(table, model=Game) -> list[tuple]:
    return list(model.objects.filter(table=table).order_by("pk").values_list())


def assert_stored_as_the_engine_values_it(table, model=Game) -> None:
    for game in model.objects.filter(table=table):
        stored = [getattr(game, f) for f in Game.COMPUTED_FIELDS]
        game.apply_rules(table.size)
        assert [getattr(game, f) for f in Game.COMPUTED_FIELDS] == stored


@pytest.fixture
def table():
    # Two rounds at three: 6 deals, so the fuzzer also meets a full sheet.
    return factories.table_of(3, rounds_per_series=2)


@FUZZ
@given(data=game_data, htmx=..., next_number=..., second=...)
def test_entering_a_deal(client, table, data, htmx: bool, next_number: bool, second: bool):
    """On the sheet's link or on the second list's (``second``): the same checks."""
    model, token = (ControlEntry, table.control_token) if second else (Game, table.token)
    if next_number and "number" in data:
        data["number"] = str(entry.next_deal(table, model))  # the number the page would carry
    before = games(table, model)
    other = games(table, Game if second else ControlEntry)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(reverse("table:sheet", args=[token]), data, **headers)
    event(f"{model.__name__} status {response.status_code}")
    assert response.status_code < 500
    if response.status_code in {200, 422}:
        form = response.context["form"]
        if response.status_code == 422 or (form is not None and form.errors):
            assert games(table, model) == before
            assert_errors_name_their_field(form, response.content.decode())
    elif response.status_code == 409:  # the deal was entered already: told, with the form now due
        assert games(table, model) == before
        form = response.context["form"]
        assert form is None or (not form.is_bound and form["number"].value() == entry.next_deal(table, model))
    else:
        assert response.status_code == 302
        assert len(games(table, model)) - len(before) in {0, 1}
    assert games(table, Game if second else ControlEntry) == other  # the other list untouched
    assert_stored_as_the_engine_values_it(table, model)


@FUZZ
@given(data=game_data)
def test_previewing_a_deal(client, table, data):
    before = games(table)
    response = client.post(reverse("table:preview", args=[table.token]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert games(table) == before
    form = response.context["form"]
    if form.errors:
        assert_errors_name_their_field(form, response.content.decode(), labelled=True)


@FUZZ
@given(data=game_data, next_number=...)
def test_correcting_the_last_deal(client, table, data, next_number: bool):
    if not Game.objects.filter(table=table).exists():
        factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=75)
    if next_number and "number" in data:
        data["number"] = "1"
    before = games(table)
    response = client.post(reverse("table:correct", args=[table.token]), data)
    event(f"status {response.status_code}")
    assert response.status_code < 500
    if response.status_code == 422:
        assert games(table) == before
        assert_errors_name_their_field(response.context["form"], response.content.decode())
    else:
        assert response.status_code == 302
        assert len(games(table)) == len(before)
    assert_stored_as_the_engine_values_it(table)
