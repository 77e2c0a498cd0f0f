"""The phone's page after deals answered with only what changed (tablelink/answers.py,
static/js/entry.js): the same sheet, totals, progress and next form a reload shows,
online and after deals that waited on the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests import factories

from .pages import enter, pass_out
from .test_offline import offline, open_link

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: The deals tapped in, in turn (a table of four: the dealer sits out, 3.2.7).
DEALS = [
    ("Seat2", "Grand", {"tops": 2, "declarer_points": 70}),
    ("Seat3", "Hearts", {"tops": 1, "declarer_points": 50}),
    ("Seat4", "Clubs", {"tops": 2, "declarer_points": 80}),
    None,  # passed out
    ("Seat3", "Spades", {"tops": 1, "declarer_points": 61}),
    ("Seat1", "Diamonds", {"tops": 3, "declarer_points": 95}),
]


def shown(phone) -> dict:
    """What the page shows of the sheet: rows, foot, progress, the correct button and the form's deal."""
    html = phone.evaluate(
        """() => {
            const sheet = document.getElementById("sheet");
            const rows = [...sheet.querySelectorAll("table.sheet > tbody > tr:not(.queued)")].map(r => r.outerHTML);
            const part = (selector) => { const e = sheet.querySelector(selector); return e ? e.outerHTML : null; };
            return {
                rows: rows,
                foot: part("table.sheet > tfoot"),
                progress: part(".table-head .progress"),
                correct: part(".correct-last"),
                heading: part("section.entry h2"),
                lists: part("#lists-block"),
            };
        }"""
    )
    return {key: _squeeze(value) for key, value in html.items()}


def _squeeze(value):
    if isinstance(value, list):
        return [_squeeze(v) for v in value]
    return None if value is None else re.sub(r">\s+<", "><", value).strip()


def _tap(phone, deal) -> None:
    if deal is None:
        pass_out(phone)
    else:
        declarer, contract, fields = deal
        enter(phone, declarer, contract, **fields)


def test_deals_answered_lean_leave_the_page_a_reload_shows(live_server, phone):
    table = factories.table_of(4)
    answers = []
    phone.on(
        "response",
        lambda response: answers.append(response.text()) if response.request.method == "POST" else None,
    )
    phone.goto(live_server.url + table.entry_url())
    for number, deal in enumerate(DEALS, start=1):
        _tap(phone, deal)
        phone.wait_for_selector(f"text=Deal {number} entered")
    expect(phone.locator("section.entry h2")).to_contain_text(f"Deal {len(DEALS) + 1}")
    posted = [a for a in answers if "sheet-delta" in a or 'class="sheet"' in a]
    assert sum("sheet-delta" in a for a in posted) == len(DEALS) - 1  # every deal but the first
    entered = shown(phone)
    phone.reload()
    phone.wait_for_selector(f"text=Deal {len(DEALS) + 1}")
    assert shown(phone) == entered
    assert Game.objects.filter(table=table).count() == len(DEALS)


def test_deals_that_waited_on_the_phone_end_in_the_page_a_reload_shows(live_server, phone):
    """Offline, the phone makes its own forms; the answers that come once the office is
    reached again are put in place (or the whole sheet fetched) all the same."""
    table = factories.table_of(4)
    open_link(phone, live_server, table)
    _tap(phone, DEALS[0])
    phone.wait_for_selector("text=Deal 1 entered")
    offline(phone.context)
    for deal in DEALS[1:4]:
        _tap(phone, deal)
    expect(phone.locator("tr.queued")).to_have_count(3)
    offline(phone.context, False)
    expect(phone.locator("tr.queued")).to_have_count(0, timeout=20000)
    expect(phone.locator("section.entry h2")).to_contain_text("Deal 5")
    entered = shown(phone)
    phone.reload()
    phone.wait_for_selector("text=Deal 5")
    assert shown(phone) == entered
    assert Game.objects.filter(table=table).count() == 4


def test_a_second_list_s_page_keeps_its_comparison_up_to_date(live_server, phone):
    table = factories.table_of(4)
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=2, declarer_points=70)
    factories.game(table, 2, declarer_seat=3, contract="hearts", tops=1, declarer_points=90)
    phone.goto(live_server.url + table.control_url())
    for number, deal in enumerate(DEALS[:3], start=1):
        _tap(phone, deal)
        phone.wait_for_selector(f"text=Deal {number} entered")
    # Deal 2 differs from the sheet (50 card points on this list, 90 on the sheet).
    expect(phone.locator("#lists")).to_contain_text("differs at 1 deal")
    entered = shown(phone)
    phone.reload()
    phone.wait_for_selector("text=Deal 4")
    assert shown(phone) == entered
