"""table:confirm — every player confirms the finished sheet with the PIN from his own slip."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from signoff.confirm import PIN_ATTEMPTS, PIN_LOCK
from signoff.models import PinFailure, SeatConfirmation, SignOff
from signoff.pins import seat_pin
from tests import factories
from tests.referees.helpers import confirm_all, full_table, open_table

pytestmark = pytest.mark.django_db


def confirm(client, table, seat, pin):
    return client.post(reverse("table:confirm", args=[table.token]), {"seat": seat, "pin": pin}, follow=True)


def wrong_pin(table, seat):
    return f"{(int(seat_pin(table, seat)) + 1) % 10000:04d}"


def test_the_finished_sheet_awaits_confirmation_and_names_who_has_confirmed(client):
    table = full_table(3)
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert "Awaiting confirmation" in page
    assert page.count("not yet") == 3
    response = confirm(client, table, 2, seat_pin(table, 2))
    page = response.content.decode()
    assert "your confirmation is recorded" in page
    assert "Seat2 confirmed" in page and "Seat1 not yet" in page and "Seat3 not yet" in page
    assert not SignOff.objects.exists()
    # The PIN form offers only the players still to confirm.
    assert 'name="seat" value="1"' in page and 'name="seat" value="3"' in page
    assert 'name="seat" value="2"' not in page


def test_every_player_confirming_signs_the_sheet_off(client):
    table = full_table(4)
    for seat in (1, 2, 3):
        confirm(client, table, seat, seat_pin(table, seat))
    assert not SignOff.objects.exists()
    page = confirm(client, table, 4, seat_pin(table, 4)).content.decode()
    assert "Every player has confirmed: the sheet is final." in page
    assert "Sheet confirmed" in page
    signoff = SignOff.objects.get(table=table)
    assert not signoff.on_paper


def test_a_wrong_pin_is_refused_clearly_and_recorded(client):
    table = full_table(3)
    page = confirm(client, table, 1, wrong_pin(table, 1)).content.decode()
    assert "Wrong PIN for Seat1: check the PIN on your PIN slip" in page
    assert not SeatConfirmation.objects.exists()
    assert PinFailure.objects.filter(table=table, seat_number=1).count() == 1


@pytest.mark.parametrize("pin", ["12", "abcd", "12345", ""])
def test_a_pin_that_is_not_four_digits_is_refused_by_the_form(client, pin):
    table = full_table(3)
    page = confirm(client, table, 1, pin).content.decode()
    assert "4 digits" in page or "This field is required" in page
    assert not SeatConfirmation.objects.exists() and not PinFailure.objects.exists()


def test_a_seat_that_is_not_at_the_table_is_refused(client):
    table = full_table(3)
    page = confirm(client, table, 4, "0000").content.decode()
    assert "Select a valid choice" in page
    assert not SeatConfirmation.objects.exists()


def test_guessing_locks_pin_entry_for_that_seat_for_some_minutes(client):
    table = full_table(3)
    for _ in range(PIN_ATTEMPTS - 1):
        assert "Wrong PIN for Seat1" in confirm(client, table, 1, wrong_pin(table, 1)).content.decode()
    page = confirm(client, table, 1, wrong_pin(table, 1)).content.decode()
    assert "Wrong PIN. Seat 1 (Seat1): too many wrong PINs, PIN entry is locked until" in page
    assert "Call the director or a referee: they lift the lock." in page
    # Locked: even seat 1's right PIN is refused now, and the form no longer offers Seat1.
    page = confirm(client, table, 1, seat_pin(table, 1)).content.decode()
    assert "Seat 1 (Seat1): too many wrong PINs, PIN entry is locked until" in page
    assert 'name="seat" value="1"' not in page and 'name="seat" value="2"' in page
    assert not SeatConfirmation.objects.exists()
    # The other players are not locked out by one seat's guesses.
    confirm(client, table, 2, seat_pin(table, 2))
    assert SeatConfirmation.objects.filter(table=table, seat_number=2).exists()
    # After the lock time seat 1's right PIN works again.
    PinFailure.objects.filter(table=table).update(at=PinFailure.objects.first().at - PIN_LOCK - timedelta(seconds=1))
    confirm(client, table, 1, seat_pin(table, 1))
    assert SeatConfirmation.objects.filter(table=table, seat_number=1).exists()


def test_the_sheet_cannot_be_confirmed_before_its_last_deal(client):
    table = open_table(3)
    factories.game(table, 1, passed_out=True)
    page = confirm(client, table, 1, seat_pin(table, 1)).content.decode()
    assert "once its last deal is entered (1 of 3)" in page
    assert not SeatConfirmation.objects.exists()
    assert "Awaiting confirmation" not in client.get(reverse("table:sheet", args=[table.token])).content.decode()


def test_a_finished_series_can_be_confirmed_with_fewer_deals(client):
    table = open_table(3)
    factories.game(table, 1, passed_out=True)
    table.series.status = "finished"
    table.series.save()
    confirm_all(client, table)
    assert SignOff.objects.filter(table=table).exists()


def test_a_correction_of_the_last_deal_needs_the_players_again(client):
    table = full_table(3)
    confirm(client, table, 1, seat_pin(table, 1))
    confirm(client, table, 2, seat_pin(table, 2))
    last = table.games.get(number=3)
    response = client.post(
        reverse("table:correct", args=[table.token]),
        {
            "number": 3,
            "version": last.version,
            "declarer_seat": 3,
            "contract": "diamonds",
            "tops": 1,
            "tops_kind": "with",
            "declarer_points": 61,
        },
    )
    assert response.status_code == 302
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert page.count("not yet") == 3  # they confirmed another sheet
    confirm(client, table, 3, seat_pin(table, 3))
    assert not SignOff.objects.exists()
    confirm_all(client, table)
    assert SignOff.objects.filter(table=table).exists()


def test_a_confirmed_sheet_cannot_be_confirmed_again(client):
    table = full_table(3)
    confirm_all(client, table)
    page = confirm(client, table, 1, seat_pin(table, 1)).content.decode()
    assert "5.5.3: this sheet is already confirmed" in page
    assert SignOff.objects.count() == 1


def test_get_is_not_allowed(client):
    table = full_table(3)
    assert client.get(reverse("table:confirm", args=[table.token])).status_code == 405


def test_an_unknown_token_is_404(client):
    assert client.post(reverse("table:confirm", args=["nope"]), {"seat": 1, "pin": "0000"}).status_code == 404
