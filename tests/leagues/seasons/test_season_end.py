"""The end of a season (leagues/seasons/): places, deductions and forfeits in the table, the
rollover, the individual ranking, and the tables as leagues print them."""

from __future__ import annotations

import datetime
import io
import re
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace

import openpyxl
import pypdf
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation

from leagues import checks
from leagues.models import Group, League, LeagueTeam, RosterEntry
from leagues.results import SeasonTable, match_day_result, season_tables
from leagues.seasons import services
from leagues.seasons.individual import individual_ranking
from leagues.seasons.models import Deduction, Forfeit, GroupPlaces, SeasonRules
from skat.league import Place, TeamResult
from tests import factories
from tests.leagues.helpers import played_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(client):
    """Staffel 1 (level 2, four teams) played match day 1: A wins series 1, B series 2;
    an Oberliga (level 1) above it with two teams."""
    manager = factories.user("staffelleiter")
    client.force_login(manager)
    league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    top = Group.objects.create(league=league, name="Oberliga")
    for name in ("Team X", "Team Y"):
        team = LeagueTeam.objects.create(group=top, name=name)
        RosterEntry.objects.create(team=team, player=factories.player(f"{name} 1"), position=1)
    day = played_day(group, teams, 1, ["Team A", "Team B"])
    return league, group, teams, day, manager


def _places(league, group, promotion, relegation):
    top = league.groups.get(name="Oberliga")
    rules = {"forfeit_fine": Decimal("50"), "individual_best": 0, "individual_minimum": 0, "individual_tie": "shared"}
    services.save_rules(league, rules, {group.pk: (2, promotion, relegation), top.pk: (1, 0, 0)})


def test_the_table_shows_points_apart_deductions_places_as_of_and_the_cross_table(
    client, season, django_assert_max_num_queries
):
    league, group, teams, _day, manager = season
    _places(league, group, 1, 1)
    services.deduct(teams[1], Decimal("1.5"), "Spielbericht zu spät", user=manager)
    with django_assert_max_num_queries(14):
        page = client.get(reverse("leagues:season", args=[league.pk])).content.decode()
    table = season_tables([group])[0]
    b = next(p for p in table.table if p.result.team == teams[1])
    assert b.result.won == 4 and b.result.points == Decimal("2.5")
    assert table.zones == {1: "promotion", 4: "relegation"} and table.table[0].result.team == teams[0]
    assert "Points won" in page and "Points lost" in page and "\u22121½*" in page and "Spielbericht zu spät" in page
    assert "As of 09/01/2026" in page and "↑ promotion" in page and "↓ relegation" in page
    assert "Match days (cross table)" in page
    with django_assert_max_num_queries(14):  # as the season table
        cross = client.get(reverse("seasons:cross", args=[league.pk])).content.decode()
    assert "As of 09/01/2026" in cross and "4:2" in cross  # A: 3 in series 1, 2 x 1/2 in series 2
    pdf = client.get(reverse("leagues:season_pdf", args=[league.pk])).content
    text = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "As of 09/01/2026" in text and "Points won" in text and "Spielbericht zu spät" in text and "4:2" in text


def test_impossible_places_are_refused_naming_the_field(client, season):
    league, group, teams, _day, _manager = season
    top = league.groups.get(name="Oberliga")
    data = {"forfeit_fine": "25", "individual_best": "0", "individual_minimum": "0", "individual_tie": "shared"}
    data |= {f"level-{group.pk}": "2", f"promotion-{group.pk}": "3", f"relegation-{group.pk}": "2"}
    data |= {f"level-{top.pk}": "1", f"promotion-{top.pk}": "0", f"relegation-{top.pk}": "0"}
    url = reverse("seasons:rules", args=[league.pk]) + f"?group={group.pk}"
    answer = client.post(url, data)
    assert answer.status_code == 422
    assert "Staffel 1: 3 promotion and 2 relegation places are more than its 4 teams" in answer.content.decode()
    assert not GroupPlaces.objects.exists() and not SeasonRules.objects.exists()
    data[f"relegation-{group.pk}"] = "1"
    assert client.post(url, data).status_code == 302
    assert GroupPlaces.objects.get(group=group).promotion == 3
    assert not GroupPlaces.objects.filter(group=top).exists()  # the page edits one group at a time
    deduction = {"team": teams[0].pk, "points": "1.3", "reason": "zu spät"}
    refused = client.post(reverse("seasons:deduction_new", args=[league.pk]) + f"?group={group.pk}", deduction)
    assert refused.status_code == 422 and "a deduction is a positive number of points in halves, not 1.3" in (
        refused.content.decode()
    )
    deduction |= {"points": "1.5", "reason": " "}
    assert (
        client.post(reverse("seasons:deduction_new", args=[league.pk]) + f"?group={group.pk}", deduction).status_code
        == 422
    )
    assert not Deduction.objects.exists()


def test_the_rules_in_german_take_the_fine_and_points_with_a_comma(client, season):
    league, group, teams, _day, _manager = season
    top = league.groups.get(name="Oberliga")
    data = {"forfeit_fine": "25,50", "individual_best": "0", "individual_minimum": "0", "individual_tie": "shared"}
    data |= {f"level-{group.pk}": "2", f"promotion-{group.pk}": "1", f"relegation-{group.pk}": "1"}
    data |= {f"level-{top.pk}": "1", f"promotion-{top.pk}": "0", f"relegation-{top.pk}": "0"}
    url = reverse("seasons:rules", args=[league.pk]) + f"?group={group.pk}"
    assert client.post(url, data, HTTP_ACCEPT_LANGUAGE="de").status_code == 302
    assert SeasonRules.objects.get().forfeit_fine == Decimal("25.50")
    end = reverse("seasons:end", args=[league.pk])
    assert 'value="25,50"' in client.get(end, {"group": group.pk}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    deduction = {"team": teams[0].pk, "points": "1,5", "reason": "zu spät"}
    new = reverse("seasons:deduction_new", args=[league.pk]) + f"?group={group.pk}"
    assert client.post(new, deduction, HTTP_ACCEPT_LANGUAGE="de").status_code == 302
    assert Deduction.objects.get().points == Decimal("1.5")


def test_a_forfeit_gives_the_others_the_points_and_costs_the_fine(client, season, django_assert_max_num_queries):
    league, group, teams, day, manager = season
    _places(league, group, 0, 0)
    answer = client.post(
        reverse("seasons:forfeit_new", args=[league.pk]) + f"?group={group.pk}",
        {"match_day": day.pk, "team": teams[0].pk, "reason": "nicht angetreten"},
    )
    assert answer.status_code == 302
    forfeit = Forfeit.objects.get()
    assert forfeit.fine == Decimal("50") and forfeit.made_by == manager
    a = next(p.result for p in match_day_result(day).table if p.result.team == teams[0])
    assert (a.won, a.lost, a.series_points) == (0, 6, [None, None])
    with django_assert_max_num_queries(17):  # whatever the number of teams, deductions and forfeits
        page = client.get(reverse("seasons:end", args=[league.pk]), {"group": group.pk}).content.decode()
    assert "nicht angetreten" in page and "50.00" in page
    again = client.post(
        reverse("seasons:forfeit_new", args=[league.pk]) + f"?group={group.pk}",
        {"match_day": day.pk, "team": teams[0].pk, "reason": "x"},
    )
    assert again.status_code == 422
    # The field's label once, as every error of the form: not "Team: team: ...".
    assert "<li>Team: Team A has forfeited match day 1 already</li>" in again.content.decode()
    assert "team: Team A" not in again.content.decode()
    client.post(reverse("seasons:forfeit_withdraw", args=[league.pk, forfeit.pk]), {"reason": "doch gespielt"})
    forfeit.refresh_from_db()
    assert forfeit.withdrawal == "doch gespielt" and not forfeit.in_force
    assert next(p.result for p in match_day_result(day).table if p.result.team == teams[0]).won == 4
    checks.check(day, user=manager)
    checks.make_binding(day, user=manager)
    bound = client.post(
        reverse("seasons:forfeit_new", args=[league.pk]) + f"?group={group.pk}",
        {"match_day": day.pk, "team": teams[1].pk, "reason": "x"},
    )
    assert bound.status_code == 422 and "binding" in bound.content.decode()


def test_the_rollover_refuses_an_unfinished_season_then_promotes_and_relegates(client, season):
    league, group, _teams, day, manager = season
    _places(league, group, 1, 1)
    answer = client.post(reverse("seasons:rollover", args=[league.pk]), {"season": "2027"})
    assert answer.status_code == 422 and "not played or not checked: Staffel 1 1" in answer.content.decode()
    assert League.objects.count() == 1
    checks.check(day, user=manager)
    League.objects.filter(pk=league.pk).update(published=True)
    answer = client.post(reverse("seasons:rollover", args=[league.pk]), {"season": "2027"})
    new = League.objects.get(season="2027")
    assert answer.status_code == 302 and new.is_manager(manager)
    assert new.published  # a published league's next season is published too
    groups = {t.name: t.group.name for t in LeagueTeam.objects.filter(group__league=new).select_related("group")}
    table = [p.result.team.name for p in season_tables([group])[0].table]
    assert groups[table[0]] == "Oberliga" and groups[table[1]] == "Staffel 1" and groups["Team X"] == "Oberliga"
    assert groups[table[-1]] == "Staffel 1"  # no group below Staffel 1: flagged, not moved
    carried = SeasonRules.objects.get(league=new).carried
    assert f"{table[0]}: Staffel 1 → Oberliga (promoted)" in carried and f"{table[-1]} (relegated)" in carried
    assert RosterEntry.objects.filter(team__group__league=new).count() == 4 * 6 + 2
    with pytest.raises(CommandError, match=r"season: .* has the season 2027 already"):
        call_command("rollover_season", str(league.pk), "2027")
    out = io.StringIO()
    League.objects.filter(pk=league.pk).update(published=False)
    call_command("rollover_season", str(league.pk), "2028", stdout=out)
    assert f"{table[0]}: Staffel 1 → Oberliga" in out.getvalue()
    assert not League.objects.get(season="2028").published  # and an unpublished one is not


def test_the_individual_ranking_pages_and_files(client, season, django_assert_max_num_queries):
    league, group, teams, _day, _manager = season
    played_day(group, teams, 2, ["Team C", "Team C"])
    with django_assert_max_num_queries(12):
        page = client.get(reverse("seasons:players", args=[league.pk])).content.decode()
    assert "Individual ranking" in page and "As of 09/02/2026" in page and "C1" in page
    SeasonRules.objects.create(league=league, individual_minimum=4)  # only players of four series rank
    lines = individual_ranking(league).lines
    assert lines[0].place == 1 and lines[0].name.startswith("C") and lines[0].team == "Team C"
    assert {line.played for line in lines} == {4} and len(lines) == 16
    workbook = openpyxl.load_workbook(
        io.BytesIO(client.get(reverse("seasons:players_file", args=[league.pk, "xlsx"])).content)
    )
    assert next(workbook.active.values)[:3] == ("Place", "Player", "Team")
    with translation.override("de"):
        csv = client.get(reverse("seasons:players_file", args=[league.pk, "csv"]), HTTP_ACCEPT_LANGUAGE="de").content
    text = csv.decode("utf-8")
    assert text.startswith("\ufeffPlatz;Spieler;Mannschaft")
    assert re.search(r";-?\d+,\d\r\n", text)  # the average with a decimal comma
    pdf = client.get(reverse("seasons:players_file", args=[league.pk, "pdf"])).content
    assert "Individual ranking" in pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    client.logout()
    assert client.get(reverse("public:league_players", args=[league.pk])).status_code == 404
    League.objects.filter(pk=league.pk).update(published=True)
    assert client.get(reverse("public:league_players", args=[league.pk])).status_code == 200


def test_german_csv_has_german_headers_and_a_decimal_comma_and_xlsx_real_dates(client, season):
    league, _group, teams, _day, manager = season
    services.deduct(teams[2], Decimal("1.5"), "Aufstellung fehlt", user=manager)
    client.cookies["django_language"] = "de"
    text = client.get(reverse("leagues:season_csv", args=[league.pk, "season"])).content.decode("utf-8")
    header = text.splitlines()[0]
    assert header.startswith("\ufeffStaffel;Platz;Mannschaft") and "Pluspunkte;Minuspunkte" in header
    assert any(";1,5;" in line for line in text.splitlines()[1:])  # the deduction of 1.5 points
    del client.cookies["django_language"]
    book = openpyxl.load_workbook(io.BytesIO(client.get(reverse("leagues:season_xlsx", args=[league.pk])).content))
    assert next(iter(book["Match days"].iter_rows(min_row=2, values_only=True)))[2] == datetime.datetime(2026, 9, 1)


def test_the_cross_table_has_a_column_per_match_day_number_whatever_the_hosts():
    a, b, c = (TeamResult(name, won=Fraction(n)) for name, n in (("A", 5), ("B", 4), ("C", 1)))
    day = [SimpleNamespace(number=n) for n in (1, 1, 2)]  # match day 1 at two hosts
    days = [(day[0], {"A": a, "B": b}), (day[1], {"C": c}), (day[2], {"A": a})]
    table = SeasonTable(None, [Place(1, a, None), Place(2, b, None), Place(3, c, None)], days)
    assert table.numbers == [1, 2]
    assert [row["days"] for row in table.rows] == [[a, a], [b, None], [c, None]]


def test_a_forfeited_match_day_counts_for_none_of_the_teams_players(season):
    """Team A forfeits match day 1 after it was played (DOMAIN: no league points, no game
    points): A's players keep only match day 2's series; the other teams keep both; a
    withdrawn forfeit counts again."""
    league, group, teams, day, manager = season
    played_day(group, teams, 2, ["Team C", "Team C"])
    before = {line.name: line.played for line in individual_ranking(league).lines}
    assert before["A1"] == 4 and before["B1"] == 4
    forfeit = services.forfeit(day, teams[0], "ineligible player", user=manager)
    after = {line.name: line.played for line in individual_ranking(league).lines}
    assert after["A1"] == 2 and after["B1"] == 4
    services.withdraw(forfeit, "ruled eligible after all", user=manager)
    assert {line.name: line.played for line in individual_ranking(league).lines}["A1"] == 4
