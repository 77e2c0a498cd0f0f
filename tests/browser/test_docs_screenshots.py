"""The help pages' screenshots, taken from the real pages rather than drawn by hand.

A director sets up a small tournament through the pages (new tournament, the club list,
the draw) and two tables' phones enter deals; the main pages are then saved as PNG, on a
desktop (1366x768) and on a phone (390 px wide), into ``docs/pages/img/screens/`` (or
``DOCS_SCREENSHOTS``), which git ignores and the docs (and the README) show. ``make docs``
runs this test when that folder has no screenshot yet (``SCREENSHOTS=1 make docs``: again).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission

from tournaments.models import Table, Tournament

from .pages import enter, import_club_list, log_in, new_tournament, pass_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENS = Path(os.environ.get("DOCS_SCREENSHOTS") or Path(settings.BASE_DIR) / "docs" / "pages" / "img" / "screens")
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

#: Nachname;Vorname;Verein;Mannschaft: three clubs of four, each a team.
CLUB_LIST = [
    ("Müller", "Anna", "SC Altenburg", "Altenburg"),
    ("Schäfer", "Bernd", "SC Altenburg", "Altenburg"),
    ("Hoffmann", "Gisela", "SC Altenburg", "Altenburg"),
    ("Neumann", "Jens", "SC Altenburg", "Altenburg"),
    ("Özdemir", "Canan", "Herz Dame Gera", "Herz Dame"),
    ("Weiß", "Dieter", "Herz Dame Gera", "Herz Dame"),
    ("Jäger", "Holger", "Herz Dame Gera", "Herz Dame"),
    ("Richter", "Karin", "Herz Dame Gera", "Herz Dame"),
    ("Krüger", "Elke", "Kreuz Bube Zeitz", "Kreuz Bube"),
    ("Becker", "Frank", "Kreuz Bube Zeitz", "Kreuz Bube"),
    ("Lange", "Ines", "Kreuz Bube Zeitz", "Kreuz Bube"),
    ("Schröder", "Lutz", "Kreuz Bube Zeitz", "Kreuz Bube"),
]


def shot(page, name: str) -> Path:
    page.wait_for_load_state("networkidle")
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def phone_enters(browser, base: str, table: Table, deals: int, name: str | None = None) -> None:
    """The table's phone: a grand by seat 2, then passed-out deals (3.2.7: seat 1 deals first)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    phone = context.new_page()
    phone.goto(base + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    seats = {s.number: s.player.name for s in table.seats.select_related("player")}
    enter(phone, seats[2], "Grand", tops=1, declarer_points=70)
    phone.wait_for_selector("text=Deal 1 entered: +48.")
    for deal in range(2, deals + 1):
        pass_out(phone)
        phone.wait_for_selector(f"text=Deal {deal} entered: passed out.")
    if name:
        shot(phone, name)
    context.close()


def test_the_docs_screenshots_come_from_the_pages(live_server, browser, django_user_model, tmp_path):
    base = live_server.url
    director = django_user_model.objects.create_user("director", password="pw")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    desk = context.new_page()
    log_in(desk, base, "director")

    new_tournament(desk, "Club evening", "2026-12-06", series=2, rounds=1, entry_fee="10", list_fee="2")
    t = Tournament.objects.get(name="Club evening")
    club_list = tmp_path / "club.csv"
    rows = ["Nachname;Vorname;Verein;Mannschaft", *(";".join(row) for row in CLUB_LIST)]
    club_list.write_text("\n".join(rows) + "\n", encoding="utf-8")
    import_club_list(desk, club_list, registered=len(CLUB_LIST))
    shot(desk, "desktop-players")

    desk.click("nav.subnav >> text=Dashboard")
    desk.click("form.inline-form button[type=submit]")
    desk.wait_for_selector("text=Series 1 is drawn")
    tables = list(Table.objects.filter(series__tournament=t, series__number=1).order_by("number"))
    phone_enters(browser, base, tables[0], deals=2, name="phone-table-link")
    phone_enters(browser, base, tables[1], deals=tables[1].size)

    pages = {
        "desktop-dashboard": f"/t/{t.pk}/",
        "desktop-series": f"/t/{t.pk}/series/1/",
        "desktop-standings": f"/t/{t.pk}/standings/",
        "desktop-check-in": f"/t/{t.pk}/desk/",
    }
    for name, url in pages.items():
        response = desk.goto(base + url)
        assert response is not None and response.status == 200, (name, response and response.status)
        shot(desk, name)
    context.close()

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB").new_page()
    log_in(phone, base, "director")
    phone.wait_for_url(base + "/")
    phone.goto(f"{base}/t/{t.pk}/standings/")
    shot(phone, "phone-standings")
    phone.context.close()

    for name in [*pages, "desktop-players", "phone-table-link", "phone-standings"]:
        assert (SCREENS / f"{name}.png").stat().st_size > 5_000, name
