"""The manager's downloads: the match report PDF, the season as XLSX or CSV."""

from __future__ import annotations

import io

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.text import slugify

from core.filenames import Name, file_name
from core.tabular import CSV_TYPE, XLSX_TYPE

from . import documents
from .exports import SHEETS, league_season_csv, league_season_xlsx
from .models import League, MatchDay
from .permissions import manager_required, match_day_manager_required


@match_day_manager_required
def match_report_pdf(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    return documents.match_report_response(match_day)


@manager_required
def season_xlsx(request: HttpRequest, league: League) -> HttpResponse:
    out = io.BytesIO()
    league_season_xlsx(league, out)
    response = HttpResponse(out.getvalue(), content_type=XLSX_TYPE)
    filename = file_name(Name(league), suffix=".xlsx", fallback="league")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@manager_required
def season_csv(request: HttpRequest, league: League, sheet: str) -> HttpResponse:
    name = {slugify(title): title for title in SHEETS}.get(sheet)
    if name is None:
        raise Http404("No such sheet.")
    out = io.StringIO()
    league_season_csv(league, name, out)
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type=CSV_TYPE)
    filename = file_name(Name(league), sheet, suffix=".csv", fallback="league")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
