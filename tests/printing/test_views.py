"""The director's printed documents: who gets them, what they are called, bad parameters, queries."""

from __future__ import annotations

import io
import random
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from office.demo import random_game
from scoring.models import Game
from signoff.models import SignOff
from signoff.pins import seat_pin
from tests import factories
from tournaments.models import Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(director):
    """A tournament with 11 players drawn (two tables of four, one of three) and a few deals."""
    t, series = factories.drawn(players=11, name="Großes Open", directors=[director])
    rng = random.Random(1)
    games = []
    for table in series.tables.all():
        for number in range(1, 6):
            game = random_game(rng, number, table.size)
            game.table = table
            games.append(game)
    Game.objects.bulk_create(games)
    return t, series


def text_of(response) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


def urls(t, n=1, table=1):
    return {
        "series_sheets_pdf": reverse("director:series_sheets_pdf", args=[t.pk, n]),
        "series_cards_pdf": reverse("director:series_cards_pdf", args=[t.pk, n]),
        "series_pin_slips_pdf": reverse("director:series_pin_slips_pdf", args=[t.pk, n]),
        "series_settlement_pdf": reverse("director:series_settlement_pdf", args=[t.pk, n]),
        "table_sheet_pdf": reverse("director:table_sheet_pdf", args=[t.pk, n, table]),
        "table_settlement_pdf": reverse("director:table_settlement_pdf", args=[t.pk, n, table]),
        "standings_pdf": reverse("director:standings_pdf", args=[t.pk]),
    }


FILENAMES = {
    "series_sheets_pdf": "grosses-open-series-1-sheets-blank.pdf",
    "series_cards_pdf": "grosses-open-series-1-table-cards.pdf",
    "series_pin_slips_pdf": "grosses-open-series-1-pin-slips.pdf",
    "series_settlement_pdf": "grosses-open-series-1-settlement.pdf",
    "table_sheet_pdf": "grosses-open-series-1-table-1-sheet-blank.pdf",
    "table_settlement_pdf": "grosses-open-series-1-table-1-settlement.pdf",
    "standings_pdf": "grosses-open-standings.pdf",
}


@pytest.mark.parametrize("name", FILENAMES)
def test_the_director_gets_each_document_with_a_sensible_name(client, running, name):
    t, _series = running
    response = client.get(urls(t)[name])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{FILENAMES[name]}"'
    assert response.content.startswith(b"%PDF")
    assert text_of(response)


@pytest.mark.parametrize("name", FILENAMES)
def test_others_are_refused(client, running, name):
    t, _series = running
    url = urls(t)[name]
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and "/login" in response["Location"]
    client.force_login(factories.user("stranger"))
    assert client.get(url).status_code == 403


def test_filled_sheets_of_a_series(client, running):
    t, series = running
    response = client.get(urls(t)["series_sheets_pdf"] + "?form=filled")
    assert response["Content-Disposition"] == 'inline; filename="grosses-open-series-1-sheets-filled.pdf"'
    pages = text_of(response)
    assert len(pages) == 3
    first = series.tables.get(number=1).games.order_by("number").first()
    if not first.passed_out:
        assert (f"+{first.score}" if first.score > 0 else str(first.score)) in pages[0]


def test_one_filled_table_sheet(client, running):
    t, _series = running
    response = client.get(urls(t, table=3)["table_sheet_pdf"] + "?form=filled")
    (page,) = text_of(response)
    assert "Table 3" in page and "3 players" in page


@pytest.mark.parametrize("form", ["", "Filled", "empty", "blank;"])
def test_a_bad_form_is_a_clear_400(client, running, form):
    t, _series = running
    for name in ("series_sheets_pdf", "table_sheet_pdf"):
        response = client.get(urls(t)[name], {"form": form})
        assert response.status_code == 400
        assert "form: choose blank or filled." in response.content.decode()


@pytest.mark.parametrize("value", ["abc", "0", "2", "-1", "1.0", "²", "1" * 5000])
def test_a_bad_series_for_the_ranking_list_is_a_clear_400(client, running, value):
    t, _series = running
    response = client.get(urls(t)["standings_pdf"], {"series": value})
    assert response.status_code == 400
    assert f"series: {value} is not a drawn series of this tournament (drawn: 1)." in response.content.decode()


def test_the_ranking_list_of_one_series(client, running):
    t, _series = running
    response = client.get(urls(t)["standings_pdf"], {"series": "1"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'inline; filename="grosses-open-standings-series-1.pdf"'
    assert "series 1 only" in text_of(response)[0]


def test_unknown_series_and_tables_are_404(client, running):
    t, _series = running
    assert client.get(urls(t, n=2)["series_sheets_pdf"]).status_code == 404
    assert client.get(urls(t, table=9)["table_sheet_pdf"]).status_code == 404
    assert client.get(urls(t, table=9)["table_settlement_pdf"]).status_code == 404
    assert client.get(urls(t, n=2)["series_pin_slips_pdf"]).status_code == 404


def test_series_documents_take_a_fixed_number_of_queries(client, director, django_assert_max_num_queries):
    """Eleven players or forty-three: the same queries (session, user, tournament, director, series + the PDF's)."""
    counts = []
    for players in (11, 43):
        t, series = factories.drawn(players=players, directors=[director])
        for table in series.tables.all():
            factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=70)
        with django_assert_max_num_queries(9) as captured:
            assert client.get(urls(t)["series_sheets_pdf"] + "?form=filled").status_code == 200
        counts.append(len(captured))
        with django_assert_max_num_queries(7):
            assert client.get(urls(t)["series_cards_pdf"]).status_code == 200
        with django_assert_max_num_queries(7) as captured:
            assert client.get(urls(t)["series_pin_slips_pdf"]).status_code == 200
        counts.append(len(captured))
        with django_assert_max_num_queries(8):  # + the series' table numbers, to check ?table=
            assert client.get(urls(t)["series_pin_slips_pdf"], {"table": "2"}).status_code == 200
        with django_assert_max_num_queries(13):
            assert client.get(urls(t)["series_settlement_pdf"]).status_code == 200
    assert counts[:2] == counts[2:]


def test_the_series_page_and_each_tables_page_link_the_documents(client, running):
    t, _series = running
    page = client.get(reverse("director:series", args=[t.pk, 1])).content.decode()
    links = urls(t)
    assert links["series_sheets_pdf"] + "?form=blank" in page
    assert links["series_sheets_pdf"] + "?form=filled" in page
    assert links["series_cards_pdf"] in page
    assert f'href="{links["series_pin_slips_pdf"]}"' in page
    assert links["series_settlement_pdf"] in page
    for table in (1, 2, 3):  # one table's new slips, beside its "New link" button, on its own page
        table_page = client.get(reverse("director:table", args=[t.pk, 1, table])).content.decode()
        assert f"{links['series_pin_slips_pdf']}?table={table}" in table_page
        assert urls(t, table=table)["table_sheet_pdf"] + "?form=filled" in table_page
        assert urls(t, table=table)["table_settlement_pdf"] in table_page
    standings = client.get(reverse("director:standings", args=[t.pk]), {"series": 1}).content.decode()
    assert links["standings_pdf"] + "?series=1" in standings


@pytest.mark.parametrize("value", ["abc", "2", "²", "1" * 5000])
def test_a_bad_series_on_the_standings_pages_shows_the_overall_standings(client, running, value):
    """The page's series filter: anything but a drawn series number is the overall list."""
    t, _series = running
    t.standings_public = True
    t.save()
    staff = client.get(reverse("director:standings", args=[t.pk]), {"series": value})
    client.logout()
    public = client.get(reverse("public:standings", args=[t.pk]), {"series": value})
    assert staff.status_code == public.status_code == 200
    assert staff.context["series_number"] is None and public.context["series_number"] is None


def test_the_public_standings_do_not_link_the_director_documents(client, running):
    t, _series = running
    t.standings_public = True
    t.save()
    client.logout()
    page = client.get(reverse("public:standings", args=[t.pk])).content.decode()
    assert reverse("director:standings_pdf", args=[t.pk]) not in page
    assert reverse("director:fee_account", args=[t.pk]) not in page
    assert reverse("public:standings_pdf", args=[t.pk]) in page  # the full list, made for the public


def test_the_fee_account_sums_what_the_tables_collect(client, running):
    t, _series = running
    t.entry_fee = Decimal("10.00")
    t.list_fee = Decimal("2.00")
    t.prize_pool_percent = 50
    t.save()
    t.registrations.filter(player__seats__table__number=1).update(paid=True)  # four paid at registration
    for place, amount in enumerate(["2.00", "1.00", "1.00", "0"], start=1):
        t.table_money.create(table_size=4, place=place, amount=amount)
    response = client.get(reverse("director:fee_account", args=[t.pk]))
    assert response.status_code == 200
    total = response.context["total"]
    assert total.list_fees == Decimal("22.00")  # 11 players x 2.00
    assert total.entry_fees == Decimal("110.00")  # 4 at registration, 7 at their tables
    assert total.table_money == Decimal("8.00")  # two tables of four
    distribution = response.context["distribution"]
    assert distribution.kept == total.collected - Decimal("8.00")
    assert distribution.prize_pool + distribution.organiser == distribution.kept
    assert f"{distribution.prize_pool:.2f}" in response.content.decode()


def rules_post(t, **extra):
    data = {
        "name": t.name,
        "date": "2026-11-23",
        "venue": "",
        "series_count": 2,
        "rounds_per_series": 12,
        "entry_fee": "10",
        "list_fee": "2",
        "prize_pool_percent": 90,
        "fees-TOTAL_FORMS": 0,
        "fees-INITIAL_FORMS": 0,
        "passed-TOTAL_FORMS": 1,
        "passed-INITIAL_FORMS": 0,
        "passed-0-table_size": 3,
        "passed-0-from_passed_out": 4,
        "passed-0-amount": "0.50",
        "money-TOTAL_FORMS": 2,
        "money-INITIAL_FORMS": 0,
        "money-0-table_size": 4,
        "money-0-place": 1,
        "money-0-amount": "2.00",
        "money-1-table_size": 3,
        "money-1-place": 2,
        "money-1-amount": "1.00",
    }
    data.update(extra)
    return data


def test_the_rules_page_saves_passed_out_fees_and_table_money(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:edit", args=[t.pk])
    page = client.get(url).content.decode()
    assert "passed-TOTAL_FORMS" in page and "money-TOTAL_FORMS" in page
    assert client.post(url, rules_post(t)).status_code == 302
    rules = t.fee_rules()
    assert rules.passed_out_steps == {3: ((4, Decimal("0.50")),)}
    assert rules.table_money == {4: {1: Decimal("2.00")}, 3: {2: Decimal("1.00")}}


def test_a_place_beyond_the_table_is_refused_and_nothing_saved(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:edit", args=[t.pk])
    response = client.post(url, rules_post(t, **{"money-1-place": 4}))
    assert response.status_code == 200
    assert "A table of 3 has no place 4." in response.content.decode()
    assert not t.table_money.exists() and not t.passed_out_fees.exists()


def test_the_admin_edits_the_money_tables(client):
    t = factories.tournament()
    t.table_money.create(table_size=4, place=1, amount="2.00")
    t.passed_out_fees.create(table_size=3, from_passed_out=4, amount="0.50")
    client.force_login(factories.user("admin", superuser=True))
    page = client.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert 'name="table_money-0-amount"' in page and 'value="2.00"' in page
    assert 'name="passed_out_fees-0-from_passed_out"' in page


def test_the_table_cards_print_no_pin_and_each_player_gets_his_own_slip(client, running):
    """Every player confirms the sheet himself (5.5.3): his PIN is on his own slip, not on
    the card the whole table reads."""
    t, series = running
    cards = "\n".join(text_of(client.get(urls(t)["series_cards_pdf"])))
    slips = "\n".join(text_of(client.get(urls(t)["series_pin_slips_pdf"])))
    assert "PIN" not in cards
    # The players' names ("Player 3537") and the links' random tokens may hold any four
    # digits by chance: what is left of the cards without them must hold no PIN.
    card_rest = cards
    for table in series.tables.all():
        card_rest = card_rest.replace(table.token, "")
        for seat in table.seats.select_related("player"):
            card_rest = card_rest.replace(seat.player.name, "")
    for table in series.tables.all():
        for seat in table.seats.select_related("player"):
            pin = seat_pin(table, seat.number)
            assert f"Table {table.number} · Seat {seat.number}\n{seat.player.name}\nPIN\n{pin}\n" in slips
            assert not re.search(rf"(?<!\d){pin}(?!\d)", card_rest)


def test_one_tables_pin_slips(client, running):
    """After a table's link is replaced its PINs change: the director prints that table's slips only."""
    t, series = running
    table = series.tables.get(number=2)
    old = {seat: seat_pin(table, seat) for seat in range(1, table.size + 1)}
    assert client.post(reverse("director:reissue_link", args=[t.pk, 1, 2])).status_code == 302
    table.refresh_from_db()
    response = client.get(urls(t)["series_pin_slips_pdf"], {"table": "2"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'inline; filename="grosses-open-series-1-table-2-pin-slips.pdf"'
    (page,) = text_of(response)
    assert page.count("PIN\n") == table.size and "Table 1 " not in page and "Table 3 " not in page
    for seat in table.seats.select_related("player"):
        pin = seat_pin(table, seat.number)
        assert f"Table 2 · Seat {seat.number}\n{seat.player.name}\nPIN\n{pin}\n" in page
        if pin != old[seat.number]:
            assert f"PIN\n{old[seat.number]}\n" not in page
    everybody = client.get(urls(t)["series_pin_slips_pdf"], {"table": ""})  # empty: the whole series
    assert "".join(text_of(everybody)).count("PIN\n") == 11


@pytest.mark.parametrize("value", ["abc", "0", "4", "-1", "1.0", " 1", "²", "1" * 5000])
def test_a_bad_table_for_the_pin_slips_is_a_clear_400(client, running, value):
    t, _series = running
    response = client.get(urls(t)["series_pin_slips_pdf"], {"table": value})
    assert response.status_code == 400
    assert f"table: {value} is not a table of series 1 (its tables: 1 to 3)." in response.content.decode()


def charted(pages: list[str]) -> int:
    """The number of running-score charts in the ranking list's appendix."""
    return sum(
        page.count(" game points\n") + page.endswith(" game points") for page in pages if "Running scores" in page
    )


def test_the_ranking_list_appends_the_running_scores_of_the_first_places(client, running, monkeypatch):
    from printing import views as print_views

    t, _series = running
    url = urls(t)["standings_pdf"]
    monkeypatch.setitem(print_views.APPENDIX, "1", 5)  # the first 100 places, here the first 5
    default = text_of(client.get(url))
    assert len(default) == 2 and default[1].startswith("Running scores: overall") and charted(default) == 5
    assert text_of(client.get(url, {"appendix": "1"})) == default == text_of(client.get(url, {"appendix": ""}))
    everybody = text_of(client.get(url, {"appendix": "all"}))
    assert len(everybody) == 3 and charted(everybody) == 11
    assert len(text_of(client.get(url, {"appendix": "0"}))) == 1
    one_series = text_of(client.get(url, {"appendix": "all", "series": "1"}))
    assert one_series[1].startswith("Running scores: series 1 only") and charted(one_series) == 11


@pytest.mark.parametrize("value", ["2", "ALL", "yes", "-1", "none", "1 "])
def test_a_bad_appendix_is_a_clear_400(client, running, value):
    t, _series = running
    response = client.get(urls(t)["standings_pdf"], {"appendix": value})
    assert response.status_code == 400
    assert (
        f"appendix: {value} is not a choice: 0 (no charts), 1 (the first 100 places) or all."
        in response.content.decode()
    )


def test_the_ranking_list_says_on_every_page_whether_it_is_provisional(client, running):
    """Pinned up in the hall, the list must not look final while a sheet is unconfirmed
    (5.5.3) or a series is still being played: the same counts as the standings page."""
    t, series = running
    t.series_count = 1
    t.save(update_fields=["series_count"])
    url = urls(t)["standings_pdf"]
    final = "All sheets are confirmed: the standings are final."

    def pages(**params):
        found = text_of(client.get(url, {"appendix": "all", **params}))
        assert len(found) == 3  # the ranking and two pages of charts
        return found

    tables = list(series.tables.order_by("number"))
    SignOff.objects.create(table=tables[0], fingerprint="test", on_paper=True, confirmed_by="test")
    running_series = "Provisional: series 1 is not finished yet; 2 of 3 sheets not yet confirmed (5.5.3)."
    assert all(running_series in page and final not in page for page in pages())
    series.status = Series.Status.FINISHED
    series.save(update_fields=["status"])
    unconfirmed = "Provisional: 2 of 3 sheets not yet confirmed (5.5.3)."
    assert all(unconfirmed in page and "series 1 is not" not in page for page in pages())
    assert all(unconfirmed in page for page in pages(series="1"))
    for table in tables[1:]:
        SignOff.objects.create(table=table, fingerprint="test", on_paper=True, confirmed_by="test")
    assert all(final in page and "Provisional" not in page for page in pages())
    # Two more series planned: nothing is final overall before they are played, however
    # confirmed series 1 is; series 1 on its own stays final.
    t.series_count = 3
    t.save(update_fields=["series_count"])
    assert all("Provisional: series 2, 3 are not finished yet." in page for page in pages())
    Series.objects.create(tournament=t, number=2)
    assert all("Provisional: series 2, 3 are not finished yet." in page for page in pages())
    assert all(final in page and "Provisional" not in page for page in pages(series="1"))


def test_the_ranking_list_with_charts_takes_a_fixed_number_of_queries(client, director, django_assert_max_num_queries):
    counts = []
    for players in (11, 43):
        t, series = factories.drawn(players=players, directors=[director])
        for table in series.tables.all():
            factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=70)
        # 11: one of them counts the confirmed sheets and unfinished series (standings.places.finality).
        with django_assert_max_num_queries(11) as captured:
            response = client.get(urls(t)["standings_pdf"], {"appendix": "all"})
        assert response.status_code == 200 and charted(text_of(response)) == players
        counts.append(len(captured))
    assert counts[0] == counts[1]
