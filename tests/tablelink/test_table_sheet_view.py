"""The scorekeeper's table link: enter deals, see the rule when refused, never twice."""

from __future__ import annotations

import re
import uuid

import pytest
from django.db import connection
from django.urls import reverse

from scoring.models import Game
from signoff.models import SeatConfirmation
from signoff.pins import seat_pin
from tablelink.views import _open_link
from tests import factories
from tests.referees.helpers import full_table

pytestmark = pytest.mark.django_db


def post_game(client, table, number, *, client_id=None, htmx=False, **fields):
    data = {"number": number, "client_id": str(client_id or uuid.uuid4()), "tops_kind": "with"}
    for key, value in fields.items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        else:
            data[key] = value
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("table:sheet", args=[table.token]), data, **headers)


def test_the_link_opens_its_table_with_the_form_for_the_first_deal(client):
    table = factories.table_of(4)
    response = client.get(reverse("table:sheet", args=[table.token]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Deal 1" in page
    assert "Seat1 deals" in page and "and sits out" in page
    # Seat 1 deals the first game and sits out at a table of four (3.2.7).
    assert 'name="declarer_seat" value="1"' not in page
    for seat in (2, 3, 4):
        assert f'name="declarer_seat" value="{seat}"' in page


def test_an_unknown_token_is_404(client):
    assert client.get(reverse("table:sheet", args=["not-a-token"])).status_code == 404


def test_the_link_and_its_players_take_one_query(client, django_assert_num_queries):
    """Every phone request starts with the table and its seated players (one join)."""
    table = factories.table_of(4)
    with django_assert_num_queries(1):
        link = _open_link(table.token)
    assert link.table == table and link.table.series.tournament == table.series.tournament
    assert link.players == {1: "Seat1", 2: "Seat2", 3: "Seat3", 4: "Seat4"} and not link.control
    # The second list's link opens the same table, as its own list, in one query too.
    with django_assert_num_queries(1):
        second = _open_link(table.control_token)
    assert second.table == table and second.players == link.players and second.control


def test_a_table_without_seats_still_opens(client):
    table = factories.table_of(3)
    table.seats.all().delete()
    assert client.get(reverse("table:sheet", args=[table.token])).status_code == 200


def test_a_valid_game_is_valued_by_the_engine_and_stored(client):
    table = factories.table_of(3)
    response = post_game(client, table, 1, declarer_seat=2, contract="hearts", tops=1, declarer_points=70, bid=50)
    assert response.status_code == 302
    assert "Deal 1 entered: -100." in client.get(response.url).content.decode()
    game = Game.objects.get(table=table)
    assert (game.number, game.declarer_seat, game.value, game.score, game.overbid) == (1, 2, 50, -100, True)
    # Stored as a code, in no phone's language; shown translated.
    assert game.entered_by == "table-link" and game.entered_by_label == "table link"
    table.series.refresh_from_db()
    assert table.series.status == "running"


def test_the_opponents_points_can_be_entered_instead(client):
    table = factories.table_of(3)
    post_game(client, table, 1, declarer_seat=1, contract="grand", tops=1, opponents_points=45)
    assert Game.objects.get(table=table).declarer_points == 75


def test_a_refused_game_shows_the_rule_once_and_stores_nothing(client):
    table = factories.table_of(3)
    response = post_game(client, table, 1, declarer_seat=1, contract="grand", tops=5, declarer_points=70)
    assert response.status_code == 422
    assert response.content.decode().count("2.4.3: a grand has at most 4 tops, not 5") == 1
    assert not Game.objects.exists()


def test_a_refusal_of_the_office_is_shown_once_instead_of_the_value(client):
    """A valid game the office cannot take (3.2.1: deals in turn) shows that rule, once."""
    table = factories.table_of(3)
    response = post_game(client, table, 2, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    assert response.status_code == 422
    page = response.content.decode()
    assert page.count("deal 1 comes before deal 2") == 1
    assert 'class="value' not in page


def test_a_null_below_the_bid_is_refused_with_3_4_4(client):
    table = factories.table_of(3)
    response = post_game(client, table, 1, declarer_seat=1, contract="null", ouvert=True, declarer_tricks=0, bid=50)
    assert response.status_code == 422
    assert "3.4.4" in response.content.decode()
    assert not Game.objects.exists()


def test_the_dealer_at_four_cannot_be_chosen(client):
    table = factories.table_of(4)
    response = post_game(client, table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    assert response.status_code == 422
    assert not Game.objects.exists()


def test_passed_out_is_one_tap(client):
    table = factories.table_of(3)
    response = post_game(client, table, 1, passed_out=True)
    assert response.status_code == 302
    game = Game.objects.get(table=table)
    assert game.passed_out and game.score == 0


def test_a_double_submit_never_makes_two_games(client):
    table = factories.table_of(3)
    same = uuid.uuid4()
    fields = {"declarer_seat": 1, "contract": "clubs", "tops": 2, "declarer_points": 80}
    first = post_game(client, table, 1, client_id=same, **fields)
    second = post_game(client, table, 1, client_id=same, **fields)
    assert first.status_code == second.status_code == 302
    assert Game.objects.filter(table=table).count() == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_a_second_phone_entering_the_same_deal_is_told_and_gets_the_new_form(client, htmx):
    """Its form was stale: the deal is the other device's, the answer the form now due."""
    table = factories.table_of(3)
    post_game(client, table, 1, declarer_seat=1, contract="clubs", tops=2, declarer_points=80)
    response = post_game(client, table, 1, htmx=htmx, declarer_seat=2, contract="grand", tops=1, declarer_points=61)
    assert response.status_code == 409
    page = response.content.decode()
    assert page.count("Deal 1 was entered on another device") == 1
    assert "Deal 2" in page and 'name="number" value="2"' in page  # the new form, unbound
    assert "errorlist" not in page
    assert Game.objects.get(table=table).contract == "clubs"


def test_deals_are_entered_in_order(client):
    table = factories.table_of(3)
    response = post_game(client, table, 3, passed_out=True)
    assert response.status_code == 422
    assert "deal 1 comes before deal 3" in response.content.decode()


def test_no_deal_beyond_the_series(client):
    table = factories.table_of(3, rounds_per_series=1)
    for n in (1, 2, 3):
        post_game(client, table, n, passed_out=True)
    response = post_game(client, table, 4, passed_out=True)
    assert response.status_code == 422
    assert Game.objects.filter(table=table).count() == 3
    assert "All deals are entered" in client.get(reverse("table:sheet", args=[table.token])).content.decode()


def test_htmx_entry_returns_the_sheet_with_the_next_form(client):
    table = factories.table_of(3)
    response = post_game(client, table, 1, htmx=True, declarer_seat=1, contract="spades", tops=1, declarer_points=61)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="sheet"' in page and "Deal 2" in page and "<html" not in page
    assert "Deal 1 entered: +22." in page


def test_the_sheet_shows_running_totals(client):
    table = factories.table_of(3)
    post_game(client, table, 1, declarer_seat=1, contract="grand", tops=2, declarer_points=75)  # +72
    post_game(client, table, 2, declarer_seat=1, contract="diamonds", tops=1, declarer_points=40)  # -36
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert ">72<" in page and ">36<" in page


def test_the_preview_shows_value_and_score_without_saving(client):
    table = factories.table_of(3)
    url = reverse("table:preview", args=[table.token])
    data = {"number": 1, "declarer_seat": 1, "contract": "hearts", "tops": 2, "hand": "on", "declarer_points": 95}
    page = client.post(url, data).content.decode()
    assert "50" in page and "+50" in page
    page = client.post(url, data | {"tops": 12}).content.decode()
    assert "2.4.3" in page
    assert not Game.objects.exists()


def test_the_last_deal_can_be_corrected_with_a_version_check(client):
    table = factories.table_of(3)
    post_game(client, table, 1, declarer_seat=1, contract="grand", tops=2, declarer_points=75)
    game = Game.objects.get()
    url = reverse("table:correct", args=[table.token])
    assert client.get(url).status_code == 200
    data = {
        "number": 1,
        "version": game.version,
        "declarer_seat": 2,
        "contract": "grand",
        "tops": 2,
        "tops_kind": "with",
        "declarer_points": 75,
    }
    response = client.post(url, data)
    assert response.status_code == 302
    assert "Deal 1 corrected: +72." in client.get(response.url).content.decode()
    game.refresh_from_db()
    assert (game.declarer_seat, game.version) == (2, 2)
    # A second phone still holding version 1 is told, not silently overwriting.
    response = client.post(url, data | {"declarer_seat": 3})
    assert response.status_code == 422
    assert "changed on another device" in response.content.decode()
    game.refresh_from_db()
    assert game.declarer_seat == 2


def test_a_link_never_reads_or_writes_another_table(client):
    mine = factories.table_of(3)
    other = factories.table_of(3)
    factories.game(other, 1, declarer_seat=1, contract="grand", tops=4, declarer_points=120, declarer_tricks=10)
    page = client.get(reverse("table:sheet", args=[mine.token])).content.decode()
    assert "No deal entered yet" in page
    post_game(client, mine, 1, passed_out=True)
    assert Game.objects.filter(table=other).count() == 1 and Game.objects.get(table=other).score > 0
    assert client.get(reverse("table:correct", args=[mine.token])).status_code == 200


def test_the_qr_code_encodes_the_link(client):
    table = factories.table_of(3)
    response = client.get(reverse("table:qr", args=[table.token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")


def test_a_finished_series_takes_no_more_games(client):
    table = factories.table_of(3)
    table.series.status = "finished"
    table.series.save()
    response = post_game(client, table, 1, passed_out=True)
    # The link is closed with the series (tablelink/links.py): 410 Gone, nothing stored.
    assert response.status_code == 410
    assert "5.5.3" in response.content.decode()
    assert not Game.objects.exists()


def test_correcting_a_sheet_some_players_confirmed_says_they_confirm_again(client):
    table = full_table(3)
    client.post(reverse("table:confirm", args=[table.token]), {"seat": 1, "pin": seat_pin(table, 1)})
    assert SeatConfirmation.objects.filter(table=table).count() == 1
    last = table.games.order_by("-number").first()
    data = {"number": last.number, "version": last.version, "tops_kind": "with"}
    data |= {"declarer_seat": 1, "contract": "grand", "tops": 1, "declarer_points": 70}
    response = client.post(reverse("table:correct", args=[table.token]), data, follow=True)
    page = response.content.decode()
    assert f"Deal {last.number} corrected: +48." in page
    assert "The sheet has changed: every player confirms it again (5.5.3)." in page


def test_an_entry_id_of_another_table_answers_nothing_of_that_table(client):
    """The phone's entry id is looked up at the link's own table only: an id of another
    table (reused or forged) is refused, and that table's deal is not shown."""
    other = factories.table_of(3)
    entry_id = uuid.uuid4()
    post_game(client, other, 1, client_id=entry_id, declarer_seat=2, contract="grand", tops=1, declarer_points=75)
    table = factories.table_of(3)
    response = post_game(
        client, table, 1, client_id=entry_id, declarer_seat=3, contract="hearts", tops=1, declarer_points=70
    )
    assert response.status_code == 422  # not "taken": this table has no deal 1
    assert "deal 1 was just entered from another device" in response.content.decode()
    assert not Game.objects.filter(table=table).exists() and Game.objects.get(table=other).contract == "grand"


def test_the_service_worker_is_served_under_the_table_links(client):
    """Served from /s/ (not /static/) so it may control a link page: scope /s/<token>/."""
    response = client.get(reverse("table:worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/s/"
    assert response["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.content


def test_the_link_page_gives_the_phone_its_seating_and_no_value(client):
    """What the next deal's form needs offline: the link, the table size, the deals and
    the players by seat (3.2.1, 3.2.7), as data; the page has no inline script."""
    table = factories.table_of(4)
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert f'data-link="{table.entry_url()}"' in page and 'data-worker="/s/worker.js"' in page
    assert 'data-size="4"' in page and f'data-deals="{table.deals}"' in page
    assert '<script id="table-players" type="application/json">["Seat1", "Seat2", "Seat3", "Seat4"]</script>' in page
    assert "waiting to send · valued when sent" in page
    scripts = re.findall(r"<script(?![^>]*\b(?:src|type=\"application/json\"))[^>]*>", page)
    assert not scripts and " onclick=" not in page


def test_a_null_game_with_tops_is_refused_with_2_4_3_not_stored_without_them(client):
    table = factories.table_of(3)
    response = post_game(client, table, 1, declarer_seat=1, contract="null", tops=2, declarer_tricks=0)
    assert response.status_code == 422
    assert "2.4.3: null games have no tops" in response.content.decode()
    assert not Game.objects.exists()
    # The with/without choice alone means nothing at null and is dropped.
    assert post_game(client, table, 1, declarer_seat=1, contract="null", declarer_tricks=0).status_code == 302
    assert Game.objects.get(table=table).tops_kind == ""


@pytest.mark.parametrize(
    ("points", "tricks"),
    [(0, 5), (30, 0), (60, 9), (120, 3), (60, 8)],
)
def test_card_points_the_tricks_cannot_carry_are_refused_with_1_2_2(client, points, tricks):
    table = factories.table_of(3)
    response = post_game(
        client, table, 1, declarer_seat=1, contract="clubs", tops=1, declarer_points=points, declarer_tricks=tricks
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert f"1.2.2: card points {points} and tricks {tricks} do not fit" in page
    assert not Game.objects.exists()


def test_schwarz_announced_lost_on_card_points_is_stored_without_tricks(client):
    table = factories.table_of(3)
    fields = {"declarer_seat": 1, "contract": "hearts", "tops": 1, "hand": True, "schwarz_announced": True}
    assert post_game(client, table, 1, **fields, declarer_points=100).status_code == 302
    game = Game.objects.get(table=table)
    assert (game.won, game.value, game.score, game.declarer_tricks) == (False, 70, -140, None)
    # At all 120 card points only the tricks tell: the form asks for them.
    response = post_game(client, table, 2, **fields, declarer_points=120)
    assert response.status_code == 422
    assert "5.2.8: required when schwarz is announced or ouvert is played" in response.content.decode()


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("bid", "19", "3.3.2, 5.6.1: 19 is not a game value; bids are game values from 18 to 264"),
        ("declarer_points", "x", "1.2.2: Enter a whole number."),
        ("declarer_points", "121", "1.2.2: 121 is not between 0 and 120 card points"),
        ("declarer_points", "-1", "1.2.2: Ensure this value is greater than or equal to 0."),
        ("opponents_points", "130", "1.2.2: Ensure this value is less than or equal to 120."),
        ("declarer_tricks", "x", "4.4.1: Enter a whole number."),
        ("tops", "x", "2.4.3: Enter a whole number."),
        ("contract", "bridge", "2.1.1: Select a valid choice. bridge is not one of the available choices."),
        ("declarer_seat", "1", "3.2.7: the dealer sits out at a table of four and cannot be declarer"),
        ("declarer_seat", "x", "3.1.1, 3.2.7: Enter a whole number."),
        ("tops_kind", "?", "2.4.1: Select a valid choice. ? is not one of the available choices."),
    ],
)
def test_django_s_own_field_errors_cite_the_paragraph(client, field, value, shown):
    table = factories.table_of(4)  # seat 1 deals deal 1 and sits out (3.2.7)
    fields = {"declarer_seat": 2, "contract": "grand", "tops": 1, "declarer_points": 70} | {field: value}
    response = post_game(client, table, 1, **fields)
    assert response.status_code == 422
    assert shown in response.content.decode()
    assert not Game.objects.exists()


def test_a_deal_entered_from_the_phone_costs_few_queries(client, django_assert_max_num_queries):
    """Every deal of the hall comes through here (about 50 a second at three times the hall):
    the table and its players (1), under the write lock the table as it is now, with the
    list's last deal and this client id's entry in one query (1), the insert, the sheet and
    the second list to show (2), the deals another device sent (1), the referees' marks
    (a subquery of the sheet's) and the transaction; the sign-off is known from the lock.
    PostgreSQL adds the table's row lock."""
    table = factories.table_of(3)
    fields = {"declarer_seat": 1, "contract": "clubs", "tops": 2, "declarer_points": 80}
    first = post_game(client, table, 1, htmx=True, **fields).content.decode()
    # As the phone sends it: the sheet's version its page shows (the lean answer's condition).
    shown = re.search(r'name="sheet_version" value="([^"]+)"', first).group(1)
    budget = 8 if connection.vendor == "sqlite" else 9
    with django_assert_max_num_queries(budget) as captured:
        response = post_game(client, table, 2, htmx=True, sheet_version=shown, **fields)
    assert response.status_code == 200 and "Deal 2 entered" in response.content.decode()
    assert not any(
        "referees_signoff" in query["sql"] and "tournaments_table" not in query["sql"] for query in captured
    )


def test_the_number_boxes_bring_the_numeric_keypad_and_the_tops_box_starts_at_one(client):
    """Every number box of the entry form opens the phone's number keypad, and the tops box
    says what the rules allow (1-11: 0 tops are refused, 2.4.3), not the column's 0."""
    table = factories.table_of(3)
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    for name in ("tops", "declarer_points", "opponents_points", "declarer_tricks"):
        box = re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)
        assert 'inputmode="numeric"' in box, box
    tops = re.search(r'<input[^>]*name="tops"[^>]*>', page).group(0)
    assert 'min="1"' in tops and 'min="0"' not in tops
