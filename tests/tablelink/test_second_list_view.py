"""The second list's link (Table.control_token): its own list on the same pages, compared with the sheet."""

from __future__ import annotations

import io
import uuid

import pytest
import segno
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import ControlEntry, Game
from signoff.confirm import mark_on_paper
from standings.places import standings
from tests import factories
from tests.referees.helpers import full_table
from tournaments.models import Series

pytestmark = pytest.mark.django_db

HEARTS = {"declarer_seat": 2, "contract": "hearts", "tops": 1, "declarer_points": 70}


def post(client, token, number, *, view="table:sheet", client_id=None, htmx=False, **fields):
    data = {"number": number, "client_id": str(client_id or uuid.uuid4()), "tops_kind": "with"}
    data |= {k: ("on" if v is True else v) for k, v in fields.items() if v is not False}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse(view, args=[token]), data, **headers)


def test_the_second_link_opens_its_own_list_and_nothing_of_the_sheet(client):
    table = full_table(3)  # the sheet is complete and awaits the players' PINs
    page = client.get(reverse("table:sheet", args=[table.control_token])).content.decode()
    assert "second list" in page and "it counts nothing" in page
    assert "Deal 1" in page and 'name="declarer_seat"' in page  # its own first deal
    # No PIN form, no sign-off on paper, no dispute: those belong to the sheet's link,
    # which the second list's page never shows.
    assert 'name="pin"' not in page and "Call a referee" not in page
    assert table.token not in page


def test_a_deal_of_the_second_list_is_stored_there_once_and_counts_nothing(client):
    table = factories.table_of(3)
    factories.game(table, 1, **HEARTS)
    before = standings(table.series.tournament)
    entry_id = uuid.uuid4()
    for _attempt in range(2):  # a resend of the same deal
        response = post(client, table.control_token, 1, client_id=entry_id, **HEARTS)
        assert response.status_code == 302
    entry = ControlEntry.objects.get()
    assert (entry.table, entry.number, entry.score, entry.client_id) == (table, 1, 20, entry_id)
    assert Game.objects.count() == 1 and standings(table.series.tournament) == before
    # Each list keeps its own deal order (3.2.1).
    page = post(client, table.control_token, 3, **HEARTS).content.decode()
    assert "deal 2 comes before deal 3" in page and ControlEntry.objects.count() == 1


def test_both_pages_show_where_the_lists_differ(client):
    table = factories.table_of(3)
    factories.game(table, 1, **HEARTS)
    factories.game(table, 2, passed_out=True)
    post(client, table.control_token, 1, **HEARTS)
    sheet_page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    # A list behind the sheet says which deals it does not hold, not "no difference".
    assert "Second list: 1 deal entered, the sheet 2. It does not hold deals 2 yet" in sheet_page
    post(client, table.control_token, 2, **{**HEARTS, "declarer_seat": 3}, htmx=True)
    for token in (table.token, table.control_token):
        page = client.get(reverse("table:sheet", args=[token])).content.decode()
        assert "The second list differs at 1 deal" in page
        assert "passed out" in page and "Seat3: Hearts with 1 = 20, won +20" in page
        # Which fields differ, each with both values (sheet / second list).
        assert "Differs: passed out yes / no · declarer - / Seat3" in page


def test_the_second_list_corrects_its_own_last_deal(client):
    table = factories.table_of(3)
    factories.game(table, 1, **HEARTS)
    post(client, table.control_token, 1, **{**HEARTS, "declarer_seat": 3})
    entry = ControlEntry.objects.get()
    url = reverse("table:correct", args=[table.control_token])
    assert "Correct deal 1" in client.get(url).content.decode()
    response = post(client, table.control_token, 1, view="table:correct", version=entry.version, **HEARTS)
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.declarer_seat, entry.version) == (2, 2)
    assert Game.objects.get().version == 1  # the sheet untouched
    assert "no difference" in client.get(reverse("table:sheet", args=[table.token])).content.decode()


def test_a_confirmed_sheet_closes_the_second_list_too(client):
    table = full_table(3)
    mark_on_paper(table, by="test")
    page = client.get(reverse("table:sheet", args=[table.control_token])).content.decode()
    assert 'id="game-form"' not in page
    response = post(client, table.control_token, 1, **HEARTS)
    assert "only a referee can change it now" in response.content.decode()
    assert not ControlEntry.objects.exists()


def test_a_finished_series_answers_410_and_htmx_returns_to_the_same_list(client):
    table = factories.table_of(3)
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.FINISHED)
    response = post(client, table.control_token, 1, htmx=True, **HEARTS)
    assert response.status_code == 410
    assert response["HX-Redirect"] == reverse("table:sheet", args=[table.control_token])


def test_the_qr_code_of_the_second_link_holds_that_link(client):
    table = factories.table_of(3)
    svg = client.get(reverse("table:qr", args=[table.control_token])).content.decode()
    expected = segno.make(f"http://testserver/s/{table.control_token}/", error="m").svg_inline(scale=6, border=2)
    assert svg == expected


def test_replacing_a_tables_link_replaces_its_second_link_too(client):
    director = factories.user("director")
    t, series = factories.drawn(players=6, directors=[director])
    table = series.tables.get(number=1)
    old = table.control_token
    client.force_login(director)
    client.post(reverse("director:reissue_link", args=[t.pk, 1, 1]))
    table.refresh_from_db()
    assert table.control_token != old
    assert client.get(reverse("table:sheet", args=[old])).status_code == 404


def test_the_series_page_and_the_dashboard_name_the_tables_whose_lists_differ(client, django_assert_max_num_queries):
    director = factories.user("director")
    t, series = factories.drawn(players=7, directors=[director])
    table = series.tables.get(number=1)
    seat = 2 if table.size == 3 else 3
    factories.game(table, 1, **{**HEARTS, "declarer_seat": seat})
    post(client, table.control_token, 1, **{**HEARTS, "declarer_seat": seat, "declarer_points": 40})
    client.force_login(director)
    page = client.get(reverse("director:series", args=[t.pk, 1])).content.decode()
    assert "second list differs at deal 1" in page
    assert "second list differs (1)" in page  # the filter that finds such tables
    table_page = client.get(reverse("director:table", args=[t.pk, 1, 1])).content.decode()
    assert "The second list differs from the sheet at deal 1." in table_page
    assert reverse("table:sheet", args=[table.control_token]) in table_page
    dashboard = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "second list differs at 1 deal" in dashboard


def test_the_table_cards_carry_the_second_lists_code(client):
    director = factories.user("director")
    t, series = factories.drawn(players=6, directors=[director])
    client.force_login(director)
    response = client.get(reverse("director:series_cards_pdf", args=[t.pk, 1]))
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert text.count("Second list") == series.tables.count()


def test_the_second_list_may_correct_any_of_its_deals_the_sheet_only_its_last(client):
    table = factories.table_of(3)
    for number in (1, 2, 3):
        factories.game(table, number, **HEARTS)
        post(client, table.control_token, number, **({**HEARTS, "declarer_seat": 3} if number == 1 else HEARTS))
    page = client.get(reverse("table:sheet", args=[table.control_token])).content.decode()
    correct_one = reverse("table:correct", args=[table.control_token]) + "?deal=1"
    assert correct_one in page  # beside the difference
    assert "Correct deal 1" in client.get(correct_one).content.decode()
    first = ControlEntry.objects.get(number=1)
    response = post(client, table.control_token, 1, view="table:correct", version=first.version, **HEARTS)
    assert response.status_code == 302
    assert "no difference" in client.get(reverse("table:sheet", args=[table.token])).content.decode()
    # The sheet's link still corrects its last deal only (5.5.3).
    game = Game.objects.get(table=table, number=1)
    response = post(client, table.token, 1, view="table:correct", version=game.version, **HEARTS)
    assert "only the last deal can be corrected at the table" in response.content.decode()


def test_after_the_series_is_finished_the_box_no_longer_advises_correcting_the_last_deal(client):
    table = factories.table_of(3)
    factories.game(table, 1, **HEARTS)
    post(client, table.control_token, 1, **{**HEARTS, "declarer_seat": 3})
    advice = "if the sheet is wrong, correct its last deal"
    assert advice in client.get(reverse("table:sheet", args=[table.token])).content.decode()
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.FINISHED)
    for token in (table.token, table.control_token):
        page = client.get(reverse("table:sheet", args=[token])).content.decode()
        assert "The second list differs at 1 deal" in page
        assert advice not in page and "correct the deal here" not in page
        assert "Series 1 is finished: neither list is corrected at the table any more" in page


def test_a_second_phone_on_the_second_list_is_not_told_that_the_office_counts_it(client):
    """Two phones on the second list's link: its entries count nothing and no difference
    is kept (scoring.entry.taken_by), so the phone is told to correct its own list."""
    table = factories.table_of(3)
    factories.control_entry(table, 1, **HEARTS)
    response = post(client, table.control_token, 1, htmx=True, **(HEARTS | {"declarer_points": 80}))
    assert response.status_code == 409
    page = response.content.decode()
    assert "The second list keeps the other device's entry and counts nothing" in page
    assert "declarer&#x27;s card points: 70 on the second list, 80 from this phone" in page
    assert "the office counts the difference" not in page
