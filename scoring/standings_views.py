"""The standings pages: the director's, the public one once published, and the projector's
live page. Thin: scoring.standings ranks, scoring.tables lays the rows out."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django_tables2 import RequestConfig

from tournaments.lookups import published_tournament
from tournaments.models import Tournament
from tournaments.params import number_param
from tournaments.permissions import results_reader_required

from .categories import CategoryError, chosen_category, within_category
from .standings import finality, standings, team_standings
from .tables import StandingsTable, TeamStandingsTable, rows, team_rows


def _standings_context(request: HttpRequest, tournament: Tournament, player_link: str | None = None) -> dict:
    numbers = list(tournament.series.order_by("number").values_list("number", flat=True))
    selected = number_param(request.GET.get("series"))
    series_number = selected if selected in numbers else None
    category = chosen_category(tournament, request.GET.get("category"))
    ranked = standings(tournament, series_number)
    # The team ranking is offered once the tournament has teams; ?view=teams shows it.
    has_teams = tournament.teams.exists()
    teams_view = has_teams and request.GET.get("view") == "teams"
    if teams_view:
        table = TeamStandingsTable(team_rows(team_standings(tournament, series_number, players=ranked)))
    else:
        data = rows(within_category(ranked, category))
        if player_link:  # each name links to the player's statistics page
            for row in data:
                row["url"] = reverse(player_link, args=[tournament.pk, row["player_id"]])
        table = StandingsTable(data)
    RequestConfig(request, paginate=False).configure(table)
    finished = finality(tournament, series_number)
    return {
        "tournament": tournament,
        "table": table,
        "numbers": numbers,
        "series_number": series_number,
        "has_teams": has_teams,
        "categories": list(tournament.categories.all()),
        "category": category,
        "teams_view": teams_view,
        "sheets_confirmed": finished.confirmed,
        "sheets": finished.sheets,
        "finality": finished,
        "unfinished": ", ".join(map(str, finished.unfinished)),
    }


def _bad_category(request: HttpRequest, tournament: Tournament, error: CategoryError) -> HttpResponse:
    return render(request, "tournaments/bad_request.html", {"tournament": tournament, "message": error}, status=400)


@results_reader_required
def standings_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The director's standings; the tournament's referees may read them too (the page
    changes nothing). ``?category=<id>``: the category's own ranking."""
    try:
        context = _standings_context(request, tournament, "tournaments:player_statistics")
    except CategoryError as error:
        return _bad_category(request, tournament, error)
    return render(request, "tournaments/standings.html", context)


def public_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Standings for everybody, once the director publishes them."""
    tournament = published_tournament(request, tournament_id)
    try:
        context = _standings_context(request, tournament, "public:player_statistics")
    except CategoryError as error:
        return _bad_category(request, tournament, error)
    return render(request, "tournaments/standings.html", context | {"public": True})


def live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The projector page: the top of the standings, refreshing itself."""
    tournament = published_tournament(request, tournament_id)
    try:
        context = _standings_context(request, tournament)
    except CategoryError as error:
        return _bad_category(request, tournament, error)
    template = "tournaments/_live_table.html" if request.htmx else "tournaments/live.html"
    return render(request, template, context)
