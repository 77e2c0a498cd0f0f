"""A whole evening in a real browser: the director's pages on a desktop, one table's
games on a phone through its link, the players confirming the sheet with the PINs of
the slips the director printed,
the director downloading the filled scoresheet (PDF) and the league workbook (XLSX),
and the standings changing from provisional to final."""

from __future__ import annotations

import io
import os
import re
import tempfile
from pathlib import Path

import openpyxl
import pypdf
import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game
from signoff.pins import seat_pin
from tournaments.models import Table, Tournament

from .pages import confirm, enter, fits, log_in, pass_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: Where the phone's screenshot goes, to look at (not in git).
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))
PLAYERS = ["Anna", "Bernd", "Clara", "Dieter", "Elke", "Frank", "Gisela"]


def start_evening(desktop, base: str) -> Tournament:
    """The director creates a one-series, one-round tournament, registers 7 players and draws."""
    log_in(desktop, base, "leiter")
    desktop.click("text=New tournament")
    desktop.fill("#id_name", "Kneipenabend")
    desktop.fill("#id_date", "2026-11-27")
    desktop.fill("#id_series_count", "1")
    desktop.fill("#id_rounds_per_series", "1")
    desktop.click("form button[type=submit]")
    desktop.wait_for_url(re.compile(r"/players/$"))
    for i, name in enumerate(PLAYERS):
        desktop.fill("#id_name", name)
        desktop.fill("#id_club", f"Club {i % 3}")
        desktop.click("form.form-grid button[type=submit]")
        desktop.wait_for_selector(f"text={name} is registered with start number {i + 1}.")
    desktop.click("text=Dashboard")
    desktop.click("form.inline-form button[type=submit]")  # draw series 1
    desktop.wait_for_selector("text=Series 1 is drawn")
    return Tournament.objects.get(name="Kneipenabend")


def assert_fits_the_phone(phone, screenshot: Path, controls: tuple[str, ...]) -> None:
    """At 390 px the page never scrolls sideways: every control is in reach of a thumb.

    (The sheet's table may scroll inside its own box; the page around it must not.)
    """
    width = fits(phone, screenshot)
    for control in controls:
        box = phone.locator(control).first.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, f"{control} is cut off: {box}"


def enter_the_table(phone, table: Table, names: list[str]) -> None:
    """The scorekeeper's three deals: a refused grand, then +72, a pass, and an overbid hearts."""
    assert phone.evaluate("typeof htmx") == "object", "htmx.min.js must load (static files)"
    # A slow phone: htmx settles swapped content late. The form's own swap must not wait
    # for it, or the live value of a field changed at once after a refusal never came.
    phone.evaluate("htmx.config.defaultSettleDelay = 700")
    # A grand has at most 4 tops: refused with the paragraph, nothing stored.
    enter(phone, names[0], "Grand", tops=5, declarer_points=70)
    # The refusal comes back from the server beside "Enter deal", once (the live value showed it already).
    phone.wait_for_selector("#preview .errorlist >> text=2.4.3: a grand has at most 4 tops, not 5")
    expect(phone.get_by_text("2.4.3: a grand has at most 4 tops, not 5")).to_have_count(1)
    assert not Game.objects.filter(table=table).exists()
    phone.fill("#id_tops", "2")
    phone.wait_for_selector("#preview >> text=+72")  # the value appears before saving
    phone.click("button.enter")
    phone.wait_for_selector("text=Deal 1 entered: +72.")
    pass_out(phone)
    phone.wait_for_selector("text=Deal 2 entered: passed out.")
    enter(phone, names[2], "Hearts", tops=1, declarer_points=70, bid=50)  # 5.4.1: overbid
    phone.wait_for_selector("text=Deal 3 entered: -100.")
    phone.wait_for_selector("text=All deals are entered")
    assert list(Game.objects.filter(table=table).order_by("number").values_list("score", flat=True)) == [72, 0, -100]


def standings_rows(desktop) -> dict[str, list[str]]:
    """The standings page as {player: the row's cells}, in the order shown."""
    desktop.click("nav >> text=Standings")
    desktop.wait_for_load_state()  # every row whole, not only begun
    rows = desktop.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(PLAYERS))
    cells = [row.split("\t") for row in rows.all_inner_texts()]
    header = [cell.strip() for cell in desktop.locator("table.standings thead th").all_inner_texts()]
    assert [header[i] for i in (-3, -1)] == ["Rating", "Sheets"], header
    player = header.index("Player")
    return {row[player].strip(): row for row in cells}


def download(desktop, link) -> bytes:
    """Save what a link gives: Alt+click saves it in Chromium, even a PDF shown inline."""
    with desktop.expect_download() as info:
        link.click(modifiers=["Alt"])
    return Path(info.value.path()).read_bytes()


def test_a_director_runs_an_evening_from_the_draw_to_the_final_standings(
    live_server, desktop, phone, django_user_model
):
    director = django_user_model.objects.create_user("leiter", password="pw")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    base = live_server.url
    tournament = start_evening(desktop, base)
    table = Table.objects.get(series__tournament=tournament, size=3)
    names = [s.player.name for s in table.seats.order_by("number")]

    # The scorekeeper scans the table card: the link opens this table only.
    phone.goto(base + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    phone.locator("#id_contract label", has_text="Grand").click()  # the flags and tops show up
    entry_controls = (
        "#id_declarer_seat",
        "#id_contract",
        "#id_tops",
        "#id_declarer_points",
        "#id_bid",
        "button.enter",
    )
    assert_fits_the_phone(phone, SCREENSHOTS / "phone-entry.png", entry_controls)
    enter_the_table(phone, table, names)

    # Entered but not confirmed: the table's players lead provisionally.
    before = standings_rows(desktop)
    assert before[names[0]][-1].startswith("provisional"), before[names[0]]
    # names[0]: 72 + 50 for the won grand + 40 for the hearts lost by names[2] = 162 (below).
    assert before[names[0]][-3] == "162"
    expect(desktop.locator("text=0 of 2 sheets confirmed")).to_be_visible()

    # The director opens the table from the series page's list and prints its PIN slips;
    # each player reads his own PIN from his.
    open_table(desktop, base, tournament, names[0])
    slips = download(desktop, desktop.locator("section.table-links").get_by_role("link", name="PIN slips"))
    slip_text = "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(slips)).pages)
    pins = dict(re.findall(r"Seat \d\n(.+)\nPIN\n(\d{4})\n", slip_text))
    assert pins == {name: seat_pin(table, seat) for seat, name in enumerate(names, start=1)}, slip_text

    # Every player confirms the sheet on the phone with the PIN from his own slip.
    phone.wait_for_selector("text=Awaiting confirmation")
    assert_fits_the_phone(
        phone, SCREENSHOTS / "phone-confirm.png", (".pin-form label", "input[name=pin]", ".pin-form button")
    )
    # The players check the sheet before they confirm it: a table of three shows every column.
    sheet = phone.evaluate("(b => [b.scrollWidth, b.clientWidth])(document.querySelector('.sheet-scroll'))")
    assert sheet[0] <= sheet[1], f"the sheet needs swiping sideways: {sheet[0]} px in {sheet[1]} px"
    for name in names:
        confirm(phone, name, pins[name])
    phone.wait_for_selector("text=Every player has confirmed: the sheet is final.")
    expect(phone.locator("#signoff.confirmed")).to_contain_text("the sheet is locked")
    expect(phone.locator("#game-form")).to_have_count(0)

    # The filled scoresheet from the table's page.
    open_table(desktop, base, tournament, names[0])
    pdf = download(desktop, desktop.locator("section.table-links").get_by_role("link", name="filled sheet"))
    assert pdf.startswith(b"%PDF-")
    # The ratings by hand (5.1-5.3 and the rating of reference 004, 6.1, a table of three):
    # deal 1, seat 1's grand with 2, game 3: 24 x 3 = +72, won (+50);
    # deal 2 passed out: nothing (5.5.1);
    # deal 3, seat 3's hearts with 1, game 2 = 20, bid 50: overbid (5.4.1), raised to
    #   10 x 5 = 50, lost and doubled (5.3.4): -100, lost (-50); seats 1 and 2 +40 each.
    # Seat 1: 72 + 50 + 40 = 162; seat 2: 0 + 40 = 40; seat 3: -100 - 50 = -150.
    ratings = {names[0]: 162, names[1]: 40, names[2]: -150}
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    for name, rating in ratings.items():
        assert name in text
        assert re.search(rf"(?<![\d-]){rating}(?!\d)", text), (name, rating, text)
    assert "+72" in text and "-100" in text  # the scores of deals 1 and 3

    # The standings change: the table's players are final; the other table still provisional.
    after = standings_rows(desktop)
    for name, rating in ratings.items():
        assert after[name][-1] == "final", after[name]
        assert after[name][-3] == str(rating), (name, after[name], rating)
    assert sum(1 for row in after.values() if row[-1].startswith("provisional")) == 4  # the table of four
    expect(desktop.locator("text=1 of 2 sheets confirmed")).to_be_visible()
    leader = next(iter(after))
    assert leader == names[0]

    # The league workbook from the Export page: its ranking has the same leader.
    desktop.click("nav >> text=Export")
    xlsx = download(desktop, desktop.get_by_role("link", name="Download XLSX"))
    ranking = openpyxl.load_workbook(io.BytesIO(xlsx), read_only=True)["Ranking"]
    header, first = list(ranking.iter_rows(min_row=1, max_row=2, values_only=True))
    assert (first[header.index("Place")], first[header.index("Name")]) == (1, leader)


def open_table(desktop, base: str, tournament, name: str) -> None:
    """From the series page's list of tables, the row seating ``name``, to the table's own page."""
    desktop.goto(base + reverse("director:series", args=[tournament.pk, 1]))
    desktop.locator("table.series-tables tr", has_text=name).get_by_role("link", name="open").click()
    desktop.wait_for_selector("section.table-links")
