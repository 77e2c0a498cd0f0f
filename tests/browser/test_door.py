"""The door in a real browser: a club list imported (surname and first name in two
columns), 13 of the 15 checked in and paid at the desk by searching as they arrive and
one tap each, a walk-in quick-added, the draw seating only who is present, a name
corrected on the players page and shown so on the standings, the women's own ranking,
and the start list PDF for the wall. And a name typed at the desk before the page's
scripts ran: searched all the same."""

from __future__ import annotations

import io
import os
import re
import tempfile
from pathlib import Path

import pypdf
import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from tests import factories
from tournaments.models import Registration, Seat, Tournament

from .pages import ARRIVALS, check_in_and_take, import_club_list, log_in, new_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))

#: The club list: Nachname, Vorname, Verein, Mitgliedsnummer, Geschlecht.
CLUB_LIST = [
    ("Müller", "Anna", "SC Altenburg", "00417", "w"),
    ("Schäfer", "Bernd", "SC Altenburg", "00418", "m"),
    ("Özdemir", "Canan", "Herz Dame Gera", "", "w"),
    ("Weiß", "Dieter", "Herz Dame Gera", "", "m"),
    ("Krüger", "Elke", "Kreuz Bube Zeitz", "", "w"),
    ("Becker", "Frank", "Kreuz Bube Zeitz", "", "m"),
    ("Hoffmann", "Gisela", "SC Altenburg", "", "w"),
    ("Jäger", "Holger", "Herz Dame Gera", "", "m"),
    ("Lange", "Ines", "Kreuz Bube Zeitz", "", "w"),
    ("Neumann", "Jens", "SC Altenburg", "", "m"),
    ("Richter", "Karin", "Herz Dame Gera", "", "w"),
    ("Schröder", "Lutz", "Kreuz Bube Zeitz", "", "m"),
    ("Vogel", "Monika", "SC Altenburg", "", "w"),
    ("Wolf", "Norbert", "Herz Dame Gera", "", "m"),
    ("Zimmermann", "Olaf", "Kreuz Bube Zeitz", "", "m"),
]


def _club_list(path: Path) -> Path:
    lines = ["Nachname;Vorname;Verein;Mitgliedsnummer;Geschlecht"]
    lines += [";".join(row) for row in CLUB_LIST]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_door_from_the_club_list_to_the_start_list(live_server, desktop, browser, django_user_model, tmp_path):
    base = live_server.url
    director = django_user_model.objects.create_user("leiter", password="pw")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    log_in(desktop, base, "leiter")
    new_tournament(desktop, "Wintercup", "2026-12-04", series=2, rounds=1, entry_fee="10", list_fee="2")
    t = Tournament.objects.get(name="Wintercup")

    # The club list: surname and first name in two columns, a woman by her gender.
    import_club_list(desktop, _club_list(tmp_path / "verein.csv"), registered=15)
    assert Registration.objects.get(player__name="Anna Müller").player.membership_number == "00417"
    # The list sorts by surname, start numbers in the order of the list.
    names = desktop.locator("table.players tbody tr td:nth-child(2)").all_inner_texts()
    assert names[:3] == ["Frank Becker", "Gisela Hoffmann", "Holger Jäger"]
    assert sorted(t.registrations.values_list("start_number", flat=True)) == list(range(1, 16))

    # At the desk: each arrival found by what the desk types, checked in and paid.
    desktop.click("nav.subnav >> text=Check-in")
    for query in ARRIVALS:
        check_in_and_take(desktop, query, "14.00")  # 10 entry + 2 x 2 list fees
    expect(desktop.locator("#desk-totals .total-present")).to_have_text("13")
    expect(desktop.locator("#desk-totals .total-cash")).to_have_text("182.00")

    # A walk-in in one line: present at once, the next start number.
    desktop.fill("#id_walkin-name", "Paula Quast")
    desktop.fill("#id_walkin-club", "Kreuz Bube Zeitz")
    desktop.click("form.quick-add button[type=submit]")
    desktop.wait_for_selector("text=Paula Quast is registered with start number 16 and present.")
    desktop.wait_for_load_state()  # htmx sends the tap (not the form's post without it)
    desktop.locator("#desk-rows tr").first.locator("button", has_text="take 14.00").click()
    expect(desktop.locator("#desk-totals .total-cash")).to_have_text("196.00")
    for width, height in ((390, 844), (1920, 1080)):
        desktop.set_viewport_size({"width": width, "height": height})
        desktop.fill("#desk-q", "")
        desktop.screenshot(path=str(SCREENSHOTS / f"door-desk-{width}.png"), full_page=True)
    desktop.set_viewport_size({"width": 1280, "height": 900})

    # The draw seats the 14 present, not the two who stayed away.
    desktop.click("nav.subnav >> text=Dashboard")
    desktop.click("form.inline-form button[type=submit]")
    desktop.wait_for_selector("text=Series 1 is drawn")
    seated = set(Seat.objects.filter(series__tournament=t).values_list("player__name", flat=True))
    assert len(seated) == 14 and not seated & {"Norbert Wolf", "Olaf Zimmermann"}

    # A typo corrected on the players page shows on the standings.
    desktop.click("nav.subnav >> text=Players")
    row = desktop.locator("table.players tr", has_text="Canan Özdemir")
    row.locator("text=edit").click()
    desktop.fill("#id_name", "Canan Özdemir-Kaya")
    desktop.click("form button[type=submit]")
    desktop.wait_for_selector("text=Canan Özdemir-Kaya is saved.")
    desktop.click("nav.subnav >> text=Standings")
    expect(desktop.locator("table")).to_contain_text("Canan Özdemir-Kaya")

    # The women's own ranking: only them, placed from 1.
    desktop.click("text=Damen")  # a German club list's women
    desktop.wait_for_load_state()  # the rows read below are whole
    women = {"Anna Müller", "Canan Özdemir-Kaya", "Elke Krüger", "Gisela Hoffmann", "Ines Lange", "Karin Richter"}
    women.add("Monika Vogel")
    body = desktop.locator("table tbody")
    expect(body.locator("tr")).to_have_count(7)
    assert all(any(w in line for w in women) for line in body.locator("tr").all_inner_texts())
    desktop.screenshot(path=str(SCREENSHOTS / "door-standings-women.png"), full_page=True)

    # The start list for the wall: by surname, with table/seat of series 1, the no-shows left off.
    response = desktop.request.get(f"{base}/t/{t.pk}/start-list.pdf")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(response.body())).pages)
    order = [text.index(n) for n in ("Frank Becker", "Gisela Hoffmann", "Paula Quast")]
    assert order == sorted(order)
    # The two who stayed away have no seat: left off the wall's list, and counted.
    assert "Olaf Zimmermann" not in text and "Norbert Wolf" not in text
    assert "2 registered players without a seat in any drawn series (not checked in) are not listed." in text
    seat = Seat.objects.select_related("table").get(series__tournament=t, player__name="Paula Quast")
    assert f"{seat.table.number}/{seat.number}" in text
    assert "Canan Özdemir-Kaya" in text
    (SCREENSHOTS / "door-start-list.pdf").write_bytes(response.body())
    assert t.registrations.filter(paid=True).count() == 14


def test_a_name_typed_before_the_desks_scripts_ran_is_searched(live_server, desktop):
    """The desk's search field has the focus as soon as it shows, before htmx (loaded at
    the end of the page) listens to it: the director who types the first arrival's name
    at once sees that player once the scripts run, not the whole list under his query
    (static/js/office.js sends the search of a field typed into early)."""
    director = factories.user("leiter")
    t = factories.tournament(directors=[director])
    for surname, first, club, number, _gender in CLUB_LIST[:5]:
        player = factories.player(f"{first} {surname}", club=club, membership_number=number)
        Registration.objects.create(tournament=t, player=player)
    base = live_server.url
    log_in(desktop, base, director.username)
    rows = desktop.locator("#desk-rows tr")
    searches: list[str] = []
    desktop.on("request", lambda request: request.headers.get("hx-request") and searches.append(request.url))

    # htmx.min.js held back until the name is typed: the page shows, its scripts wait.
    # (Routing bypasses the browser's cache: this page's first htmx.min.js is requested.)
    held = []
    desktop.route("**/js/htmx.min.js", lambda route: held.append(route))
    desktop.goto(f"{base}/t/{t.pk}/desk/", wait_until="commit")
    desktop.fill("#desk-q", "mueller anna")
    for _ in range(200):  # the request for htmx.min.js is on its way (10 s at most)
        if held:
            break
        desktop.wait_for_timeout(50)
    assert held, "htmx.min.js was never requested"
    assert desktop.evaluate("typeof htmx") == "undefined"  # typed before the page's scripts ran
    expect(rows).to_have_count(5)
    held[0].continue_()

    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Anna Müller")
    expect(desktop.locator("#desk-q")).to_have_value("mueller anna")
    assert len(searches) == 1 and re.search(r"[?&]q=mueller(\+|%20)anna", searches[0]), searches

    # A desk opened with a query (the walk-in's redirect) shows its answer: no search sent.
    desktop.unroute("**/js/htmx.min.js")
    searches.clear()
    desktop.goto(f"{base}/t/{t.pk}/desk/?q=becker")
    expect(rows).to_have_count(1)
    desktop.wait_for_load_state("networkidle")
    assert searches == []
