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
from tournaments.models import Registration, Series, Tournament
from tournaments.permissions import director_required
from tournaments.series import can_draw_next, seats_editable

from .addresses import loopback_office
from .progress import FinishNeedsConfirmation, finish_check, finish_series, table_progress, unconfirmed_tables


@director_required
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The dashboard: series and their tables' progress, and what to do next."""
    all_series = list(tournament.series.order_by("number"))
    current = all_series[-1] if all_series else None
    tables = table_progress(current) if current else []
    registered = Registration.objects.filter(tournament=tournament).count()
    can_draw = can_draw_next(tournament, all_series)
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
        "can_draw": can_draw,
        # A seeded draw on these rests on provisional standings (5.5.3): the form says so.
        "unconfirmed_sheets": len(unconfirmed_tables(tournament)) if can_draw and all_series else 0,
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
    check = finish_check(tables) if series.status != Series.Status.FINISHED else None
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
        return redirect("tournaments:series", tournament.pk, number)
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
