"""Results as data: the league export, scoresheet imports, statistics pages.

Thin views over scoring.exports, scoring.imports and scoring.statistics (the players'
import is tournaments'; both report a bad file through core.uploads). A bad upload
never costs a 500: the file's problem or every bad row (with its row number) is shown and
nothing is written.
"""

from __future__ import annotations

import tempfile

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.filenames import Name, file_name
from core.paging import page_of
from core.params import number_param
from core.tabular import CSV_TYPE, XLSX_TYPE
from core.uploads import import_upload
from tournaments import door
from tournaments.lookups import published_tournament
from tournaments.models import Registration, Table, Tournament
from tournaments.permissions import director_required

from .categories import CategoryError, chosen_category
from .charts import running_score_svg
from .exports import SHEETS, csv_lines, league_xlsx
from .imports import import_sheet
from .public_cache import cache_key, cached, mark_of
from .standings import finality, standings
from .statistics import player_statistics, running_scores, tournament_statistics


def _filename(tournament: Tournament, *parts: str, suffix: str) -> str:
    """The export's file name: the tournament's (umlauts spelled out), its date, the sheet in the page's language."""
    return file_name(Name(tournament.name), f"{tournament.date:%Y-%m-%d}", *parts, suffix=suffix)


@director_required
def export(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = {
        "tournament": tournament,
        "sheets": list(SHEETS),
        "categories": tournament.categories.all(),
        "finality": finality(tournament),
    }
    return render(request, "tournaments/export.html", context)


def _bad(request: HttpRequest, tournament: Tournament, message) -> HttpResponse:
    return render(request, "tournaments/bad_request.html", {"tournament": tournament, "message": message}, status=400)


@director_required
def export_xlsx(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The workbook is written to a temporary file, then streamed from it: never twice in memory.
    ``?category=<id>``: its Ranking sheet is that category's own ranking."""
    try:
        category = chosen_category(tournament, request.GET.get("category"))
    except CategoryError as error:
        return _bad(request, tournament, error)
    spool = tempfile.TemporaryFile(suffix=".xlsx")  # noqa: SIM115 - FileResponse closes it, which deletes it
    try:
        league_xlsx(tournament, spool, category=category)
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    return FileResponse(
        spool,
        as_attachment=True,
        filename=_filename(tournament, suffix=".xlsx"),
        content_type=XLSX_TYPE,
    )


@director_required
def export_csv(request: HttpRequest, tournament: Tournament, sheet: str) -> HttpResponse:
    names = {name.lower(): name for name in SHEETS}
    if sheet.lower() not in names:
        raise Http404
    name = names[sheet.lower()]
    try:
        category = chosen_category(tournament, request.GET.get("category"))
    except CategoryError as error:
        return _bad(request, tournament, error)
    lines = csv_lines(tournament, name, category=category)
    response = StreamingHttpResponse(lines, content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, name.lower(), suffix=".csv")}"'
    return response


@require_POST
@director_required
def sheet_import(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    target = get_object_or_404(Table, series__tournament=tournament, series__number=number, number=table)
    import_upload(
        request,
        lambda upload: import_sheet(target, upload, upload.name, entered_by=f"{request.user.get_username()}: import"),
        lambda result: (
            ngettext(
                "Table %(table)s: %(n)s deal imported, valued by the rules.",
                "Table %(table)s: %(n)s deals imported, every one valued by the rules.",
                result.games,
            )
            % {"table": table, "n": result.games}
        ),
    )
    return redirect("tournaments:series", tournament.pk, number)


def _statistics(request: HttpRequest, tournament: Tournament, public: bool) -> HttpResponse:
    """The tournament's figures and the players as declarer in the order of the
    standings, a page at a time (core.paging), or those a search finds."""
    # The order and the tournament's figures are computed once per change of the results
    # (scoring.public_cache): only the page's players are read for each request.
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
        "tournaments/statistics.html",
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
        "tournaments/player_statistics.html",
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
