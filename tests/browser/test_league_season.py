"""A league season in a real browser (issue 18, "Done when"): the league manager sets up
two match days of a group of four teams, gives the line-ups, substitutes a reserve
between series, draws the series on the match day's dashboard, corrects a game of match
day 1 (the referees' audited correction), checks it and marks it binding, then opens the
season table (phone and desktop) and the match report PDF with the captains' signature lines.

The deals themselves are stored as the entry view stores them (factories.play_series):
entering at the table through the link is test_evening's subject.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from pathlib import Path

import pypdf
import pytest
from playwright.sync_api import expect

from leagues.models import MatchDay
from referees.models import Correction
from scoring.models import Game
from tests import factories
from tournaments.models import Series

from .pages import correct_card_points, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))


def play_drawn_series(match_day: MatchDay, winner: str) -> None:
    series = Series.objects.filter(tournament=match_day.tournament).order_by("-number").first()
    factories.play_series(series, winner)


def run_match_day(page, base: str, league, group, number: int, date: str, winners: list[str], substitute: bool):
    page.goto(f"{base}/league/{league.pk}/")
    page.click("text=New match day")
    prefix = f"#id_group-{group.pk}"
    page.fill(f"{prefix}-number", str(number))
    page.fill(f"{prefix}-date", date)
    page.click("text=Set up the match day")
    page.wait_for_selector(f"text=Match day {number} is set up")
    match_day = MatchDay.objects.get(group=group, number=number)
    for team in ("Team A", "Team B", "Team C", "Team D"):
        page.click(f"form.line-up[data-team='{team}'] button")
        page.wait_for_selector(f"text=The line-up of {team} is set.")
    for index, winner in enumerate(winners, start=1):
        if index == 2 and substitute:
            page.select_option("#id_team", label="Team A")
            page.select_option("#id_player_out", label="A1 (Club A)")
            page.select_option("#id_player_in", label="A5 (Club A)")
            page.click("form.substitution button")
            page.wait_for_selector("text=A5 plays for A1 from series 2.")
        page.click("text=Dashboard: draw and table links")
        page.click("form.inline-form button[type=submit]")  # draw the next series
        page.wait_for_selector(f"text=Series {index} is drawn")
        play_drawn_series(match_day, winner)
        page.goto(f"{base}/league/match-days/{match_day.pk}/")
    return match_day


def test_a_season_of_two_match_days(browser, live_server):
    base = live_server.url
    manager = factories.user("staffelleiter")
    league, group, _teams = factories.league_group(
        managers=[manager], name="Bezirksliga", series_per_matchday=2, rounds_per_series=1, published=True
    )
    desktop = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    log_in(desktop, base, "staffelleiter")
    day1 = run_match_day(desktop, base, league, group, 1, "2026-09-05", ["Team A", "Team B"], substitute=True)
    day2 = run_match_day(desktop, base, league, group, 2, "2026-10-03", ["Team C", "Team A"], substitute=False)

    # The line-ups per series: A5 came in for A1 before series 2.
    desktop.goto(f"{base}/league/match-days/{day1.pk}/")
    expect(desktop.locator("text=Team A, before series 2: A5 for A1")).to_be_visible()
    played = Series.objects.get(tournament=day1.tournament, number=2).seats.values_list("player__name", flat=True)
    assert "A5" in played and "A1" not in played

    # The league manager corrects a won grand of match day 1 (declarer 61 -> 50 card points).
    game = Game.objects.filter(table__series__tournament=day1.tournament, won=True).order_by("pk").first()
    desktop.click(f"text=Series {game.table.series.number}, table {game.table.number}")
    desktop.click(f"a[href$='/games/{game.pk}/correct/']")
    correct_card_points(desktop, 50, "The lists of seats 1 and 3 agree on 50")
    desktop.wait_for_selector("text=score +48 -> -96")
    desktop.goto(f"{base}/league/match-days/{day1.pk}/")
    expect(desktop.locator("table.corrections")).to_contain_text("The lists of seats 1 and 3 agree on 50")
    desktop.click("form.check button")
    desktop.wait_for_selector("text=The match day is checked.")
    desktop.click("form.binding button")
    desktop.wait_for_selector("text=The match day is binding.")
    assert Correction.objects.count() == 1
    day1.refresh_from_db()
    assert day1.binding and not MatchDay.objects.get(pk=day2.pk).binding

    # The season table, public: on a phone and on a projector-sized desktop.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-GB").new_page()
    phone.goto(f"{base}/p/league/{league.pk}/")
    rows = phone.locator("table.league-table tbody tr")
    expect(rows).to_have_count(4)
    expect(phone.locator("text=Provisional: not every match day is binding yet.")).to_be_visible()
    phone.screenshot(path=str(SCREENSHOTS / "league-season-390.png"), full_page=True)
    width = phone.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    desktop.goto(f"{base}/p/league/{league.pk}/")
    desktop.screenshot(path=str(SCREENSHOTS / "league-season-1920.png"), full_page=True)
    points = {desktop.locator(f"table.league-table tbody tr:nth-child({n}) td").nth(1).inner_text(): desktop.locator(
        f"table.league-table tbody tr:nth-child({n}) td.points").inner_text() for n in range(1, 5)}  # fmt: skip
    assert sum(int(re.split(r"[:½]", v)[0]) for v in points.values()) <= 24
    assert all(re.fullmatch(r"\d+½?:\d+½?", v) for v in points.values()), points

    # The match report of match day 1 (the signed report): line-ups, points, signature lines.
    desktop.goto(f"{base}/league/match-days/{day1.pk}/")
    desktop.screenshot(path=str(SCREENSHOTS / "league-matchday-1920.png"), full_page=True)
    report = desktop.request.get(f"{base}/league/match-days/{day1.pk}/report.pdf")
    assert report.headers["content-type"] == "application/pdf"
    (SCREENSHOTS / "league-match-report.pdf").write_bytes(report.body())
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(report.body())).pages)
    for expected in ("Match report", "Binding.", "Series 1", "Series 2", "before series 2: A5 for A1"):
        assert expected in text, expected
    for captain in ("Captain, Team A", "Captain, Team B", "Captain, Team C", "Captain, Team D", "Host"):
        assert captain in text, captain
