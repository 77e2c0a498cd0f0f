"""A league season whose match day travels to a hall laptop and back.

Two offices, each with its own database, on loopback only:

- the **league server** is the test's live server: a league of four teams with rosters, a
  group above it for the promotion, match day 1 played and checked (made with the
  helpers), the host and match day 2 set up on its pages by the league manager;
- the **hall laptop** is ``manage.py serve`` in a process of its own on a SQLite file in a
  temporary data directory, bound to 127.0.0.1. Its director imports the match-day
  package from the server on the import page (the server's address and the host's
  token), sets the line-ups, draws, has every deal entered through the table links on a
  phone, brings a substitute in before series 2, finishes both series and publishes the
  match day with ``manage.py publish_tournament`` (by its key: no ``--matchday``).

Back on the server the match day shows the hall's result with the substitute; the league
manager corrects a game after publishing (the referees' audited correction, with a
reason), which turns the season's leader; he checks both match days, marks match day 2
binding, sets one promotion place and rolls the season over: the team on top goes up.
The test computes the game points and league points by hand from the deals it entered
and the correction (the extended Seeger-Fabian rating, one league point per team
outscored in a series) and compares them with the season table. One round per series
(four deals at a table of four) keeps the deals few.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from playwright.sync_api import expect

from leagues import checks
from leagues.models import Group, League, LeagueTeam, MatchDay, RosterEntry
from referees.models import Correction
from scoring.models import Game
from tests import factories
from tests.leagues.helpers import played_day

from .pages import correct_card_points, enter, fits, log_in, pass_out
from .test_hall import TEST_ENVIRONMENT, free_port, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))
TEAMS = ("Team A", "Team B", "Team C", "Team D")

#: Match day 1 (played on the server by the helpers): the team whose player wins a grand
#: with one top (+48) at every table of the series; every other deal passed out.
DAY_1 = ["Team B", "Team C"]
#: Match day 2 on the hall: per series, per table, the one game declared there: the
#: declarer's team and whether he wins (61 card points, +48) or loses (50, -96) his grand
#: with one top. The other deals of the table are passed out.
DAY_2 = [
    {1: ("A", True), 2: ("A", True), 3: ("D", True), 4: ("B", False)},
    {1: ("C", True), 2: ("C", True), 3: ("D", True), 4: ("A", True)},
]
#: The league manager's correction after publishing: series 2, table 1, declarer 61 -> 50.
CORRECTED = (2, 1)


def narrow(page, name: str) -> None:
    """The same page on a phone's width (390 px), then back to the desktop's."""
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    fits(page, SCREENSHOTS / name)
    page.set_viewport_size(size)


# The hand calculation, independent of the office's code.


def series_game_points(games: list[tuple[str, bool]]) -> dict[str, int]:
    """A series of tables of four, one player of each team per table, each a grand with one
    top (value 48): a won game gives its declarer 48 + 50; a lost one -96 - 50 and each of
    the three others at his table 30 (the extended Seeger-Fabian rating, 004)."""
    points = dict.fromkeys("ABCD", 0)
    for team, won in games:
        if won:
            points[team] += 48 + 50
        else:
            points[team] += -2 * 48 - 50
            for other in points.keys() - {team}:
                points[other] += 30
    return points


def league_points(game_points: dict[str, int]) -> dict[str, tuple[Fraction, Fraction]]:
    """One point for each team outscored in the series, equal game points share it."""
    won = dict.fromkeys(game_points, Fraction(0))
    lost = dict.fromkeys(game_points, Fraction(0))
    for a, b in combinations(game_points, 2):
        if game_points[a] == game_points[b]:
            for team in (a, b):
                won[team] += Fraction(1, 2)
                lost[team] += Fraction(1, 2)
        else:
            better, worse = (a, b) if game_points[a] > game_points[b] else (b, a)
            won[better] += 1
            lost[worse] += 1
    return {team: (won[team], lost[team]) for team in game_points}


def season_by_hand(day_2: list[dict]) -> list[tuple[str, str, int, str, str]]:
    """(team, match days, game points, won, lost) in the table's order: league points, then game points."""
    series = [[(winner[-1], True)] * 4 for winner in DAY_1]  # a win at each of the four tables
    series += [list(tables.values()) for tables in day_2]
    totals = {team: [0, Fraction(0), Fraction(0)] for team in "ABCD"}
    for games in series:
        game_points = series_game_points(games)
        for team, (won, lost) in league_points(game_points).items():
            totals[team][0] += game_points[team]
            totals[team][1] += won
            totals[team][2] += lost
    order = sorted(totals, key=lambda team: (totals[team][1], totals[team][0]), reverse=True)
    half = lambda value: f"{int(value)}½" if value.denominator == 2 else str(int(value))  # noqa: E731
    return [(f"Team {t}", "2", str(totals[t][0]), half(totals[t][1]), half(totals[t][2])) for t in order]


def corrected(day_2: list[dict]) -> list[dict]:
    series, table = CORRECTED
    after = [dict(tables) for tables in day_2]
    after[series - 1][table] = (after[series - 1][table][0], False)
    return after


def staffel(page):
    """The season table's section of the group that plays (the Oberliga's comes first)."""
    return page.locator("section.card", has=page.locator("h2", has_text="Staffel 1"))


def season_rows(section) -> list[tuple[str, ...]]:
    """The group's rows as shown: team, match days, game points, points won, lost."""
    rows = section.locator("table.league-table tbody tr")
    return [
        tuple(rows.nth(n).locator("td").nth(i).inner_text().strip() for i in (1, 2, 3, 4, 5))
        for n in range(rows.count())
    ]


# The hall laptop: manage.py serve on its own SQLite file.


class HallLaptop:
    """``manage.py serve`` started on a copy of the test run's migrated, empty database (its
    migrate has nothing to do); :meth:`ready` waits until it listens, so the server's side
    of the test runs while the hall starts."""

    def __init__(self, directory: Path, migrated: Path | None, league_server: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.directory = directory
        env = {k: v for k, v in os.environ.items() if k not in TEST_ENVIRONMENT}
        env |= {
            "DATABASE_URL": f"sqlite:///{directory / 'db.sqlite3'}",
            "OFFICE_URL": self.base,
            "SKAT_OFFICE_DATA": str(directory),
            "HALL_CHECK_PINGS": "5",
            "HALL_CHECK_INTERVAL_MS": "50",
            # The league server is on this computer over plain http: named, as a hall in the
            # league's own network would name it (leagues.packages.fetching refuses it otherwise).
            "SKAT_LEAGUE_SERVERS": league_server,
        }
        self.env = env
        self.log = directory / "serve.log"
        if migrated is not None:
            shutil.copyfile(migrated, directory / "db.sqlite3")
        self.password = ""
        self.address = ("--bind", "127.0.0.1", "--port", str(self.port))  # loopback only
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--no-input", "--no-demo", *self.address],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )

    def ready(self) -> None:
        """Until the office says it listens; then its director's generated password."""
        wait_for(self.process, self.directory, self.log)
        found = re.search(r"Director login created: director / (\S+) \(shown only now", self.log.read_text())
        assert found, self.log.read_text()
        self.password = found.group(1)

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        """A command on the hall's office, as its director types it."""
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=120
        )

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def hall(tmp_path, scratch_template, live_server):
    laptop = HallLaptop(tmp_path, scratch_template, league_server=live_server.url)
    try:
        yield laptop
    finally:
        laptop.stop()
        if laptop.log.exists():
            print(laptop.log.read_text(errors="replace")[-4000:])  # shown when the test fails


def enter_table(phone, link: str, game: tuple[str, bool] | None) -> None:
    """The table's scorekeeper: the one game of the table in the first deal its declarer
    plays (the seat of the team's letter), every other deal passed out."""
    phone.goto(link)
    phone.wait_for_selector("text=Deal 1")
    done = game is None
    for number in range(1, 5):
        expect(phone.locator("#id_number")).to_have_value(str(number))
        names = [label.strip() for label in phone.locator("#id_declarer_seat label").all_inner_texts()]
        declarer = next((name for name in names if not done and name.startswith(game[0])), None)
        if declarer:
            won = game[1]
            enter(phone, declarer, "Grand", tops=1, declarer_points=61 if won else 50)
            phone.wait_for_selector(f"text=Deal {number} entered: {'+48' if won else '-96'}.")
            done = True
        else:
            pass_out(phone)
            phone.wait_for_selector(f"text=Deal {number} entered: passed out.")
    assert done, f"{link}: the declarer of {game} played no deal"
    phone.wait_for_selector("text=All deals are entered")


def play_on_the_hall(page, phone, base: str, day_url: str) -> int:
    """The hall's director: line-ups, two series drawn, entered on the phone and finished,
    A5 for A1 before series 2. Answers the hall's tournament id."""
    page.goto(day_url)
    for team in TEAMS:
        page.click(f"form.line-up[data-team='{team}'] button")
        page.wait_for_selector(f"text=The line-up of {team} is set.")
    dashboard = page.locator("a", has_text="Dashboard: draw and table links").get_attribute("href")
    tournament = int(re.fullmatch(r"/t/(\d+)/", dashboard).group(1))
    for series, tables in enumerate(DAY_2, start=1):
        if series == 2:
            page.goto(day_url)
            page.select_option("#id_team", label="Team A")
            page.select_option("#id_player_out", label="A1 (Club A)")
            page.select_option("#id_player_in", label="A5 (Club A)")
            page.click("form.substitution button")
            page.wait_for_selector("text=A5 plays for A1 from series 2.")
        page.goto(base + dashboard)
        page.click("form.inline-form button[type=submit]")  # draw the next series
        page.wait_for_selector(f"text=Series {series} is drawn")
        series_url = page.url
        for number, game in tables.items():
            page.goto(f"{base}/t/{tournament}/series/{series}/tables/{number}/")
            link = page.locator("a.enter-deal").get_attribute("href")
            enter_table(phone, base + link, game)
        page.goto(series_url)
        page.check("form.finish-form input[name=force]")  # the sheets are not confirmed by PIN here
        page.click("form.finish-form button[type=submit]")
        page.wait_for_selector(f"text=Series {series} is finished.")
    return tournament


def test_a_match_day_travels_to_the_hall_and_back_and_the_season_ends_in_promotion(
    browser, live_server, hall, desktop, phone
):
    base = live_server.url
    manager = factories.user("staffelleiter")
    league, group, teams = factories.league_group(
        name="Bezirksliga", managers=[manager], series_per_matchday=2, rounds_per_series=1, published=True
    )
    top = Group.objects.create(league=league, name="Oberliga")
    for name in ("Team X", "Team Y"):
        team = LeagueTeam.objects.create(group=top, name=name)
        RosterEntry.objects.create(team=team, player=factories.player(f"{name} 1"), position=1)
    first = played_day(group, teams, 1, DAY_1)
    checks.check(first, user=manager)

    # The server: the league manager makes the host, its token and match day 2 on his pages.
    log_in(desktop, base, "staffelleiter")
    desktop.goto(f"{base}/league/{league.pk}/hosts/")
    desktop.fill("#id_name", "SC Herz Dame")
    desktop.click("form.host-new button[type=submit]")
    desktop.wait_for_load_state()  # the token whole
    token = desktop.locator("code.token").inner_text().strip()
    assert re.fullmatch(r"\S{20,}", token), token
    desktop.goto(f"{base}/league/{league.pk}/")
    desktop.locator("section[data-group='Staffel 1'] details.new-match-day-box summary").click()
    prefix = f"#id_group-{group.pk}"
    desktop.fill(f"{prefix}-number", "2")
    desktop.fill(f"{prefix}-date", "2026-10-03")
    desktop.select_option(f"{prefix}-host", label="SC Herz Dame")
    desktop.click("section[data-group='Staffel 1'] form.new-match-day button[type=submit]")
    desktop.wait_for_selector("text=Match day 2 is set up")
    second = MatchDay.objects.get(group=group, number=2)
    assert set(second.teams.values_list("name", flat=True)) == set(TEAMS)

    # The hall laptop imports its match day from the server: the address and the host's token.
    hall.ready()
    office = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB").new_page()
    log_in(office, hall.base, "director", hall.password)
    office.goto(f"{hall.base}/league/import/")
    narrow(office, "travel-hall-import-390.png")
    office.fill("#id_url", f"{base}/league/api/package/")
    office.fill("#id_token", token)
    office.click("form.league-form button[type=submit]")
    office.wait_for_selector("text=League Bezirksliga 2026 set up.")
    expect(office.locator("main")).to_contain_text("Teams added to Staffel 1: Team A, Team B, Team C, Team D.")
    office.click("a:has-text('Match day 2, Staffel 1')")
    day_url = office.url
    expect(office.locator("main")).to_contain_text("SC Herz Dame")
    fits(office, SCREENSHOTS / "travel-hall-matchday-1280.png")
    narrow(office, "travel-hall-matchday-390.png")
    hall_phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB"
    ).new_page()
    tournament = play_on_the_hall(office, hall_phone, hall.base, day_url)
    fits(hall_phone, SCREENSHOTS / "travel-hall-sheet-390.png")
    office.goto(day_url)
    expect(office.locator("main")).to_contain_text("Team A, before series 2: A5 for A1")

    # Published by the hall's command, by the match day's key (no --matchday).
    published = hall.manage("publish_tournament", str(tournament), f"{base}/league/api/publish/", f"--token={token}")
    assert published.returncode == 0, published.stdout + published.stderr
    assert f'"match_day": {second.pk}' in published.stdout, published.stdout

    # The server shows the hall's result, with the substitute.
    second.refresh_from_db()
    assert second.tournament_id is not None
    desktop.goto(f"{base}/league/match-days/{second.pk}/")
    expect(desktop.locator("main")).to_contain_text("Team A, before series 2: A5 for A1")
    played = Game.objects.filter(table__series__tournament=second.tournament_id)
    assert played.count() == 32 and played.filter(passed_out=False).count() == 8
    assert sorted(played.filter(passed_out=False).values_list("score", flat=True)) == [-96] + [48] * 7
    seated = second.tournament.series.get(number=2).seats.values_list("player__name", flat=True)
    assert "A5" in seated and "A1" not in seated
    desktop.goto(f"{base}/league/{league.pk}/table/")
    assert season_rows(staffel(desktop)) == season_by_hand(DAY_2)

    # The league manager corrects series 2, table 1 after publishing (audited, with a reason).
    series, number = CORRECTED
    game = played.get(table__series__number=series, table__number=number, passed_out=False)
    assert game.score == 48
    desktop.goto(f"{base}/league/match-days/{second.pk}/")
    desktop.click(f"text=Series {series}, table {number}")
    desktop.click(f"a[href$='/games/{game.pk}/correct/']")
    correct_card_points(desktop, 50, "Spielbericht: der Alleinspieler hatte 50 Augen")
    desktop.wait_for_selector("text=its score was +48 and is now -96")
    desktop.goto(f"{base}/league/match-days/{second.pk}/")
    expect(desktop.locator("table.corrections")).to_contain_text("Spielbericht: der Alleinspieler hatte 50 Augen")
    assert Correction.objects.get().game_id == game.pk
    desktop.click("form.check button")
    desktop.wait_for_selector("text=The match day is checked.")
    desktop.click("form.binding button")
    desktop.wait_for_selector("text=The match day is binding.")
    second.refresh_from_db()
    assert second.binding
    fits(desktop, SCREENSHOTS / "travel-server-matchday-1280.png")
    narrow(desktop, "travel-server-matchday-390.png")

    # The season table as the hand calculation has it after the correction.
    expected = season_by_hand(corrected(DAY_2))
    assert expected != season_by_hand(DAY_2)
    assert expected[0][0] != season_by_hand(DAY_2)[0][0], "the correction decides the promotion"
    desktop.goto(f"{base}/league/{league.pk}/season-end/?group={group.pk}")
    desktop.fill(f"#id_level-{group.pk}", "2")
    desktop.fill(f"#id_promotion-{group.pk}", "1")
    desktop.click("form.season-rules button[type=submit]")
    desktop.wait_for_selector("text=The season's rules are saved.")
    log_in(phone, base, "staffelleiter")
    phone.goto(f"{base}/league/{league.pk}/table/")
    assert season_rows(staffel(phone)) == expected
    promoted = staffel(phone).locator("table.league-table tbody tr.promotion")
    expect(promoted).to_have_count(1)
    expect(promoted).to_contain_text(expected[0][0])
    expect(promoted).to_contain_text("↑ promotion")
    fits(phone, SCREENSHOTS / "travel-season-390.png")

    # The season rolls over: the leader plays in the Oberliga next season.
    desktop.goto(f"{base}/league/{league.pk}/season-end/?group={group.pk}")
    desktop.fill("#id_season", "2027")
    desktop.click("text=Set up the next season")
    desktop.wait_for_selector("text=The season 2027 is set up.")
    expect(desktop.locator("main")).to_contain_text(f"{expected[0][0]}: Staffel 1 → Oberliga (promoted)")
    new = League.objects.get(name="Bezirksliga", season="2027")
    assert set(
        LeagueTeam.objects.filter(group__league=new, group__name="Oberliga").values_list("name", flat=True)
    ) == {
        "Team X",
        "Team Y",
        expected[0][0],
    }
    phone.goto(f"{base}/league/{new.pk}/season-end/")
    fits(phone, SCREENSHOTS / "travel-next-season-390.png")
