"""The scorekeeper's phone on a long evening: a referee's decision stands when another
deal is corrected, two phones on one link are one list, the ordinary deal fits the first
screen, a stray "Passed out" is undone in one tap, and the dashboard says what the
hall check and the PIN locks found."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from signoff import confirm as signoff
from signoff.models import SeatConfirmation
from signoff.pins import seat_pin
from tests.signoff.test_signoff_lists import differing_table

from .pages import confirm

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: Where the phone's screenshots go, to look at (not in git).
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))


def test_a_correction_with_the_same_values_keeps_the_pins_and_the_referees_decision(live_server, phone):
    table = differing_table()  # the second list differs at deal 2; deal 3 (passed out) is the last
    signoff.accept_sheet(table, by="ref", reason="Deal 2 as on the sheet")
    phone.goto(live_server.url + table.entry_url())
    for seat in (1, 2):
        confirm(phone, f"Seat{seat}", seat_pin(table, seat))
        expect(phone.locator(".confirmations li.done")).to_have_count(seat)
    # The scorekeeper opens deal 3's correction and saves it as it is.
    phone.click("text=Correct deal 3")
    phone.click("text=Save correction")
    expect(phone.locator(".messages")).to_contain_text("Deal 3 unchanged: it already holds these values.")
    expect(phone.locator(".confirmations li.done")).to_have_count(2)  # the PINs stand
    expect(phone.locator(".lists-block")).to_have_count(0)  # and the referee's decision
    assert table.games.get(number=3).version == 1
    confirm(phone, "Seat3", seat_pin(table, 3))
    phone.wait_for_selector("text=Every player has confirmed: the sheet is final.")
    assert SeatConfirmation.objects.filter(table=table).count() == 3


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_an_ordinary_deal_fits_the_first_screen(live_server, browser, width, height):
    """Declarer, game, card points and "Enter deal" in the first screen, without a swipe,
    also on the smaller phone: the scorekeeper enters 48 deals with the same four taps."""
    from tests import factories

    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale="en-GB"
    )
    phone = context.new_page()
    try:
        table = factories.table_of(4)
        for number in range(1, 6):
            factories.game(table, number, passed_out=True)
        phone.goto(live_server.url + table.entry_url())
        phone.wait_for_selector("text=Deal 6")
        phone.screenshot(path=str(SCREENSHOTS / f"phone-first-screen-{width}x{height}.png"))
        for selector in (
            "#id_declarer_seat label >> nth=0",
            "#id_contract label >> nth=-1",
            "#id_declarer_points",
            "button.enter",
        ):
            box = phone.locator(selector).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
        assert phone.evaluate("window.scrollY") == 0
    finally:
        context.close()


def test_a_stray_tap_on_passed_out_stores_nothing_and_a_second_tap_stores_it(live_server, phone):
    """ "Passed out" sits beside "Enter deal": the first tap only asks again, on the button
    itself; touching the form or waiting a few seconds takes the question back, nothing
    was stored; the second tap enters the deal, once."""
    from scoring.models import Game
    from tests import factories

    phone.clock.install()
    table = factories.table_of(3)
    phone.goto(live_server.url + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    # The page's clock stands still from here, however slow the machine: the question's 4 s
    # lapse only when the test moves the clock on (below), never between two steps.
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1_000)
    button = phone.locator("button.passed")
    button.click()  # the stray tap
    expect(button).to_have_text("Passed out? Tap again")
    phone.locator("#id_declarer_seat label", has_text="Seat2").click()  # the scorekeeper goes on
    expect(button).to_have_text("Passed out")
    button.click()
    expect(button).to_have_class("secondary passed armed")
    phone.clock.run_for(5_000)  # no second tap: the question lapses
    expect(button).to_have_text("Passed out")
    expect(phone.locator("tr.queued")).to_have_count(0)
    assert not Game.objects.filter(table=table).exists()
    button.click()
    button.click()  # asked and confirmed
    phone.wait_for_selector("text=Deal 1 entered: passed out.")
    expect(phone.locator("button.passed")).to_have_text("Passed out")  # the next deal's asks afresh
    assert list(Game.objects.filter(table=table).values_list("number", "passed_out")) == [(1, True)]


def test_a_hall_check_cut_short_and_a_locked_seat_show_on_the_dashboard(browser, live_server, settings, desktop):
    """The first deal stops the phone's check: what it measured reaches the dashboard
    (not "not checked"); wrong PINs lock a seat, and the dashboard's tile says so."""
    from django.urls import reverse

    from dashboard.models import HallCheck
    from signoff.confirm import PIN_ATTEMPTS
    from tests import factories

    from .pages import log_in

    # A long check (20 round trips, 500 ms apart): the deal comes in the middle of it.
    settings.HALL_CHECK_PINGS, settings.HALL_CHECK_INTERVAL_MS = 20, 500
    director = factories.user("director")
    t, series = factories.drawn(players=6, directors=[director], rounds_per_series=1)
    table = series.tables.order_by("number").first()
    phones = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB", service_workers="block"
    )
    phone = phones.new_page()
    try:
        phone.goto(live_server.url + table.entry_url())
        phone.wait_for_function(
            "() => /: ([3-9]|1[0-9]) of 20 round trips/"
            ".test(document.querySelector('#hall-check .hall-state').textContent)"
        )
        phone.locator("#id_declarer_seat label").first.click()
        phone.locator("#id_contract label", has_text="Grand").click()
        phone.fill("#id_tops", "2")
        phone.fill("#id_declarer_points", "70")
        phone.click("button.enter")
        phone.wait_for_selector("text=Deal 1 entered: +72.")
        for _ in range(50):  # the cut check's report is on its way beside the deal
            if HallCheck.objects.filter(tournament=t, table_number=table.number).exists():
                break
            phone.wait_for_timeout(100)
        check = HallCheck.objects.get(tournament=t, table_number=table.number)
        assert 3 <= check.sent < 20 and check.received == check.sent
        # Then the players confirm: a wrong PIN, again and again, for the second seat.
        for game_number in range(2, table.deals + 1):
            factories.game(table, game_number, passed_out=True)
        phone.reload()
        wrong = f"{(int(seat_pin(table, 2)) + 1) % 10000:04d}"
        for _ in range(PIN_ATTEMPTS):
            phone.locator(".pin-form label").nth(1).click()
            phone.fill("input[name=pin]", wrong)
            phone.click("text=Confirm the sheet")
        expect(phone.locator("#signoff")).to_contain_text("too many wrong PINs")
    finally:
        phones.close()
    log_in(desktop, live_server.url, "director")
    desktop.goto(live_server.url + reverse("director:detail", args=[t.pk]))
    expect(desktop.locator("#hall")).to_contain_text("good: 1")
    expect(desktop.locator(".tile .pin-locked")).to_have_text("PIN locked: seat 2")
    desktop.screenshot(path=str(SCREENSHOTS / "dashboard-cut-check-and-pin-lock.png"), full_page=True)


def test_two_phones_on_the_sheets_link_that_counted_a_point_apart_are_no_second_list(browser, live_server, phone):
    """Two phones on the sheet's own link enter the same won grand, one counting 88 card
    points, the other 89: the same line of the sheet. The second is told the deal was
    entered on another device; nothing is counted as a differing second list."""
    from scoring.lists import differing_deals
    from scoring.models import ConflictingEntry
    from tests import factories

    from .pages import enter

    table = factories.table_of(3)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-GB")
    other = context.new_page()
    try:
        other.goto(live_server.url + table.entry_url())
        other.wait_for_selector("text=Deal 1")
        phone.goto(live_server.url + table.entry_url())
        enter(phone, "Seat1", "Grand", tops=1, declarer_points=88)
        phone.wait_for_selector("text=Deal 1 entered: +48.")
        enter(other, "Seat1", "Grand", tops=1, declarer_points=89)  # its form still says deal 1
        told = other.locator(".messages-inline.taken[data-deal='1']")
        expect(told).to_contain_text("Deal 1 was entered on another device: check it on the sheet below.")
        expect(told).not_to_contain_text("other values")
        expect(other.locator("section.entry h2")).to_contain_text("Deal 2")
        other.reload()
        expect(other.locator("body")).not_to_contain_text("Another device sent other values")
    finally:
        context.close()
    assert not ConflictingEntry.objects.exists()
    assert differing_deals([table.pk]) == {}
