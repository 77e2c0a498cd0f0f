"""The director's pages: the whole evening through the pages, access, and query counts."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.urls import reverse

from draw.series import draw_series
from scoring.models import Game
from tests import factories
from tests.standings.test_places import play
from tournaments.models import Registration, Seat, Series, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    user = factories.user("director", superuser=False)
    from django.contrib.auth.models import Permission

    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


def test_a_director_runs_an_evening_through_the_pages(client, director):
    response = client.post(
        reverse("director:create"),
        {
            "name": "Kneipenturnier",
            "date": "2026-11-27",
            "venue": "Zum Skatbrunnen",
            "series_count": 2,
            "rounds_per_series": 1,
            "entry_fee": "10",
            "list_fee": "0",
            "prize_pool_percent": 100,
        },
    )
    t = Tournament.objects.get(name="Kneipenturnier")
    assert response.status_code == 302 and t.is_director(director)
    assert [str(f.amount) for f in t.lost_game_fees.all()] == ["0.50", "1.00"]

    for i in range(7):
        response = client.post(
            reverse("director:players", args=[t.pk]),
            {"name": f"Spieler {i}", "club": f"Club {i % 2}", "first_series": 1},
        )
        assert response.status_code == 302
    assert Registration.objects.filter(tournament=t).count() == 7

    response = client.post(reverse("director:draw", args=[t.pk]), {"method": "random"})
    series = t.series.get()
    assert response.url == reverse("director:series", args=[t.pk, 1])
    assert sorted(series.tables.values_list("size", flat=True)) == [3, 4]

    page = client.get(reverse("director:series", args=[t.pk, 1])).content.decode()
    for table in series.tables.all():
        # The series page lists the tables; each table's page has its entry link.
        table_page = reverse("director:table", args=[t.pk, 1, table.number])
        assert table_page in page
        assert table.entry_url() in client.get(table_page).content.decode()
    table = series.tables.get(size=3)
    for number in (1, 2, 3):
        client.post(table.entry_url(), {"number": number, "passed_out": "on"})
    assert Game.objects.filter(table=table).count() == 3
    detail = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "1 of 2 tables finished" in detail

    response = client.post(reverse("director:finish", args=[t.pk, 1]), follow=True)
    series.refresh_from_db()
    assert series.status == "running", "an unfinished table needs the director's confirmation"
    page = response.content.decode()
    assert "Series 1 is not finished: not all deals entered at tables" in page
    assert "sheets not confirmed at tables" in page  # the table of three entered all, nobody confirmed
    client.post(reverse("director:finish", args=[t.pk, 1]), {"force": "1"})
    series.refresh_from_db()
    assert series.status == "finished"
    # Seeding on sheets nobody confirmed says so and needs the director's word (5.5.3).
    detail = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "2 sheets are not confirmed yet: the standings a seeded draw uses are provisional" in detail
    response = client.post(reverse("director:draw", args=[t.pk]), {"method": "seeded"}, follow=True)
    assert "Not drawn: the standings to seed by are provisional" in response.content.decode()
    assert "series 1: tables 1, 2" in response.content.decode() and t.series.count() == 1
    response = client.post(reverse("director:draw", args=[t.pk]), {"method": "seeded", "provisional": "on"})
    assert t.series.get(number=2).method == "seeded"
    assert "Seeded on provisional standings" in client.get(response.url).content.decode()
    assert client.get(reverse("director:standings", args=[t.pk])).status_code == 200


def test_registration_errors_name_the_field_and_change_nothing(client, director):
    t = factories.tournament(directors=[director], series_count=2)
    url = reverse("director:players", args=[t.pk])
    response = client.post(url, {"name": "  ", "first_series": 1})
    assert response.status_code == 422
    assert "This field is required" in response.content.decode() or "Enter the player" in response.content.decode()
    response = client.post(url, {"name": "A", "first_series": 3})
    assert response.status_code == 422 and "This tournament has 2 series" in response.content.decode()
    client.post(url, {"name": "Anna", "membership_number": "77", "first_series": 1})
    response = client.post(url, {"name": "Bernd", "membership_number": "77", "first_series": 1})
    assert response.status_code == 422 and "belongs to Anna" in response.content.decode()
    response = client.post(url, {"name": "Anna", "membership_number": "77", "first_series": 1})
    assert "already registered" in response.content.decode()
    assert Registration.objects.filter(tournament=t).count() == 1


def test_a_late_entry_cannot_join_a_drawn_series(client, director):
    t, _series = factories.drawn(8, directors=[director], series_count=2)
    response = client.post(reverse("director:players", args=[t.pk]), {"name": "Late", "first_series": 1})
    assert response.status_code == 422 and "already drawn" in response.content.decode()
    response = client.post(reverse("director:players", args=[t.pk]), {"name": "Late", "first_series": 2})
    assert response.status_code == 302


def test_registering_the_same_name_and_club_again_warns_without_a_number(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:players", args=[t.pk])
    data = {"name": "Bodo Brandt", "club": "SC Nord", "membership_number": "T-002", "first_series": 1}
    assert client.post(url, data).status_code == 302
    response = client.post(url, {"name": "brandt,  bodo", "club": "SC Nord ", "first_series": 1})
    assert response.status_code == 422
    assert "Bodo Brandt of this club is already registered. Give a membership number to tell them apart" in (
        response.content.decode()
    )
    assert 'name="namesake_ok"' in response.content.decode(), "the tick to register anyway is offered"
    assert t.registrations.count() == 1
    # Another player of that name in another club, or with his own number, registers.
    assert client.post(url, {"name": "Bodo Brandt", "club": "SC Süd", "first_series": 1}).status_code == 302
    other = {"name": "Bodo Brandt", "club": "SC Nord", "membership_number": "T-777", "first_series": 1}
    assert client.post(url, other).status_code == 302
    assert t.registrations.count() == 3


def test_the_registration_form_offers_the_first_series_not_yet_drawn(client, director):
    t, _series = factories.drawn(8, directors=[director], series_count=3)
    page = client.get(reverse("director:players", args=[t.pk])).content.decode()
    assert 'name="first_series" value="2"' in page
    fresh = factories.tournament(directors=[director])
    page = client.get(reverse("director:players", args=[fresh.pk])).content.decode()
    assert 'name="first_series" value="1"' in page


def test_withdrawing_asks_first_naming_the_player(client, director):
    t, _series = factories.drawn(8, directors=[director], series_count=2)
    page = client.get(reverse("director:players", args=[t.pk])).content.decode()
    name = t.registrations.order_by("player__name").first().player.name
    assert f"Withdraw {name}? The series already drawn stay as they are" in page
    assert f'data-confirm="Withdraw {name}? The series already drawn' in page  # static/js/office.js asks


def test_withdraw_before_and_after_the_draw(client, director):
    t = factories.tournament(directors=[director])
    regs = factories.registered(t, 9)
    client.post(reverse("director:withdraw", args=[t.pk, regs[0].pk]))
    assert not Registration.objects.filter(pk=regs[0].pk).exists()
    client.post(reverse("director:draw", args=[t.pk]), {"method": "random"})
    client.post(reverse("director:withdraw", args=[t.pk, regs[1].pk]))
    regs[1].refresh_from_db()
    assert regs[1].withdrawn_after_series == 1


def test_drawing_five_players_shows_the_rule(client, director):
    t = factories.tournament(directors=[director])
    factories.registered(t, 5)
    response = client.post(reverse("director:draw", args=[t.pk]), {"method": "random"}, follow=True)
    assert "3.2.7" in response.content.decode()
    assert not t.series.exists()


def test_swap_and_move_through_the_series_page(client, director):
    t, series = factories.drawn(7, directors=[director])
    seats = list(Seat.objects.filter(series=series).order_by("table__number", "number"))
    a, b = seats[0], seats[-1]
    client.post(reverse("director:swap", args=[t.pk, 1]), {"first": a.player_id, "second": b.player_id})
    assert Seat.objects.get(series=series, player_id=a.player_id).table_id == b.table_id
    four = series.tables.get(size=4)
    three = series.tables.get(size=3)
    mover = four.seats.first().player_id
    client.post(reverse("director:move", args=[t.pk, 1]), {"player": mover, "table": three.pk})
    assert Seat.objects.get(series=series, player_id=mover).table_id == three.pk
    response = client.post(reverse("director:swap", args=[t.pk, 1]), {"first": "x"}, follow=True)
    assert "Choose two seated players" in response.content.decode()


def test_a_seat_change_sent_back_to_a_table_in_other_digits_lands_on_the_series_page(client, director):
    """``back=²``: "²" passes str.isdigit() but int() refuses it; back to the series, never a 500."""
    t, _series = factories.drawn(7, directors=[director])
    response = client.post(reverse("director:swap", args=[t.pk, 1]), {"first": "x", "back": "²"})
    assert response.status_code == 302 and response.url == reverse("director:series", args=[t.pk, 1])


def test_the_rules_and_fees_page_saves_the_fee_schedule(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:edit", args=[t.pk])
    assert client.get(url).status_code == 200
    data = {
        "name": t.name,
        "date": "2026-11-23",
        "venue": "",
        "series_count": 3,
        "rounds_per_series": 10,
        "entry_fee": "12.50",
        "list_fee": "1",
        "prize_pool_percent": 90,
        "standings_public": "on",
        "fees-TOTAL_FORMS": 2,
        "fees-INITIAL_FORMS": 0,
        "fees-MIN_NUM_FORMS": 0,
        "fees-MAX_NUM_FORMS": 1000,
        "fees-0-from_lost_game": 1,
        "fees-0-amount": "1.00",
        "fees-1-from_lost_game": "",
        "fees-1-amount": "",
    }
    assert client.post(url, data).status_code == 302
    t.refresh_from_db()
    assert (t.series_count, t.deals_at_four, t.standings_public) == (3, 40, True)
    assert t.fee_rules().lost_game_steps == ((1, Decimal("1.00")),)


URLS = ["detail", "edit", "players", "standings", "progress"]


@pytest.mark.parametrize("name", URLS)
def test_director_pages_need_a_login(client, name):
    t = factories.tournament()
    response = client.get(reverse(f"director:{name}", args=[t.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response.url


@pytest.mark.parametrize("name", URLS)
def test_director_pages_refuse_another_tournaments_director(client, director, name):
    t = factories.tournament()  # director does not direct this one
    assert client.get(reverse(f"director:{name}", args=[t.pk])).status_code == 403


def test_public_pages_only_when_published(client):
    t = factories.tournament()
    assert client.get(reverse("public:standings", args=[t.pk])).status_code == 404
    assert client.get(reverse("public:live", args=[t.pk])).status_code == 404
    t.standings_public = True
    t.save()
    assert client.get(reverse("public:standings", args=[t.pk])).status_code == 200
    live = client.get(reverse("public:live", args=[t.pk]), HTTP_HX_REQUEST="true")
    assert live.status_code == 200 and "<html" not in live.content.decode()


def test_the_live_page_refreshes_what_it_shows(client):
    """The projector shows series 1 or the teams: its next page asks for the same, not the overall list."""
    t, _series = factories.drawn(8, standings_public=True)
    Team.objects.create(tournament=t, name="Herz Dame")
    url = reverse("public:live", args=[t.pk])
    page = client.get(url, {"series": "1", "view": "teams"}).content.decode()
    assert f'data-next="{url}?series=1&amp;view=teams&amp;page=1&amp;part=board"' in page
    assert "series 1 only" in page
    assert f'data-next="{url}?page=1&amp;part=board"' in client.get(url).content.decode()


@pytest.fixture
def busy_tournament(director):
    t = factories.tournament(directors=[director], rounds_per_series=1, series_count=2)
    factories.registered(t, 30, clubs=5)
    series = draw_series(t)
    play(series, random.Random(5))
    series.status = Series.Status.FINISHED
    series.save()
    play(draw_series(t, Series.Method.SEEDED, provisional=True), random.Random(6), share=0.5)
    return t


@pytest.mark.parametrize(
    ("name", "args", "limit"),
    [
        ("director:home", (), 8),
        ("director:detail", ("t",), 12),
        ("director:players", ("t",), 10),
        ("director:progress", ("t",), 8),
        ("director:series", ("t", 2), 12),
        ("director:standings", ("t",), 11),
        ("public:live", ("t",), 13),  # once per change of the results; +1: a deal in yet (seat screens)
        ("director:desk", ("t",), 8),
    ],
)
def test_list_pages_use_a_fixed_number_of_queries(
    client, busy_tournament, django_assert_max_num_queries, name, args, limit
):
    url = reverse(name, args=[busy_tournament.pk if a == "t" else a for a in args])
    with django_assert_max_num_queries(limit):
        response = client.get(url)
    assert response.status_code == 200


def test_the_dashboard_tiles_show_the_round_being_played(client, director):
    """3.2.1: a round is one deal by each player; 5 deals at a table of four are round 2 of 2."""
    t, series = factories.drawn(players=4, rounds_per_series=2, directors=[director])
    table = series.tables.get()
    for number in range(1, 6):
        factories.game(table, number, passed_out=True)
    page = client.get(reverse("director:progress", args=[t.pk])).content.decode()
    assert "5/8" in page and "round 2/2" in page


def test_registering_another_directors_player_number_does_not_reveal_his_name(client, director):
    """Players are shared by all tournaments: the number's owner is named only to who sees him."""
    theirs = factories.tournament(directors=[factories.user("other")])
    Registration.objects.create(tournament=theirs, player=factories.player("Karla Geheim", membership_number="55"))
    mine = factories.tournament(directors=[director])
    url = reverse("director:players", args=[mine.pk])
    response = client.post(url, {"name": "Bernd", "membership_number": "55", "first_series": 1})
    page = response.content.decode()
    assert response.status_code == 422 and "Karla" not in page
    assert "Membership number 55 belongs to another player; check the number and the name." in page
    theirs.directors.add(director)
    response = client.post(url, {"name": "Bernd", "membership_number": "55", "first_series": 1})
    assert "Membership number 55 belongs to Karla Geheim." in response.content.decode()
    assert not Registration.objects.filter(tournament=mine).exists()


def test_the_players_page_lists_a_page_by_surname_and_finds_a_name_in_any_order(client, director):
    from core.paging import PAGE_SIZE

    t = factories.tournament(directors=[director])
    for i in range(PAGE_SIZE + 5):
        Registration.objects.create(tournament=t, player=factories.player(f"Zoe Zander{i:03d}"))
    Registration.objects.create(tournament=t, player=factories.player("Anna Müller"))
    url = reverse("director:players", args=[t.pk])
    page = client.get(url).content.decode()
    assert page.index("Anna Müller") < page.index("Zander000")  # by surname
    assert f"of {PAGE_SIZE + 6})" in page and f"Zander{PAGE_SIZE + 4:03d}" not in page
    assert f"Zander{PAGE_SIZE + 4:03d}" in client.get(url, {"page": 2}).content.decode()
    for query in ("mueller anna", "Müller, A."):
        found = client.get(url, {"q": query}).content.decode()
        assert "Anna Müller" in found and "Zander" not in found, query


def _rules(t, **changes) -> dict:
    return {
        "name": t.name,
        "date": "2026-11-23",
        "series_count": t.series_count,
        "rounds_per_series": t.rounds_per_series,
        "entry_fee": "10",
        "list_fee": "2",
        "prize_pool_percent": 100,
        "fees-TOTAL_FORMS": 0,
        "fees-INITIAL_FORMS": 0,
        "fees-MIN_NUM_FORMS": 0,
        "fees-MAX_NUM_FORMS": 1000,
    } | changes


def test_the_rules_page_sets_the_list_fee_refund_share_and_names_a_wrong_one(client, director):
    t = factories.tournament(directors=[director])
    url = reverse("director:edit", args=[t.pk])
    assert client.post(url, _rules(t, list_fee_refund_percent=50)).status_code == 302
    t.refresh_from_db()
    assert t.list_fee_refund_percent == 50 and t.fee_rules().list_fee_refund_percent == 50
    response = client.post(url, _rules(t, list_fee_refund_percent=120))
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 100." in response.content.decode()
    # A post without the field (an older form) keeps the rule as it is.
    assert client.post(url, _rules(t)).status_code == 302
    t.refresh_from_db()
    assert t.list_fee_refund_percent == 50


@pytest.mark.parametrize("typed", ["10,00", "10.00", "10"])
def test_the_rules_page_in_german_takes_money_with_a_comma_or_a_point(client, director, typed):
    t = factories.tournament(directors=[director])
    url = reverse("director:edit", args=[t.pk])
    data = _rules(t, entry_fee=typed, list_fee="2,50") | {
        "fees-TOTAL_FORMS": 1,
        "fees-0-from_lost_game": 1,
        "fees-0-amount": "0,50",
    }
    assert client.post(url, data, HTTP_ACCEPT_LANGUAGE="de").status_code == 302
    t.refresh_from_db()
    assert (t.entry_fee, t.list_fee) == (Decimal("10.00"), Decimal("2.50"))
    assert t.fee_rules().lost_game_steps == ((1, Decimal("0.50")),)
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'name="entry_fee" value="10,00"' in german and 'name="fees-0-amount" value="0,50"' in german
    assert 'inputmode="decimal"' in german
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="entry_fee" value="10.00"' in english


def test_a_comma_in_english_money_is_named_and_changes_nothing(client, director):
    t = factories.tournament(directors=[director])
    before = t.entry_fee
    response = client.post(reverse("director:edit", args=[t.pk]), _rules(t, entry_fee="10,00"))
    assert response.status_code == 200 and "Enter a number." in response.content.decode()
    t.refresh_from_db()
    assert t.entry_fee == before


def test_saving_the_rules_page_never_writes_an_older_start_number_counter_back(client, director):
    t = factories.tournament(directors=[director])
    stale = Tournament.objects.get(pk=t.pk)  # the rules page, opened before the walk-ins came
    from tournaments import services

    services.register(t, services.Entry(name="Wanda Walkin"))
    services.register(t, services.Entry(name="Willi Walkin"))
    stale.name = "Renamed"
    stale.save()
    t.refresh_from_db()
    assert (t.name, t.last_start_number) == ("Renamed", 2)


def test_a_form_error_on_the_players_page_stays_in_its_fields_cell(client, director):
    """An error list must not take a cell of the field grid of its own."""
    import re

    t = factories.tournament(directors=[director])
    page = client.post(reverse("director:players", args=[t.pk]), {"name": "", "first_series": "9"}).content.decode()
    form = page.split('class="card form-grid"', 1)[1].split("</form>", 1)[0]
    cells = re.findall(r'<div class="field[^"]*">(.*?)</div>', form, flags=re.S)
    errors = [cell for cell in cells if "errorlist" in cell]
    assert len(errors) == 2, "both errors shown"
    for cell in errors:
        assert "<input" in cell and "<label" in cell, "the error stands in its field's cell"
    assert form.count('<ul class="errorlist') == 2, "no error outside a field's cell"
