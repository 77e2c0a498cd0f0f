"""The league manager's pages and the public league pages (leagues/views.py, public_views.py)."""

from __future__ import annotations

import io

import openpyxl
import pypdf
import pytest
from django.urls import reverse

from leagues.models import LeagueEvent, Substitution
from tests import factories

from .helpers import played_day, roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(client):
    manager = factories.user("staffelleiter")
    client.force_login(manager)
    league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    day = played_day(group, teams, 1, ["Team A", "Team B"], substitute=True)
    return league, group, teams, day


def test_the_league_page_sets_up_a_match_day(client, season):
    league, group, teams, _day = season
    url = reverse("leagues:match_day_new", args=[league.pk, group.pk])
    prefix = f"group-{group.pk}"
    answer = client.post(
        url, {f"{prefix}-number": "2", f"{prefix}-date": "2026-10-03", f"{prefix}-teams": [teams[0].pk]}
    )
    assert answer.status_code == 422
    assert "Teams: a match day needs at least two teams of the group" in answer.content.decode()
    answer = client.post(
        url, {f"{prefix}-number": "1", f"{prefix}-date": "2026-10-03", f"{prefix}-teams": [t.pk for t in teams]}
    )
    assert answer.status_code == 422
    assert "Match day: Staffel 1 has a match day 1 already." in answer.content.decode()
    assert group.match_days.count() == 1
    answer = client.post(
        url, {f"{prefix}-number": "2", f"{prefix}-date": "2026-10-03", f"{prefix}-teams": [t.pk for t in teams]}
    )
    assert answer.status_code == 302 and "/league/match-days/" in answer.url
    page = client.get(reverse("leagues:league", args=[league.pk])).content.decode()
    assert "Match day 2, Staffel 1" in page and "Team A" in page


def test_the_match_day_page_in_few_queries(client, season, django_assert_max_num_queries):
    _league, _group, _teams, day = season
    with django_assert_max_num_queries(21):  # a drawn match day reads no line-up forms (12 queries more)
        page = client.get(reverse("leagues:match_day", args=[day.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    assert "Team A, before series 2: A5 for A1" in body
    assert "4:2" in body  # Team A: 3 in series 1, 1/2 + 1/2 beside the two other losers in series 2


def test_a_bad_line_up_is_refused_with_the_field_and_the_rule(client):
    manager = factories.user("m")
    client.force_login(manager)
    from leagues.lineups import create_match_day

    _league, group, teams = factories.league_group(managers=[manager])
    day = create_match_day(group, number=1, date="2026-09-05", teams=teams)
    team = teams[0]
    players = [p.pk for p in roster(team, 1, 2, 3, 4, 5)]
    answer = client.post(
        reverse("leagues:line_up", args=[day.pk, team.pk]),
        {f"lineup-{team.pk}-team": team.pk, f"lineup-{team.pk}-players": players},
    )
    assert answer.status_code == 422
    assert "players: a line-up has 1 to 4 players, not 5" in answer.content.decode()
    answer = client.post(
        reverse("leagues:line_up", args=[day.pk, team.pk]),
        {f"lineup-{team.pk}-team": team.pk, f"lineup-{team.pk}-players": players[:4]},
    )
    assert answer.status_code == 302
    assert LeagueEvent.objects.filter(kind="line_up").count() == 1


def test_a_substitution_needs_a_reserve_of_the_team(client):
    manager = factories.user("m")
    client.force_login(manager)
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=3, rounds_per_series=1)
    day = played_day(group, teams, 1, ["Team A"])
    a1, b5 = roster(teams[0], 1)[0], roster(teams[1], 5)[0]
    answer = client.post(
        reverse("leagues:substitute", args=[day.pk]), {"team": teams[0].pk, "player_out": a1.pk, "player_in": b5.pk}
    )
    assert answer.status_code == 422
    assert "B5 is not on the roster of Team A" in answer.content.decode()
    assert not Substitution.objects.exists()


def test_check_then_binding_from_the_page(client, season):
    _league, _group, _teams, day = season
    answer = client.post(reverse("leagues:binding", args=[day.pk]))
    assert "check the match day before it becomes binding" in str(next(iter(answer.wsgi_request._messages)))
    client.post(reverse("leagues:check", args=[day.pk]), {"note": "lists agree"})
    client.post(reverse("leagues:binding", args=[day.pk]))
    day.refresh_from_db()
    assert day.binding
    assert "binding" in client.get(reverse("leagues:match_day", args=[day.pk])).content.decode()


def test_the_match_report_pdf_has_line_ups_points_and_signature_lines(client, season):
    _league, _group, _teams, day = season
    answer = client.get(reverse("leagueoffice:report_pdf", args=[day.pk]))
    assert answer["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(answer.content)).pages)
    for expected in ("Match report", "Series 1", "Series 2", "A5 for A1", "Captain, Team A", "Host", "4:2"):
        assert expected in text, expected


def test_the_season_exports(client, season, django_assert_max_num_queries):
    league, _group, _teams, _day = season
    with django_assert_max_num_queries(26):  # the season read twice, each in a constant number
        answer = client.get(reverse("leagues:season_xlsx", args=[league.pk]))
    book = openpyxl.load_workbook(io.BytesIO(answer.content))
    rows = list(book["Season"].values)
    assert rows[0][:8] == ("Group", "Place", "Team", "Match days", "Game points", "Won", "Lost", "Binding")
    assert rows[0][8:] == ("Deducted", "Promotion / relegation")
    assert {rows[1][2], rows[2][2]} == {"Team A", "Team B"} and rows[1][5] == 4
    assert len(list(book["Match days"].values)) == 1 + 4 * 2
    csv = client.get(reverse("leagues:season_csv", args=[league.pk, "season"])).content.decode("utf-8")
    assert csv.startswith("\ufeffGroup;Place;Team")
    assert client.get(reverse("leagues:season_csv", args=[league.pk, "nope"])).status_code == 404


def test_public_pages_once_published(client, season, django_assert_max_num_queries):
    league, _group, teams, day = season
    client.logout()
    assert client.get(reverse("public:season", args=[league.pk])).status_code == 404
    type(league).objects.filter(pk=league.pk).update(published=True)
    with django_assert_max_num_queries(11):  # with the season's forfeits, deductions and places
        page = client.get(reverse("public:season", args=[league.pk])).content.decode()
    assert "Team A" in page and "Provisional" in page
    result = client.get(reverse("public:match_day", args=[league.pk, day.pk])).content.decode()
    assert "Series 2" in result
    with django_assert_max_num_queries(20):
        team = client.get(reverse("public:team", args=[league.pk, teams[0].pk])).content.decode()
    assert "A5" in team and "reserve" in team and "Average per series" in team
    pdf = client.get(reverse("public:season_pdf", args=[league.pk]))
    assert "Team A" in pypdf.PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()


def test_a_line_up_refused_after_the_draw_says_why_above_the_page(client):
    """The line-up forms are gone once series 1 is drawn: a post from a page loaded before
    the draw is refused with its rule said, not a page redrawn without a word."""
    manager = factories.user("m")
    client.force_login(manager)
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=3, rounds_per_series=1)
    day = played_day(group, teams, 1, ["Team A"])
    team = teams[0]
    answer = client.post(
        reverse("leagues:line_up", args=[day.pk, team.pk]),
        {f"lineup-{team.pk}-team": team.pk, f"lineup-{team.pk}-players": [p.pk for p in roster(team, 1, 2, 3, 4)]},
    )
    assert answer.status_code == 422
    assert "series 1 is drawn" in answer.content.decode()


def test_a_substitution_refused_after_the_last_draw_says_why_above_the_page(client):
    manager = factories.user("m")
    client.force_login(manager)
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    day = played_day(group, teams, 1, ["Team A", "Team B"])
    a1, a5 = roster(teams[0], 1)[0], roster(teams[0], 5)[0]
    answer = client.post(
        reverse("leagues:substitute", args=[day.pk]), {"team": teams[0].pk, "player_out": a1.pk, "player_in": a5.pk}
    )
    assert answer.status_code == 422
    assert "player out: every series is drawn: no substitution is left" in answer.content.decode()
    assert not Substitution.objects.exists()
