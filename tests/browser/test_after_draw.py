"""After the draw in a real browser: a no-show removed and a late arrival seated on the
series page, the reprint box offering only the changed tables' cards and PIN slips, a
withdrawal undone and a reserve substituted on the players page; screenshots at 1920 and
390 px."""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import pypdf
import pytest
from playwright.sync_api import expect

from draw.series import draw_series
from tests import factories
from tournaments.models import Registration, Seat

from .pages import log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))

NAMES = [
    ("Anna Müller", "SC Altenburg"),
    ("Bernd Schäfer", "SC Altenburg"),
    ("Canan Özdemir", "Herz Dame Gera"),
    ("Dieter Weiß", "Herz Dame Gera"),
    ("Elke Krüger", "Kreuz Bube Zeitz"),
    ("Frank Becker", "Kreuz Bube Zeitz"),
    ("Gisela Hoffmann", "SC Altenburg"),
    ("Holger Jäger", "Herz Dame Gera"),
    ("Ines Lange", "Kreuz Bube Zeitz"),
    ("Jens Neumann", "SC Altenburg"),
    ("Karin Richter", "Herz Dame Gera"),
    ("Lutz Schröder", "Kreuz Bube Zeitz"),
    ("Monika Vogel", "SC Altenburg"),
    ("Norbert Wolf", "Herz Dame Gera"),
    ("Olaf Zimmermann", "Kreuz Bube Zeitz"),
]


def test_no_show_late_arrival_reprints_undo_and_substitute(live_server, browser):
    director = factories.user("director")
    t = factories.tournament(name="Herbstpreis", directors=[director], series_count=2)
    team = t.teams.create(name="Herz Dame")
    regs = []
    for number, (name, club) in enumerate(NAMES, start=1):
        regs.append(
            Registration.objects.create(
                tournament=t,
                player=factories.player(name, club=club),
                start_number=number,
                present=number <= 13,  # 13 checked in; Norbert and Olaf are not here yet
                team=team if name in ("Canan Özdemir", "Holger Jäger") else None,
            )
        )
    series = draw_series(t)  # 13 present: tables of 4, 3, 3, 3
    base = live_server.url
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    log_in(page, base, "director")

    # A no-show: the player at table 1 (a four) never came; table 1 becomes a three.
    gone = Seat.objects.select_related("player").get(series=series, table__number=1, number=2).player
    page.goto(f"{base}/t/{t.pk}/series/1/")
    page.fill("#id_noshow_player", gone.name)
    page.click("form[action$='/no-show/'] button")
    expect(page.locator(".messages")).to_contain_text(f"{gone.name} did not turn up and is withdrawn from the rest")
    expect(page.locator("#reprint")).to_contain_text("Table 1 has a new link")

    # A late arrival: Norbert comes after the draw and before play; he joins a three.
    norbert = regs[13]
    page.select_option("#id_late_registration", str(norbert.pk))
    page.click("form[action$='/late-arrival/'] button")
    expect(page.locator(".messages")).to_contain_text("Norbert Wolf is seated in series 1")
    seat = Seat.objects.select_related("table").get(series=series, player=norbert.player)
    assert seat.table.size == 4 and seat.number == 4
    page.screenshot(path=str(SCREENSHOTS / "after-draw-series-1920.png"), full_page=True)

    # The reprint box's table cards hold the changed table only.
    cards = page.locator("#reprint a", has_text="Table cards of these tables").get_attribute("href")
    pdf = pypdf.PdfReader(io.BytesIO(page.request.get(base + cards).body()))
    text = "".join(p.extract_text() for p in pdf.pages)
    assert "Norbert Wolf" in text and f"Table {seat.table.number}" in text
    (SCREENSHOTS / "after-draw-cards.pdf").write_bytes(page.request.get(base + cards).body())

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-GB").new_page()
    log_in(phone, base, "director")
    phone.goto(f"{base}/t/{t.pk}/series/1/?reprint={seat.table.number}")
    expect(phone.locator(".after-draw")).to_be_visible()
    phone.screenshot(path=str(SCREENSHOTS / "after-draw-series-390.png"), full_page=True)

    # The players page: the no-show did not play; his withdrawal is undone, he is back.
    page.goto(f"{base}/t/{t.pk}/players/")
    row = page.locator("tr", has_text=gone.name)
    expect(row).to_contain_text("did not play (no-show)")
    page.once("dialog", lambda dialog: dialog.accept())
    row.locator("button", has_text="undo withdrawal").click()
    expect(page.locator(".messages")).to_contain_text(f"{gone.name} plays on and is seated in series 1")

    # Between series: the reserve Rita comes in for Canan of Herz Dame.
    factories.play_series(series)
    page.goto(f"{base}/t/{t.pk}/players/")
    page.click("text=Substitute a reserve")
    page.select_option("#id_sub-out", str(regs[2].pk))
    page.fill("#id_sub-name", "Rita Reserve")
    page.fill("#id_sub-club", "Herz Dame Gera")
    page.screenshot(path=str(SCREENSHOTS / "after-draw-substitute-1920.png"), full_page=True)
    page.click("form button[type=submit]")
    replaced = "Rita Reserve replaces Canan Özdemir for Herz Dame from series 2"
    expect(page.locator(".messages")).to_contain_text(replaced)
    page.screenshot(path=str(SCREENSHOTS / "after-draw-players-1920.png"), full_page=True)
    second = draw_series(t)
    assert Seat.objects.filter(series=second, player__name="Rita Reserve").exists()
    assert not Seat.objects.filter(series=second, player=regs[2].player).exists()
    context.close()
