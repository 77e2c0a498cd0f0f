"""The director's pages after the draw: a no-show, a late arrival, a redraw, a substitute,
undoing a withdrawal. Thin: the forms check the choice, tournaments.arrivals, redraw and
substitutes decide; every answer says which tables and seats changed, and the series
page then offers those tables' cards and PIN slips again (``?reprint=``)."""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.rule_messages import rule_message
from skat.rules import RuleError

from . import arrivals, door, redraw, seating, services, substitutes
from .after_draw_forms import LateArrivalForm, NoShowForm, RedrawForm, SubstituteForm
from .lookups import series_or_404
from .models import Registration, Tournament
from .permissions import director_required


def describe(change: seating.Change) -> str:
    """ "Table 3: A, B, C; table 5 removed" — every table the change touched."""
    parts = []
    for table in change.tables:
        if table.removed:
            parts.append(_("table %(n)s is no longer used") % {"n": table.number})
        else:
            seats = ", ".join(f"{seat}. {name}" for seat, name in enumerate(table.players, start=1))
            template = _("new table %(n)s: %(seats)s") if table.added else _("table %(n)s: %(seats)s")
            parts.append(template % {"n": table.number, "seats": seats})
    return "; ".join(parts)


def _reprint(change: seating.Change, tournament: Tournament) -> HttpResponse:
    url = reverse("tournaments:series", args=[tournament.pk, change.series])
    if change.reprint:
        url += "?reprint=" + ",".join(map(str, change.reprint)) + "#reprint"
    return redirect(url)


def refund_text(tournament: Tournament, registration: Registration) -> str:
    """What a withdrawn player who paid his list fees at the desk gets back, by the
    tournament's rule (skat.fees.list_fee_refund); empty when he paid none there."""
    if not registration.list_fees_paid or registration.withdrawn_after_series is None:
        return ""
    refund = door.refund(tournament, registration)
    if refund:
        return " " + _("Refund %(amount)s of the list fees he paid at the desk (the tournament's %(percent)s %%).") % {
            "amount": number_format(refund, 2),
            "percent": tournament.list_fee_refund_percent,
        }
    return " " + _("The list fees he paid at the desk are not refunded (the tournament's rule).")


@require_POST
@director_required
def no_show(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Take a player who did not turn up off his table before a deal is entered there."""
    series = series_or_404(tournament, number)
    form = NoShowForm(request.POST, series=series)
    if not form.is_valid():
        messages.error(request, _("player: %(error)s") % {"error": " ".join(form.errors["player"])})
        return redirect("tournaments:series", tournament.pk, number)
    registration = form.cleaned_data["player"]
    try:
        change = arrivals.no_show(series, registration)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect("tournaments:series", tournament.pk, number)
    messages.success(
        request,
        _("%(name)s did not turn up and is off series %(series)s. Changed: %(changes)s.")
        % {"name": registration.player.name, "series": number, "changes": describe(change)}
        + refund_text(tournament, registration),
    )
    return _reprint(change, tournament)


@require_POST
@director_required
def late_arrival(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Seat a player who arrived after the draw; once his table cannot change, the next series."""
    series = series_or_404(tournament, number)
    form = LateArrivalForm(request.POST, arriving=arrivals.arriving(tournament, series))
    if not form.is_valid():
        messages.error(request, _("player: %(error)s") % {"error": " ".join(form.errors["registration"])})
        return redirect("tournaments:series", tournament.pk, number)
    registration = Registration.objects.select_related("player").get(pk=form.cleaned_data["registration"])
    try:
        arrival = arrivals.late_arrival(series, registration)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect("tournaments:series", tournament.pk, number)
    name = registration.player.name
    if arrival.change is None:
        messages.warning(
            request,
            _("%(name)s is not seated in series %(series)s (%(why)s) and plays from series %(next)s.")
            % {"name": name, "series": number, "why": rule_message(arrival.reason), "next": arrival.from_series},
        )
        return redirect("tournaments:series", tournament.pk, number)
    messages.success(
        request,
        _("%(name)s is seated in series %(series)s. Changed: %(changes)s.")
        % {"name": name, "series": number, "changes": describe(arrival.change)},
    )
    return _reprint(arrival.change, tournament)


@require_POST
@director_required
def redraw_series(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Draw the whole series again while no deal of it is entered."""
    series = series_or_404(tournament, number)
    form = RedrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["confirm"]))
        return redirect("tournaments:series", tournament.pk, number)
    try:
        change = redraw.redraw_series(series)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect("tournaments:series", tournament.pk, number)
    messages.success(
        request,
        _("Series %(series)s is drawn again: %(changes)s. Print every table card and PIN slip again.")
        % {"series": number, "changes": describe(change)},
    )
    return _reprint(change, tournament)


@director_required
def substitute(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Between series: a team's reserve takes a player's place from the next series."""
    leaving = substitutes.leaving(tournament)
    posted = request.POST if request.method == "POST" else None
    form = SubstituteForm(posted, tournament=tournament, leaving=leaving, user=request.user, prefix="sub")
    if posted is not None and form.is_valid():
        out = Registration.objects.select_related("player").get(pk=form.cleaned_data["out"])
        data = form.cleaned_data
        entry = services.Entry(
            name=data["name"],
            club=data["club"],
            membership_number=data["membership_number"],
            namesake_ok=data.get("namesake_ok", False),
        )
        try:
            done = substitutes.substitute(out, entry)
        except RuleError as error:
            form.add_error("out", rule_message(error))
        except IntegrityError:
            form.add_error("name", _("This player was registered meanwhile; look him up in the list."))
        else:
            messages.success(
                request,
                _(
                    "%(reserve)s replaces %(name)s for %(team)s from series %(series)s "
                    "(start number %(number)s); %(name)s withdrew after series %(last)s."
                )
                % {
                    "reserve": done.reserve.player.name,
                    "name": out.player.name,
                    "team": done.reserve.team,
                    "series": done.from_series,
                    "number": done.reserve.start_number,
                    "last": done.from_series - 1,
                }
                + refund_text(tournament, done.out),
            )
            return redirect("tournaments:players", tournament.pk)
    context = {"tournament": tournament, "form": form, "leaving": leaving, "next": tournament.series.count() + 1}
    return render(request, "tournaments/substitute.html", context, status=422 if form.errors else 200)


@require_POST
@director_required
def undo_withdrawal(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    """The player plays on: from the next series, or seated in it while it can change."""
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, tournament=tournament
    )
    try:
        back = substitutes.undo_withdrawal(registration)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect("tournaments:players", tournament.pk)
    name = registration.player.name
    if back.change is None:
        messages.success(
            request, _("%(name)s plays on from series %(series)s.") % {"name": name, "series": back.from_series}
        )
        return redirect("tournaments:players", tournament.pk)
    messages.success(
        request,
        _("%(name)s plays on and is seated in series %(series)s. Changed: %(changes)s.")
        % {"name": name, "series": back.from_series, "changes": describe(back.change)},
    )
    return _reprint(back.change, tournament)
