"""The projector page (/p/<id>/live/, static/js/projector.js): it turns through every
player of the field a page at a time, fits 1920x1080 and 1280x720 without scrolling,
and keeps its page on the screen while the hall's Wi-Fi is gone."""

from __future__ import annotations

import datetime
import os
import random
import tempfile
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from draw.series import draw_series
from tests import factories
from tests.standings.test_places import play
from tournaments.models import Registration

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: Where the screenshots go, to look at (not in git).
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))
SIZES = [(1920, 1080), (1280, 720)]
#: The projector's clock where a test stops it (any evening will do).
START = datetime.datetime(2026, 11, 27, 20, 0)


def hall_of(players: int):
    """A published tournament of ``players`` with start numbers, one round played."""
    t = factories.tournament(name="Herbstpreis der Skatfreunde", rounds_per_series=1, standings_public=True)
    for number, registration in enumerate(factories.registered(t, players, clubs=6), start=1):
        Registration.objects.filter(pk=registration.pk).update(start_number=number)
    play(draw_series(t), random.Random(3))
    names = set(Registration.objects.filter(tournament=t).values_list("player__name", flat=True))
    return t, names


def shown_names(page) -> list[str]:
    return page.locator("table.board td.name").all_inner_texts()


def fits(page) -> dict:
    """How far the page reaches beyond the screen the test set (0 when it fits).

    The projector's html and body hide their overflow (never a scroll bar), so the root's
    scrollWidth never passes the screen, however wide the board: across is the body's
    scrollWidth, which still counts what the body clips; down is the last row's bottom.
    """
    return page.evaluate(
        """(screen) => {
            const root = document.documentElement;
            const last = [...document.querySelectorAll('table.board tr, .foot')].pop().getBoundingClientRect();
            return {
                down: Math.max(root.scrollHeight - screen.height, Math.ceil(last.bottom) - screen.height, 0),
                across: Math.max(document.body.scrollWidth - screen.width, 0),
            };
        }""",
        page.viewport_size,
    )


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_projector_turns_through_every_player_and_never_scrolls(browser, live_server, width, height):
    t, names = hall_of(45)
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    try:
        # The page's clock stands still until the test turns it: a page read is never
        # half turned (on the real clock the 3 s of a page may pass between two reads).
        page.clock.install(time=START)
        page.clock.pause_at(START + datetime.timedelta(seconds=1))
        page.goto(live_server.url + reverse("public:live", args=[t.pk]) + "?seconds=3")
        expect(page.locator("table.board td.name").first).to_be_visible()
        assert len(shown_names(page)) == 20  # pages of 20
        expect(page.locator(".status")).to_have_count(1)  # the provisional state said once
        expect(page.locator(".status")).to_contain_text("Series 1")
        page.screenshot(path=str(SCREENSHOTS / f"projector-{width}x{height}.png"))
        assert fits(page) == {"down": 0, "across": 0}, f"{page.url} reaches beyond the {width}x{height} screen"
        # The screen turns its pages itself, every 3 s of its clock.
        expect(page.locator(".foot")).to_contain_text("Page 1 of 3")
        seen = set(shown_names(page))
        for number in (2, 3):
            page.clock.run_for(3_000)
            expect(page.locator(".foot")).to_contain_text(f"Page {number} of 3")
            seen |= set(shown_names(page))
            assert fits(page) == {"down": 0, "across": 0}, f"{page.url} reaches beyond the {width}x{height} screen"
        assert seen == names  # every player of the field was on the screen
    finally:
        context.close()


def test_a_lost_connection_keeps_the_last_page_on_the_screen(browser, live_server):
    t, _names = hall_of(45)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = context.new_page()
    try:
        # Cut off before the page opens: no turn can show page 2 before the test reads page 1.
        page.route("**/live/?*part=board*", lambda route: route.abort("internetdisconnected"))
        page.goto(live_server.url + reverse("public:live", args=[t.pk]) + "?seconds=3")
        expect(page.locator(".foot")).to_contain_text("Page 1 of 3")
        first = shown_names(page)
        expect(page.locator("[data-offline]")).to_be_visible(timeout=10_000)
        assert shown_names(page) == first  # the last page stays
        page.screenshot(path=str(SCREENSHOTS / "projector-offline.png"))
        page.unroute("**/live/?*part=board*")
        expect(page.locator(".foot")).to_contain_text("Page 2 of 3", timeout=10_000)
        expect(page.locator("[data-offline]")).to_be_hidden()
    finally:
        context.close()


def test_standings_withdrawn_leave_the_screen_and_return_when_published_again(browser, live_server):
    """The director withdraws the public standings (a wrong result seen): the projector
    takes them off the hall's screen at the next turn and says why, not showing the last
    page as if the connection had failed; published again, the rotation comes back."""
    t, _names = hall_of(45)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("public:live", args=[t.pk]) + "?seconds=2")
        expect(page.locator(".foot")).to_contain_text("Page 1 of 3")
        type(t).objects.filter(pk=t.pk).update(standings_public=False)
        expect(page.locator("[data-withdrawn]")).to_be_visible(timeout=10_000)
        expect(page.locator("#board")).to_be_hidden()
        expect(page.locator("[data-offline]")).to_be_hidden()
        page.screenshot(path=str(SCREENSHOTS / "projector-withdrawn.png"))
        type(t).objects.filter(pk=t.pk).update(standings_public=True)
        expect(page.locator("table.board td.name").first).to_be_visible(timeout=10_000)
        expect(page.locator("[data-withdrawn]")).to_be_hidden()
    finally:
        context.close()
