"""A league season in a real browser, through the pages only.

A league official sets up the league on the office's pages (the league and its rule,
a group, four teams with their rosters and captains, a host and its token), then runs
two match days: line-ups, a substitute between series, the series drawn on the match
day's dashboard, the first table's deals entered through its table link on a phone as
its scorekeeper does (the other tables' stored by scoring.services.save_deal, valued
by the engine and checked by the database), each series finished. The league manager
corrects a game of match day 1 (the referees' audited correction), checks it and marks
it binding; the season table is shown on a phone and a desktop, and the match report
PDF with the captains' signature lines is rendered to look at. One round per series
(four deals at a table of four) keeps the deals few.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pypdf
import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from leagues.models import League, LeagueTeam, MatchDay
from referees.models import Correction
from scoring.models import Game
from skat.sheet import active_seats
from tests import factories
from tournaments.models import Registration, Series

from .pages import correct_card_points, enter, fits, log_in, pass_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))
TEAMS = {"Team A": "Club A", "Team B": "Club B", "Team C": "Club C", "Team D": "Club D"}


def set_up_league(page, base: str) -> League:
    """The official's pages: the league, its group, four teams with rosters of six, a host."""
    page.goto(base + "/")
    page.click("text=New league")
    page.fill("#id_name", "Bezirksliga")
    page.fill("#id_season", "2026")
    page.fill("#id_series_per_matchday", "2")
    page.fill("#id_rounds_per_series", "1")
    page.check("#id_published")
    page.click("form.league-form button[type=submit]")
    page.wait_for_selector("text=The league Bezirksliga 2026 is set up")
    league = League.objects.get(name="Bezirksliga")
    page.fill("#id_group-name", "Staffel 1")
    page.click("form.new-group button[type=submit]")
    page.wait_for_selector("text=The group Staffel 1 is set up")
    group = league.groups.get()
    for index, (team, club) in enumerate(TEAMS.items()):
        page.goto(f"{base}/league/{league.pk}/")
        if index:  # the form is open while the group has no team
            page.click("section[data-group='Staffel 1'] details.new-team summary")
        page.fill(f"#id_team-{group.pk}-name", team)
        page.fill(f"#id_team-{group.pk}-club", club)
        page.click("details.new-team button[type=submit]")
        page.wait_for_selector(f"text=The team {team} is set up: give its roster.")
        letter = team[-1]
        if letter == "B":  # a slip: B1 typed twice is refused, naming the position and the rule
            page.fill("#id_roster-0-name", "B1")
            page.fill("#id_roster-1-name", "B1")
            page.click("form.team-form button[type=submit]")
            expect(page.locator(".errorlist-summary")).to_contain_text(
                "Position 2 · Name: B1 is at position 1 already: a player is once in a roster."
            )
            assert not LeagueTeam.objects.get(name=team).roster.exists()
        for position in range(1, 7):
            page.fill(f"#id_roster-{position - 1}-name", f"{letter}{position}")
        page.select_option("#id_captain", "1")
        page.click("form.team-form button[type=submit]")
        page.wait_for_selector(f"text=The team {team} is saved.")
    page.goto(f"{base}/league/{league.pk}/")
    page.click("text=Hosts and tokens")
    page.fill("#id_name", "Club A")
    page.click("form.host-new button[type=submit]")
    expect(page.locator("code.token")).to_be_visible()
    return league


def enter_series_on_the_phones(phone, base: str, series: Series, winner: str) -> None:
    """The first table's scorekeeper opens the table link: the player of team ``winner``
    wins a grand with one top (+48) in the first deal he plays; every other deal is passed
    out. The other tables' deals, alike, are stored by ``factories.play_table`` (64 deals on a
    phone cost half a minute of CI; the phone's entry path, its lock, sheet version and
    series start, has tests of its own). Table 1 goes first: its deals start the series
    and hold the lowest ids (the correction below picks a game typed on the phone)."""
    team_of = dict(
        Registration.objects.filter(tournament=series.tournament_id).values_list("player__name", "team__name")
    )
    for index, table in enumerate(series.tables.order_by("number")):
        seats = {seat.number: seat.player.name for seat in table.seats.select_related("player")}
        declarer = next(number for number, name in seats.items() if team_of[name] == winner)
        if index:
            factories.play_table(table, declarer)
            continue
        phone.goto(base + table.entry_url())
        phone.wait_for_selector("text=Deal 1")
        won = False
        for number in range(1, table.deals + 1):
            if not won and declarer in active_seats(number, table.size):
                enter(phone, seats[declarer], "Grand", tops=1, declarer_points=61)
                phone.wait_for_selector(f"text=Deal {number} entered: +48.")
                won = True
            else:
                pass_out(phone)
                phone.wait_for_selector(f"text=Deal {number} entered: passed out.")
        phone.wait_for_selector("text=All deals are entered")


def run_match_day(page, phone, base, league, number: int, date: str, winners: list[str], substitute: bool):
    group = league.groups.get()
    page.goto(f"{base}/league/{league.pk}/")
    page.click("text=New match day")
    prefix = f"#id_group-{group.pk}"
    page.fill(f"{prefix}-number", str(number))
    page.fill(f"{prefix}-date", date)
    page.select_option(f"{prefix}-host", label="Club A")
    page.click("text=Set up the match day")
    page.wait_for_selector(f"text=Match day {number} is set up")
    match_day = MatchDay.objects.get(group=group, number=number)
    for team in TEAMS:
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
        series = Series.objects.get(tournament=match_day.tournament, number=index)
        enter_series_on_the_phones(phone, base, series, winner)
        page.reload()  # the series page the draw led to, now with every deal entered
        page.check("form.finish-form input[name=force]")  # the sheets are not confirmed by PIN here
        page.click("form.finish-form button[type=submit]")
        page.wait_for_selector(f"text=Series {index} is finished.")
        page.goto(f"{base}/league/match-days/{match_day.pk}/")
    return match_day


def test_a_season_of_two_match_days_through_the_pages(browser, live_server):
    base = live_server.url
    official = factories.user("staffelleiter")
    official.user_permissions.add(Permission.objects.get(codename="add_league"))
    desktop = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    phone_context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB"
    )
    phone = phone_context.new_page()
    log_in(desktop, base, "staffelleiter")
    league = set_up_league(desktop, base)
    fits(desktop, SCREENSHOTS / "league-hosts-1920.png")
    assert [e.player.name for e in LeagueTeam.objects.get(name="Team C").roster.select_related("player")] == [
        "C1", "C2", "C3", "C4", "C5", "C6"
    ]  # fmt: skip
    assert LeagueTeam.objects.get(name="Team D").captain.name == "D1"

    day1 = run_match_day(desktop, phone, base, league, 1, "2026-09-05", ["Team A", "Team B"], substitute=True)
    day2 = run_match_day(desktop, phone, base, league, 2, "2026-10-03", ["Team C", "Team A"], substitute=False)

    # The line-ups per series: A5 came in for A1 before series 2.
    desktop.goto(f"{base}/league/match-days/{day1.pk}/")
    expect(desktop.locator("text=Team A, before series 2: A5 for A1")).to_be_visible()
    played = Series.objects.get(tournament=day1.tournament, number=2).seats.values_list("player__name", flat=True)
    assert "A5" in played and "A1" not in played
    assert Game.objects.filter(table__series__tournament__match_day__group__league=league, won=True).count() == 16

    # The league manager corrects a won grand of match day 1 (declarer 61 -> 50 card points).
    game = Game.objects.filter(table__series__tournament=day1.tournament, won=True).order_by("pk").first()
    desktop.click(f"text=Series {game.table.series.number}, table {game.table.number}")
    desktop.click(f"a[href$='/games/{game.pk}/correct/']")
    correct_card_points(desktop, 50, "The lists of seats 1 and 3 agree on 50")
    desktop.wait_for_selector("text=its score was +48 and is now -96")
    desktop.goto(f"{base}/league/match-days/{day1.pk}/")
    expect(desktop.locator("table.corrections")).to_contain_text("The lists of seats 1 and 3 agree on 50")
    desktop.click("form.check button")
    desktop.wait_for_selector("text=The match day is checked.")
    desktop.click("form.binding button")
    desktop.wait_for_selector("text=The match day is binding.")
    assert Correction.objects.count() == 1
    day1.refresh_from_db()
    assert day1.binding and not MatchDay.objects.get(pk=day2.pk).binding
    fits(desktop, SCREENSHOTS / "league-matchday-1920.png")

    # The setup pages on a phone: every control in reach, nothing scrolls sideways.
    log_in(phone, base, "staffelleiter")
    team_a = LeagueTeam.objects.get(name="Team A")
    for path, name in (
        (f"/league/{league.pk}/", "league-390.png"),
        (f"/league/{league.pk}/teams/{team_a.pk}/", "league-team-390.png"),
        (f"/league/{league.pk}/hosts/", "league-hosts-390.png"),
        (f"/league/{league.pk}/settings/", "league-settings-390.png"),
    ):
        phone.goto(base + path)
        fits(phone, SCREENSHOTS / name)
    desktop.goto(f"{base}/league/{league.pk}/teams/{team_a.pk}/")
    fits(desktop, SCREENSHOTS / "league-team-1920.png")
    desktop.goto(f"{base}/league/{league.pk}/")
    fits(desktop, SCREENSHOTS / "league-1920.png")

    # The season table, public: the front page lists it to anonymous visitors.
    visitor = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-GB").new_page()
    visitor.goto(base + "/")
    fits(visitor, SCREENSHOTS / "league-home-390.png")
    visitor.click("section.league-panel >> text=Bezirksliga 2026")
    rows = visitor.locator("table.league-table tbody tr")
    expect(rows).to_have_count(4)
    expect(visitor.locator("text=Provisional: not every match day is binding yet.")).to_be_visible()
    fits(visitor, SCREENSHOTS / "league-season-390.png")
    desktop.goto(f"{base}/p/league/{league.pk}/")
    fits(desktop, SCREENSHOTS / "league-season-1920.png")
    row = "table.league-table tbody tr:nth-child({})"  # points won and lost in two columns
    points = {desktop.locator(f"{row.format(n)} td").nth(1).inner_text(): ":".join(
        desktop.locator(f"{row.format(n)} td.points").all_inner_texts()) for n in range(1, 5)}  # fmt: skip
    assert all(re.fullmatch(r"\d+½?:\d+½?", v) for v in points.values()), points
    # Two match days of two series, three opponents each: 12 points a team, 24 for all.
    won_lost = [re.split(":", v.replace("½", ".5")) for v in points.values()]
    assert all(float(w) + float(lost) == 12 for w, lost in won_lost), points
    assert next(iter(points)) == "Team A", points  # two series won of four, the most

    # The match report of match day 1 (the signed report): line-ups, points, signature lines.
    report = desktop.request.get(f"{base}/league/match-days/{day1.pk}/report.pdf")
    assert report.headers["content-type"] == "application/pdf"
    pdf = SCREENSHOTS / "league-match-report.pdf"
    pdf.write_bytes(report.body())
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(SCREENSHOTS / "league-match-report")], check=True)
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(report.body())).pages)
    for expected in ("Match report", "Binding.", "Series 1", "Series 2", "before series 2: A5 for A1"):
        assert expected in text, expected
    for captain in ("Captain, Team A", "Captain, Team B", "Captain, Team C", "Captain, Team D", "Host"):
        assert captain in text, captain
    phone_context.close()
