"""The match report's pages (the league's managers): the report as a page and as PDF, and
the forms that add a captain's remark or protest and the place and time of signing.
leagues.office.report decides; a refused form is shown again (422), nothing written."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues.forms import refusal
from leagues.models import MatchDay
from skat.rules import RuleError

from . import report as reports
from .forms import RemarkForm, SigningForm
from .report_pdf import match_report_response


def report_keeper_required(view):
    """Load ``match_day_id`` as ``match_day``; its league's managers and the directors of
    its tournament (the host's helpers at the hall, where the captains sign) keep the
    report; anyone else is refused."""

    @login_required
    @wraps(view)
    def wrapper(request, match_day_id: int, *args, **kwargs):
        match_day = get_object_or_404(
            MatchDay.objects.select_related("group__league", "tournament", "host"), pk=match_day_id
        )
        tournament = match_day.tournament
        request.league_manager = match_day.group.league.is_manager(request.user)
        if not (request.league_manager or (tournament and tournament.is_director(request.user))):
            raise PermissionDenied("You neither manage this league nor direct this match day.")
        return view(request, match_day, *args, **kwargs)

    return wrapper


def _page(request, match_day: MatchDay, *, remark_form=None, signing_form=None, status=200) -> HttpResponse:
    data = reports.match_report(match_day)
    if signing_form is None:
        last = data.signing
        when = timezone.localtime(last.signed_at if last else timezone.now())
        initial = {
            "place": last.place if last else (match_day.host.name if match_day.host else ""),
            "signed_at": when.replace(second=0, microsecond=0),
        }
        signing_form = SigningForm(initial=initial, match_day=match_day)
    context = {
        "match_day": match_day,
        "league": match_day.group.league,
        "report": data,
        "remark_form": remark_form or RemarkForm(match_day=match_day),
        "signing_form": signing_form,
        "closed": match_day.binding,
        "manager": request.league_manager,  # the links to the league's pages (a host's helper has none)
    }
    return render(request, "leagueoffice/report.html", context, status=status)


@report_keeper_required
def report(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    return _page(request, match_day)


@report_keeper_required
def report_pdf(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    return match_report_response(match_day)


@require_POST
@report_keeper_required
def remark(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    form = RemarkForm(request.POST, match_day=match_day)
    if form.is_valid():
        data = form.cleaned_data
        try:
            reports.add_remark(match_day, team=data["team"], kind=data["kind"], text=data["text"], user=request.user)
        except RuleError as error:
            form.add_error(error.field if error.field in form.fields else None, refusal(error, named=False))
        else:
            messages.success(request, _("The remark is on the match report."))
            return redirect("leagueoffice:report", match_day.pk)
    return _page(request, match_day, remark_form=form, status=422)


@require_POST
@report_keeper_required
def signing(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    form = SigningForm(request.POST, match_day=match_day)
    if form.is_valid():
        data = form.cleaned_data
        try:
            reports.sign(match_day, place=data["place"], signed_at=data["signed_at"], user=request.user)
        except RuleError as error:
            form.add_error(error.field if error.field in form.fields else None, refusal(error, named=False))
        else:
            messages.success(request, _("The place and time of signing are on the match report."))
            return redirect("leagueoffice:report", match_day.pk)
    return _page(request, match_day, signing_form=form, status=422)
