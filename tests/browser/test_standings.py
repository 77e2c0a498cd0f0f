"""The public standings on a phone and a desktop: pages of 50, and the find-a-player box
answering as one types (htmx), the address following the search."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournaments.models import Club, Player, Registration
from tournaments.names import search_key

from .test_projector import hall_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1920, 1080)])
def test_find_a_player_as_you_type(browser, live_server, width, height):
    t, _names = hall_of(60)
    player = Registration.objects.get(tournament=t, start_number=33).player
    Player.objects.filter(pk=player.pk).update(name="Jürgen Weißmüller", search_key=search_key("Jürgen Weißmüller"))
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("public:standings", args=[t.pk]))
        expect(page.locator("nav.pager")).to_contain_text("Rows 1\N{EN DASH}50 of 60")
        expect(page.locator("table.standings tbody tr")).to_have_count(50)
        page.screenshot(path=str(SCREENSHOTS / f"standings-{width}.png"), full_page=True)
        # The rating, what the list is read for, is on the screen.
        rating = page.locator("table.standings tbody tr td.rating").first.bounding_box()
        assert rating is not None and rating["x"] >= 0 and rating["x"] + rating["width"] <= width
        page.locator("#find-q").press_sequentially("weissmu jur", delay=30)
        expect(page.locator("table.standings tbody tr")).to_have_count(1)
        expect(page.locator("table.standings tbody")).to_contain_text("Jürgen Weißmüller")
        expect(page.locator(".found")).to_contain_text("1 player found")
        expect(page).to_have_url(re.compile(r"[?&]q=weissmu"))  # a reload shows the same; pushed after the swap
        page.screenshot(path=str(SCREENSHOTS / f"standings-found-{width}.png"), full_page=True)
    finally:
        context.close()


def test_a_long_club_name_wraps_on_a_phone(browser, live_server):
    """At 390 px the club column wraps a long name onto more lines instead of widening the
    table: the player's name and club stay on the screen, beside the rating."""
    t, _names = hall_of(20)
    first = Registration.objects.get(tournament=t, start_number=1).player
    club = Club.objects.create(name="Skatfreunde Herz Dame Musterstadt-Nord e.V.")
    Player.objects.filter(pk=first.pk).update(club=club)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("public:standings", args=[t.pk]) + "?q=1")
        cell = page.locator("table.standings tbody tr td.club").first
        expect(cell).to_contain_text("Skatfreunde Herz Dame")
        page.screenshot(path=str(SCREENSHOTS / "standings-long-club-390.png"), full_page=True)
        # The name's text (not the cell's padding) ends left of the rating, on several lines.
        text = cell.evaluate(
            "c => { const r = document.createRange(); r.selectNodeContents(c); const b = r.getBoundingClientRect();"
            " return {right: b.right, height: b.height}; }"
        )
        rating = page.locator("table.standings tbody tr td.rating").first.bounding_box()
        assert rating is not None and text["right"] <= rating["x"], (text, rating)
        assert text["height"] > 2 * 16
    finally:
        context.close()
