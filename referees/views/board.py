"""The referees' overview: the user's tournaments, a tournament's board, the corrections CSV."""

from __future__ import annotations

import csv

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from scoring import signoff
from scoring.exports import CSV_BOM, CSV_DELIMITER
from scoring.lists import differing_deals
from tournaments.cells import cells
from tournaments.filenames import Name, file_name
from tournaments.models import Series, Table, Tournament

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


def _tables_with_status(tournament: Tournament):
    return (
        Table.objects.filter(series__tournament=tournament)
        .select_related("series", "signoff")
        .annotate(
            entered=Count("games", distinct=True),
            open_disputes=Count("disputes", filter=Q(disputes__status=Dispute.Status.OPEN), distinct=True),
        )
        .order_by("series__number", "number")
    )


@referee_required
def board(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Open disputes by age, every table's sign-off, the history of every correction."""
    disputes = (
        Dispute.objects.filter(table__series__tournament=tournament)
        .select_related("table__series", "game", "decided_by")
        .order_by("raised_at")
    )
    tables = list(_tables_with_status(tournament))
    # Where a table's second list differs from its sheet (scoring.lists): one query.
    differing = differing_deals(Table.objects.filter(series__tournament=tournament))
    for table in tables:
        table.lists_differ = differing.get(table.pk, [])
        table.deal_count = tournament.deals_per_table(table.size)
        table.confirmed = getattr(table, "signoff", None) is not None
        table.awaiting = not table.confirmed and signoff.confirmable(
            entered=table.entered,
            deals=table.deal_count,
            series_finished=table.series.status == Series.Status.FINISHED,
        )
    open_disputes = [d for d in disputes if d.status == Dispute.Status.OPEN]
    now = timezone.now()
    for dispute in open_disputes:
        dispute.age_minutes = int((now - dispute.raised_at).total_seconds() // 60)
    context = {
        "tournament": tournament,
        "is_director": tournament.is_director(request.user),
        "open_disputes": open_disputes,
        "closed_disputes": [d for d in disputes if d.status != Dispute.Status.OPEN][::-1],
        "tables": tables,
        "confirmed": sum(t.confirmed for t in tables),
        "awaiting": sum(t.awaiting for t in tables),
        "corrections": reports.corrections_of(tournament),
    }
    return render(request, "referees/board.html", context)


@referee_required
def corrections_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every correction as CSV (:func:`referees.reports.corrections_rows`)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = file_name(Name(tournament.name), "corrections", suffix=".csv")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # The league exports' dialect (scoring.exports): ";" and a byte order mark, so German
    # Excel opens it in columns and reads "ü" as UTF-8.
    response.write(CSV_BOM)
    # Reasons and usernames are typed in: never a formula (tournaments.cells, as the exports).
    csv.writer(response, delimiter=CSV_DELIMITER, lineterminator="\r\n").writerows(
        cells(row) for row in reports.corrections_rows(tournament)
    )
    return response
