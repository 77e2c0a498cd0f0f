"""The table link without the office (static/js/entry.js, static/js/table-worker.js):
deals entered offline wait on the phone, survive a reload served by the service worker,
and are stored once, in order, when the office answers again; a refused one stops the
queue for correction; a stale form is told; the 390 px sheet shows every running total."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from skat.sheet import active_seats
from tests import factories

from .pages import enter, fits, pass_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: Where the phone's screenshots go, to look at (not in git).
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))
NAMES = ["Annegret Vollmer", "Bernd Schulze-Hartmann", "Clara Ng", "Dieter Pfeiffer"]


def offline(context, off: bool = True) -> None:
    """The hall's Wi-Fi gone (or back): for the page and for its service worker, whose own
    requests Playwright's offline switch does not reach (microsoft/playwright#2311)."""
    if off:
        context.set_offline(True)
        context.route("**", _worker_offline)
    else:
        # The guard goes first: the "online" event sends the waiting deals at once, and
        # a send the guard still caught would wait the next pause (up to 15 s) to go again.
        context.unroute("**", _worker_offline)
        context.set_offline(False)


def _worker_offline(route) -> None:
    # A POST from a page the worker controls falls through the worker to the network, and
    # Chromium's offline switch may not see it either: no deal may leave while "offline".
    request = route.request
    route.abort("internetdisconnected") if request.service_worker or request.method != "GET" else route.continue_()


def open_link(phone, live_server, table) -> None:
    """Open the table's link and wait until its service worker keeps the page."""
    phone.goto(live_server.url + table.entry_url())
    phone.wait_for_selector("html[data-offline=ready]")


def wait_until_kept(phone, text: str) -> None:
    """Until the worker keeps a page saying ``text``: the page hands it over by a message,
    and the worker stores it in its own time."""
    phone.evaluate(
        """async (text) => {
            for (let i = 0; i < 150; i++) {
                const kept = await caches.match(location.pathname);
                if (kept && (await kept.text()).includes(text)) return;
                await new Promise((resolve) => setTimeout(resolve, 100));
            }
            throw new Error("the worker never kept a page saying " + text);
        }""",
        text,
    )


def stored(table) -> list[tuple]:
    return list(Game.objects.filter(table=table).order_by("number").values_list("number", "declarer_seat", "score"))


def test_deals_entered_offline_survive_a_reload_and_are_stored_once_in_order(phone, live_server):
    table = factories.table_of(4)
    open_link(phone, live_server, table)
    offline(phone.context)

    enter(phone, "Seat2", "Grand", tops=2, declarer_points=70)
    # The next deal's form, made on the phone: seat 2 deals and sits out (3.2.7), seat 1 plays.
    expect(phone.locator("section.entry h2")).to_have_text("Deal 2 · Seat2 deals and sits out")
    expect(phone.locator("#id_declarer_seat label")).to_have_text(["Seat1", "Seat3", "Seat4"])
    expect(phone.locator("#connection")).to_contain_text("No connection to the office. Deals waiting on this phone: 1")
    enter(phone, "Seat1", "Hearts", tops=1, declarer_points=70)
    pass_out(phone)
    expect(phone.locator("tr.queued")).to_have_count(3)
    expect(phone.locator("tr.queued").first).to_contain_text("waiting to send · valued when sent")

    phone.reload()  # no network: the service worker's page, the queue from the phone
    assert phone.evaluate("navigator.serviceWorker.controller !== null")
    expect(phone.locator("tr.queued")).to_have_count(3)
    expect(phone.locator("tr.queued td:nth-child(2)")).to_have_text(["Seat2", "Seat1", "Passed out"])
    expect(phone.locator("section.entry h2")).to_have_text("Deal 4 · Seat4 deals and sits out")
    phone.screenshot(path=str(SCREENSHOTS / "phone-offline-waiting.png"), full_page=True)
    assert stored(table) == []

    offline(phone.context, False)
    expect(phone.locator("tr.queued")).to_have_count(0, timeout=15000)
    expect(phone.locator(".progress")).to_contain_text("3 of 48 deals")
    expect(phone.locator("#connection")).to_be_hidden()
    phone.screenshot(path=str(SCREENSHOTS / "phone-after-sync.png"), full_page=True)
    assert stored(table) == [(1, 2, 72), (2, 1, 20), (3, None, 0)]
    assert Game.objects.get(table=table, number=3).passed_out
    # The page the worker keeps is the office's latest sheet: a reload offline shows it.
    wait_until_kept(phone, "3 of 48 deals")
    offline(phone.context)
    phone.reload()
    expect(phone.locator(".progress")).to_contain_text("3 of 48 deals")
    expect(phone.locator("section.entry h2")).to_contain_text("Deal 4")


def test_a_waiting_deal_the_office_refuses_stops_the_queue_and_shows_its_rule(phone, live_server):
    table = factories.table_of(3)
    open_link(phone, live_server, table)
    offline(phone.context)
    # 3.4.4: schneider announced needs a hand game (the phone checks only the form's ranges).
    enter(phone, "Seat2", "Grand", tops=2, declarer_points=70, Schneider_announced=True)
    expect(phone.locator("#preview")).to_have_text("Valued when sent: the office cannot be reached just now.")
    enter(phone, "Seat3", "Spades", tops=1, declarer_points=70)
    expect(phone.locator("tr.queued")).to_have_count(2)

    offline(phone.context, False)
    refused = phone.locator("tr.queued.refused")
    expect(refused).to_contain_text("refused by the office: correct it in the form above")
    expect(phone.locator("section.entry h2")).to_contain_text("Deal 1")
    rule = phone.get_by_text("3.4.4: schneider announced can only be played in a hand game")
    expect(rule).to_have_count(1)  # shown once, beside "Enter deal"
    expect(rule).to_be_in_viewport()
    expect(phone.locator(".refused-deal")).to_contain_text("The office refused deal 1")
    expect(phone.locator("tr.queued")).to_have_count(2)
    assert stored(table) == []  # deal 2 waits behind the refused deal 1

    phone.locator(".flags label", has_text="Schneider announced").click()
    phone.click("button.enter")
    expect(phone.locator("tr.queued")).to_have_count(0, timeout=15000)
    assert stored(table) == [(1, 2, 72), (2, 3, 22)]


def test_the_phone_sheet_shows_every_running_total_without_scrolling_sideways(phone, live_server):
    table = factories.table_of(4)
    for seat, name in zip(table.seats.order_by("number"), NAMES, strict=True):
        seat.player.name = name
        seat.player.save()
    for number in range(1, 9):
        declarer = active_seats(number, 4)[number % 3]
        points = 40 + number * 5
        factories.game(table, number, declarer_seat=declarer, contract="grand", tops=2, declarer_points=points)
    phone.goto(live_server.url + table.entry_url())
    phone.wait_for_selector("text=Deal 9")
    width = fits(phone)
    for row in ("tbody tr:last-child", "tfoot tr.total"):
        totals = phone.locator(f"table.sheet {row} td.num").all()[-4:]
        for cell in totals:
            box = cell.bounding_box()
            assert box is not None and box["width"] > 0 and box["x"] + box["width"] <= width
            assert cell.inner_text().strip().lstrip("-").isdigit()
    expect(phone.locator("table.sheet th.player")).to_have_text(NAMES)
    phone.locator("table.sheet").scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "phone-sheet-390.png"), full_page=True)


def test_a_stale_form_is_told_the_deal_was_entered_on_another_device(browser, phone, live_server):
    table = factories.table_of(3)
    second = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-GB")
    other = second.new_page()
    try:
        other.goto(live_server.url + table.entry_url())
        other.wait_for_selector("text=Deal 1")
        phone.goto(live_server.url + table.entry_url())
        enter(phone, "Seat1", "Clubs", tops=2, declarer_points=80)
        phone.wait_for_selector("text=Deal 1 entered: +36.")

        enter(other, "Seat2", "Grand", tops=1, declarer_points=61)  # its form still asks for deal 1
        told = other.get_by_text("Deal 1 was entered on another device")
        expect(told).to_have_count(1)
        expect(other.locator("section.entry h2")).to_contain_text("Deal 2")
        expect(other.locator("tr.queued")).to_have_count(0)
        expect(other.locator("table.sheet tbody tr")).to_have_count(1)
        assert stored(table) == [(1, 1, 36)]
        # The new form is the office's: deal 2 from this phone is stored.
        enter(other, "Seat2", "Grand", tops=1, declarer_points=61)
        other.wait_for_selector("text=Deal 2 entered:")
        assert [number for number, *_ in stored(table)] == [1, 2]
    finally:
        second.close()


def test_a_form_with_nothing_chosen_is_not_kept_as_a_deal(phone, live_server):
    """A second tap on "Enter deal" lands on the next deal's empty form: no deal to keep
    (it would stop the queue with a refusal); the live value says what is missing."""
    table = factories.table_of(3)
    phone.goto(live_server.url + table.entry_url())
    phone.click("button.enter")
    expect(phone.locator("#preview")).to_contain_text("5.5.1: choose the declarer, or mark the deal passed out")
    expect(phone.locator("tr.queued")).to_have_count(0)
    expect(phone.locator("section.entry h2")).to_contain_text("Deal 1")
    assert stored(table) == []
