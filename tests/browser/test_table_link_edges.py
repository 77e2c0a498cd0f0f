"""The table link's rough edges, on a 390 x 844 phone in English and German:
a deal corrected to passed out, a second phone's other values, a refused waiting deal
that keeps what was half typed for the next, the offline banner beside the heading, tap
targets and "Enter deal" in reach, the tops box, a partial second list."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.lists import differing_deals
from scoring.models import Game
from tests import factories
from tests.referees.helpers import full_table

from .pages import enter
from .test_offline import offline, open_link, stored

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))

#: The controls of the table link a thumb taps (the top bar's too).
CONTROLS = (
    ".table-link button:visible, .table-link a:visible, .table-link select:visible, .table-link .pills label:visible,"
    " .table-link input[type=number]:visible, .table-link input[name=pin]:visible, .topbar a:visible,"
    " .topbar select:visible"
)


def small_controls(page) -> list[str]:
    """The visible controls under 44 px high, named by their text."""
    small = []
    for control in page.locator(CONTROLS).all():
        box = control.bounding_box()
        if box is not None and box["height"] < 44:
            small.append(f"{control.inner_text().strip() or control.get_attribute('name')}: {box['height']:.0f}")
    return small


def below_banner(page, selector: str) -> None:
    """The element's top is below the sticky offline banner's bottom (nothing covered)."""
    banner = page.locator("#connection").bounding_box()
    box = page.locator(selector).bounding_box()
    assert banner is not None and box is not None
    assert box["y"] >= banner["y"] + banner["height"] - 1, (selector, box, banner)


def test_one_phone_taps_corrects_to_passed_out_and_is_stopped_before_an_impossible_deal(phone, live_server):
    table = factories.table_of(4)
    open_link(phone, live_server, table)
    # 5: the tops box has its label, every control takes a thumb, "Enter deal" is in reach.
    expect(phone.locator("label[for=id_tops]")).to_have_count(1)
    expect(phone.locator("button.enter")).to_be_in_viewport()
    assert small_controls(phone) == []
    # 3, 5: an impossible count of tops is refused on the phone, with the rule, before it waits.
    enter(phone, "Seat2", "Grand", tops=0, declarer_points=70)
    expect(phone.locator("#preview")).to_contain_text("2.4.1: a grand is played with or without at least 1 top, not 0")
    expect(phone.locator("tr.queued")).to_have_count(0)
    phone.fill("#id_tops", "1")
    phone.click("button.enter")
    expect(phone.locator(".messages-inline")).to_contain_text("Deal 1 entered")
    # 4: offline, the banner sits above the heading and the next deal's line, not over them.
    offline(phone.context)
    enter(phone, "Seat3", "Hearts", tops=1, declarer_points=70)
    expect(phone.locator("#connection")).to_be_visible()
    below_banner(phone, ".table-head h1")
    below_banner(phone, "section.entry h2")
    phone.screenshot(path=str(SCREENSHOTS / "edges-offline-banner-en.png"))
    offline(phone.context, False)
    expect(phone.locator("tr.queued")).to_have_count(0, timeout=15000)
    # 1: the last deal corrected to passed out.
    phone.click("text=Correct deal 2")
    phone.locator(".passed-toggle label").click()
    phone.screenshot(path=str(SCREENSHOTS / "edges-correct-passed-out.png"), full_page=True)
    phone.click("text=Save correction")
    expect(phone.locator(".messages")).to_contain_text("Deal 2 corrected: passed out.")
    assert Game.objects.get(table=table, number=2).passed_out

    # 6: a second list holding 1 of 4 deals neither says "no difference" nor lets the PINs through;
    # a difference names the field with both values.
    partial = full_table(4)
    factories.control_entry(partial, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=92)
    phone.goto(live_server.url + partial.entry_url())
    expect(phone.locator("#lists")).to_contain_text("Differs: declarer's card points 70 / 92")
    expect(phone.locator("#signoff")).to_contain_text("the second list holds 1 of the sheet's 4 deals; deals 2-4")
    expect(phone.locator("input[name=pin]")).to_have_count(0)
    phone.screenshot(path=str(SCREENSHOTS / "edges-partial-second-list.png"), full_page=True)


def test_a_second_phone_with_other_values_and_a_refused_waiting_deal(browser, phone, live_server):
    table = factories.table_of(3)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="de-DE")
    other = context.new_page()
    try:
        open_link(other, live_server, table)
        phone.goto(live_server.url + table.entry_url())
        enter(phone, "Seat1", "Grand", tops=1, declarer_points=70)
        phone.wait_for_selector("text=Deal 1 entered")

        # 2: the German phone, offline, still has deal 1's form: 92 card points (schneider:
        # another line of the sheet), then deal 2.
        offline(other.context)
        enter(other, "Seat1", "Grand", tops=1, declarer_points=92)
        enter(other, "Seat2", "Grand", tops=1, declarer_points=61)
        # 4: the German banner (the longer one) stays above the heading and the deal's line.
        expect(other.locator("#connection")).to_contain_text("wartende Spiele: 2")  # shown once a send failed
        below_banner(other, ".table-head h1")
        below_banner(other, "section.entry h2")
        other.screenshot(path=str(SCREENSHOTS / "edges-offline-banner-de.png"))
        offline(other.context, False)
        expect(other.locator("tr.queued")).to_have_count(0, timeout=15000)
        # The refusal says what differs, both values, and stays after deal 2's "entered".
        told = other.locator(".messages-inline.taken[data-deal='1']")
        expect(told).to_contain_text("70")
        expect(told).to_contain_text("92")
        expect(other.locator(".messages-inline:not(.taken)")).to_contain_text("2")
        expect(told).to_have_count(1)
        assert differing_deals([table.pk]) == {table.pk: [1]}  # the dashboard counts it
        assert stored(table) == [(1, 1, 48), (2, 2, 48)]
        other.screenshot(path=str(SCREENSHOTS / "edges-other-values-de.png"), full_page=True)
        told.locator("button[data-dismiss]").click()
        expect(told).to_have_count(0)

        # 3: a waiting deal the office refuses (schneider announced without hand, 3.4.4:
        # beyond the form's ranges) keeps what was half typed for the next deal.
        offline(other.context)
        enter(other, "Seat3", "Kreuz", tops=1, declarer_points=70, Schneider_angesagt=True)
        other.locator("#id_declarer_seat label", has_text="Seat2").click()
        other.fill("#id_declarer_points", "61")
        offline(other.context, False)
        refused = other.locator("section.entry .refused-deal")
        expect(refused).to_contain_text("3", timeout=15000)
        expect(refused).to_contain_text("4")
        expect(other.locator("section.entry h2")).to_contain_text("3")
        other.screenshot(path=str(SCREENSHOTS / "edges-refused-de.png"), full_page=True)
        other.locator(".flags label", has_text="Hand").click()
        other.click("button.enter")
        expect(other.locator("tr.queued")).to_have_count(0, timeout=15000)
        expect(other.locator("section.entry h2")).to_contain_text("4")
        expect(other.locator("#id_declarer_points")).to_have_value("61")
        expect(other.locator("#id_declarer_seat input[value='2']")).to_be_checked()
        assert [number for number, *_ in stored(table)] == [1, 2, 3]
    finally:
        context.close()
