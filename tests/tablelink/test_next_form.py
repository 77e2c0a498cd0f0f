"""The next deal's form drawn from its skeleton (tablelink.next_form) is the form the template
draws with a new GameForm: same markup for every list, size, deal, dealer and language, and
names, links and tokens escaped where they go."""

from __future__ import annotations

import re
import uuid

import pytest
from django.http import HttpRequest
from django.middleware.csrf import _unmask_cipher_token, get_token
from django.template.loader import render_to_string
from django.utils import translation

from scoring.models import Game
from skat.sheet import active_seats, dealer_seat
from tablelink import next_form
from tablelink.links import Link
from tests import factories
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def request() -> HttpRequest:
    made = HttpRequest()
    made.method = "POST"
    return made


def link_of(table: Table, players: dict[int, str], *, control: bool = False) -> Link:
    return Link(table.control_token if control else table.token, table, players, control=control)


def template_form(made: HttpRequest, link: Link, number: int, client_id: str, *, oob: bool, version: str) -> str:
    """_game_form.html as the whole sheet renders it, with a new form of this link's class."""
    size = link.table.size
    form = link.form_class(
        table=link.table,
        players={seat: name for seat, name in link.players.items() if seat in active_seats(number, size)},
        initial={"number": number, "client_id": client_id, "tops_kind": Game.TopsKind.WITH},
    )
    context = {
        "form": form,
        "dealer": link.players.get(dealer_seat(number, size)),
        "table": link.table,
        "link": link.token,
        "oob": oob,
        "csrf_token": get_token(made),
        "sheet_version": version,
    }
    return render_to_string("tablelink/_game_form.html", context)


def csrf_of(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def unmasked(html: str) -> str:
    """The markup with the CSRF token's secret instead of its mask (new at every get_token)."""
    return html.replace(csrf_of(html), _unmask_cipher_token(csrf_of(html)))


def client_id_of(html: str) -> str:
    return re.search(r'name="client_id" value="([0-9a-f-]{36})"', html).group(1)


@pytest.mark.parametrize("oob", [True, False], ids=["oob", "in-place"])
@pytest.mark.parametrize("control", [False, True], ids=["sheet", "second-list"])
@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_skeleton_draws_the_templates_form(size, control, oob, language):
    table = factories.table_of(size)
    players = {1: "Anna <b>&</b>", 2: 'Bernd "Bu" O\'Hara', 3: "Qz7nfP1fn7zQ", 4: "Dora"}
    link = link_of(table, {seat: players[seat] for seat in range(1, size + 1)}, control=control)
    with translation.override(language):
        for number in range(1, 3 * size + 2):
            made = request()
            version = f"{number}.{size}.{number * 7}" if control else str(40 + number)
            drawn = str(next_form.render(made, link, number, version, oob=oob))
            expected = template_form(made, link, number, client_id_of(drawn), oob=oob, version=version)
            assert unmasked(drawn) == unmasked(expected), number
            assert f'value="{number}"' in drawn
            assert f'name="sheet_version" value="{version}"' in drawn


def test_each_form_has_a_new_entry_id_and_the_requests_csrf_token():
    table = factories.table_of(4)
    link = link_of(table, {n: f"Seat{n}" for n in range(1, 5)})
    first, second = request(), request()
    one, other = str(next_form.render(first, link, 2, "3")), str(next_form.render(second, link, 2, "3"))
    assert client_id_of(one) != client_id_of(other)
    uuid.UUID(client_id_of(one))
    # The token each request's CSRF check accepts: its own cookie's secret, masked.
    assert _unmask_cipher_token(csrf_of(one)) == first.META["CSRF_COOKIE"]
    assert _unmask_cipher_token(csrf_of(other)) == second.META["CSRF_COOKIE"]
    assert first.META["CSRF_COOKIE"] != second.META["CSRF_COOKIE"]


def test_a_seat_without_a_player_names_no_dealer():
    table = factories.table_of(4)
    link = link_of(table, {1: "Anna", 2: "Bernd", 3: "Carl"})  # seat 4 deals deal 4 and sits out
    made = request()
    drawn = str(next_form.render(made, link, 4, "9"))
    assert unmasked(drawn) == unmasked(template_form(made, link, 4, client_id_of(drawn), oob=True, version="9"))
    assert "deals" not in drawn.split("</h2>")[0]
