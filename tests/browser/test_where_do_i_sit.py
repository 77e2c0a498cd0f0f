"""A player on his phone (390 px) after the draw: the lookup by start number and surname,
a typo refused without saying which field was wrong, then his table and seat (what the
seat board shows; never his private link, which is on his start card), readable without
sideways scrolling."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests import factories
from tournaments.models import Registration, Seat
from tournaments.player_links import player_path

from .pages import fits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))


def test_a_player_finds_his_seat_on_his_phone(phone, live_server):
    t, series = factories.drawn(8, name="Herbstpreis der Skatfreunde", standings_public=True)
    for number, reg in enumerate(Registration.objects.filter(tournament=t).order_by("pk"), start=1):
        Registration.objects.filter(pk=reg.pk).update(start_number=number)
    reg = Registration.objects.select_related("player").get(tournament=t, start_number=3)
    seat = Seat.objects.select_related("table").get(series=series, player=reg.player)
    surname = reg.player.name.split()[-1]

    phone.goto(f"{live_server.url}/me/find/{t.pk}/")
    phone.get_by_label("Start number").fill("3")
    phone.get_by_label("Surname").fill("Nobody")
    phone.get_by_role("button", name="Show my seat").click()
    expect(phone.get_by_role("alert").first).to_contain_text("No player of this tournament has this start number")

    phone.get_by_label("Surname").fill(surname.upper())
    phone.get_by_role("button", name="Show my seat").click()
    expect(phone.locator(".seat-now")).to_contain_text(f"Table {seat.table.number}")
    expect(phone.locator(".seat-now")).to_contain_text(f"Seat {seat.number}")
    expect(phone.get_by_text("QR code on your start card")).to_be_visible()
    fits(phone, SCREENSHOTS / "player-seat-390.png")
    phone.wait_for_load_state()  # the whole page, not the part parsed so far
    assert "/s/" not in phone.content() and player_path(reg) not in phone.content()
