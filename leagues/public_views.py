"""The league's public pages once its tables are published: the season table (HTML and
PDF), a match day's result and a team's season. Unpublished leagues answer 404 here;
their managers see the same pages under /league/ (leagues.views, leagues.urls)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from . import documents
from .league_page import groups_shown
from .models import League, LeagueTeam, MatchDay
from .permissions import manager_required, published_league
from .results import match_day_result, season_tables, team_season


def season_page(
    request: HttpRequest, league: League, *, staff: bool, template: str = "leagues/season.html"
) -> HttpResponse:
    """The season tables of the groups the page shows (:func:`league_page.groups_shown`:
    all of a small league, else one group a page or the one ``?group=`` names), with the
    list of all groups; in ``template`` (the season table, or the cross table of seasons)."""
    chosen = groups_shown(request, league)
    context = {
        "league": league,
        "seasons": season_tables(chosen.shown),
        "staff": staff,
        "page": chosen.page,
        "index": chosen.index,
        "shown": chosen.shown_ids,
    }
    return render(request, template, context)


def season(request: HttpRequest, league_id: int) -> HttpResponse:
    return season_page(request, published_league(league_id, request.user), staff=False)


def season_pdf(request: HttpRequest, league_id: int) -> HttpResponse:
    return documents.season_response(published_league(league_id, request.user))


@manager_required
def staff_season_pdf(request: HttpRequest, league: League) -> HttpResponse:
    return documents.season_response(league)


def match_day(request: HttpRequest, league_id: int, match_day_id: int) -> HttpResponse:
    league = published_league(league_id, request.user)
    day = get_object_or_404(
        MatchDay.objects.select_related("group__league", "host"), pk=match_day_id, group__league=league
    )
    context = {"league": league, "match_day": day, "result": match_day_result(day), "staff": False}
    return render(request, "leagues/result.html", context)


def team(request: HttpRequest, league_id: int, team_id: int) -> HttpResponse:
    league = published_league(league_id, request.user)
    found = get_object_or_404(
        LeagueTeam.objects.select_related("group__league", "captain"), pk=team_id, group__league=league
    )
    roster = found.roster.select_related("player")
    season = team_season(found)
    context = {"league": league, "team": found, "roster": roster, "season": season, "as_of": season.as_of}
    return render(request, "leagues/team.html", context)
