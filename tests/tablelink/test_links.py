"""Table links: closed with their series (410, the sheet stays readable), replaced by the director (old -> 404)."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db

GAME = {"declarer_seat": "2", "contract": "grand", "tops_kind": "with", "tops": "1", "declarer_points": "75"}


def _finished_table_with_a_game():
    table = factories.table_of(3)
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=75)
    table.series.status = "finished"
    table.series.save()
    return table


def test_a_finished_series_still_shows_its_sheet_read_only(client):
    table = _finished_table_with_a_game()
    response = client.get(reverse("table:sheet", args=[table.token]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Series 1 is finished; the sheet is closed." in page
    assert 'id="game-form"' not in page
    assert reverse("table:correct", args=[table.token]) not in page


@pytest.mark.parametrize(
    ("name", "method"),
    [("sheet", "post"), ("preview", "post"), ("correct", "get"), ("correct", "post")],
)
def test_every_entry_url_of_a_finished_series_is_gone(client, name, method):
    table = _finished_table_with_a_game()
    before = list(Game.objects.values_list("version", "score"))
    url = reverse(f"table:{name}", args=[table.token])
    data = GAME | {"number": "2", "client_id": str(uuid.uuid4()), "version": "1"}
    response = getattr(client, method)(url, data) if method == "post" else client.get(url)
    assert response.status_code == 410
    page = response.content.decode()
    assert "The sheet is closed" in page
    assert "corrected by a referee" in page
    assert list(Game.objects.values_list("version", "score")) == before


def test_htmx_is_sent_to_the_read_only_sheet(client):
    table = _finished_table_with_a_game()
    url = reverse("table:sheet", args=[table.token])
    response = client.post(url, GAME | {"number": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 410
    assert response["HX-Redirect"] == url


def test_the_qr_code_of_a_finished_series_still_answers(client):
    table = _finished_table_with_a_game()
    assert client.get(reverse("table:qr", args=[table.token])).status_code == 200


def _director_and_series():
    director = factories.user()
    t, series = factories.drawn(8, directors=[director])
    return director, t, series


def test_the_director_replaces_one_tables_link(client):
    director, t, series = _director_and_series()
    first, second = series.tables.order_by("number")
    old, other = first.token, second.token
    client.force_login(director)
    # The table's own page (the series page lists the tables) offers the new link.
    page = client.get(reverse("director:table", args=[t.pk, 1, first.number])).content.decode()
    url = reverse("director:reissue_link", args=[t.pk, 1, first.number])
    assert url in page
    # A misclick must not kill a link: the browser asks first (static/js/office.js).
    assert 'data-confirm="Replace this table&#x27;s link?' in page
    response = client.post(url)
    assert response.status_code == 302
    assert "Table 1 has a new link" in client.get(response.url).content.decode()
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.token != old and len(first.token) >= 22
    assert second.token == other
    assert client.get(reverse("table:sheet", args=[old])).status_code == 404
    assert client.get(reverse("table:sheet", args=[first.token])).status_code == 200


def test_the_director_replaces_every_link_of_a_series(client):
    director, t, series = _director_and_series()
    old = dict(series.tables.values_list("pk", "token"))
    client.force_login(director)
    response = client.post(reverse("director:reissue_links", args=[t.pk, 1]))
    assert response.status_code == 302
    new = dict(series.tables.values_list("pk", "token"))
    assert new.keys() == old.keys()
    assert not set(new.values()) & set(old.values())
    for token in old.values():
        for name in ("sheet", "qr"):
            assert client.get(reverse(f"table:{name}", args=[token])).status_code == 404
        assert client.post(reverse("table:preview", args=[token]), GAME | {"number": "1"}).status_code == 404


def test_a_table_of_another_series_cannot_be_reissued_through_this_one(client):
    director, t, _series = _director_and_series()
    client.force_login(director)
    assert client.post(reverse("director:reissue_link", args=[t.pk, 1, 99])).status_code == 404
    assert client.post(reverse("director:reissue_links", args=[t.pk, 2])).status_code == 404
    assert client.get(reverse("director:reissue_links", args=[t.pk, 1])).status_code == 405


@pytest.mark.parametrize(("name", "method"), [("sheet", "get"), ("qr", "get"), ("preview", "post"), ("sheet", "post")])
def test_table_link_pages_are_not_cached_indexed_or_referred(client, name, method):
    table = factories.table_of(3)
    url = reverse(f"table:{name}", args=[table.token])
    response = client.get(url) if method == "get" else client.post(url, GAME | {"number": "1"})
    assert response["Cache-Control"] == "no-store, private"
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    # same-origin, not no-referrer: with no-referrer browsers send "Origin: null" and the
    # CSRF check refuses the page's own forms (found by the sign-off browser test).
    assert response["Referrer-Policy"] == "same-origin"
    # A guessed token's 404 too; the director's pages keep the defaults.
    assert "X-Robots-Tag" in client.get(reverse("table:sheet", args=["nope"]))
    assert "X-Robots-Tag" not in client.get(reverse("director:home"))
