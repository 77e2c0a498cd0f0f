"""The director's year in a real browser, in German where a German club does it: a club list
with a year of birth and a column the office does not know, age categories that follow
from it; table money that a table of the federation's preset cannot pay; certificates for
the prize-giving; a ranking whose files a spreadsheet can sum; an evening's tournament file
whose categories survive the import; a line-up refused after the draw that says why.
Screenshots of each page in BROWSER_SCREENSHOTS, to be looked at."""

from __future__ import annotations

import datetime
import io
import os
import tempfile
from decimal import Decimal
from pathlib import Path

import openpyxl
import pypdf
import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from draw.series import draw_series
from leagues.lineups import create_match_day, set_line_up
from rankings import services as ranking_services
from rankings.models import Ranking, RankingLine
from scoring.models import Game
from tests import factories
from tests.leagues.helpers import roster
from tests.rankings.helpers import evening
from tournaments.models import Registration, Tournament
from transfer.exports import league_xlsx

from .pages import log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: What a German browser sends: the office answers in German (the page's own requests send it too).
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))


@pytest.fixture
def german(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="de-DE")
    yield context.new_page()
    context.close()


def director(name: str = "leiter"):
    user = factories.user(name)
    user.set_password("pw")
    user.save()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def test_a_german_club_list_with_a_year_of_birth_and_a_phone_column(live_server, german, tmp_path):
    base = live_server.url
    t = factories.tournament(name="Preisskat", date=datetime.date(2026, 12, 4), directors=[director()])
    log_in(german, base, "leiter")
    german.goto(f"{base}/t/{t.pk}/players/")
    # The age categories first, each with its rule (ages at the start of the year).
    for name, field, age in (("Junioren", "age_under", "21"), ("Senioren", "age_from", "60")):
        german.fill("form#categories input[name=name]", name)
        german.fill(f"form#categories input[name={field}]", age)
        german.locator("form#categories button[type=submit]").click()
        german.wait_for_load_state()
    expect(german.locator("form#categories .tag", has_text="Senioren")).to_have_text("Senioren ≥ 60")
    club_list = tmp_path / "verein.csv"
    club_list.write_text(
        "Nachname;Vorname;Verein;Geburtsjahr;Telefon\n"
        "Jung;Jan;SC Altenburg;2005;0341 1\nKurz;Kai;SC Altenburg;2004;0341 2\n"
        "Alt;Sepp;Herz Dame Gera;01.03.1965;0365 3\n",
        encoding="utf-8",
    )
    german.set_input_files("form.import-form input[type=file]", str(club_list))
    german.click("form.import-form button[type=submit]")
    expect(german.locator("text=Nicht gelesene Spalten (dem Büro unbekannt): Telefon.")).to_be_visible()
    german.screenshot(path=str(SCREENSHOTS / "year-club-list-de.png"), full_page=True)
    categories = dict(Registration.objects.filter(tournament=t).values_list("player__name", "category__name"))
    assert categories == {"Jan Jung": "Junioren", "Kai Kurz": None, "Sepp Alt": "Senioren"}

    # A year of birth that is none: the row and the column named in German, nothing registered.
    club_list.write_text("Nachname;Geburtsjahr\nNeu;61\n", encoding="utf-8")
    german.set_input_files("form.import-form input[type=file]", str(club_list))
    german.click("form.import-form button[type=submit]")
    expect(german.locator("text=Geburtsjahr: 61 ist nicht ein Jahr wie 1961")).to_be_visible()
    assert Registration.objects.filter(tournament=t).count() == 3


def test_table_money_a_table_cannot_pay_and_the_certificates(live_server, desktop):
    """The federation's way, list fee 0: a table of three loses one game (0.50); table money
    1.50 / 0.50; the three pay their 10.00 entry fees there. At most what the table collects:
    0.50 paid, 30.00 kept. In full: 2.00 paid, 28.50 kept, 1.50 of it from the entry fees,
    said on the settlement PDF."""
    base = live_server.url
    boss = director()
    t, series = factories.drawn(players=3, series_count=1, entry_fee=Decimal("10"), list_fee=Decimal("0"))
    t.directors.add(boss)
    t.lost_game_fees.create(from_lost_game=1, amount="0.50")
    for place, amount in ((1, "1.50"), (2, "0.50")):
        t.table_money.create(table_size=3, place=place, amount=amount)
    table = series.tables.get()
    factories.game(table, 1, declarer_seat=1, contract="hearts", tops=1, tops_kind="with", declarer_points=40)
    assert Game.objects.get().lost
    log_in(desktop, base, "leiter")
    desktop.goto(f"{base}/t/{t.pk}/fees/")
    expect(desktop.locator("text=Table money is paid at most as far as each table's own fees go")).to_be_visible()
    total = desktop.locator("table.fee-account tfoot tr.total td.num").all_inner_texts()
    # Table money paid out, kept: the three pay their 10.00 entry fees at the table.
    assert total[-2:] == ["0.50", "30.00"]
    desktop.screenshot(path=str(SCREENSHOTS / "year-fee-account-capped.png"), full_page=True)

    # The other choice, on the rules page.
    desktop.goto(f"{base}/t/{t.pk}/edit/")
    desktop.select_option("#id_table_money_from", "full")
    desktop.locator("form button[type=submit]", has_text="Save").first.click()
    desktop.wait_for_load_state()
    assert Tournament.objects.get(pk=t.pk).table_money_from == "full"
    desktop.goto(f"{base}/t/{t.pk}/fees/")
    expect(desktop.locator("text=Table money is paid in full")).to_be_visible()
    total = desktop.locator("table.fee-account tfoot tr.total td.num").all_inner_texts()
    assert total[-2:] == ["2.00", "28.50"]
    pdf = desktop.request.get(f"{base}/t/{t.pk}/series/1/settlement.pdf")
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf.body())).pages)
    assert "Of it from the entry fees" in text and "1.50" in text

    # Certificates from the fee account page: places 1 to 2, one page each.
    desktop.goto(f"{base}/t/{t.pk}/fees/")
    desktop.fill("#certificate-places", "2")
    action = desktop.locator("form", has=desktop.locator("#certificate-places")).get_attribute("action")
    places = desktop.input_value("#certificate-places")
    pdf = desktop.request.get(f"{base}{action}?places={places}").body()
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    assert len(pages) == 2 and "1. place" in pages[0] and "2. place" in pages[1]


def test_a_rankings_files_sum_and_an_evenings_categories_survive_its_file(live_server, german, tmp_path):
    base = live_server.url
    chair = director("chair")
    anna, bert, carl, dora = (
        factories.player(n, club="SC Herz") for n in ("Anna Alt", "Bert Bau", "Carl Cis", "Dora Dix")
    )
    ranking = Ranking.objects.create(name="Jahreswertung", season="2027")
    ranking.directors.add(chair)
    first = evening("Abend 1", datetime.date(2027, 1, 5), {anna: 2, bert: 1, carl: 0, dora: 0}, directors=[chair])
    ranking_services.add_tournament(ranking, first, chair)
    # The second evening comes as a file from another laptop, its women's category with it.
    second = evening(
        "Abend 2",
        datetime.date(2027, 1, 12),
        {anna: 0, bert: 0, carl: 1, dora: 2},
        directors=[chair],
        categories={anna: "Damen", dora: "Damen"},
    )
    path = tmp_path / "abend-2.xlsx"
    with open(path, "wb") as out:
        league_xlsx(second, out)
    Tournament.objects.filter(pk=second.pk).delete()
    log_in(german, base, "chair")
    german.goto(f"{base}/rankings/{ranking.pk}/tournaments/")
    german.set_input_files("form.import-tournament input[type=file]", str(path))
    german.locator("form.import-tournament button[type=submit]").click()
    german.wait_for_load_state()
    german.screenshot(path=str(SCREENSHOTS / "year-ranking-import-de.png"), full_page=True)
    imported = Tournament.objects.get(name="Abend 2")
    assert sorted(imported.categories.values_list("name", flat=True)) == ["Damen"]
    assert Registration.objects.get(tournament=imported, player__name="Dora Dix").category.name == "Damen"

    # An average figure (-3.38) is a number in both files, a German CSV writes -3,38.
    line = RankingLine.objects.filter(ranking=ranking, category="").order_by("position").first()
    RankingLine.objects.filter(pk=line.pk).update(value="-3.38")
    xlsx = german.request.get(f"{base}/rankings/{ranking.pk}/ranking.xlsx", headers=GERMAN)
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.body())).active
    values = [row[3] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert values[0] == -3.38 and all(isinstance(v, (int, float)) for v in values)
    csv = german.request.get(f"{base}/rankings/{ranking.pk}/ranking.csv", headers=GERMAN).body().decode("utf-8-sig")
    assert csv.splitlines()[0].startswith("Platz;Name;Verein;Wert") and ";-3,38;" in csv


def test_a_line_up_sent_after_the_draw_says_why(live_server, desktop):
    """The line-up form was loaded before the draw; the draw came between (another manager,
    the hall's laptop): the refusal stands above the page, and nothing changed."""
    base = live_server.url
    manager = factories.user("staffelleiter")
    manager.set_password("pw")
    manager.save()
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=3, rounds_per_series=1)
    day = create_match_day(group, number=1, date="2026-09-05", teams=teams)
    log_in(desktop, base, "staffelleiter")
    desktop.goto(f"{base}/league/match-days/{day.pk}/")
    form = desktop.locator("form.line-up").first
    expect(form).to_be_visible()
    for team in teams:
        set_line_up(day, team, roster(team, 1, 2, 3, 4))
    draw_series(day.tournament)
    for box in form.locator("input[type=checkbox]").all()[:4]:
        box.check()
    form.locator("button[type=submit]").click()
    desktop.wait_for_load_state()
    expect(desktop.locator("ul.messages li.error")).to_contain_text("series 1 is drawn")
    desktop.screenshot(path=str(SCREENSHOTS / "year-lineup-after-draw.png"), full_page=True)
