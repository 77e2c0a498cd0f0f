"""The end of a season in a real browser: the manager sets the
places, deducts points with a reason, sees the table with its zones, footnote, "As of" and
cross table on a phone, the individual ranking, and rolls the season over."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from leagues import checks
from leagues.models import Group, League, LeagueTeam, RosterEntry
from tests import factories
from tests.leagues.helpers import played_day

from .pages import fits, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))


def test_places_a_deduction_the_table_and_the_next_season(live_server, desktop, phone):
    manager = factories.user("staffelleiter")
    league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    top = Group.objects.create(league=league, name="Oberliga")
    for name in ("Team X", "Team Y"):
        team = LeagueTeam.objects.create(group=top, name=name)
        RosterEntry.objects.create(team=team, player=factories.player(f"{name} 1"), position=1)
    day = played_day(group, teams, 1, ["Team A", "Team B"])
    checks.check(day, user=manager)
    base = live_server.url

    log_in(desktop, base, "staffelleiter")
    desktop.goto(f"{base}/league/{league.pk}/")
    desktop.click("text=End of the season")
    desktop.select_option("#id_group", label="Staffel 1")
    desktop.click("form.group-choice button")
    desktop.fill(f"#id_level-{group.pk}", "2")
    desktop.fill(f"#id_promotion-{group.pk}", "1")
    desktop.fill(f"#id_relegation-{group.pk}", "1")
    desktop.click("form.season-rules button[type=submit]")
    desktop.wait_for_selector("text=The season's rules are saved.")
    desktop.select_option("#id_team", label="Team B")
    desktop.fill("#id_points", "1.5")
    desktop.fill("form:has(#id_points) #id_reason", "Spielbericht zu spät")
    desktop.click("text=Deduct the points")
    desktop.wait_for_selector("text=The points are deducted from Team B.")
    fits(desktop, SCREENSHOTS / "season-end-desktop.png")

    log_in(phone, base, "staffelleiter")
    phone.goto(f"{base}/league/{league.pk}/table/")
    text = phone.inner_text("main")
    assert "As of" in text and "↑ promotion" in text and "↓ relegation" in text
    assert "Team B, points deducted: 1½: Spielbericht zu spät" in text
    fits(phone, SCREENSHOTS / "season-table-phone.png")
    phone.click("text=Match days (cross table)")
    expect(phone.locator("table.cross-table").first).to_contain_text("4:2")
    fits(phone, SCREENSHOTS / "cross-table-phone.png")
    phone.goto(f"{base}/league/{league.pk}/table/")
    phone.click("text=Individual ranking")
    expect(phone.locator("table.individual").first).to_contain_text("A1")
    fits(phone, SCREENSHOTS / "individual-ranking-phone.png")

    desktop.fill("#id_season", "2027")
    desktop.click("text=Set up the next season")
    desktop.wait_for_selector("text=The season 2027 is set up.")
    expect(desktop.locator("main")).to_contain_text("From the previous season")
    new = League.objects.get(season="2027")
    assert LeagueTeam.objects.filter(group__league=new, group__name="Oberliga").count() == 3
    # The new season's page on the phone: the places table's hidden labels stay inside the
    # table that scrolls (they widened the page by 5 px).
    phone.goto(f"{base}/league/{new.pk}/season-end/")
    fits(phone, SCREENSHOTS / "season-end-phone.png")
