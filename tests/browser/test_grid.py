"""The office grid in a real browser: a table that kept only paper, its list typed at the
desk with the keyboard alone (no mouse after the page opens), each row valued as it is
typed, a refused row corrected, the whole list saved at once."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests import factories

from .pages import log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))

#: A table of four's paper list, one round and a half (the dealer sits out, 3.2.7).
PAPER = [
    ("2h2 75", "+30"),  # deal 1, seat 1 deals: hearts with 2, game = 3 x 10
    ("3k-1 59", "-48"),  # deal 2: clubs without 1, lost: 2 x 12, doubled
    ("4n", "+23"),  # deal 3: null won
    ("-", "0"),  # deal 4: passed out
    ("3g2h 95", "+120"),  # deal 5: grand with 2, hand, schneider: 5 x 24
    ("4p1 61", "+22"),  # deal 6: spades with 1: 2 x 11
]


def test_a_paper_list_is_typed_with_the_keyboard_and_saved_whole(live_server, browser):
    table = factories.table_of(4, rounds_per_series=2)
    director = factories.user()
    table.series.tournament.directors.add(director)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    log_in(page, live_server.url, director.username)
    page.goto(f"{live_server.url}/t/{table.series.tournament_id}/series/1/")
    page.click("text=Type the paper list")

    # The cursor stands in deal 1's row; from here on only the keyboard.
    expect(page.locator("[name=line-1]")).to_be_focused()
    page.keyboard.type("1h2 75")  # seat 1 deals deal 1 at four: the rules refuse him
    expect(page.locator("#out-1")).to_contain_text("Deal 1, declarer: 3.2.7: the dealer sits out")
    page.keyboard.press("Control+A")
    for number, (line, score) in enumerate(PAPER, start=1):
        page.keyboard.type(line)
        expect(page.locator(f"#out-{number} .score")).to_have_text(score)
        page.keyboard.press("Enter")
    expect(page.locator("[name=line-7]")).to_be_focused()
    expect(page.locator("#out-5")).to_contain_text("Grand with 2 hand schneider")
    # The players' running totals, as on the paper list: the office's scores added up.
    expect(page.locator("tr.grid-row").nth(5).locator("td.total")).to_have_text(["0", "30", "72", "45"])
    page.screenshot(path=str(SCREENSHOTS / "grid-1920.png"), full_page=True)
    page.keyboard.press("Control+Enter")

    expect(page.locator(".messages")).to_contain_text("Table 1: 6 deals saved, every one valued by the rules.")
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [g.score for g in games] == [30, -48, 23, 0, 120, 22]
    assert [g.declarer_seat for g in games] == [2, 3, 4, None, 3, 4]
    assert games[4].hand and games[4].schneider and games[4].tops_kind == "with"
    assert games[1].tops_kind == "without"
    # The grid goes on at deal 7; the saved deals are shown as the sheet.
    expect(page.locator("[name=line-7]")).to_be_focused()
    expect(page.locator("table.sheet")).to_contain_text("+120")
    page.screenshot(path=str(SCREENSHOTS / "grid-saved-1920.png"), full_page=True)
    context.close()


def test_the_players_columns_show_their_whole_names_at_1366(live_server, browser):
    """A 1366 x 768 laptop: each player's column heading shows his whole name (wrapped,
    not cut to "1 Man..."), the title repeats it, and the page does not scroll sideways."""
    table = factories.table_of(4, rounds_per_series=2)
    names = ["Manfred Müller-Lüdenscheidt", "Anna-Katharina Zimmermann", "Bernd Schulze", "Wilhelmine Braun"]
    for seat, name in zip(table.seats.order_by("number"), names, strict=True):
        type(seat.player).objects.filter(pk=seat.player_id).update(name=name)
    director = factories.user()
    table.series.tournament.directors.add(director)
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    log_in(page, live_server.url, director.username)
    page.goto(f"{live_server.url}/t/{table.series.tournament_id}/series/1/")
    page.click("text=Type the paper list")
    headers = page.locator("table.grid th.player")
    expect(headers).to_have_count(4)
    page.screenshot(path=str(SCREENSHOTS / "grid-1366.png"), full_page=True)
    for number, name in enumerate(names, start=1):
        header = headers.nth(number - 1)
        expect(header).to_have_text(f"{number} {name}")
        assert header.get_attribute("title") == f"{number} {name}"
        # Nothing cut: the heading's content fits its box.
        assert header.evaluate("h => h.scrollWidth <= h.clientWidth"), name
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()
