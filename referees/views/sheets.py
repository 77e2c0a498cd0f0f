"""A referee's decisions about a whole sheet (5.5.3): accept it over a differing second
list, lift a seat's PIN lock, re-open a confirmed sheet, add a deal the table missed.

Thin: :mod:`signoff.confirm` keeps the sign-off, :mod:`referees.corrections` records
the re-opening and the added deal (one transaction each, audited).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.rule_messages import rule_message
from scoring.models import Game
from signoff import confirm as signoff
from skat.rules import RuleError
from skat.sheet import active_seats
from tournaments.models import Tournament

from .. import corrections
from ..permissions import referee_required
from ..sheet_forms import AddDealForm, LiftLockForm, ReasonForm
from .lookups import players_of, table_or_404


def _back(tournament: Tournament, table) -> HttpResponse:
    return redirect("referees:table", tournament.pk, table.pk)


def _form_errors(request: HttpRequest, form) -> None:
    for name, errors in form.errors.items():
        for error in errors:
            messages.error(request, f"{form[name].label}: {error}" if name in form.fields else error)


@require_POST
@referee_required
def table_accept(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """The sheet stands as it is although the second list differs: the players may confirm."""
    table = table_or_404(tournament, table_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament, table)
    try:
        signoff.accept_sheet(table, by=request.user.get_username(), reason=form.cleaned_data["reason"])
    except signoff.SignOffRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The sheet stands as it is; the players can confirm it now."))
    return _back(tournament, table)


@require_POST
@referee_required
def table_unlock(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """Lift one seat's PIN lock (too many wrong PINs typed for it)."""
    table = table_or_404(tournament, table_id)
    players = players_of(table)
    form = LiftLockForm(request.POST, seats=players)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament, table)
    seat = form.cleaned_data["seat"]
    if signoff.lift_pin_lock(table, seat):
        messages.success(request, _("PIN entry for %(name)s is open again.") % {"name": players[seat]})
    else:
        messages.error(request, _("PIN entry for %(name)s was not locked.") % {"name": players[seat]})
    return _back(tournament, table)


@require_POST
@referee_required
def table_reopen(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """Re-open a confirmed sheet with a reason: the players confirm it again."""
    table = table_or_404(tournament, table_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament, table)
    try:
        corrections.reopen_sheet(table.pk, user=request.user, reason=form.cleaned_data["reason"])
    except RuleError as error:
        messages.error(request, rule_message(error))
    else:
        messages.success(request, _("The sheet is open again: every player confirms it again (5.5.3)."))
    return _back(tournament, table)


def _add_form(table, number: int, data=None) -> AddDealForm:
    seats = active_seats(number, table.size)
    players = {n: name for n, name in players_of(table).items() if n in seats}
    return AddDealForm(data, instance=Game(table=table), table=table, players=players, initial={"number": number})


@require_http_methods(["GET", "POST"])
@referee_required
def table_add_deal(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """Add the deal a confirmed or finished sheet misses, recorded like a correction."""
    table = table_or_404(tournament, table_id)
    number = Game.objects.filter(table=table).count() + 1
    status = 200
    if request.method == "POST":
        form = _add_form(table, number, request.POST)
        if form.is_valid():
            fields = {name: getattr(form.instance, name) for name in corrections.CORRECTABLE_FIELDS}
            try:
                correction = corrections.add_missing_game(
                    table.pk,
                    number=form.cleaned_data["number"],
                    fields=fields,
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                    dispute=form.cleaned_data["dispute"],
                    paragraph=form.cleaned_data.get("paragraph", ""),
                )
            except RuleError as error:
                form.add_error(None, rule_message(error))
            else:
                messages.success(
                    request,
                    _("Deal %(deal)s added: %(score)s.")
                    % {"deal": correction.game.number, "score": f"{correction.score_after:+d}"},
                )
                return _back(tournament, table)
        status = 422
    else:
        form = _add_form(table, number)
    context = {"tournament": tournament, "table": table, "number": number, "form": form}
    return render(request, "referees/add_deal.html", context, status=status)
