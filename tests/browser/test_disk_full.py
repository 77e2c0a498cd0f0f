"""The phone when the office's disk is full (static/js/entry.js, config/diskfull.py): the
office stores nothing and answers 507; the phone keeps the deal, says why, and sends it
again by itself; once there is room, the deal is stored exactly once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import entry
from scoring.models import Game
from tests import factories
from tests.core.test_diskspace import real_sqlite_full, wrapped

from .pages import enter

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def phone(browser):
    """Without the service worker, as in test_poor_network.py: the page's own queue is the subject."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB", service_workers="block"
    )
    yield context.new_page()
    context.close()


def test_a_deal_the_full_disk_refused_stays_on_the_phone_and_is_sent_again(phone, live_server, monkeypatch, tmp_path):
    full = wrapped(real_sqlite_full(tmp_path))
    add_game = entry.add_game
    attempts: list[int] = []

    def full_once(form, *, entered_by):
        attempts.append(1)
        if len(attempts) == 1:
            raise full  # SQLite's own "database or disk is full", where the deal is saved
        return add_game(form, entered_by=entered_by)

    monkeypatch.setattr(entry, "add_game", full_once)  # the live server runs in this process
    phone.clock.install()
    table = factories.table_of(3)
    phone.goto(live_server.url + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1_000)
    enter(phone, "Seat2", "Grand", tops=2, declarer_points=70)
    banner = phone.locator("#connection")
    expect(banner).to_have_text("The office could not store it: its disk is full. The deal stays on this phone.")
    expect(phone.locator("tr.queued")).to_contain_text("waiting to send")
    assert attempts == [1] and not Game.objects.filter(table=table).exists()
    phone.clock.run_for(1_000)  # the first pause before a resend (entry.js: PAUSES)
    phone.wait_for_selector("text=Deal 1 entered: +72.")
    expect(banner).to_be_hidden()
    expect(phone.locator("tr.queued")).to_have_count(0)
    assert Game.objects.filter(table=table).count() == 1
