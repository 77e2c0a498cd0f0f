"""A PIN lock belongs to the seat whose PIN was guessed (5.5.3 sign-off).

One holder of the table link who types five wrong PINs for every seat (20 requests at a
table of four) locks each seat, one by one, never the table: a seat not guessed at still
confirms with its right PIN, the page names every locked seat and whom to call, and the
director or a referee lifts a seat's lock, after which that player confirms.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from signoff.confirm import PIN_ATTEMPTS
from signoff.models import PinFailure, SeatConfirmation, SignOff
from signoff.pins import seat_pin
from tests.referees.helpers import director_of, full_table, referee_of

pytestmark = pytest.mark.django_db

CALL = "Call the director or a referee: they lift the lock."
ALL_LOCKED = "5.5.3: PIN entry is locked for every player still to confirm."


def confirm(client, table, seat, pin, **headers):
    url = reverse("table:confirm", args=[table.token])
    return client.post(url, {"seat": seat, "pin": pin}, follow=True, **headers).content.decode()


def wrong_pin(table, seat):
    return f"{(int(seat_pin(table, seat)) + 1) % 10000:04d}"


def guess_at(client, table, seats) -> list[str]:
    """PIN_ATTEMPTS wrong PINs for each of ``seats``: the answers, in order."""
    return [confirm(client, table, seat, wrong_pin(table, seat)) for seat in seats for _ in range(PIN_ATTEMPTS)]


def locked(seat: int) -> str:
    return f"Seat {seat} (Seat{seat}): too many wrong PINs, PIN entry is locked until "


def test_twenty_wrong_pins_lock_each_seat_and_each_locked_seat_says_whom_to_call(client):
    table = full_table(4)
    answers = guess_at(client, table, [1, 2, 3, 4])
    assert len(answers) == 20
    for index, page in enumerate(answers):
        seat, attempt = index // PIN_ATTEMPTS + 1, index % PIN_ATTEMPTS + 1
        if attempt < PIN_ATTEMPTS:
            assert f"Wrong PIN for Seat{seat}: check the PIN" in page, index
        else:
            assert f"Wrong PIN. {locked(seat)}" in page and CALL in page, index
    # Every seat is locked now: even the right PIN is refused, naming the seat and who lifts it.
    for seat in (1, 2, 3, 4):
        page = confirm(client, table, seat, seat_pin(table, seat))
        assert f'<li class="error">{locked(seat)}' in page and CALL in page
    assert not SeatConfirmation.objects.exists() and not SignOff.objects.exists()
    assert PinFailure.objects.filter(table=table).count() == 20  # refusals while locked are not counted
    # The page lists every locked seat and, with no seat open, says whom to call.
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert all(f'<p class="error" role="alert">{locked(seat)}' in page for seat in (1, 2, 3, 4))
    assert ALL_LOCKED in page and "signed on paper" in page
    assert 'name="pin"' not in page  # no seat to offer


def test_a_seat_not_guessed_at_still_confirms_with_its_right_pin(client):
    table = full_table(4)
    guess_at(client, table, [1, 2, 3])
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert ALL_LOCKED not in page
    assert 'name="seat" value="4"' in page and 'name="seat" value="1"' not in page
    assert "your confirmation is recorded" in confirm(client, table, 4, seat_pin(table, 4))
    assert list(SeatConfirmation.objects.values_list("seat_number", flat=True)) == [4]


def test_a_lock_on_seat_1_never_refuses_seat_2(client):
    table = full_table(4)
    guess_at(client, table, [1])
    assert "your confirmation is recorded" in confirm(client, table, 2, seat_pin(table, 2))
    assert locked(1) in confirm(client, table, 1, seat_pin(table, 1))


@pytest.mark.parametrize("who", [referee_of, director_of])
def test_the_referee_or_the_director_lifts_seat_2_s_lock_and_seat_2_confirms(client, who):
    table = full_table(4)
    tournament = table.series.tournament
    guess_at(client, table, [1, 2, 3, 4])
    staff = Client()
    staff.force_login(who(tournament))
    referees_page = staff.get(reverse("referees:table", args=[tournament.pk, table.pk])).content.decode()
    assert referees_page.count("Lift the lock") == 4
    answer = staff.post(reverse("referees:table_unlock", args=[tournament.pk, table.pk]), {"seat": 2}, follow=True)
    assert "PIN entry for Seat2 is open again." in answer.content.decode()
    assert "your confirmation is recorded" in confirm(client, table, 2, seat_pin(table, 2))
    for seat in (1, 3, 4):
        assert locked(seat) in confirm(client, table, seat, seat_pin(table, seat))
    assert list(SeatConfirmation.objects.values_list("seat_number", flat=True)) == [2]


def test_the_locks_are_told_in_german(client):
    table = full_table(4)
    guess_at(client, table, [1, 2, 3, 4])
    page = confirm(client, table, 2, seat_pin(table, 2), HTTP_ACCEPT_LANGUAGE="de")
    assert "Platz 2 (Seat2): zu viele falsche PINs, die PIN-Eingabe ist bis " in page
    assert "gesperrt. Rufen Sie den Turnierleiter oder einen Schiedsrichter: sie heben die Sperre auf." in page
    assert "5.5.3: Die PIN-Eingabe ist für alle Spieler gesperrt, die noch bestätigen müssen." in page
