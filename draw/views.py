"""The director's pages of the draw: drawing a series, swapping and moving players, and
after the draw a no-show, a late arrival, a redraw, a substitute, undoing a withdrawal.
Thin: the forms check the choice, draw.series, arrivals, redraw and substitutes decide;
every answer says which tables and seats changed, and the series page then offers those
tables' cards and PIN slips again (``?reprint=``)."""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.params import number_param
from core.rule_messages import rule_message
from signoff.sheets import unconfirmed_tables
from skat.rules import RuleError
from tournaments import services
from tournaments.door import refund_text
from tournaments.forms import DrawForm, MoveForm, SwapForm
from tournaments.lookups import series_or_404
from tournaments.models import Registration, Seat, Series, Table, Tournament
from tournaments.permissions import director_required

from . import arrivals, redraw, seating, substitutes
from . import series as series_service
from .forms import LateArrivalForm, NoShowForm, RedrawForm, SubstituteForm


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
    url = reverse("director:series", args=[tournament.pk, change.series])
    if change.reprint:
        url += "?reprint=" + ",".join(map(str, change.reprint)) + "#reprint"
    return redirect(url)


@require_POST
@director_required
def no_show(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Take a player who did not turn up off his table before a deal is entered there."""
    series = series_or_404(tournament, number)
    form = NoShowForm(request.POST, series=series)
    if not form.is_valid():
        messages.error(request, _("player: %(error)s") % {"error": " ".join(form.errors["player"])})
        return redirect("director:series", tournament.pk, number)
    registration = form.cleaned_data["player"]
    try:
        change = arrivals.no_show(series, registration)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect("director:series", tournament.pk, number)
    messages.success(
        request,
        # He is withdrawn (arrivals.no_show), not only off this series: said so.
        _(
            "%(name)s did not turn up and is withdrawn from the rest of the tournament (from series %(series)s "
            "on; undo it at the desk or on the players page). Changed: %(changes)s."
        )
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
        return redirect("director:series", tournament.pk, number)
    registration = Registration.objects.select_related("player").get(pk=form.cleaned_data["registration"])
    try:
        arrival = arrivals.late_arrival(series, registration)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect("director:series", tournament.pk, number)
    name = registration.player.name
    if arrival.change is None:
        messages.warning(
            request,
            _("%(name)s is not seated in series %(series)s (%(why)s) and plays from series %(next)s.")
            % {"name": name, "series": number, "why": rule_message(arrival.reason), "next": arrival.from_series},
        )
        return redirect("director:series", tournament.pk, number)
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
        return redirect("director:series", tournament.pk, number)
    try:
        change = redraw.redraw_series(series)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect("director:series", tournament.pk, number)
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
            return redirect("director:players", tournament.pk)
    context = {"tournament": tournament, "form": form, "leaving": leaving, "next": tournament.series.count() + 1}
    return render(request, "draw/substitute.html", context, status=422 if form.errors else 200)


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
        return redirect("director:players", tournament.pk)
    name = registration.player.name
    if back.change is None:
        messages.success(
            request, _("%(name)s plays on from series %(series)s.") % {"name": name, "series": back.from_series}
        )
        if request.POST.get("back") == "desk":  # brought back at the desk: he is checked in there next
            return redirect(reverse("director:desk", args=[tournament.pk]) + "?" + urlencode({"q": name}))
        return redirect("director:players", tournament.pk)
    messages.success(
        request,
        _("%(name)s plays on and is seated in series %(series)s. Changed: %(changes)s.")
        % {"name": name, "series": back.from_series, "changes": describe(back.change)},
    )
    return _reprint(back.change, tournament)


@require_POST
@director_required
def draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how to draw the series."))
        return redirect(tournament)
    provisional = form.cleaned_data["provisional"]
    # The unconfirmed sheets a seeded draw knowingly rests on, said again once it is drawn.
    seeded_on = unconfirmed_tables(tournament) if provisional else []
    try:
        series = series_service.draw_series(tournament, form.cleaned_data["method"], provisional=provisional)
    except RuleError as error:
        messages.error(request, rule_message(error))
        return redirect(tournament)
    except series_service.ProvisionalSeeding as refused:
        messages.error(request, provisional_text(refused.tables))
        return redirect(tournament)
    tables = series.tables.count()
    parts = (
        ngettext("%(n)s table", "%(n)s tables", tables) % {"n": tables},
        ngettext("%(n)s repeat meeting", "%(n)s repeat meetings", series.repeat_meetings)
        % {"n": series.repeat_meetings},
        ngettext("%(n)s club-mate pair", "%(n)s club-mate pairs", series.club_meetings) % {"n": series.club_meetings},
    )
    text = _("Series %(n)s is drawn: %(what)s.") % {"n": series.number, "what": ", ".join(parts)}
    if seeded_on and series.method == Series.Method.SEEDED:
        text += " " + _("Seeded on provisional standings: some sheets were not confirmed.")
    messages.success(request, text)
    return redirect("director:series", tournament.pk, series.number)


def provisional_text(tables: list[tuple[int, int]]) -> str:
    """Which unconfirmed sheets a seeded draw would rest on, by series (5.5.3)."""
    by_series: dict[int, list[int]] = {}
    for series, table in tables:
        by_series.setdefault(series, []).append(table)
    where = "; ".join(
        _("series %(series)s: tables %(tables)s") % {"series": series, "tables": ", ".join(map(str, numbers[:20]))}
        for series, numbers in sorted(by_series.items())
    )
    return _(
        "Not drawn: the standings to seed by are provisional, sheets not confirmed (5.5.3) at %(where)s. "
        'Tick "seed on the provisional standings anyway" to draw on them.'
    ) % {"where": where}


@require_POST
@director_required
def swap(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = series_or_404(tournament, number)
    players = list(Seat.objects.filter(series=series).values_list("player_id", "player__name"))
    form = SwapForm(request.POST, players=players)
    if form.is_valid():
        try:
            series_service.swap_players(series, form.cleaned_data["first"], form.cleaned_data["second"])
            messages.success(request, _("Players swapped."))
        except RuleError as error:
            messages.error(request, rule_message(error))
    else:
        messages.error(request, _("Choose two seated players."))
    return _back(request, tournament, number)


@require_POST
@director_required
def move(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = series_or_404(tournament, number)
    players = list(Seat.objects.filter(series=series).values_list("player_id", "player__name"))
    tables = list(series.tables.values_list("pk", "number"))
    form = MoveForm(request.POST, players=players, tables=tables)
    if form.is_valid():
        table = series.tables.get(pk=form.cleaned_data["table"])
        try:
            series_service.move_player(series, form.cleaned_data["player"], table)
            messages.success(request, _("Player moved."))
        except RuleError as error:
            messages.error(request, rule_message(error))
    else:
        messages.error(request, _("Choose a seated player and a table of this series."))
    return _back(request, tournament, number)


def _back(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Back to the table's page the seat change was made on (``back``: its number), else the series."""
    back = number_param(request.POST.get("back", ""))  # "²" passes isdigit() but is no number
    tables = Table.objects.filter(series__tournament=tournament, series__number=number)
    if back is not None and tables.filter(number=back).exists():
        return redirect("director:table", tournament.pk, number, back)
    return redirect("director:series", tournament.pk, number)
