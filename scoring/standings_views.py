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
from tournaments.permissions import director_required

from .standings import finality, standings, team_standings
from .tables import StandingsTable, TeamStandingsTable, rows, team_rows


def _standings_context(request: HttpRequest, tournament: Tournament, player_link: str | None = None) -> dict:
    numbers = list(tournament.series.order_by("number").values_list("number", flat=True))
    selected = number_param(request.GET.get("series"))
    series_number = selected if selected in numbers else None
    ranked = standings(tournament, series_number)
    # The team ranking is offered once the tournament has teams; ?view=teams shows it.
    has_teams = tournament.teams.exists()
    teams_view = has_teams and request.GET.get("view") == "teams"
    if teams_view:
        table = TeamStandingsTable(team_rows(team_standings(tournament, series_number, players=ranked)))
    else:
        data = rows(ranked)
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
        "teams_view": teams_view,
        "sheets_confirmed": finished.confirmed,
        "sheets": finished.sheets,
        "finality": finished,
        "unfinished": ", ".join(map(str, finished.unfinished)),
    }


@director_required
def standings_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = _standings_context(request, tournament, "tournaments:player_statistics")
    return render(request, "tournaments/standings.html", context)


def public_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Standings for everybody, once the director publishes them."""
    tournament = published_tournament(request, tournament_id)
    context = _standings_context(request, tournament, "public:player_statistics")
    return render(request, "tournaments/standings.html", context | {"public": True})


def live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The projector page: the top of the standings, refreshing itself."""
    tournament = published_tournament(request, tournament_id)
    context = _standings_context(request, tournament)
    template = "tournaments/_live_table.html" if request.htmx else "tournaments/live.html"
    return render(request, template, context)
