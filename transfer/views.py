"""Results as data: the league export, scoresheet imports, statistics pages.

Thin views over transfer.exports, transfer.paper_sheet and standings.statistics (the players'
import is tournaments'; both report a bad file through core.uploads). A bad upload
never costs a 500: the file's problem or every bad row (with its row number) is shown and
nothing is written.
"""

from __future__ import annotations

import tempfile

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.filenames import Name, file_name
from core.tabular import CSV_TYPE, XLSX_TYPE
from core.uploads import import_upload
from standings.categories import CategoryError, chosen_category
from standings.places import finality
from tournaments import hooks
from tournaments.models import Table, Tournament
from tournaments.permissions import director_required

from .exports import SHEETS, PracticeNotExported, csv_lines, league_xlsx, refuse_practice
from .paper_sheet import import_sheet


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
        # Named by what it is: a league's match day exports the league workbook, a
        # Preisskat its tournament file (the same XLSX, import_tournament reads it).
        "league_match_day": hooks.league_match_day(tournament),
    }
    return render(request, "transfer/export.html", context)


def _bad(request: HttpRequest, tournament: Tournament, message) -> HttpResponse:
    return render(request, "core/bad_request.html", {"tournament": tournament, "message": message}, status=400)


@director_required
def export_xlsx(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The workbook is written to a temporary file, then streamed from it: never twice in memory.
    ``?category=<id>``: its Ranking sheet is that category's own ranking."""
    try:
        category = chosen_category(tournament, request.GET.get("category"))
    except CategoryError as error:
        return _bad(request, tournament, error)
    try:
        refuse_practice(tournament)
    except PracticeNotExported as refused:
        return _bad(request, tournament, refused)
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
    try:
        lines = csv_lines(tournament, name, category=category)
    except PracticeNotExported as refused:
        return _bad(request, tournament, refused)
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
    return redirect("director:series", tournament.pk, number)
