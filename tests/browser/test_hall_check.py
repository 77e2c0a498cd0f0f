"""The hall check before the doors open, in the browser: two table links checked as a
helper opens them during set-up, one of them on a slowed route, and the director's
dashboard shows that table slow and the other good (static/js/hall-check.js,
dashboard/hall.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from dashboard.models import HallCheck
from tests import factories

from .pages import fits, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: Where the pages' screenshots go, to look at (not in git).
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", "/tmp/shots-hallcheck"))
#: The slowed table's added delay: above the 500 ms of "slow" (dashboard.hall.SLOW_P95_MS).
DELAY_MS = 700


def test_a_slowed_table_is_slow_on_the_dashboards_hall_map(browser, live_server, settings):
    # A short check for the test: 6 round trips, one every 100 ms, lost after 5 s.
    settings.HALL_CHECK_PINGS, settings.HALL_CHECK_INTERVAL_MS, settings.HALL_CHECK_TIMEOUT_MS = 6, 100, 5000
    director = factories.user("director")
    t, series = factories.drawn(players=8, directors=[director])
    fast, slow = series.tables.order_by("number")
    # Without the table links' service worker: its caching of the page's files would share
    # the serial test server with the round trips (tests/browser/test_offline.py tests it).
    phones = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB", service_workers="block"
    )
    first, second = phones.new_page(), phones.new_page()

    def slowed(route, request) -> None:
        second.wait_for_timeout(DELAY_MS)  # the hall's weak access point (the event loop goes on meanwhile)
        route.continue_()

    phones.route(re.compile(re.escape(reverse("table:ping", args=[slow.token])) + r"\?n=\d+$"), slowed)
    try:
        # The helper scans both table cards: each link checks by itself (never checked before).
        first.goto(live_server.url + fast.entry_url())
        expect(first.locator("#hall-check")).to_have_attribute("data-state", "good")
        second.goto(live_server.url + slow.entry_url())
        expect(second.locator("#hall-check")).to_have_attribute("data-state", "slow")
        expect(second.locator("#hall-check .hall-state")).to_contain_text("Slow connection: 95 % of the answers")
        second.screenshot(path=str(SCREENSHOTS / "hall-check-phone-slow.png"), full_page=False)
        assert serious(second, "#hall-check") == []
    finally:
        phones.close()
    checks = {c.table_number: c for c in HallCheck.objects.filter(tournament=t)}
    assert checks[fast.number].p95_ms < 500 <= DELAY_MS <= checks[slow.number].p95_ms
    assert checks[fast.number].received == checks[slow.number].received == 6

    desk = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    try:
        page = desk.new_page()
        log_in(page, live_server.url, "director")
        page.goto(live_server.url + reverse("director:detail", args=[t.pk]))
        expect(page.locator(".hall-cell.slow")).to_have_count(1)
        expect(page.locator(".hall-cell.slow")).to_contain_text(f"Table {slow.number} ◔ slow")
        expect(page.locator(".hall-cell.good")).to_contain_text(f"Table {fast.number} ✓ good")
        expect(page.locator(".hall-problem.slow")).to_have_text(f"◔ Slow: table {slow.number}")
        page.locator("#hall").screenshot(path=str(SCREENSHOTS / "hall-map-1366.png"))
        assert serious(page, "#hall") == []
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#hall").screenshot(path=str(SCREENSHOTS / "hall-map-390.png"))
        fits(page)
    finally:
        desk.close()


def serious(page, selector: str) -> list[str]:
    """axe-core's serious or critical violations within ``selector`` (as tests/browser/test_accessibility.py)."""
    violations = Axe().run(page, context=selector).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in violations if v["impact"] in ("serious", "critical")]
