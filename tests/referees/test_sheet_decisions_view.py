"""referees:table_accept, table_unlock, table_reopen, table_add_deal: a referee's decisions
about a whole sheet, each refused with a message that changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from referees.models import Correction, Reopening
from scoring.models import Game
from signoff import confirm as signoff
from signoff.models import ListsAccepted, PinFailure, SeatConfirmation, SignOff
from signoff.pins import seat_pin
from tests import factories
from tournaments.models import Series

from .helpers import confirm_all, full_table, open_table, referee_of

pytestmark = pytest.mark.django_db


def _url(name: str, table) -> str:
    return reverse(f"referees:{name}", args=[table.series.tournament_id, table.pk])


@pytest.fixture
def referee(client):
    def login(table):
        user = referee_of(table.series.tournament, "ref")
        client.force_login(user)
        return user

    return login


def test_the_referee_accepts_the_sheet_over_a_differing_second_list(client, referee):
    table = full_table(3)
    factories.control_entry(table, 2, declarer_seat=3, contract="hearts", tops=2, declarer_points=70)
    referee(table)
    page = client.get(_url("table", table)).content.decode()
    assert "The second list differs from the sheet at deal 2:" in page
    assert _url("table_accept", table) in page and _url("table_paper", table) not in page
    # Without a reason: refused, nothing recorded.
    page = client.post(_url("table_accept", table), {"reason": ""}, follow=True).content.decode()
    assert "Why: This field is required." in page and not ListsAccepted.objects.exists()
    page = client.post(_url("table_accept", table), {"reason": "Seat 1's list is right"}, follow=True)
    assert "The sheet stands as it is; the players can confirm it now." in page.content.decode()
    assert "Seat 1&#x27;s list is right" in page.content.decode()  # on the page's record of decisions
    confirm_all(client, table)
    assert SignOff.objects.filter(table=table).exists()


def test_the_referee_lifts_one_seats_pin_lock(client, referee):
    table = full_table(3)
    for _ in range(signoff.PIN_ATTEMPTS):
        PinFailure.objects.create(table=table, seat_number=2)
    referee(table)
    page = client.get(_url("table", table)).content.decode()
    assert "PIN entry for Seat2 is locked until" in page and "Lift the lock" in page
    page = client.post(_url("table_unlock", table), {"seat": "2"}, follow=True).content.decode()
    assert "PIN entry for Seat2 is open again." in page
    assert not PinFailure.objects.exists()
    page = client.post(_url("table_unlock", table), {"seat": "2"}, follow=True).content.decode()
    assert "PIN entry for Seat2 was not locked." in page
    page = client.post(_url("table_unlock", table), {"seat": "9"}, follow=True).content.decode()
    assert "Player: Select a valid choice." in page


def test_the_referee_reopens_a_confirmed_sheet_and_the_players_confirm_again(client, referee):
    table = full_table(3)
    confirm_all(client, table)
    user = referee(table)
    assert "Re-open the sheet" in client.get(_url("table", table)).content.decode()
    page = client.post(_url("table_reopen", table), {"reason": ""}, follow=True).content.decode()
    assert "Why: This field is required." in page and SignOff.objects.filter(table=table).exists()
    page = client.post(_url("table_reopen", table), {"reason": "Seat 2 disputes deal 3"}, follow=True)
    assert "every player confirms it again (5.5.3)" in page.content.decode()
    reopening = Reopening.objects.get()
    assert (reopening.made_by, reopening.reason, reopening.signoff["on_paper"]) == (
        user,
        "Seat 2 disputes deal 3",
        False,
    )
    assert not SignOff.objects.exists() and not SeatConfirmation.objects.exists()
    assert "re-opened by ref" in client.get(_url("table", table)).content.decode()
    # The table link awaits every player's PIN again.
    client.logout()
    assert 'name="pin"' in client.get(reverse("table:sheet", args=[table.token])).content.decode()
    confirm_all(client, table)
    assert SignOff.objects.filter(table=table).exists()


def test_reopening_an_unconfirmed_sheet_is_refused(client, referee):
    table = full_table(3)
    referee(table)
    page = client.post(_url("table_reopen", table), {"reason": "why not"}, follow=True).content.decode()
    assert "5.5.3: the sheet is not confirmed; there is nothing to re-open" in page
    assert not Reopening.objects.exists()


def _finished_with_two_of_three(table) -> None:
    factories.game(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    factories.game(table, 2, passed_out=True)
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.FINISHED)


ADDED = {"number": "3", "declarer_seat": "3", "contract": "clubs", "tops_kind": "with", "tops": "1"}
ADDED |= {"declarer_points": "70", "irregularity": "", "reason": "Deal 3 was played but not entered"}


def test_the_referee_adds_a_missing_deal_to_a_finished_sheet_audited(client, referee):
    table = open_table(3)
    _finished_with_two_of_three(table)
    user = referee(table)
    page = client.get(_url("table", table)).content.decode()
    assert "Add missing deal 3" in page
    assert "Add deal 3, table 1" in client.get(_url("table_add_deal", table)).content.decode()
    response = client.post(_url("table_add_deal", table), ADDED, follow=True)
    assert "Deal 3 added: +24." in response.content.decode()
    game = Game.objects.get(table=table, number=3)
    assert (game.declarer_seat, game.score, game.entered_by) == (3, 24, "ref")
    correction = Correction.objects.get(game=game)
    assert correction.kind == Correction.Kind.ADD and correction.before == {} and correction.made_by == user
    assert correction.after["score"] == 24 and correction.reason == "Deal 3 was played but not entered"
    # The sheet is complete now: nothing more to add.
    assert "Add missing deal" not in client.get(_url("table", table)).content.decode()
    response = client.post(_url("table_add_deal", table), ADDED | {"number": "4"})
    assert response.status_code == 422 and Game.objects.filter(table=table).count() == 3


def test_a_missing_deal_on_a_confirmed_sheet_keeps_it_confirmed(client, referee):
    table = open_table(3)
    _finished_with_two_of_three(table)
    confirm_all(client, table)
    referee(table)
    client.post(_url("table_add_deal", table), ADDED)
    assert Game.objects.filter(table=table).count() == 3 and SignOff.objects.filter(table=table).exists()


def test_adding_to_an_open_sheet_or_out_of_order_is_refused(client, referee):
    table = open_table(3)
    factories.game(table, 1, passed_out=True)
    referee(table)
    assert "Add missing deal" not in client.get(_url("table", table)).content.decode()
    response = client.post(_url("table_add_deal", table), ADDED | {"number": "2", "declarer_seat": "1"})
    assert response.status_code == 422
    assert "5.5.3: the sheet is still open: the table enters its deals through its link" in response.content.decode()
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.FINISHED)
    response = client.post(_url("table_add_deal", table), ADDED)  # deal 3 before deal 2
    assert response.status_code == 422 and "3.2.1: deal 2 comes before deal 3" in response.content.decode()
    assert Game.objects.filter(table=table).count() == 1 and not Correction.objects.exists()


def test_only_this_tournaments_referees_decide(client):
    table = full_table(3)
    confirm_all(client, table)
    client.force_login(referee_of(factories.tournament(), "stranger"))
    assert client.post(_url("table_reopen", table), {"reason": "x"}).status_code == 403
    assert SignOff.objects.filter(table=table).exists()
    assert seat_pin  # the PINs stay as printed: re-opening changes no slip
