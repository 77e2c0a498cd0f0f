"""The statistics pages: the tournament's figures and each player's as declarer, for the
director and, once the standings are published, for everybody."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.paging import page_of
from core.params import number_param
from tournaments import door
from tournaments.lookups import published_tournament
from tournaments.models import Registration, Tournament
from tournaments.permissions import director_required

from .cache import cache_key, cached, mark_of
from .charts import running_score_svg
from .places import standings
from .statistics import player_statistics, running_scores, tournament_statistics


def _statistics(request: HttpRequest, tournament: Tournament, public: bool) -> HttpResponse:
    """The tournament's figures and the players as declarer in the order of the
    standings, a page at a time (core.paging), or those a search finds."""
    # The order and the tournament's figures are computed once per change of the results
    # (standings.cache): only the page's players are read for each request.
    mark = mark_of(request, tournament)
    ranked = cached(
        cache_key(tournament, mark, "statistics-order"),
        lambda: [(entry.place, entry.item.player_id) for entry in standings(tournament)],
    )
    total = cached(cache_key(tournament, mark, "statistics-total"), lambda: tournament_statistics(tournament))
    query = request.GET.get("q", "").strip()
    if query:
        registrations = Registration.objects.filter(tournament=tournament)
        # A number is a start number here (a membership number is not looked up in public).
        hits = door.search(registrations, query)
        if query.isdigit():  # "²" passes isdigit() but is no number (core.params): it finds nobody
            number = number_param(query)
            hits = registrations.none() if number is None else registrations.filter(start_number=number)
        found = set(hits.values_list("player_id", flat=True))
        ranked = [(place, player) for place, player in ranked if player in found]
    page = page_of(request, ranked)
    stats = player_statistics(tournament, [player for _place, player in page])
    rows = [(place, stats.get(player)) for place, player in page]
    return render(
        request,
        "standings/statistics.html",
        {
            "tournament": tournament,
            "total": total,
            "rows": [(place, s) for place, s in rows if s is not None],
            "page": page,
            "query": query,
            "public": public,
        },
    )


@director_required
def statistics(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _statistics(request, tournament, public=False)


def public_statistics(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The statistics for everybody once the director publishes the standings."""
    return _statistics(request, published_tournament(request, tournament_id), public=True)


def _player(request: HttpRequest, tournament: Tournament, player_id: int, public: bool) -> HttpResponse:
    stats = player_statistics(tournament, [player_id]).get(player_id)
    if stats is None:
        raise Http404
    points = running_scores(tournament, [player_id]).get(player_id, [])
    ends: dict[int, int] = {}
    for series, _deal, total in points:
        ends[series] = total
    series_totals, before = [], 0
    for series, total in sorted(ends.items()):
        series_totals.append((series, total - before, total))
        before = total
    return render(
        request,
        "standings/player_statistics.html",
        {
            "tournament": tournament,
            "stats": stats,
            "chart": running_score_svg(points, label=_("Running score of %(name)s") % {"name": stats.name}),
            "series_totals": series_totals,
            "public": public,
        },
    )


@director_required
def player_statistics_view(request: HttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    return _player(request, tournament, player_id, public=False)


def public_player_statistics(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    return _player(request, published_tournament(request, tournament_id), player_id, public=True)
