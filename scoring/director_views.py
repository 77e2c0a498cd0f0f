"""The director's pages of a running tournament: the dashboard with its table tiles, a
series' tables and links, finishing a series. Thin: scoring.progress says how far every
table is (a fixed number of queries)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.forms import DrawForm, MoveForm, SwapForm
from tournaments.lookups import series_or_404
from tournaments.models import Registration, Tournament
from tournaments.permissions import director_required
from tournaments.series import can_draw_next, seats_editable

from .addresses import loopback_office
from .progress import FinishNeedsConfirmation, finish_series, table_progress


@director_required
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The dashboard: series and their tables' progress, and what to do next."""
    all_series = list(tournament.series.order_by("number"))
    current = all_series[-1] if all_series else None
    tables = table_progress(current) if current else []
    registered = Registration.objects.filter(tournament=tournament).count()
    context = {
        "tournament": tournament,
        "all_series": all_series,
        "current": current,
        "tables": tables,
        "finished_tables": sum(t.finished for t in tables),
        "behind_tables": sum(t.behind for t in tables),
        "confirmed_tables": sum(t.confirmed for t in tables),
        "awaiting_tables": sum(t.awaiting for t in tables),
        "registered": registered,
        "draw_form": DrawForm(),
        "can_draw": can_draw_next(tournament, all_series),
    }
    return render(request, "tournaments/tournament_detail.html", context)


@director_required
def progress(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The current series' table tiles, for the dashboard to refresh itself."""
    current = tournament.series.order_by("-number").first()
    tables = table_progress(current) if current else []
    return render(request, "tournaments/_progress.html", {"tables": tables})


@director_required
def series_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = series_or_404(tournament, number)
    tables = table_progress(series)
    seated = sorted(((s.player_id, s.player.name) for t in tables for s in t.seats.all()), key=lambda p: p[1])
    table_choices = [(t.pk, _("Table %(n)s") % {"n": t.number}) for t in tables]
    return render(
        request,
        "tournaments/series_detail.html",
        {
            "tournament": tournament,
            "series": series,
            "tables": tables,
            "editable": seats_editable(series, play_started=any(t.entered for t in tables)),
            "swap_form": SwapForm(players=seated),
            "move_form": MoveForm(players=seated, tables=table_choices),
            "loopback_office": loopback_office(request),
        },
    )


@require_POST
@director_required
def series_finish(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = series_or_404(tournament, number)
    try:
        finish_series(series, force=request.POST.get("force") == "1")
    except FinishNeedsConfirmation as refused:
        messages.error(
            request,
            _("Tables %(tables)s have not entered all deals; confirm to finish anyway.")
            % {"tables": ", ".join(map(str, refused.open_tables[:20]))},
        )
        return redirect("tournaments:series", tournament.pk, number)
    messages.success(request, _("Series %(n)s is finished.") % {"n": number})
    return redirect(tournament)
