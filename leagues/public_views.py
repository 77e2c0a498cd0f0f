"""The league's public pages once its tables are published: the season table (HTML and
PDF), a match day's result and a team's season. Unpublished leagues answer 404 here;
their managers see the same pages under /league/ (leagues.views, leagues.urls)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from core.paging import page_of

from . import documents
from .models import League, LeagueTeam, MatchDay
from .permissions import manager_required, published_league
from .results import match_day_result, season_tables, team_season

#: A league of up to this many groups shows them all on one page (a regional league); a
#: larger one (the DSkV's national league: about 63 groups of 16, issue 27) one group a
#: page, with the list of its groups: a group's full season costs about 50 ms to rank.
ONE_PAGE_GROUPS = 2


def season_page(request: HttpRequest, league: League, *, staff: bool) -> HttpResponse:
    """The season tables of every group (at most :data:`ONE_PAGE_GROUPS`), else of the
    page's group or of the one ``?group=`` names, with the list of all groups (the
    groups are read once: no query more than one page of all groups)."""
    groups = list(league.groups.select_related("league"))
    chosen = request.GET.get("group", "")
    page = None
    if chosen.isascii() and chosen.isdigit() and len(chosen) <= 18:
        shown = [group for group in groups if group.pk == int(chosen)]
        if not shown:
            raise Http404("no such group in this league")
    else:
        page = page_of(request, groups, len(groups) if 0 < len(groups) <= ONE_PAGE_GROUPS else 1)
        shown = list(page.object_list)
    several = len(groups) > ONE_PAGE_GROUPS
    context = {
        "league": league,
        "seasons": season_tables(shown),
        "staff": staff,
        "page": page,
        "index": [(group.pk, group.name) for group in groups] if several else [],
        "shown": {group.pk for group in shown},
    }
    return render(request, "leagues/season.html", context)


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
