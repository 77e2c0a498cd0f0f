"""The end of a table's evening in a real browser: the last deal entered on the phone, every
player confirms with the PIN from his own slip (one typo refused), the sheet is locked,
and a referee's correction on the desktop changes the standings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referees.models import RefereeAssignment
from scoring.models import Game
from signoff.pins import seat_pin
from tests import factories

from .pages import confirm, correct_card_points, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_players_confirm_and_a_referee_corrects(live_server, desktop, phone, django_user_model):
    table = factories.table_of(3, rounds_per_series=1)
    factories.game(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    factories.game(table, 2, passed_out=True)
    base = live_server.url
    phone.goto(f"{base}/s/{table.token}/")
    phone.locator("#id_declarer_seat label", has_text="Seat3").click()
    phone.locator("#id_contract label", has_text="Hearts").click()
    phone.fill("#id_tops", "1")
    phone.fill("#id_declarer_points", "50")
    phone.click("button.enter")
    phone.wait_for_selector("text=Awaiting confirmation")
    expect(phone.locator(".confirmations li.open")).to_have_count(3)

    wrong = f"{(int(seat_pin(table, 1)) + 1) % 10000:04d}"
    confirm(phone, "Seat1", wrong)
    expect(phone.locator(".messages .error", has_text="Wrong PIN for Seat1")).to_be_visible()
    for seat in (1, 2, 3):
        confirm(phone, f"Seat{seat}", seat_pin(table, seat))
    phone.wait_for_selector("text=Every player has confirmed: the sheet is final.")
    expect(phone.locator("#game-form")).to_have_count(0)
    expect(phone.locator("text=the sheet is locked")).to_be_visible()

    referee = django_user_model.objects.create_user("ref", password="pw")
    RefereeAssignment.objects.create(tournament=table.series.tournament, user=referee)
    log_in(desktop, base, "ref")
    game = Game.objects.get(table=table, number=3)
    desktop.goto(f"{base}/t/{table.series.tournament_id}/referees/games/{game.pk}/correct/")
    correct_card_points(desktop, 65, "Both lists show 65 card points.")
    desktop.wait_for_selector("text=Deal 3: corrected; its score was -40 and is now +20.")
    desktop.goto(f"{base}/t/{table.series.tournament_id}/referees/")
    expect(desktop.locator(".corrections", has_text="Both lists show 65 card points.")).to_be_visible()
    game.refresh_from_db()
    assert (game.score, game.version) == (20, 2)
