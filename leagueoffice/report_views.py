"""The match report's pages (the league's managers): the report as a page and as PDF, and
the forms that add a captain's remark or protest and the place and time of signing.
leagueoffice.report decides; a refused form is shown again (422), nothing written."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues.forms import refusal
from leagues.models import MatchDay
from leagues.permissions import match_day_manager_required
from skat.rules import RuleError

from . import report as reports
from .forms import RemarkForm, SigningForm
from .report_pdf import match_report_response


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
    }
    return render(request, "leagueoffice/report.html", context, status=status)


@match_day_manager_required
def report(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    return _page(request, match_day)


@match_day_manager_required
def report_pdf(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    return match_report_response(match_day)


@require_POST
@match_day_manager_required
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
@match_day_manager_required
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
