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
    url = reverse("table:sheet", args=[table.token])
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
    response = client.post(reverse("table:preview", args=[table.token]), {"number": "1", "tops": "x"})
    assert "Tops: 2.4.3: Enter a whole number." in response.content.decode()


@pytest.mark.parametrize("name", ["director:create", "director:edit", "director:players"])
def test_an_empty_post_is_answered_with_the_missing_fields(director_client, name):
    """Was: an empty POST left the form unbound and showed it again without a word."""
    director, client = director_client
    t = factories.tournament(directors=[director])
    url = reverse(name) if name == "director:create" else reverse(name, args=[t.pk])
    response = client.post(url, {})
    assert response.status_code in {200, 422}
    assert "This field is required." in response.content.decode()


def test_a_tampered_fee_step_id_is_shown(director_client):
    """Was: a fee row's hidden id error was never rendered."""
    director, client = director_client
    t = factories.tournament(directors=[director])
    data = TOURNAMENT | {"fees-TOTAL_FORMS": "1", "fees-INITIAL_FORMS": "1", "fees-0-id": "999999"}
    data |= {"fees-0-from_lost_game": "1", "fees-0-amount": "1.00"}
    response = client.post(reverse("director:edit", args=[t.pk]), data)
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
    assert client.post(reverse("director:edit", args=[t.pk]), data).status_code == 302
    assert [(f.from_lost_game, str(f.amount)) for f in t.lost_game_fees.all()] == [(4, "0.50"), (6, "1.00")]
    # And a real duplicate is still refused by the formset, with nothing changed.
    fees = {f"fees-{i}-id": f.pk for i, f in enumerate(t.lost_game_fees.all())}
    data |= fees | {"fees-0-from_lost_game": "5", "fees-1-from_lost_game": "5"}
    response = client.post(reverse("director:edit", args=[t.pk]), data)
    assert response.status_code == 200
    assert "duplicate" in response.content.decode()
    assert [f.from_lost_game for f in t.lost_game_fees.all()] == [4, 6]


def test_a_superscript_series_number_in_the_standings_query(director_client):
    """Was: ?series=² passed isdigit() and int() failed: a 500."""
    director, client = director_client
    t, _series = factories.drawn(8, directors=[director])
    for value in ("²", "٣", "1"):
        assert client.get(reverse("director:standings", args=[t.pk]), {"series": value}).status_code == 200


# --- Found by the referees', uploads' and documents' fuzzing -------------------------------


@pytest.fixture
def referee_table():
    from tests.referees.helpers import full_table, referee_of

    table = full_table(3)
    client = Client()
    client.force_login(referee_of(table.series.tournament, "ref"))
    return table, client


def test_a_refused_pin_confirmation_names_the_field(client):
    """Was: "This field is required." above the sheet without saying which field."""
    from django.contrib.messages import get_messages

    from tests.referees.helpers import full_table

    table = full_table(3)
    response = client.post(reverse("table:confirm", args=[table.token]), {"seat": "9"})
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert "PIN: This field is required." in shown
    assert any(m.startswith("Player: Select a valid choice.") for m in shown), shown


def test_an_empty_dispute_or_assignment_post_names_the_missing_fields(referee_table):
    """Was: an empty POST left the form unbound and showed it again without a word."""
    table, client = referee_table
    t = table.series.tournament
    director = factories.user("boss")
    t.directors.add(director)
    boss = Client()
    boss.force_login(director)
    for who, url in (
        (Client(), reverse("table:dispute", args=[table.token])),
        (client, reverse("referees:dispute_new", args=[t.pk])),
        (boss, reverse("referees:assign", args=[t.pk])),
    ):
        response = who.post(url, {})
        assert response.status_code == 422, url
        assert "This field is required." in response.content.decode()


def test_a_late_post_to_a_closed_dispute_says_it_is_closed(referee_table):
    """Was: an invalid decision for a closed dispute answered 422 with its errors shown nowhere."""
    from django.contrib.messages import get_messages

    from referees.models import Dispute

    table, client = referee_table
    t = table.series.tournament
    dispute = Dispute.objects.create(table=table, description="Revoke", raised_by="Anna")
    decided = {"paragraph": "4.1.4", "effect": "stands", "decision": "Stands."}
    assert client.post(reverse("referees:decide", args=[t.pk, dispute.pk]), decided).status_code == 302
    for name in ("decide", "withdraw"):
        response = client.post(reverse(f"referees:{name}", args=[t.pk, dispute.pk]), {"note": "x" * 5000})
        assert response.status_code == 302
        assert "already closed" in str(list(get_messages(response.wsgi_request))[-1])
    dispute.refresh_from_db()
    assert dispute.decision == "Stands."


def test_the_correction_page_shows_every_error_of_both_forms(referee_table):
    """Was: the void form's version and dispute errors and the correction's tops-kind error were never shown."""
    table, client = referee_table
    t = table.series.tournament
    game = Game.objects.get(table=table, number=1)
    url = reverse("referees:void", args=[t.pk, game.pk])
    page = client.post(url, {"version": "x", "reason": "r", "dispute": "999999"}).content.decode()
    assert "version: Enter a whole number." in page
    assert "Select a valid choice. That choice is not one of the available choices." in page
    data = {"number": "1", "version": str(game.version), "reason": "r", "declarer_seat": "1", "tops_kind": "?"}
    response = client.post(reverse("referees:correct", args=[t.pk, game.pk]), data)
    assert response.status_code == 422
    assert "Select a valid choice. ? is not one of the available choices." in response.content.decode()
    version = client.post(reverse("referees:correct", args=[t.pk, game.pk]), {**data, "version": ""})
    assert "version: This field is required." in version.content.decode()


def test_a_superscript_series_number_for_the_ranking_list_pdf(director_client):
    """Was: /standings.pdf?series=² passed isdigit() and int() failed: a 500."""
    director, client = director_client
    t, _series = factories.drawn(8, directors=[director])
    for value in ("²", "٣"):
        response = client.get(reverse("director:standings_pdf", args=[t.pk]), {"series": value})
        assert response.status_code == 400
        assert "series: " in response.content.decode()


def test_a_tampered_money_table_row_id_is_shown(director_client):
    """Was: a passed-out fee's or table money row's hidden id error was never rendered."""
    director, client = director_client
    t = factories.tournament(directors=[director])
    data = TOURNAMENT | {"fees-TOTAL_FORMS": "0", "fees-INITIAL_FORMS": "0"}
    data |= {"passed-TOTAL_FORMS": "1", "passed-INITIAL_FORMS": "1", "passed-0-id": "999999"}
    data |= {"passed-0-table_size": "3", "passed-0-from_passed_out": "4", "passed-0-amount": "0.50"}
    data |= {"money-TOTAL_FORMS": "1", "money-INITIAL_FORMS": "1", "money-0-id": "999999"}
    data |= {"money-0-table_size": "3", "money-0-place": "1", "money-0-amount": "2.00"}
    page = client.post(reverse("director:edit", args=[t.pk]), data).content.decode()
    error = "Select a valid choice. That choice is not one of the available choices."
    assert f"passed-out fee: {error}" in page
    assert f"table money: {error}" in page
    assert not t.passed_out_fees.exists() and not t.table_money.exists()
