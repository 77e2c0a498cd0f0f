"""A messy evening in a real browser, through the pages only (no admin, no shell): 15
registered from the club list, 13 checked in and paid at the desk, a walk-in
quick-added, the draw, a no-show removed and a late arrival seated before play, a name
corrected, series 1 entered by the tables' phones and one table's paper list typed in
the office grid, a reserve substituted for series 2, the women's ranking and the start
list PDF. The README's "Where to click" walks a director through the same evening.

The test reads the database only to check what the pages did, and to know a table's
link and seating, as the scorekeeper reads the table card's QR code and the names on it.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import pypdf
import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from scoring.models import Game
from tournaments.models import Registration, Seat, Table, Tournament

from .pages import ARRIVALS, check_in_and_take, enter, import_club_list, log_in, new_tournament, pass_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))

#: Nachname;Vorname;Verein;Mannschaft;Geschlecht - Herz Dame Gera's team of four.
CLUB_LIST = [
    ("Müller", "Anna", "SC Altenburg", "", "w"),
    ("Schäfer", "Bernd", "SC Altenburg", "", "m"),
    ("Özdemir", "Canan", "Herz Dame Gera", "Herz Dame", "w"),
    ("Weiß", "Dieter", "Herz Dame Gera", "Herz Dame", "m"),
    ("Krüger", "Elke", "Kreuz Bube Zeitz", "", "w"),
    ("Becker", "Frank", "Kreuz Bube Zeitz", "", "m"),
    ("Hoffmann", "Gisela", "SC Altenburg", "", "w"),
    ("Jäger", "Holger", "Herz Dame Gera", "Herz Dame", "m"),
    ("Lange", "Ines", "Kreuz Bube Zeitz", "", "w"),
    ("Neumann", "Jens", "SC Altenburg", "", "m"),
    ("Richter", "Karin", "Herz Dame Gera", "Herz Dame", "w"),
    ("Schröder", "Lutz", "Kreuz Bube Zeitz", "", "m"),
    ("Vogel", "Monika", "SC Altenburg", "", "w"),
    ("Wolf", "Norbert", "Herz Dame Gera", "", "m"),
    ("Zimmermann", "Olaf", "Kreuz Bube Zeitz", "", "m"),
]
WOMEN = {
    "Anna Müller",
    "Canan Özdemir-Kaya",
    "Elke Krüger",
    "Gisela Hoffmann",
    "Ines Lange",
    "Karin Richter",
    "Monika Vogel",
}


def _club_list(path: Path) -> Path:
    lines = ["Nachname;Vorname;Verein;Mannschaft;Geschlecht", *(";".join(row) for row in CLUB_LIST)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _phone_enters_the_table(browser, base: str, table: Table) -> None:
    """The scorekeeper scans the card: one grand, then every other deal passed out."""
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB"
    ).new_page()
    phone.goto(base + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    seats = {s.number: s.player.name for s in table.seats.select_related("player")}
    # Deal 1: seat 1 deals; at a table of four he sits out, so seat 2 declares (3.2.7).
    enter(phone, seats[2], "Grand", tops=1, declarer_points=70)
    phone.wait_for_selector("text=Deal 1 entered: +48.")
    for deal in range(2, table.size + 1):
        pass_out(phone)
        phone.wait_for_selector(f"text=Deal {deal} entered: passed out.")
    phone.wait_for_selector("text=All deals are entered")
    phone.context.close()


def test_a_messy_evening_through_the_pages_only(live_server, desktop, browser, django_user_model, tmp_path):
    base = live_server.url
    director = django_user_model.objects.create_user("leiter", password="pw")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    log_in(desktop, base, "leiter")

    # The tournament: two series of one round each (4 deals at a four, 3 at a three).
    new_tournament(desktop, "Nikolausskat", "2026-12-06", series=2, rounds=1, entry_fee="10", list_fee="2")
    t = Tournament.objects.get(name="Nikolausskat")

    # 15 registered from the club list.
    import_club_list(desktop, _club_list(tmp_path / "verein.csv"), registered=15)

    # The desk: 13 found as typed, checked in and paid; a walk-in in one line.
    desktop.click("nav.subnav >> text=Check-in")
    for query in ARRIVALS:
        check_in_and_take(desktop, query, "14.00")  # 10 entry + 2 x 2 list fees
    desktop.fill("#id_walkin-name", "Paula Quast")
    desktop.fill("#id_walkin-club", "Kreuz Bube Zeitz")
    desktop.click("form.quick-add button[type=submit]")
    desktop.wait_for_selector("text=Paula Quast is registered with start number 16 and present.")
    desktop.wait_for_load_state()  # htmx sends the tap (not the form's post without it)
    desktop.locator("#desk-rows tr").first.locator("button", has_text="take 14.00").click()
    expect(desktop.locator("#desk-totals .total-present")).to_have_text("14")
    expect(desktop.locator("#desk-totals .total-cash")).to_have_text("196.00")

    # The draw seats the 14 present: tables of 4, 4, 3, 3.
    desktop.click("nav.subnav >> text=Dashboard")
    desktop.click("form.inline-form button[type=submit]")
    desktop.wait_for_selector("text=Series 1 is drawn")
    series = t.series.get(number=1)
    assert sorted(series.tables.values_list("size", flat=True)) == [3, 3, 4, 4]

    # Lutz Schröder was checked in but has gone home: off his table before play.
    desktop.goto(f"{base}/t/{t.pk}/series/1/")
    desktop.fill("#id_noshow_player", "schroeder lutz")
    desktop.click("form[action$='/no-show/'] button")
    expect(desktop.locator(".messages")).to_contain_text(
        "Lutz Schröder did not turn up and is withdrawn from the rest"
    )
    assert not Seat.objects.filter(series=series, player__name="Lutz Schröder").exists()
    # Norbert Wolf arrives after the draw, before the first deal: he is seated.
    norbert = Registration.objects.get(tournament=t, player__name="Norbert Wolf")
    desktop.select_option("#id_late_registration", str(norbert.pk))
    desktop.click("form[action$='/late-arrival/'] button")
    expect(desktop.locator(".messages")).to_contain_text("Norbert Wolf is seated in series 1")
    expect(desktop.locator("#reprint")).to_be_visible()  # the changed tables' new cards and slips
    assert sorted(series.tables.values_list("size", flat=True)) == [3, 3, 4, 4]
    desktop.screenshot(path=str(SCREENSHOTS / "messy-series-1.png"), full_page=True)

    # A typo in a name, corrected on the players page.
    desktop.click("nav.subnav >> text=Players")
    desktop.locator("table.players tr", has_text="Canan Özdemir").locator("text=edit").click()
    desktop.fill("#id_name", "Canan Özdemir-Kaya")
    desktop.click("form button[type=submit]")
    desktop.wait_for_selector("text=Canan Özdemir-Kaya is saved.")

    # Series 1: every table on its phone, but the last, which kept only paper.
    tables = list(series.tables.order_by("number"))
    for table in tables[:-1]:
        _phone_enters_the_table(browser, base, table)
    paper = tables[-1]
    desktop.goto(f"{base}/t/{t.pk}/series/1/table/{paper.number}/grid/")
    expect(desktop.locator("[name=line-1]")).to_be_focused()
    # At a four the dealer sits out (3.2.7): seat 1 deals deal 1, seat 3 deal 3.
    lines = ["2h2 75", "-", "4n", "-"] if paper.size == 4 else ["2h2 75", "-", "3n"]
    for number, line in enumerate(lines, start=1):
        desktop.keyboard.type(line)
        expect(desktop.locator(f"#out-{number} .score")).not_to_be_empty()
        desktop.keyboard.press("Enter")
    desktop.keyboard.press("Control+Enter")
    expect(desktop.locator(".messages")).to_contain_text(f"Table {paper.number}: {len(lines)} deals saved")
    assert Game.objects.filter(table=paper).count() == paper.size
    assert Game.objects.filter(table__series=series).count() == sum(x.size for x in tables)

    # The series is finished (the sheets are not confirmed by PIN this evening).
    desktop.goto(f"{base}/t/{t.pk}/series/1/")
    desktop.check("form.finish-form input[name=force]")
    desktop.click("form.finish-form button[type=submit]")
    desktop.wait_for_selector("text=Series 1 is finished.")

    # Between the series: Herz Dame's reserve Rita comes in for Canan.
    desktop.click("nav.subnav >> text=Players")
    desktop.click("text=Substitute a reserve")
    leaving = desktop.locator("#id_sub-out option", has_text="Canan Özdemir-Kaya")
    desktop.select_option("#id_sub-out", leaving.get_attribute("value"))
    desktop.fill("#id_sub-name", "Rita Reimann")
    desktop.fill("#id_sub-club", "Herz Dame Gera")
    desktop.click("form button[type=submit]")
    expect(desktop.locator(".messages")).to_contain_text(
        "Rita Reimann replaces Canan Özdemir-Kaya for Herz Dame from series 2"
    )

    # Series 2, seeded by the provisional standings.
    desktop.click("nav.subnav >> text=Dashboard")
    desktop.check("input[name=provisional]")
    desktop.click("form.inline-form button[type=submit]")
    desktop.wait_for_selector("text=Series 2 is drawn")
    second = t.series.get(number=2)
    seated = set(Seat.objects.filter(series=second).values_list("player__name", flat=True))
    assert "Rita Reimann" in seated and "Canan Özdemir-Kaya" not in seated
    assert "Lutz Schröder" not in seated and "Olaf Zimmermann" not in seated
    assert len(seated) == 14

    # The women's own ranking, places from 1.
    desktop.click("nav.subnav >> text=Standings")
    desktop.click("text=Damen")  # a German club list's women
    desktop.wait_for_load_state()  # the rows read below are whole
    rows = desktop.locator("table.standings tbody tr")
    expect(rows).to_have_count(7)
    assert all(any(w in line for w in WOMEN) for line in rows.all_inner_texts())
    desktop.screenshot(path=str(SCREENSHOTS / "messy-women.png"), full_page=True)

    # The start list for the wall: by surname, with both series' table and seat.
    response = desktop.request.get(f"{base}/t/{t.pk}/start-list.pdf")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(response.body())).pages)
    order = [text.index(n) for n in ("Frank Becker", "Paula Quast", "Rita Reimann", "Norbert Wolf")]
    assert order == sorted(order)
    rita = Seat.objects.select_related("table").get(series=second, player__name="Rita Reimann")
    assert f"{rita.table.number}/{rita.number}" in text
    (SCREENSHOTS / "messy-start-list.pdf").write_bytes(response.body())
