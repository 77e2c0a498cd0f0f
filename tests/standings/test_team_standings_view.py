"""The standings page's team ranking (?view=teams) and the team ranking list PDF."""

from __future__ import annotations

import io
import random

import pytest
from django.urls import reverse
from pypdf import PdfReader

from draw.series import draw_series
from standings.places import team_standings
from tests import factories
from tests.standings.test_places import play
from tests.standings.test_team_standings import with_teams

pytestmark = pytest.mark.django_db


def played(director, players: int = 12, teams: int = 3, **fields):
    t = factories.tournament(directors=[director], **fields)
    factories.registered(t, players)
    with_teams(t, 4, teams)
    play(draw_series(t), random.Random(4))
    return t


def page(client, t, name="director:standings", **query) -> str:
    response = client.get(reverse(name, args=[t.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_team_ranking_lists_each_team_with_its_players_and_sums(client, director):
    t = played(director)
    html = page(client, t, view="teams")
    assert "team standings" in html and "<th" in html
    ranked = team_standings(t)
    positions = [html.index(f">{entry.item.name}<") for entry in ranked]
    assert positions == sorted(positions)  # in ranking order
    best = ranked[0]
    members = ", ".join(f"{name} ({rating})" for name, rating in best.item.members)
    assert f'<td class="members">{members}</td>' in html
    assert f'<td class="num rating">{best.rating.rating}</td>' in html
    assert "the sum of its players" in html


def test_the_players_ranking_offers_the_teams_only_when_there_are_teams(client, director):
    t = played(director)
    assert 'href="?view=teams"' in page(client, t)
    lonely = factories.tournament(directors=[director])
    factories.registered(lonely, 6)
    draw_series(lonely)
    html = page(client, lonely, view="teams")  # no teams: the players' ranking, nothing offered
    assert 'href="?view=teams"' not in html and "Ranking of:" not in html and "team standings" not in html


def test_switching_series_keeps_the_team_view_and_back(client, director):
    t = played(director)
    html = page(client, t, view="teams", series="1")
    assert "team standings of series 1 only" in html
    assert 'href="?view=teams"' in html  # overall, still teams
    assert 'href="?series=1"' in html  # players, still series 1
    assert "?series=1&amp;view=teams" in html  # the PDF and the series link
    assert "Team ranking list (PDF)" in html


def test_the_published_standings_show_the_teams_too(client, director):
    t = played(director, standings_public=True)
    client.logout()
    html = page(client, t, "public:standings", view="teams")
    assert "team standings" in html and team_standings(t)[0].item.name in html
    assert reverse("director:standings_pdf", args=[t.pk]) not in html  # the director's documents
    assert f"{reverse('public:standings_pdf', args=[t.pk])}?view=teams" in html  # the public's


def test_a_fixed_number_of_queries(client, director, django_assert_max_num_queries):
    counts = []
    for players in (12, 24):
        t = played(director, players=players, teams=players // 4)
        with django_assert_max_num_queries(12) as captured:
            page(client, t, view="teams")
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_the_team_ranking_list_pdf(client, director):
    t = played(director, name="Pokal der Vereine")
    response = client.get(reverse("director:standings_pdf", args=[t.pk]), {"view": "teams"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="pokal-der-vereine-team-standings.pdf"' in response["Content-Disposition"]
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "Team ranking list: overall" in text
    # Each team on two lines: place, name and figures, then its players best first.
    for entry in team_standings(t):
        r = entry.rating
        figures = f"{r.points} {r.won} {r.lost} {r.bonus} {r.rating} {entry.item.tables}"
        assert f"{entry.place}. {entry.item.name}\n{entry.item.players}\n{figures}\n" in text
    assert "the sum of its players'" in text


def test_a_long_team_ranking_list_continues_on_further_pages(client, director):
    t = played(director, players=120, teams=30)
    response = client.get(reverse("director:standings_pdf", args=[t.pk]), {"view": "teams"})
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages]
    assert len(pages) == 2 and all("Team ranking list: overall" in p for p in pages)
    for entry in team_standings(t):
        assert sum(p.count(f"\n{entry.place}. {entry.item.name}\n") for p in pages) == 1


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"view": "clubs"}, "view: clubs is not a choice: players or teams."),
        ({"view": "teams"}, "view: this tournament has no teams"),
    ],
)
def test_a_bad_view_is_refused_naming_it(client, director, query, message):
    t = factories.tournament(directors=[director])
    factories.registered(t, 6)
    draw_series(t)
    response = client.get(reverse("director:standings_pdf", args=[t.pk]), query)
    assert response.status_code == 400 and message in response.content.decode()
