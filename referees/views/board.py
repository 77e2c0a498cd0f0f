"""The referees' overview: the user's tournaments, a tournament's board, the corrections CSV."""

from __future__ import annotations

from collections import Counter

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from core.filenames import Name, file_name
from core.tabular import CSV_TYPE, write_csv
from dashboard.table_list import table_list
from tournaments.models import Tournament

from .. import reports
from ..models import Dispute
from ..permissions import referee_required


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    """The tournaments the user referees or directs."""
    user = request.user
    tournaments = Tournament.objects.all()
    if not user.is_superuser:
        tournaments = tournaments.filter(Q(referee_assignments__user=user) | Q(directors=user)).distinct()
    return render(request, "referees/mine.html", {"tournaments": tournaments})


#: Tiles per page of the board, and the latest corrections and closed disputes it lists
#: (the corrections CSV has them all; every table's page its own).
BOARD_TILES = 120
LATEST = 50


@referee_required
def board(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Open disputes by age, the tables of a series (``?series=``, the latest by default)
    a page of tiles at a time, filtered by state, and the latest corrections and decisions."""
    disputes = Dispute.objects.filter(table__series__tournament=tournament).select_related(
        "table__series", "game", "decided_by"
    )
    open_disputes = list(disputes.filter(status=Dispute.Status.OPEN).order_by("raised_at"))
    now = timezone.now()
    for dispute in open_disputes:
        dispute.age_minutes = int((now - dispute.raised_at).total_seconds() // 60)
    all_series = list(tournament.series.order_by("number"))
    wanted = request.GET.get("series", "")
    chosen = next((s for s in all_series if str(s.number) == wanted), all_series[-1] if all_series else None)
    listed = table_list(request, chosen, BOARD_TILES, seats=False)
    per_table = Counter(dispute.table_id for dispute in open_disputes)
    corrections = reports.corrections_of(tournament)
    context = {
        "tournament": tournament,
        "is_director": tournament.is_director(request.user),
        "open_disputes": open_disputes,
        "closed_disputes": list(disputes.exclude(status=Dispute.Status.OPEN).order_by("-raised_at", "-pk")[:LATEST]),
        "all_series": all_series,
        "series": chosen,
        "listed": listed,
        "tiles": [(table, per_table.get(table.pk, 0)) for table in listed.page],
        "confirmed": listed.confirmed,
        "awaiting": listed.awaiting,
        "corrections": list(corrections.order_by("-made_at", "-pk")[:LATEST]),
        "corrections_count": corrections.count(),
    }
    return render(request, "referees/board.html", context)


@referee_required
def corrections_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every correction as CSV (:func:`referees.reports.corrections_rows`)."""
    response = HttpResponse(content_type=CSV_TYPE)
    filename = file_name(Name(tournament.name), "corrections", suffix=".csv")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # Reasons and usernames are typed in: core.tabular writes them, never as a formula.
    rows = reports.corrections_rows(tournament)
    write_csv(response, next(rows), rows)
    return response
