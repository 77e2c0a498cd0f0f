"""The director's pages of a running tournament: the dashboard with its table tiles, a
series' tables, finishing a series. Thin: dashboard.progress says how far every table is
(a fixed number of queries), dashboard.table_list which page of them is shown; each
table's own page is dashboard.table_views."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import backup_status
from core.addresses import loopback_office
from core.params import number_param
from draw.series import can_draw_next, seats_editable
from signoff.sheets import unconfirmed_tables
from tournaments import hooks
from tournaments.forms import DrawForm
from tournaments.lookups import series_or_404
from tournaments.models import Registration, Series, Tournament
from tournaments.permissions import director_required

from .hall import series_hall
from .progress import FinishNeedsConfirmation, finish_check, finish_series
from .table_list import ROWS_PER_PAGE, TILES_PER_PAGE, table_list


@director_required
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The dashboard: series and their tables' progress (a page of tiles, filtered by
    state), and what to do next."""
    all_series = list(tournament.series.order_by("number"))
    current = all_series[-1] if all_series else None
    listed = table_list(request, current, TILES_PER_PAGE, seats=False)
    # Counted as the desk counts them (tournaments.door.totals): the withdrawn apart.
    counts = Registration.objects.filter(tournament=tournament).aggregate(
        playing=Count("pk", filter=Q(withdrawn_after_series__isnull=True)),
        withdrawn=Count("pk", filter=Q(withdrawn_after_series__isnull=False)),
    )
    can_draw = can_draw_next(tournament, all_series)
    numbers = [t.number for t in listed.tables]
    context = {
        "tournament": tournament,
        "all_series": all_series,
        "current": current,
        "series": current,
        "listed": listed,
        "registered": counts["playing"],
        "withdrawn": counts["withdrawn"],
        "draw_form": DrawForm(),
        "can_draw": can_draw,
        # A seeded draw on these rests on provisional standings (5.5.3): the form says so.
        "unconfirmed_sheets": len(unconfirmed_tables(tournament)) if can_draw and all_series else 0,
        # When and where the last backup was made (core.backups writes it; a file, no query).
        "backup": backup_status.read(settings.DATA_DIR),
        # The hall check of the tables before play (dashboard.hall): one query.
        "hall": series_hall(current, numbers, started=any(t.entered for t in listed.tables)),
        # Every sheet confirmed (5.5.3): the series is final, and the dashboard offers to finish it.
        "ready_to_finish": bool(
            current
            and current.status != Series.Status.FINISHED
            and listed.tables
            and listed.confirmed == len(listed.tables)
        ),
        # A higher app's panels (a practice tournament's rehearsal: tournaments.hooks).
        "panels": hooks.dashboard_panels(request, tournament),
    }
    return render(request, "dashboard/tournament_detail.html", context)


@director_required
def progress(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The current series' table tiles (the page and filter asked for), for the dashboard
    to refresh itself."""
    current = tournament.series.order_by("-number").first()
    listed = table_list(request, current, TILES_PER_PAGE, seats=False)
    return render(request, "dashboard/_progress.html", {"tournament": tournament, "series": current, "listed": listed})


@director_required
def hall(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The hall check of the current series, for the dashboard to refresh itself during set-up."""
    current = tournament.series.order_by("-number").first()
    context = {"tournament": tournament, "hall": series_hall(current)}
    return render(request, "dashboard/_hall.html", context)


@director_required
def series_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """A series' tables as a compact list, a page at a time, filtered by state or by a
    player's name; each table's links, documents and seat changes are on its own page."""
    series = series_or_404(tournament, number)
    table_number = number_param(request.GET.get("table", "").strip())  # "²" passes isdigit() but is no number
    if table_number is not None and series.tables.filter(number=table_number).exists():
        return redirect("director:table", tournament.pk, number, table_number)
    listed = table_list(request, series, ROWS_PER_PAGE)
    check = finish_check(listed.tables) if series.status != Series.Status.FINISHED else None
    return render(
        request,
        "dashboard/series_detail.html",
        {
            "tournament": tournament,
            "series": series,
            "listed": listed,
            "table_number": table_number,
            "editable": seats_editable(series, play_started=any(t.entered for t in listed.tables)),
            "loopback_office": loopback_office(request),
            "finish_check": check,
        },
    )


@require_POST
@director_required
def series_finish(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = series_or_404(tournament, number)
    try:
        finish_series(series, force=request.POST.get("force") == "1")
    except FinishNeedsConfirmation as refused:
        messages.error(request, finish_refused_text(number, refused))
        return redirect("director:series", tournament.pk, number)
    messages.success(request, _("Series %(n)s is finished.") % {"n": number})
    return redirect(tournament)


def finish_refused_text(number: int, refused: FinishNeedsConfirmation) -> str:
    """Which tables are not final, by why: the director confirms knowing them (5.5.3)."""
    parts = []
    for tables, text in (
        (refused.open_tables, _("not all deals entered at tables %(tables)s")),
        (refused.unconfirmed, _("sheets not confirmed at tables %(tables)s")),
        (refused.lists_differ, _("the second list differs from the sheet at tables %(tables)s")),
    ):
        if tables:
            parts.append(text % {"tables": ", ".join(map(str, tables[:20])) + (" …" if len(tables) > 20 else "")})
    return _(
        "Series %(n)s is not finished: %(why)s. Only confirmed sheets are final (5.5.3); "
        'tick "finish anyway" to finish it with these tables.'
    ) % {"n": number, "why": "; ".join(parts)}
