"""The match report: each player's score per series with table, seat
and membership number, the captains' remarks and protests, place and time of signing;
as a page and as PDF."""

from __future__ import annotations

import datetime
import io

import pypdf
import pytest
from django.urls import reverse
from django.utils import timezone

from leagues import checks
from leagues.office import report as reports
from leagues.office.models import ReportRemark, ReportSigning
from skat.rules import RuleError
from tests import factories
from tests.leagues.helpers import played_day
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(client):
    manager = factories.user("staffelleiter")
    client.force_login(manager)
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    Player.objects.filter(name="A1").update(membership_number="DSKV-1001")
    return played_day(group, teams, 1, ["Team A", "Team B"], substitute=True)


def pdf_text(answer) -> str:
    assert answer["Content-Type"] == "application/pdf"
    return "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(answer.content)).pages)


def test_every_players_score_per_series_with_table_seat_and_number(day):
    data = reports.match_report(day)
    assert len(data.series) == 2 and all(len(lines) == 16 for lines in data.series)
    a1 = next(line for line in data.series[0] if line.player == "A1")
    assert (a1.membership_number, a1.team) == ("DSKV-1001", "Team A") and 1 <= a1.seat <= 4
    assert "A1" not in {line.player for line in data.series[1]}  # A5 came in for him
    # The scores add up to the team's game points of the series, as the result counts them.
    for place in data.result.table:
        team = place.result.team.name
        for number, lines in enumerate(data.series):
            assert sum(line.score for line in lines if line.team == team) == place.result.series_points[number]
    totals = {player: (played, total) for _team, player, _n, played, total in data.players}
    assert totals["A1"][0] == 1 and totals["A2"][0] == 2


def test_the_report_page_in_a_fixed_number_of_queries(client, day, django_assert_max_num_queries):
    url = reverse("leagueoffice:report", args=[day.pk])
    # measured: 26 (the session, the league, the report's reads, the forfeits for the result and the report)
    with django_assert_max_num_queries(26):
        page = client.get(url).content.decode()
    assert "DSKV-1001" in page and "Series 2: scores" in page and "Remarks and protests" in page
    for n in range(4):
        reports.add_remark(day, team=day.teams.get(name="Team A"), kind="remark", text=f"Hall cold {n}", user=None)
    with django_assert_max_num_queries(26):
        client.get(url)
    with django_assert_max_num_queries(28):  # the PDF: the same reads, the captains and the teams' names
        client.get(reverse("leagueoffice:report_pdf", args=[day.pk]))


def test_a_captains_protest_is_stored_shown_and_printed(client, day):
    team_b = day.teams.get(name="Team B")
    url = reverse("leagueoffice:remark", args=[day.pk])
    answer = client.post(url, {"team": team_b.pk, "kind": "protest", "text": "   "})
    assert answer.status_code == 422 and "This field is required." in answer.content.decode()
    answer = client.post(
        url, {"team": team_b.pk, "kind": "protest", "text": "Table 2, deal 3: the grand was overbid."}
    )
    assert answer.status_code == 302
    (remark,) = ReportRemark.objects.all()
    assert (remark.team, remark.kind, remark.made_by.username) == (team_b, "protest", "staffelleiter")
    page = client.get(reverse("leagueoffice:report", args=[day.pk])).content.decode()
    assert "captain of Team B" in page and "typed by staffelleiter" in page and "the grand was overbid" in page
    text = pdf_text(client.get(reverse("leagueoffice:report_pdf", args=[day.pk])))
    assert "protest, Captain of Team B" in text and "the grand was overbid" in text


def test_the_place_and_time_of_signing(client, day):
    url = reverse("leagueoffice:signing", args=[day.pk])
    later = (timezone.localtime() + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    answer = client.post(url, {"place": "Kiel, Vereinsheim", "signed_at": later})
    assert answer.status_code == 422 and "The report cannot be signed in the future." in answer.content.decode()
    answer = client.post(url, {"place": "Kiel", "signed_at": "2026-08-31T18:00"})
    assert "The report is signed on the match day" in answer.content.decode()
    assert not ReportSigning.objects.exists()
    text = pdf_text(client.get(reverse("leagueoffice:report_pdf", args=[day.pk])))
    assert "Place and time of signing:" in text and "Captain, Team A" in text
    assert client.post(url, {"place": "Kiel, Vereinsheim", "signed_at": "2026-09-01T18:30"}).status_code == 302
    page = client.get(reverse("leagueoffice:report", args=[day.pk])).content.decode()
    assert "Signed at Kiel, Vereinsheim, " in page
    text = pdf_text(client.get(reverse("leagueoffice:report_pdf", args=[day.pk])))
    assert "Signed at Kiel, Vereinsheim, " in text and "DSKV-1001" in text and "Series 1: scores" in text


def test_a_binding_match_days_report_is_closed(client, day):
    manager = day.group.league.managers.get()
    checks.check(day, user=manager)
    checks.make_binding(day, user=manager)
    with pytest.raises(RuleError, match="match day 1 is binding: its report is closed"):
        reports.add_remark(day, team=None, kind="remark", text="late", user=manager)
    answer = client.post(
        reverse("leagueoffice:signing", args=[day.pk]), {"place": "Kiel", "signed_at": "2026-09-01T18:30"}
    )
    assert answer.status_code == 422 and "its report is closed (5.5.3)" in answer.content.decode()
    assert not ReportRemark.objects.exists() and not ReportSigning.objects.exists()


def test_the_hosts_helper_directing_the_match_day_keeps_the_report_too(client, day):
    """At the hall the host's helper (a director of the match day's tournament, no league
    manager) types the captains' remarks and the signing; another director may not."""
    helper = factories.user("helper")
    day.tournament.directors.add(helper)
    client.force_login(helper)
    page = client.get(reverse("leagueoffice:report", args=[day.pk]))
    assert page.status_code == 200 and reverse("director:detail", args=[day.tournament_id]) in page.content.decode()
    url = reverse("leagueoffice:remark", args=[day.pk])
    assert client.post(url, {"kind": "remark", "text": "Started late"}).status_code == 302
    client.force_login(factories.user("stranger"))
    assert client.get(reverse("leagueoffice:report", args=[day.pk])).status_code == 403
    assert client.post(url, {"kind": "remark", "text": "x"}).status_code == 403
    assert list(ReportRemark.objects.values_list("text", "made_by__username")) == [("Started late", "helper")]


def test_a_forfeit_is_said_on_the_report_page_and_the_pdf(client, day):
    from leagues.seasons import services

    team = day.teams.get(name="Team A")
    services.forfeit(day, team, "ineligible player", user=None)
    expected = "Team A forfeited this match day: no league points, no game points (ineligible player)."
    assert expected in client.get(reverse("leagueoffice:report", args=[day.pk])).content.decode()
    pdf = client.get(reverse("leagueoffice:report_pdf", args=[day.pk])).content
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Team A forfeited this match day" in text
